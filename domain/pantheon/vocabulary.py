"""Pantheon's vocabulary: nations, cards, sacrifices, pieces and the names used everywhere."""

from __future__ import annotations

import functools
from typing import Literal

NATIONS = ("gallia", "germania", "graecia", "aegyptus", "persia", "iberia", "roma", "cartago")
EPOCHS = 6
SCORING_EPOCHS = (3, 6)

Piece = Literal["foot", "column"]
Sacrifice = Literal["priest", "dancer", "temple", "offering"]
GalliaPick = Literal["draw", "reveal"]

SACRIFICES: tuple[Sacrifice, ...] = ("priest", "dancer", "temple", "offering")
SACRIFICE_INDEX: dict[str, int] = {kind: i for i, kind in enumerate(SACRIFICES)}
MAX_LEVEL = 4

# A hand, the draw pile and the discard pile are counts over these card types, in this order.
CARDS = (
    "movement",
    "priest",
    "dancer",
    "temple",
    "offering",
    "money",
    "money_2",
    "money_3",
    "money_4",
    "money_5",
)
CARD_INDEX = {card: i for i, card in enumerate(CARDS)}
MOVEMENT = CARD_INDEX["movement"]
MONEY_CARDS = ("money", "money_2", "money_3", "money_4", "money_5")
MONEY_VALUE = {"money": 1, "money_2": 2, "money_3": 3, "money_4": 4, "money_5": 5}
EMPTY_SLOT = -1
FOOT, COLUMN = 0, 1
PIECE_CODE = {"foot": FOOT, "column": COLUMN}

GODS = (
    "surparit",
    "plaesiris",
    "taksator",
    "depraccus",
    "vinthrad",
    "gaiviles",
    "stonkus",
    "gadicea",
    "pietalte",
    "traitera",
)
MOVEMENT_STEPS_PER_CARD = 2
BIG_FOOT_STEPS = 1
DRAW_ACTION_CARDS = 3
FOLLOW_UP_DECLINE_CARDS = 1
GERMANIA_HAND = 7
CARTAGO_MONEY = 2
PHASE_END_POINTS = 3
DEPRACCUS_CARDS = 2
ROMA_CARDS = 2
GALLIA_CARDS = 2
PLAESIRIS_HALF_GODS = 2


def special_money_card(value: int) -> str:
    """The card type of a special money card worth `value`."""
    return f"money_{value}"


@functools.cache
def god_of(tile: str) -> str:
    """The god shown on a gods tile id such as 'stonkus-3'."""
    return tile.rsplit("-", 1)[0]


def column_points(columns: int) -> int:
    """Points for a seat's columns on the board at a scoring."""
    if columns >= 12:
        return columns * 4
    if columns >= 8:
        return columns * 3
    if columns >= 4:
        return columns * 2
    return columns


# Hot paths index hands directly: sacrifice cards are CARDS[1:5], money cards CARDS[5:10].
assert CARDS[1:5] == SACRIFICES and CARDS[5:10] == MONEY_CARDS
