"""Pantheon's wire contract: the commands a client sends (no `seat`), its events as viewers see them,
its views, outcome, choices' `refers` and legal-option blocks, as typed Structs named `Pantheon…`.

The views themselves stay plain dicts built by views.py and options.py (fast, and what the read
models store); these types describe them, and a test converts real answers of whole games into
them strictly, so the description cannot drift from what is sent."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct

from domain.contract import renamed

from .commands import Command, Options
from .redeal import AnyEvent
from .vocabulary import Piece

HexList = Annotated[list[int], Meta(min_length=2, max_length=2, description="An axial hex [q, r].")]
Counts = dict[str, int]

# Nested Structs are renamed too, and named after what holds them, so that no generated enum (a
# generator names `PantheonMovePlacement.piece`'s enum `PantheonMovePlacementPiece`) meets a schema.
_WIRE_NAMES = {"Place": "MovePlacement", "PlacePiece": "PurchasePlacement", "SacrificeTile": "PurchaseSacrificeTile",
               "Reserve": "PurchaseReserve"}
PantheonCommand = renamed(Command, "Pantheon", module=__name__, drop={"seat"}, without_tags={"create_game"},
                          names=_WIRE_NAMES)
PantheonEvent = renamed(AnyEvent, "PantheonEvent", module=__name__)


def to_domain(command: Struct, seat: int) -> Command:
    """A wire command sent by `seat` as the command the game records."""
    return msgspec.convert({**msgspec.to_builtins(command), "seat": seat}, Command)


def to_wire(command: Struct) -> dict:
    """A recorded seat command as its wire form (the body a client sends), in builtins."""
    body = msgspec.to_builtins(command)
    body.pop("seat", None)
    return body


class PantheonOptions(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The options a creator chooses (the number of seats is the number of players)."""

    start_material: Literal["rulebook", "bsw"] = "bsw"
    bonus_tiles: Literal["draft", "random"] = "draft"
    edition: Literal["house-1"] = "house-1"


PantheonGameOptions = renamed(Options, "PantheonGame", module=__name__)  # the recorded options, `players` included


class PantheonOutcome(Struct, frozen=True, kw_only=True):
    """A finished game: the winners (seats), each seat's score and number of half gods."""

    winners: list[int]
    scores: list[int]
    half_gods: list[int]


class PantheonAwaiting(Struct, frozen=True, kw_only=True):
    seat: int
    decision: str


class PantheonLoot(Struct, frozen=True, kw_only=True):
    hex: HexList
    tile: str


class PantheonPieceOnBoard(Struct, frozen=True, kw_only=True):
    hex: HexList
    seat: int
    piece: Piece


class PantheonSeatPublic(Struct, frozen=True, kw_only=True):
    """What everybody sees of a seat."""

    seat: int
    score: int
    hand_size: int
    feet: int
    columns: int
    general_feet: int
    general_columns: int
    sacrifice: Counts  # level by sacrifice kind (kinds at level 0 left out)
    gods: list[str]
    half_gods: int
    steps: int
    tiles: list[str]
    bonus: str | None
    bonus_used: bool
    columns_on_board: int


class PantheonYou(Struct, frozen=True, kw_only=True):
    """The caller's own seat: its hand (cards by name) and half-god values."""

    seat: int
    hand: Counts
    half_gods: list[int]


class PantheonView(Struct, frozen=True, kw_only=True):
    """The board as a spectator sees it; with a seat token also `you`. `half_god_values` once finished."""

    edition: str
    players: int
    epoch: int
    nation: str | None
    nations_played: list[str]
    starting_seat: int
    temple: HexList | None
    display: list[str | None]
    draw_pile: int
    discard: Counts
    special_money: list[int]
    gods_board: list[str]
    gods_stack: int
    gods_box: int
    gallia_tile: str | None
    half_god_display: list[int]
    half_god_stack: int
    loot: list[PantheonLoot]
    loot_bag: int
    bonus_pool: list[str]
    pieces: list[PantheonPieceOnBoard]
    seats: list[PantheonSeatPublic]
    awaiting: PantheonAwaiting | None
    finished: bool
    winners: list[int]
    half_god_values: list[list[int]] | None = None
    you: PantheonYou | None = None


class PantheonRefers(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a choice is about, for drawing it (only the keys that apply are sent); see the README."""

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


class PantheonTarget(Struct, frozen=True, kw_only=True):
    """Where a piece could go next and what it costs (steps or money)."""

    piece: Piece
    hex: HexList
    cost: int
    jump: bool


class PantheonMoveBlock(Struct, frozen=True, kw_only=True):
    max_cards: int
    steps_without_cards: int
    steps_per_card: int
    jumps: int
    first_targets: list[PantheonTarget]


class PantheonTileOffer(Struct, frozen=True, kw_only=True):
    kind: str
    level: int
    cost: int


class PantheonReserveOffer(Struct, frozen=True, kw_only=True):
    foot: int
    column: int


class PantheonBuyBlock(Struct, frozen=True, kw_only=True):
    money_cards: Counts
    stonkus: int
    budget: int
    sacrifice_tiles: list[PantheonTileOffer]
    reserve: PantheonReserveOffer
    place_targets: list[PantheonTarget] | None = None


class PantheonGodOffer(Struct, frozen=True, kw_only=True):
    tile: str
    payments: list[Counts]


class PantheonDrawBlock(Struct, frozen=True, kw_only=True):
    left: int
    display: list[int]
    pile: bool


class PantheonBlocks(Struct, frozen=True, kw_only=True):
    """The awaited decision's building blocks (only the keys of that decision are sent)."""

    awaited: bool
    decision: str | None
    move: PantheonMoveBlock | None = None
    buy: PantheonBuyBlock | None = None
    gain_god: list[PantheonGodOffer] | None = None
    draw: PantheonDrawBlock | None = None
    use_traitera: bool | None = None
    pass_: bool | None = msgspec.field(default=None, name="pass")
    choices: list[str] | None = None
    tile: str | None = None
    payments: list[Counts] | None = None
    count: int | None = None
    hand: Counts | None = None
    foot: int | None = None
    column: int | None = None
    kinds: list[str] | None = None
    steps: int | None = None
    optional: bool | None = None
    budget: int | None = None
    sacrifice_tiles: list[PantheonTileOffer] | None = None
    reserve: PantheonReserveOffer | None = None
    place_targets: list[PantheonTarget] | None = None
    tiles: list[str] | None = None
    hexes: list[HexList] | None = None
    pieces: list[str] | None = None
    left: int | None = None
    display: list[int] | None = None
    pile: bool | None = None
