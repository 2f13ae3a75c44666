"""Pergamon's wire contract: the commands a client sends (no `seat`), its events as viewers see them,
the options a creator chooses and what a choice `refers` to, as typed Structs named `Pergamon…`
(domain.contract); its views, outcome and legal-option blocks are the types views.py and
options.py build."""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

from domain.contract import Contract, renamed

from .commands import Command
from .fork import AnyEvent
from .options import PergamonBlocks
from .views import PergamonGameOptions, PergamonOutcome, PergamonView

# Nested Structs are named after the game and what holds them (no generated name meets another).
_EVENT_NAMES = {
    "PergamonGameCreated": "GameCreated",
    "PergamonGameEnded": "GameEnded",
    "PergamonForked": "Forked",
    "PergamonOptions": "Options",
    "PergamonState": "ForkedState",
    "PergamonSeat": "ForkedSeat",
    "Collection": "ForkedCollection",
}
PergamonCommand = renamed(Command, "Pergamon", module=__name__, drop={"seat"}, without_tags={"create_game"})
PergamonEvent = renamed(AnyEvent, "PergamonEvent", module=__name__, names=_EVENT_NAMES)


class PergamonOptions(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The options a creator chooses (the number of seats is the number of players): the first
    player (a seat, or drawn), the variants of rules §8 (player order: 3 and 4 players only) and
    whether VP stay secret until the end (R26)."""

    edition: Literal["house-1"] = "house-1"
    first_seat: int | Literal["random"] = "random"
    variant_player_order: bool = False
    variant_sorting: bool = False
    vp_visibility: Literal["open", "secret"] = "open"


class PergamonRefers(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a choice is about, for drawing it (only the keys that apply are sent); see docs/engine.md."""

    tile: int | None = None
    tiles: list[int] | None = None
    space: int | None = None
    ask: int | None = None
    depth: int | None = None
    gallery: int | None = None
    cost: int | None = None
    polish: int | None = None
    value: int | None = None
    museum_space: int | None = None
    numeral: int | None = None
    fee: int | None = None
    kept: int | None = None


CONTRACT = Contract(
    name="Pergamon",
    recorded=Command,
    command=PergamonCommand,
    event=PergamonEvent,
    options=PergamonOptions,
    game_options=PergamonGameOptions,
    outcome=PergamonOutcome,
    view=PergamonView,
    refers=PergamonRefers,
    blocks=PergamonBlocks,
)
