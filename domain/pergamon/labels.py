"""Plain-English phrases for choice labels."""

from __future__ import annotations

from collections.abc import Sequence

from .components import Components
from .rules import objects
from .vocabulary import NUMERALS


def roman(n: int) -> str:
    return NUMERALS.get(n, str(n))


def tile_phrase(comps: Components, tile: int) -> str:
    """'463 (mask | vase)': the id, then the halves on its left and right edges."""
    t = comps.tiles[tile]
    return f"{tile} ({t.left} | {t.right})"


def objects_phrase(comps: Components, row: Sequence[int]) -> str:
    """'bracelet 558 (5), vase 353 (3)': each object with its date and points."""
    return ", ".join(f"{kind} {date} ({points})" for kind, date, points in objects(comps, row))


def plural(n: int, word: str) -> str:
    """'1 coin', '3 coins'."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def galleries_phrase(depth: int) -> str:
    """'gallery I only' or 'galleries I to III'."""
    return "gallery I only" if depth == 1 else f"galleries I to {roman(depth)}"
