"""Pergamon's vocabulary: object types, figures, phases and decisions (rules §1, §4, §9)."""

from __future__ import annotations

from typing import Literal

from domain.words import player_name

Type = Literal["mask", "bracelet", "jug", "vase"]
TYPES: tuple[str, ...] = ("mask", "bracelet", "jug", "vase")

TileId = int  # = the tile date 100 * century + number (rules §1)
TOMB_RAIDER = -1  # the tomb raider's figure wherever a seat number could stand (2 players, §7)
GALLERIES = (1, 2, 3, 4, 5)
BAG, CHEST = "bag", "chest"  # funding card backs: values 1-4 and 5-8

# phases of a round (rules §4), and "over" once the game has ended
LAYOUT, FUNDING, EXCAVATION, EVALUATION, OVER = "layout", "funding", "excavation", "evaluation", "over"

# the decisions a seat can be awaited for (rules §9)
ARRANGE_FINDS = "arrange_finds"
CHOOSE_FUNDING_SPACE = "choose_funding_space"
EXCAVATE = "excavate"
EXHIBIT = "exhibit"
STORE = "store"
DECISIONS = (ARRANGE_FINDS, CHOOSE_FUNDING_SPACE, EXCAVATE, EXHIBIT, STORE)

NUMERALS = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"}  # marker pairs and galleries


def figure_name(figure: int) -> str:
    """'Player C' or 'the tomb raider'."""
    return "the tomb raider" if figure == TOMB_RAIDER else player_name(figure)
