"""Commands: what a seat (or the platform, for creating a game) asks the engine to do.

Class names that could clash with another game's carry the game's name (`PergamonOptions`,
`PergamonCreateGame`); tags are the snake_case names of the spec's decisions (rules §9)."""

from __future__ import annotations

from typing import Literal

import msgspec


class PergamonOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Game options, fixed at creation (rules §2)."""

    players: int
    edition: Literal["house-1"] = "house-1"
    first_seat: int | Literal["random"] = "random"  # R1
    variant_player_order: bool = False  # variant 1 (§8.1), 3 and 4 players only
    variant_sorting: bool = False  # variant 2 (§8.2)
    vp_visibility: Literal["open", "secret"] = "open"  # R26, §10


class _Command(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class _SeatCommand(_Command, frozen=True, kw_only=True):
    seat: int


class PergamonCreateGame(_Command, frozen=True, kw_only=True, tag="create_game"):
    """Set the game up with these options (draws the first player when it is random)."""

    options: PergamonOptions


class ArrangeFinds(_SeatCommand, frozen=True, kw_only=True, tag="arrange_finds"):
    """Variant 2: this round's drawn tiles in gallery order, non-decreasing in century (§8.2)."""

    order: list[int]


class ChooseFundingSpace(_SeatCommand, frozen=True, kw_only=True, tag="choose_funding_space"):
    """Put your figure on a free space 1..13 of the funding track (§5.2)."""

    space: int


class Excavate(_SeatCommand, frozen=True, kw_only=True, tag="excavate"):
    """Pay `gallery` coins and take every tile of that gallery (§5.3.1)."""

    gallery: int


class SkipExcavation(_SeatCommand, frozen=True, kw_only=True, tag="skip_excavation"):
    """Excavate nothing this turn."""


class Exhibit(_SeatCommand, frozen=True, kw_only=True, tag="exhibit"):
    """Exhibit a row of your loose tiles, left to right, polished with `polish` coins; with all
    three marker pairs in use, `break_up` names the numeral (1..3) of the collection to break up
    (§5.3.2)."""

    tiles: list[int]
    polish: int = 0
    break_up: int | None = None


class FinishExhibiting(_SeatCommand, frozen=True, kw_only=True, tag="finish_exhibiting"):
    """Exhibit nothing more this turn."""


class Store(_SeatCommand, frozen=True, kw_only=True, tag="store"):
    """Discard these loose tiles to the box and pay the storage fee for the rest (§5.3.3)."""

    discard: list[int] = []


SeatCommand = ArrangeFinds | ChooseFundingSpace | Excavate | SkipExcavation | Exhibit | FinishExhibiting | Store
Command = PergamonCreateGame | SeatCommand
