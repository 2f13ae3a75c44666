"""A player that picks uniformly among the legal options at each building block (for playouts)."""

from __future__ import annotations

import random

from . import commands as cmd
from .rules import (
    base_value,
    components_of,
    excavatable,
    free_numerals,
    matches,
    max_polish,
    pairs,
    storage_fee,
)
from .state import State
from .vocabulary import ARRANGE_FINDS, CHOOSE_FUNDING_SPACE, EXCAVATE, EXHIBIT, STORE


def random_row(state: State, seat: int, rnd: random.Random) -> list[int]:
    """A random row: a random object pair, extended at random at either end."""
    comps = components_of(state)
    loose = state.seats[seat].loose
    row = list(rnd.choice(pairs(comps, loose)))
    while rnd.random() < 0.6:
        ends = [(0, t) for t in loose if t not in row and matches(comps, t, row[0])]
        ends += [(len(row), t) for t in loose if t not in row and matches(comps, row[-1], t)]
        if not ends:
            break
        at, tile = rnd.choice(ends)
        row.insert(at, tile)
    return row


def random_exhibit(state: State, seat: int, rnd: random.Random) -> cmd.Exhibit:
    row = random_row(state, seat, rnd)
    polish = rnd.randint(0, max_polish(state, seat, base_value(components_of(state), row)))
    break_up = None
    if not free_numerals(state, seat):
        break_up = rnd.choice([k.numeral for k in state.seats[seat].collections])
    return cmd.Exhibit(seat=seat, tiles=row, polish=polish, break_up=break_up)


def random_store(state: State, seat: int, rnd: random.Random) -> cmd.Store:
    comps, me = components_of(state), state.seats[seat]
    loose = list(me.loose)
    rnd.shuffle(loose)
    discard = loose[: rnd.randint(0, len(loose))]
    while me.coins < storage_fee(comps, len(loose) - len(discard)):
        discard.append(loose[len(discard)])
    return cmd.Store(seat=seat, discard=sorted(discard))


def random_arrangement(state: State, seat: int, rnd: random.Random) -> cmd.ArrangeFinds:
    comps = components_of(state)
    order = sorted(state.finds or [], key=lambda t: (comps.tiles[t].century, rnd.random()))
    return cmd.ArrangeFinds(seat=seat, order=order)


def random_command(state: State, seat: int, rnd: random.Random) -> cmd.Command:
    """A random legal command of `seat` (which must be awaited)."""
    decision = state.decision
    if decision == ARRANGE_FINDS:
        return random_arrangement(state, seat, rnd)
    if decision == CHOOSE_FUNDING_SPACE:
        taken = set(state.figures.values()) | {state.tomb_raider}
        return cmd.ChooseFundingSpace(
            seat=seat, space=rnd.choice([k for k in components_of(state).track if k not in taken])
        )
    if decision == EXCAVATE:
        galleries = excavatable(state, seat)
        pick = rnd.randrange(len(galleries) + 1)
        return (
            cmd.SkipExcavation(seat=seat)
            if pick == len(galleries)
            else cmd.Excavate(seat=seat, gallery=galleries[pick])
        )
    if decision == EXHIBIT:
        if rnd.random() < 0.25:
            return cmd.FinishExhibiting(seat=seat)
        return random_exhibit(state, seat, rnd)
    if decision == STORE:
        return random_store(state, seat, rnd)
    raise ValueError(f"seat {seat} is not awaited")


def random_options(players: int, rnd: random.Random) -> cmd.PergamonOptions:
    """Options of a random game (for simulations): every variant and visibility at random."""
    return cmd.PergamonOptions(
        players=players,
        variant_sorting=rnd.random() < 0.5,
        variant_player_order=players > 2 and rnd.random() < 0.5,
        vp_visibility=rnd.choice(["open", "secret"]),
    )
