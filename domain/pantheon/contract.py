"""Pantheon's wire contract: the commands a client sends (no `seat`), its events as viewers see them,
the options a creator chooses and what a choice `refers` to, as typed Structs named `Pantheon…`;
its views, outcome and legal-option blocks are the types views.py and options.py build."""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import Struct

from domain.contract import Contract, renamed

from .commands import Command, Options
from .options import PantheonBlocks
from .redeal import AnyEvent
from .views import Counts, HexList, PantheonOutcome, PantheonView

# Nested Structs are renamed too, and named after what holds them, so that no generated enum (a
# generator names `PantheonMovePlacement.piece`'s enum `PantheonMovePlacementPiece`) meets a schema.
_WIRE_NAMES = {
    "Place": "MovePlacement",
    "PlacePiece": "PurchasePlacement",
    "SacrificeTile": "PurchaseSacrificeTile",
    "Reserve": "PurchaseReserve",
}
PantheonCommand = renamed(
    Command, "Pantheon", module=__name__, drop={"seat"}, without_tags={"create_game"}, names=_WIRE_NAMES
)
PantheonEvent = renamed(AnyEvent, "PantheonEvent", module=__name__)


class PantheonOptions(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The options a creator chooses (the number of seats is the number of players)."""

    start_material: Literal["rulebook", "bsw"] = "bsw"
    bonus_tiles: Literal["draft", "random"] = "draft"
    edition: Literal["house-1"] = "house-1"


PantheonGameOptions = renamed(Options, "PantheonGame", module=__name__)  # the recorded options, `players` included


class PantheonRefers(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a choice is about, for drawing it (only the keys that apply are sent); see docs/engine.md."""

    action: str | None = None
    cards: int | None = None
    steps: int | None = None
    money: Counts | None = None
    budget: int | None = None
    piece: str | None = None
    hex: HexList | None = None
    cost: int | None = None
    jump: bool | None = None
    kind: str | None = None
    level: int | None = None
    count: int | None = None
    slot: int | None = None
    card: str | None = None
    pile: bool | None = None
    tile: str | None = None
    payment: Counts | None = None
    choice: str | None = None
    give: str | None = None
    discarded: Counts | None = None
    done: bool | None = None
    placements: int | None = None
    purchases: int | None = None
    pass_: bool | None = msgspec.field(default=None, name="pass")


CONTRACT = Contract(
    name="Pantheon",
    recorded=Command,
    command=PantheonCommand,
    event=PantheonEvent,
    options=PantheonOptions,
    game_options=PantheonGameOptions,
    outcome=PantheonOutcome,
    view=PantheonView,
    refers=PantheonRefers,
    blocks=PantheonBlocks,
)
