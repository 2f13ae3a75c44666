"""Rules as pure queries on the state and the component data: rows and objects, values, fees,
payouts, museum markers, awards and ranking. Nothing here changes the state."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .components import Components, load_components
from .state import State
from .vocabulary import TOMB_RAIDER


def components_of(state: State) -> Components:
    return load_components(state.options.edition)


# --- rows and objects (rules §1, R13) ------------------------------------------------------------


def objects(comps: Components, row: Sequence[int]) -> list[tuple[str, int, int]]:
    """The objects of a row, left to right: (type, date, points). Assumes the row is valid."""
    tiles = comps.tiles
    return [(tiles[x].right, 100 * tiles[x].century + tiles[y].number, tiles[x].century) for x, y in zip(row, row[1:])]


def base_value(comps: Components, row: Sequence[int]) -> int:
    """The sum of the centuries of the row's objects (its left tiles' centuries)."""
    return sum(comps.tiles[x].century for x in row[:-1])


def matches(comps: Components, x: int, y: int) -> bool:
    """Whether tile x directly left of tile y forms an object."""
    return comps.tiles[x].right == comps.tiles[y].left


def row_refusal(comps: Components, row: Sequence[int], loose: Iterable[int]) -> tuple[str, str] | None:
    """Why `row` is not a row of these loose tiles (code, sentence), or None when it is one."""
    if len(row) < 2:
        return "row_too_short", "A collection is a row of at least 2 tiles (R13)."
    if len(set(row)) != len(row):
        return "duplicate_tile", "A tile may appear only once in a row."
    owned = set(loose)
    missing = [t for t in row if t not in owned]
    if missing:
        return "tile_not_loose", f"Tile {missing[0]} is not one of your loose tiles."
    for x, y in zip(row, row[1:]):
        if not matches(comps, x, y):
            return (
                "halves_do_not_match",
                f"Tile {x}'s right edge shows a {comps.tiles[x].right} half and tile "
                f"{y}'s left edge a {comps.tiles[y].left} half: adjacent halves must form one object (§1).",
            )
    return None


def pairs(comps: Components, loose: Sequence[int]) -> list[tuple[int, int]]:
    """Every ordered pair (X, Y) of distinct loose tiles that forms an object."""
    return [(x, y) for x in loose for y in loose if x != y and matches(comps, x, y)]


def can_form_row(comps: Components, loose: Sequence[int]) -> bool:
    tiles = comps.tiles
    rights = {tiles[x].right for x in loose}
    return any(tiles[y].left in rights and any(tiles[x].right == tiles[y].left for x in loose if x != y) for y in loose)


# --- coins --------------------------------------------------------------------------------------


def storage_fee(comps: Components, n: int) -> int:
    """fee(n) = 0 for n <= 3, else ceil((n - 3) / 3) (R18)."""
    free, group = comps.constants["free_storage"], comps.constants["storage_group"]
    return 0 if n <= free else -(-(n - free) // group)


def polish_limit(state: State) -> int | None:
    """The most polish one collection may take this round (None: unlimited, round 12, R30)."""
    comps = components_of(state)
    return None if state.round == comps.rounds else comps.constants["polish_limit"]


def max_polish(state: State, seat: int, base: int) -> int:
    """min(coins, 3 or unlimited, 24 - base), at least 0 (§9, R15)."""
    limit = polish_limit(state)
    cap = components_of(state).constants["highest_museum_space"] - base
    top = min(state.seats[seat].coins, cap) if limit is None else min(state.seats[seat].coins, limit, cap)
    return max(0, top)


def depth_of(state: State, seat: int) -> int:
    return components_of(state).track[state.figures[seat]].depth


def excavatable(state: State, seat: int) -> list[int]:
    """The galleries the seat may excavate now (R11)."""
    depth, coins = depth_of(state, seat), state.seats[seat].coins
    return [g for g in range(1, depth + 1) if state.galleries[g - 1] and coins >= g]


def free_numerals(state: State, seat: int) -> list[int]:
    used = {k.numeral for k in state.seats[seat].collections}
    return [n for n in range(1, components_of(state).constants["marker_pairs"] + 1) if n not in used]


# --- funding (§5.2) -----------------------------------------------------------------------------


def figures_on_track(state: State) -> list[tuple[int, int]]:
    """(space, figure) for every figure on the track, in action order (right-most first)."""
    placed = [(space, seat) for seat, space in state.figures.items()]
    if state.tomb_raider:
        placed.append((state.tomb_raider, TOMB_RAIDER))
    return sorted(placed)


def payouts(comps: Components, placed: list[tuple[int, int]], funds: int) -> list[tuple[int, int]]:
    """(figure, coins) in action order: min(ask, remaining) each, the rest to the left-most (R9)."""
    remaining, result = funds, []
    for i, (space, figure) in enumerate(placed):
        amount = remaining if i == len(placed) - 1 else min(comps.track[space].ask, remaining)
        remaining -= amount
        result.append((figure, amount))
    return result


def clockwise(first: int, players: int) -> list[int]:
    return [(first + i) % players for i in range(players)]


def seats_left_to_right(state: State) -> list[int]:
    """The seats' figures from the left-most (highest space) to the right-most, tomb raider ignored."""
    return [seat for seat, _ in sorted(state.figures.items(), key=lambda item: -item[1])]


