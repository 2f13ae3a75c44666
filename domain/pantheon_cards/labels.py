"""Plain-English phrases for choice labels: cards, columns, powers and seats as a person reads
them ("Play stone temple 2 on your column 1 (replaces its wooden temple 3)")."""

from __future__ import annotations

from domain.words import player_name

from .rules import card, column_value, comps, find_column, owner
from .state import State


def card_phrase(s: State, card_id: str) -> str:
    c = card(s, card_id)
    n = int(card_id.rsplit(".", 1)[1]) if c.type in ("temple", "worshiper") else 0
    if c.type == "god":
        powers = comps(s).powers
        return (
            f"{c.name} ({comps(s).pantheons[c.pantheon]}; Minor {powers[c.minor].name}, Major {powers[c.major].name})"
        )
    if c.type == "temple":
        return f"{c.kind} temple {n}"
    if c.type == "worshiper":
        return f"{c.level:,} worshipers (card {n})"
    return c.name


def short(s: State, card_id: str) -> str:
    """A card without its powers: 'Zeus', 'stone temple 2', '500 worshipers (card 3)'."""
    c = card(s, card_id)
    return c.name if c.type == "god" else card_phrase(s, card_id)


def seat_phrase(seat: int, me: int) -> str:
    return "yourself" if seat == me else player_name(seat)


def column_phrase(s: State, column_id: str, me: int, with_contents: bool = True) -> str:
    """'your column 2 (Zeus, wooden temple 3, value 600)' or "Player B's column 3 (...)"."""
    seat, n = owner(column_id), column_id.split(":")[1]
    name = f"your column {n}" if seat == me else f"{player_name(seat)}'s column {n}"
    col = find_column(s, column_id)
    if col is None or not with_contents:
        return name
    parts = [short(s, col.god)] if col.god else []
    if col.temple:
        parts.append(short(s, col.temple) + (", damaged" if col.damaged else ""))
    parts.append(f"value {column_value(s, col):,}")
    return f"{name} ({'; '.join(parts)})"


def power_name(s: State, power: str) -> str:
    return comps(s).powers[power].name


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
