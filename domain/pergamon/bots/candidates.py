"""The commands a bot considers at a decision: all of them where there are few, and for
`exhibit` and `store` the sensible ones (long rows with no or full polish; discards of the least
useful tiles)."""

from __future__ import annotations

import itertools
import random

from .. import commands as cmd
from ..rules import base_value, components_of, excavatable, free_numerals, matches, max_polish, storage_fee
from ..state import State
from ..vocabulary import ARRANGE_FINDS, CHOOSE_FUNDING_SPACE, EXCAVATE, EXHIBIT, STORE
from .evaluate import collection_value

ROW_CAP = 60


def rows(state: State, seat: int, cap: int = ROW_CAP) -> list[list[int]]:
    """Rows of the seat's loose tiles, maximal ones first (a depth-first walk, capped)."""
    comps = components_of(state)
    loose = state.seats[seat].loose
    found: list[list[int]] = []

    def walk(row: list[int]) -> None:
        if len(found) >= cap:
            return
        extended = False
        for t in loose:
            if t not in row and matches(comps, row[-1], t):
                extended = True
                walk(row + [t])
        if len(row) >= 2 and not extended or len(row) >= 2 and len(row) <= 3:
            found.append(row)

    for t in loose:
        walk([t])
    return found


def _exhibits(state: State, seat: int) -> list[cmd.Command]:
    comps = components_of(state)
    me = state.seats[seat]
    breaks: list[int | None] = [None]
    if not free_numerals(state, seat):
        breaks = [min((k.numeral for k in me.collections), key=lambda n: collection_value(state, seat, n))]
    result: list[cmd.Command] = [cmd.FinishExhibiting(seat=seat)]
    for row in rows(state, seat):
        base = base_value(comps, row)
        top = max_polish(state, seat, base)
        for polish in sorted({0, top}):
            result += [cmd.Exhibit(seat=seat, tiles=row, polish=polish, break_up=b) for b in breaks]
    return result


def _tile_use(state: State, seat: int, tile: int) -> int:
    comps = components_of(state)
    loose = state.seats[seat].loose
    return sum(
        comps.tiles[tile].century for t in loose if t != tile and (matches(comps, tile, t) or matches(comps, t, tile))
    )


def _stores(state: State, seat: int) -> list[cmd.Command]:
    comps, me = components_of(state), state.seats[seat]
    ranked = sorted(me.loose, key=lambda t: (_tile_use(state, seat, t), t))
    result: list[cmd.Command] = []
    for n in range(len(ranked) + 1):
        if me.coins >= storage_fee(comps, len(ranked) - n):
            result.append(cmd.Store(seat=seat, discard=sorted(ranked[:n])))
        if len(ranked) - n <= 3:
            break
    return result


def candidates(state: State, seat: int, rnd: random.Random) -> list[cmd.Command]:
    """The commands worth comparing for `seat`'s awaited decision."""
    decision = state.decision
    if decision == CHOOSE_FUNDING_SPACE:
        taken = set(state.figures.values()) | {state.tomb_raider}
        return [cmd.ChooseFundingSpace(seat=seat, space=k) for k in components_of(state).track if k not in taken]
    if decision == EXCAVATE:
        skip: list[cmd.Command] = [cmd.SkipExcavation(seat=seat)]
        return skip + [cmd.Excavate(seat=seat, gallery=g) for g in excavatable(state, seat)]
    if decision == EXHIBIT:
        return _exhibits(state, seat)
    if decision == STORE:
        return _stores(state, seat)
    if decision == ARRANGE_FINDS:
        comps = components_of(state)
        orders = sorted(
            {tuple(sorted(p, key=lambda t: comps.tiles[t].century)) for p in itertools.permutations(state.finds or [])}
        )
        rnd.shuffle(orders)
        return [cmd.ArrangeFinds(seat=seat, order=list(o)) for o in orders[:24]]
    raise ValueError(f"seat {seat} is not awaited")