def tomb_raider_target(state: State) -> int | None:
    """The gallery the tomb raider loots (R22), or None."""
    target = min(components_of(state).track[state.tomb_raider].depth, state.purse)
    return next((g for g in range(target, 0, -1) if state.galleries[g - 1]), None)


# --- the museum (§5.3.2, §5.4) ------------------------------------------------------------------


def markers(state: State) -> list[tuple[int, int, int]]:
    """(space, seat, numeral) of every circular marker in the museum."""
    return sorted((k.space, seat, k.numeral) for seat, s in enumerate(state.seats) for k in s.collections)


def push_down(state: State, seat: int, target: int, broken_up: int | None) -> list[tuple[int, int]]:
    """The (seat, numeral) collections a new marker on `target` pushes off space 1 (R14)."""
    return [
        (owner, numeral)
        for space, owner, numeral in markers(state)
        if space == 1 and target >= 1 and not (owner == seat and numeral == broken_up)
    ]


def exhibited_objects(state: State) -> list[tuple[int, str, int]]:
    """(date, type, owner) of every object inside an exhibited collection."""
    comps = components_of(state)
    return [
        (date, kind, seat)
        for seat, s in enumerate(state.seats)
        for k in s.collections
        for kind, date, _ in objects(comps, k.tiles)
    ]


def award(state: State, kind: str) -> tuple[int | None, list[int]]:
    """The oldest exhibited object of `kind`: its date and its owners (R19); (None, []) if none."""
    dates = [(date, owner) for date, t, owner in exhibited_objects(state) if t == kind]
    if not dates:
        return None, []
    oldest = max(d for d, _ in dates)
    return oldest, sorted({owner for d, owner in dates if d == oldest})


def final_bonuses(state: State, points: Sequence[int]) -> list[tuple[int, int, int]]:
    """(seat, date, vp) for the oldest exhibited objects, competition ranking for equal dates (R20)."""
    ranked = sorted(exhibited_objects(state), key=lambda o: -o[0])
    result = []
    for date, _, owner in ranked:
        place = sum(1 for d, _, _ in ranked if d > date)
        if place >= len(points):
            break
        result.append((owner, date, points[place]))
    return result


def ranking(state: State) -> list[int]:
    """Each seat's place: more VP first, then the older oldest exhibited object; ties share (R21)."""
    oldest = [
        max((d for d, _, o in exhibited_objects(state) if o == seat), default=-1) for seat in range(state.players)
    ]
    keys = [(s.vp, oldest[i]) for i, s in enumerate(state.seats)]
    return [1 + sum(1 for other in keys if other > key) for key in keys]
