"""A heuristic value of a state for one seat: VP now, plus what its collections, coins, loose
tiles and figure are likely to bring, minus the best other seat's. Reads only the state a bot was
given (a seat's knowledge)."""

from __future__ import annotations

from ..components import Components
from ..rules import components_of, exhibited_objects, objects
from ..state import State
from ..vocabulary import EVALUATION, EXCAVATION, FUNDING, LAYOUT, OVER

BAG_MEAN, CHEST_MEAN = 2.5, 6.5


def _evaluations_left(state: State, comps: Components) -> list[tuple[int, int]]:
    """(round, drop) of every evaluation still to come."""
    done_this_round = state.phase in (EVALUATION, OVER, "round_end")
    return [
        (r.round, r.drop)
        for r in comps.calendar.values()
        if r.evaluation and (r.round > state.round or (r.round == state.round and not done_this_round))
    ]


def _marker_value(comps: Components, space: int, evaluations: list[tuple[int, int]]) -> float:
    total = 0.0
    for _, drop in evaluations:
        if space < 1:
            break
        total += comps.vp(space)
        space -= drop
    return total


def _awards_value(state: State, comps: Components, seat: int, evaluations: list[tuple[int, int]]) -> float:
    objects_now = exhibited_objects(state)
    total = 0.0
    for round_, _ in evaluations:
        kind = comps.calendar[round_].award
        dates = [(d, o) for d, t, o in objects_now if t == kind]
        if dates and max(dates)[1] == seat:
            total += 2 * (0.8 if round_ - state.round <= 1 else 0.5)
    ranked = sorted(objects_now, reverse=True)[:3]
    total += 0.5 * sum(points for (_, _, owner), points in zip(ranked, (3, 2, 1)) if owner == seat)
    return total


def _loose_value(comps: Components, loose: list[int], rounds_left: int) -> float:
    """Pairs that could form objects, worth part of their centuries while rounds remain."""
    if not loose or rounds_left <= 0:
        return 0.0
    tiles = comps.tiles
    best: dict[int, int] = {}
    for x in loose:
        for y in loose:
            if x != y and tiles[x].right == tiles[y].left:
                best[x] = max(best.get(x, 0), tiles[x].century)
    return 0.45 * sum(best.values())


def _figure_value(state: State, comps: Components, seat: int) -> float:
    """Before the payout: the coins the figure will likely get and the galleries it can reach."""
    if state.phase not in (LAYOUT, FUNDING) or seat not in state.figures or state.values:
        return 0.0
    funds = sum(BAG_MEAN if b == "bag" else CHEST_MEAN for b in state.backs)
    placed = sorted(
        [(space, s) for s, space in state.figures.items()] + ([(state.tomb_raider, -1)] if state.tomb_raider else [])
    )
    remaining, coins = funds, 0.0
    for i, (space, s) in enumerate(placed):
        amount = remaining if i == len(placed) - 1 else min(comps.track[space].ask, remaining)
        remaining -= amount
        if s == seat:
            coins = amount
    depth = comps.track[state.figures[seat]].depth
    reach = max(
        (
            sum(comps.tiles[t].century for t in state.galleries[g - 1]) * 0.35 - 0.4 * g
            for g in range(1, depth + 1)
            if state.galleries[g - 1]
        ),
        default=0.0,
    )
    first = 1.0 / (1 + sum(1 for space, _ in placed if space < state.figures[seat]))
    return 0.5 * coins + max(0.0, reach) * (0.5 + 0.5 * first)


def seat_value(state: State, seat: int) -> float:
    comps = components_of(state)
    me = state.seats[seat]
    if state.finished:
        return float(me.vp)
    evaluations = _evaluations_left(state, comps)
    rounds_left = comps.rounds - state.round + (0 if state.phase in (EXCAVATION, EVALUATION, "round_end") else 1)
    value = me.vp + sum(_marker_value(comps, k.space, evaluations) for k in me.collections)
    value += _awards_value(state, comps, seat, evaluations)
    coin_worth = 0.45 if rounds_left > 0 else (0.25 if state.round == comps.rounds and state.phase == EXCAVATION else 0)
    value += coin_worth * me.coins + _loose_value(comps, me.loose, rounds_left)
    value += _figure_value(state, comps, seat)
    return value


def evaluate(state: State, seat: int) -> float:
    """The seat's value minus the best other seat's (so a bot plays to win, not just to score)."""
    mine = seat_value(state, seat)
    others = [seat_value(state, i) for i in range(state.players) if i != seat]
    return mine - max(others, default=0.0)


def collection_value(state: State, seat: int, numeral: int) -> float:
    comps = components_of(state)
    k = next(k for k in state.seats[seat].collections if k.numeral == numeral)
    return (
        _marker_value(comps, k.space, _evaluations_left(state, comps))
        + sum(p for _, _, p in objects(comps, k.tiles)) * 0.1
    )
