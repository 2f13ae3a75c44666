"""Pergamon's wire contract: the commands a client sends (no `seat`), its events as viewers see them,
its views, score, outcome, choices' `refers` and legal-option blocks, as typed Structs named
`Pergamon…` (domain.contract). The views stay plain dicts built by views.py, options.py and the
score projection; a test converts real answers of whole games into these types strictly."""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import Struct

from domain.contract import renamed

from .commands import Command
from .commands import PergamonOptions as _Options
from .fork import AnyEvent

# Nested Structs are named after the game and what holds them (no generated name meets another).
_EVENT_NAMES = {"PergamonGameCreated": "GameCreated", "PergamonGameEnded": "GameEnded", "PergamonForked": "Forked",
                "PergamonOptions": "Options", "PergamonState": "ForkedState", "PergamonSeat": "ForkedSeat",
                "Collection": "ForkedCollection"}
PergamonCommand = renamed(Command, "Pergamon", module=__name__, drop={"seat"}, without_tags={"create_game"})
PergamonEvent = renamed(AnyEvent, "PergamonEvent", module=__name__, names=_EVENT_NAMES)
PergamonGameOptions = renamed(_Options, "PergamonGame", module=__name__, names={"PergamonOptions": "Options"})


def to_domain(command: Struct, seat: int) -> Command:
    """A wire command sent by `seat` as the command the game records."""
    return msgspec.convert({**msgspec.to_builtins(command), "seat": seat}, Command)


def to_wire(command: Struct) -> dict:
    """A recorded seat command as its wire form (the body a client sends), in builtins."""
    body = msgspec.to_builtins(command)
    body.pop("seat", None)
    return body


class PergamonOptions(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The options a creator chooses (the number of seats is the number of players): the first
    player (a seat, or drawn), the variants of rules §8 (player order: 3 and 4 players only) and
    whether VP stay secret until the end (R26)."""

    edition: Literal["house-1"] = "house-1"
    first_seat: int | Literal["random"] = "random"
    variant_player_order: bool = False
    variant_sorting: bool = False
    vp_visibility: Literal["open", "secret"] = "open"


class PergamonOutcome(Struct, frozen=True, kw_only=True):
    """A finished game: the winners (seats), each seat's VP and place (1 = first; ties share)."""

    winners: list[int]
    scores: list[int]
    places: list[int]


class PergamonAwaiting(Struct, frozen=True, kw_only=True):
    seat: int
    decision: str


class PergamonObject(Struct, frozen=True, kw_only=True):
    """An object a collection completes: its type, its date (the older tile's) and its points."""

    type: str
    date: int
    points: int


class PergamonCollection(Struct, frozen=True, kw_only=True):
    """An exhibited row of tiles (ids, left to right) under marker pair `numeral`, on museum `space`."""

    seat: int
    numeral: int
    tiles: list[int]
    space: int
    base_value: int
    value: int
    objects: list[PergamonObject]


class PergamonSeatPublic(Struct, frozen=True, kw_only=True):
    """What everybody sees of a seat (`vp` null while the game keeps VP secret)."""

    seat: int
    coins: int
    vp: int | None
    loose: list[int]
    collections: list[PergamonCollection]
    free_pairs: list[int]
    figure: int | None


class PergamonFunding(Struct, frozen=True, kw_only=True):
    """This round's funding cards (backs, then values once revealed), earlier values, and how many
    cards of each value (by value) are still unrevealed."""

    backs: list[str]
    values: list[int]
    past_values: list[int]
    unrevealed_values: dict[str, int]


class PergamonTombRaider(Struct, frozen=True, kw_only=True):
    """The tomb raider of 2-player games: its funding space (null: not on the track) and purse."""

    space: int | None
    purse: int


class PergamonMarker(Struct, frozen=True, kw_only=True):
    seat: int
    numeral: int


class PergamonYou(Struct, frozen=True, kw_only=True):
    """The caller's own seat and its VP (visible to it even while VP are secret)."""

    seat: int
    vp: int


class PergamonView(Struct, frozen=True, kw_only=True):
    """The board as a spectator sees it; with a seat token also `you`. Tiles are ids (100 × century
    + number); `track` and `museum` are keyed by space; `acting` is a seat, "tomb_raider" or null."""

    edition: str
    players: int
    options: PergamonGameOptions  # type: ignore[valid-type]
    round: int
    phase: str
    first_player: int
    placement_order: list[int]
    action_order: list[int]
    acting: int | str | None
    awaiting: PergamonAwaiting | None
    galleries: list[list[int]]
    finds: list[int] | None
    calendar_stacks: int
    unrevealed: list[int]
    unseen_in_box: int
    box: list[int]
    funding: PergamonFunding
    track: dict[str, int]
    tomb_raider: PergamonTombRaider | None
    museum: dict[str, PergamonMarker]
    seats: list[PergamonSeatPublic]
    order_spaces: list[int]
    finished: bool
    places: list[int]
    winners: list[int]
    you: PergamonYou | None = None


class PergamonSeatScore(Struct, frozen=True, kw_only=True):
    """A seat's VP and where they came from (markers by round, awards by object type); only `seat`
    and a null `total` while the game keeps this seat's VP secret from the viewer."""

    seat: int
    total: int | None
    exhibits: int | None = None
    markers: dict[str, int] | None = None
    awards: dict[str, int] | None = None
    final_bonus: int | None = None
    carried_over: int | None = None  # a fork of a running game starts with its parent's VP


class PergamonScorePoint(Struct, frozen=True, kw_only=True):
    version: int
    scores: list[int | None]


class PergamonScore(Struct, frozen=True, kw_only=True):
    """VP by seat and source, and the totals after every event that changed one."""

    version: int
    finished: bool
    winners: list[int]
    secret: bool
    seats: list[PergamonSeatScore]
    timeline: list[PergamonScorePoint]


class PergamonRefers(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a choice is about, for drawing it (only the keys that apply are sent); see the README."""

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


class PergamonFundingSpace(Struct, frozen=True, kw_only=True):
    space: int
    ask: int
    depth: int


class PergamonBlocks(Struct, frozen=True, kw_only=True):
    """The awaited decision's building blocks (null `decision`: the seat is not awaited; only the
    keys of that decision are sent): see domain/pergamon/options.py."""

    decision: str | None
    seat: int | None = None
    finds: list[int] | None = None
    blocks: list[list[int]] | None = None
    orders: list[list[int]] | None = None
    spaces: list[PergamonFundingSpace] | None = None
    galleries: list[int] | None = None
    skip: bool | None = None
    loose: list[int] | None = None
    pairs: list[list[int]] | None = None
    polish_limit: int | None = None
    coins: int | None = None
    max_polish: dict[str, int] | None = None
    break_up_required: bool | None = None
    break_up: list[int] | None = None
    finish: bool | None = None
    fees: dict[str, int] | None = None
    min_discard: int | None = None
