"""Commands: what a seat (or the platform, for creating a game) asks the engine to do."""

from __future__ import annotations

from typing import Literal

import msgspec

from .vocabulary import GalliaPick, Piece, Sacrifice

Hex = tuple[int, int]  # axial (q, r)


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Game options, fixed at creation."""

    players: int = 4
    start_material: Literal["rulebook", "bsw"] = "bsw"
    bonus_tiles: Literal["draft", "random"] = "draft"
    edition: Literal["house-1"] = "house-1"


class _Command(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class _SeatCommand(_Command, frozen=True, kw_only=True):
    seat: int


class CreateGame(_Command, frozen=True, kw_only=True, tag="create_game"):
    """Set the game up with these options (deals, draws the starting seat, starts epoch 1)."""

    options: Options = Options()


class Place(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Put one piece from the personal reserve on a hex; `jump` uses a Gaiviles (Movement only)."""

    piece: Piece
    hex: Hex
    jump: bool = False


class Move(_SeatCommand, frozen=True, kw_only=True, tag="move"):
    """The Movement action, or a follow-up move: play movement cards and place pieces."""

    cards: int = 0
    placements: list[Place] = []


class SacrificeTile(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type", tag="sacrifice_tile"
):
    """Buy a sacrifice tile at `level`, or upgrade an owned one to it (pay the difference)."""

    kind: Sacrifice
    level: int


class Reserve(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type", tag="reserve"):
    """Buy pieces from the general reserve into the personal reserve, 1 money each."""

    piece: Piece
    count: int = 1


class PlacePiece(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type", tag="place"):
    """Place a piece from the personal reserve: 1 money, 2 on a hex with another seat's piece."""

    piece: Piece
    hex: Hex


Purchase = SacrificeTile | Reserve | PlacePiece


class Buy(_SeatCommand, frozen=True, kw_only=True, tag="buy"):
    """The Buying action: play money cards (by type and count) and make purchases in order."""

    money: dict[str, int] = {}
    purchases: list[Purchase] = []


class GainGod(_SeatCommand, frozen=True, kw_only=True, tag="gain_god"):
    """Gain a gods tile: from the board (the action) or the one Gallia revealed to this seat.

    `sacrifice` names the sacrifice cards played, by kind; sacrifice tiles are counted for you.
    """

    tile: str
    sacrifice: dict[str, int] = {}


class DrawCard(_SeatCommand, frozen=True, kw_only=True, tag="draw_card"):
    """One pick of the Drawing action: a display slot (0-3) or the draw pile (slot null)."""

    slot: int | None = None


class Pass(_SeatCommand, frozen=True, kw_only=True, tag="pass"):
    """Decline what is offered: a follow-up move (draw 1 card instead), an optional choice,
    or a Traitera (end the turn)."""


class UseTraitera(_SeatCommand, frozen=True, kw_only=True, tag="use_traitera"):
    """Spend a Traitera held since the turn began to take one more action."""


class GalliaChoice(_SeatCommand, frozen=True, kw_only=True, tag="gallia_choice"):
    """Gallia: draw 2 cards, or reveal the top gods tile to try to gain it."""

    choice: GalliaPick


class Discard(_SeatCommand, frozen=True, kw_only=True, tag="discard"):
    """Germania/Graecia: the cards discarded to bring the hand down to 7."""

    cards: dict[str, int]


class Exchange(_SeatCommand, frozen=True, kw_only=True, tag="exchange"):
    """Aegyptus: give `count` pieces of one kind back for as many of the other kind."""

    give: Piece
    count: int


class ImproveSacrifice(_SeatCommand, frozen=True, kw_only=True, tag="improve_sacrifice"):
    """Take a level-1 tile of a kind you lack, or raise an owned tile by one level."""

    kind: Sacrifice


class Spend(_SeatCommand, frozen=True, kw_only=True, tag="spend"):
    """Cartago: spend 2 money on purchases (no cards, no Stonkus). Placing pieces is refused by
    the rules (`no_placing`), not by the command's shape, so the seat learns why."""

    purchases: list[Purchase] = []


class ChooseBonus(_SeatCommand, frozen=True, kw_only=True, tag="choose_bonus"):
    """Bonus draft: take one face-up bonus tile."""

    tile: str


class PlaceColumn(_SeatCommand, frozen=True, kw_only=True, tag="place_column"):
    """Column bonus tile: a column from the general reserve on any column site with room."""

    hex: Hex


class ChooseReserve(_SeatCommand, frozen=True, kw_only=True, tag="choose_reserve"):
    """Reserve loot tile: take the feet or the columns."""

    piece: Piece


Command = (
    CreateGame
    | Move
    | Buy
    | GainGod
    | DrawCard
    | Pass
    | UseTraitera
    | GalliaChoice
    | Discard
    | Exchange
    | ImproveSacrifice
    | Spend
    | ChooseBonus
    | PlaceColumn
    | ChooseReserve
)
