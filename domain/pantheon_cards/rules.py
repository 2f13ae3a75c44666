"""Rule queries over a state, with no effects: columns, values and multipliers (§6-§7), the
powers in effect (§13), targets (§12, §14, R18), legal plays (§5.3, §15.4) and scores (§19.2)."""

from __future__ import annotations

from .commands import NEW
from .components import Card, Components, load_components
from .state import BATTLE, Column, State


def comps(s: State) -> Components:
    return load_components(s.options.edition)


def card(s: State, card_id: str) -> Card:
    return comps(s).cards[card_id]


def owner(column_id: str) -> int:
    """The seat of a column id "<seat>:<n>" (§6.1)."""
    return int(column_id.split(":", 1)[0])


def next_column_id(s: State, seat: int, k: int = 1) -> str:
    """The id of `seat`'s k-th next new column."""
    return f"{seat}:{s.opened[seat] + k}"


def find_column(s: State, column_id: str) -> Column | None:
    try:
        seat = owner(column_id)
    except ValueError:
        return None
    if not 0 <= seat < s.players:
        return None
    return next((c for c in s.columns[seat] if c.id == column_id), None)


def locate(s: State, card_id: str) -> tuple[int, Column] | None:
    """The seat and column holding a card in play, or None."""
    for seat, cols in enumerate(s.columns):
        for col in cols:
            if col.god == card_id or col.temple == card_id or card_id in col.worshipers:
                return seat, col
    return None


def in_battle(s: State) -> bool:
    return s.stage == BATTLE


def has_worshipers(s: State, seat: int) -> bool:
    return any(col.worshipers for col in s.columns[seat])


def printed(s: State, col: Column) -> int:
    cards = comps(s).cards
    return sum(cards[w].level for w in col.worshipers)


def _base_multiplier(s: State, seat: int) -> int:
    """Sources (a) Golden Age and (b) Home as a Minor power (§7.1)."""
    cards = comps(s).cards
    best = 1
    for civ in s.in_effect[seat]:
        best = max(best, cards[civ].multiplier or 1)
    home: int = comps(s).constants["home_multiplier"]
    if any(col.god and cards[col.god].minor == "home" for col in s.columns[seat]):
        best = max(best, home)
    return best


def multiplier(s: State, seat: int) -> int:
    """m(P) (§7.1): the highest of sources (a)-(c) in effect; (c) Home as a Major power counts if
    its column, valued with (a) and (b) alone, reaches the threshold, or in the Battle (R4)."""
    c = comps(s)
    base = _base_multiplier(s, seat)
    for col in s.columns[seat]:
        if col.god and c.cards[col.god].major == "home":  # noqa: SIM102 - two conditions told apart
            if in_battle(s) or printed(s, col) * base >= c.constants["major_threshold"]:
                home: int = c.constants["home_multiplier"]
                return max(base, home)
    return base


def column_value(s: State, col: Column, seat: int | None = None) -> int:
    """§7.2: the sum of the column's worshiper cards × its owner's multiplier."""
    return printed(s, col) * multiplier(s, owner(col.id) if seat is None else seat)


def major_allowed(s: State, col: Column) -> bool:
    """§7.3: a Major power may be employed (or a constant one is in effect)."""
    return in_battle(s) or column_value(s, col) >= comps(s).constants["major_threshold"]


def power_in_effect(s: State, col: Column, power: str) -> bool:
    """Whether the god of this column has `power` in effect (§13: a constant Minor while in play,
    a constant Major while §7.3 allows it)."""
    if col.god is None:
        return False
    god = card(s, col.god)
    return god.minor == power or (god.major == power and major_allowed(s, col))


def seat_has(s: State, seat: int, power: str) -> bool:
    return any(power_in_effect(s, col, power) for col in s.columns[seat])


def war_multiplier(s: State, seat: int) -> int:
    """W3's frozen sources (§7.1 (a)-(d)): m(P), or Song's ×2 if in effect and higher."""
    best = multiplier(s, seat)
    if seat_has(s, seat, "song"):
        best = max(best, comps(s).constants["song_multiplier"])
    return best


def protected(s: State, col: Column, user: int) -> bool:
    """Protection (§13): the column's god has it in effect and the effect is another seat's."""
    return owner(col.id) != user and power_in_effect(s, col, "protection")


def temple_protected(s: State, temple_owner: int, user: int) -> bool:
    """Literature (§10.6): its owner's temples are safe from other seats' effects."""
    return temple_owner != user and seat_has(s, temple_owner, "literature")


def godless(s: State, seat: int) -> list[Column]:
    return [col for col in s.columns[seat] if col.god is None]


def temples(s: State) -> list[tuple[int, Column]]:
    return [(seat, col) for seat, cols in enumerate(s.columns) for col in cols if col.temple is not None]


def gods_in_play(s: State, seat: int) -> list[str]:
    return [col.god for col in s.columns[seat] if col.god is not None]


def score(s: State, seat: int) -> int:
    """§19.2: the seat's gods in play, doubled if they all share a pantheon (R37)."""
    gods = gods_in_play(s, seat)
    if gods and len({card(s, g).pantheon for g in gods}) == 1:
        return 2 * len(gods)
    return len(gods)


def scores(s: State) -> list[int]:
    return [score(s, seat) for seat in range(s.players)]


def top_seats(values: list[int]) -> list[int]:
    best = max(values)
    return [seat for seat, v in enumerate(values) if v == best]


def destinations(s: State, card_id: str, seat: int) -> list[str]:
    """Where a worshiper, temple or god card may enter `seat`'s columns (§5.3, §15.4): column
    ids and "new". Civilization cards never enter a column."""
    c = card(s, card_id)
    cols = s.columns[seat]
    if c.type == "worshiper":
        return [col.id for col in cols] + [NEW]
    if c.type == "temple":
        spots = [col.id for col in cols if col.temple is None]
        if c.kind == "stone":
            spots += [col.id for col in cols if col.temple is not None and card(s, col.temple).kind == "wooden"]
        return sorted(spots, key=lambda i: int(i.split(":")[1])) + [NEW]
    if c.type == "god":
        return [col.id for col in cols if col.god is None]
    return []


def worshipers_of(s: State, seat: int) -> list[str]:
    return [w for col in s.columns[seat] for w in col.worshipers]


def level_name(level: int) -> str:
    return f"{level:,}"
