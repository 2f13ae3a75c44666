"""Pantheon card game's wire contract: the commands a client sends (no `seat`), its events as
viewers see them, the options a creator chooses and what a choice `refers` to, as typed Structs
named `PantheonCards…` (domain.contract); its views, outcome and legal-option blocks are the types
views.py and options.py build."""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

from domain.contract import Contract, renamed

from .commands import Command
from .fork import AnyEvent
from .options import PantheonCardsBlocks
from .views import PantheonCardsGameOptions, PantheonCardsOutcome, PantheonCardsView

# Nested Structs are named after the game and what holds them (no generated name meets another).
_EVENT_NAMES = {
    "PantheonCardsGameCreated": "GameCreated",
    "PantheonCardsForked": "Forked",
    "PantheonCardsOptions": "Options",
    "PantheonCardsState": "ForkedState",
    "Column": "ForkedColumn",
    "War": "ForkedWar",
    "Roll": "Roll",
    "Placement": "Placement",
}
_COMMAND_NAMES = {"Move": "Move", "Placement": "Placement"}
PantheonCardsCommand = renamed(
    Command, "PantheonCards", module=__name__, drop={"seat"}, without_tags={"create_game"}, names=_COMMAND_NAMES
)
PantheonCardsEvent = renamed(AnyEvent, "PantheonCardsEvent", module=__name__, names=_EVENT_NAMES)


class PantheonCardsOptions(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The options a creator chooses (the number of seats, 3 to 6, is the number of players):
    the game length (rules §3: 20, 40 or no cards removed unseen) and the card edition."""

    game_length: Literal["standard", "short", "long"] = "standard"
    edition: Literal["house-1"] = "house-1"


class PantheonCardsRefers(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a choice is about, for drawing it (only the keys that apply are sent): a card id, a
    column id, a god, a temple, a seat, a draw source."""

    card: str | None = None
    column: str | None = None
    god: str | None = None
    temple: str | None = None
    seat: int | None = None
    source: str | None = None


CONTRACT = Contract(
    name="PantheonCards",
    recorded=Command,
    command=PantheonCardsCommand,
    event=PantheonCardsEvent,
    options=PantheonCardsOptions,
    game_options=PantheonCardsGameOptions,
    outcome=PantheonCardsOutcome,
    view=PantheonCardsView,
    refers=PantheonCardsRefers,
    blocks=PantheonCardsBlocks,
)
