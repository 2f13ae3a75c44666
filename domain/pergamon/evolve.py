"""evolve: apply one event to the state. It trusts history: no validation, no randomness. It
updates the state in place and returns it (decide works on a clone)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from . import events as ev
from .components import load_components
from .state import ROUND_END, Collection, SeatState, State
from .vocabulary import (
    CHOOSE_FUNDING_SPACE,
    EVALUATION,
    EXCAVATE,
    EXCAVATION,
    EXHIBIT,
    FUNDING,
    LAYOUT,
    OVER,
    STORE,
    TOMB_RAIDER,
)


def _created(_: State | None, e: ev.PergamonGameCreated) -> State:
    comps = load_components(e.options.edition)
    coins = comps.constants["starting_coins"]
    return State(
        options=e.options,
        seats=[SeatState(coins=coins) for _ in range(e.options.players)],
        first_player=e.first_player,
        unrevealed=sorted(comps.tiles),
        galleries=[[] for _ in range(5)],
        undrawn=list(comps.card_copies),
        purse=comps.constants["tomb_raider_starting_purse"],
    )


def _round_started(s: State, e: ev.RoundStarted) -> None:
    s.round, s.first_player, s.placement_order = e.round, e.first_player, list(e.placement_order)
    s.phase, s.finds, s.backs, s.values = LAYOUT, None, [], []
    s.figures, s.tomb_raider, s.action_order, s.turn = {}, 0, [], -1


def _finds_drawn(s: State, e: ev.FindsDrawn) -> None:
    drawn = set(e.tiles)
    s.unrevealed = [t for t in s.unrevealed if t not in drawn]
    s.unseen_box += e.unseen
    s.finds = list(e.tiles)
    if e.arranger is not None:
        s.decision, s.awaiting = "arrange_finds", e.arranger


def _finds_arranged(s: State, e: ev.FindsArranged) -> None:
    s.finds = list(e.order)
    s.decision, s.awaiting = None, -1


def _finds_laid_out(s: State, e: ev.FindsLaidOut) -> None:
    for tile, gallery in zip(e.tiles, e.galleries):
        s.galleries[gallery - 1].append(tile)
    s.finds, s.phase = None, FUNDING


def _backs_drawn(s: State, e: ev.FundingBacksDrawn) -> None:
    s.backs = list(e.backs)
    s.decision, s.awaiting = CHOOSE_FUNDING_SPACE, s.placement_order[0]


def _tomb_raider_placed(s: State, e: ev.TombRaiderPlaced) -> None:
    s.tomb_raider = e.space


def _space_chosen(s: State, e: ev.FundingSpaceChosen) -> None:
    s.figures[e.seat] = e.space
    placed = len(s.figures)
    if placed < len(s.placement_order):
        s.awaiting = s.placement_order[placed]
    else:
        s.decision, s.awaiting = None, -1


def _revealed(s: State, e: ev.FundingRevealed) -> None:
    s.values = list(e.values)
    for value in e.values:
        s.undrawn[value - 1] -= 1


def _paid_out(s: State, e: ev.FundsPaidOut) -> None:
    for figure, amount in e.payouts:
        if figure == TOMB_RAIDER:
            s.purse += amount
        else:
            s.seats[figure].coins += amount
    s.action_order = [figure for figure, _ in e.payouts]
    s.phase, s.turn = EXCAVATION, -1


def _turn_started(s: State, e: ev.TurnStarted) -> None:
    s.turn += 1
    if e.figure != TOMB_RAIDER:
        s.decision, s.awaiting = EXCAVATE, e.figure


def _excavated(s: State, e: ev.Excavated) -> None:
    seat = s.seats[e.seat]
    seat.coins -= e.cost
    seat.loose = sorted(seat.loose + list(e.tiles))
    s.galleries[e.gallery - 1] = []
    s.decision = EXHIBIT


def _skipped(s: State, e: ev.ExcavationSkipped) -> None:
    s.decision = EXHIBIT


def _tomb_raider_excavated(s: State, e: ev.TombRaiderExcavated) -> None:
    s.purse -= e.cost
    s.box.extend(e.tiles)
    s.galleries[e.gallery - 1] = []


def _tomb_raider_idle(s: State, e: ev.TombRaiderIdle) -> None:
    pass


def _break_up(s: State, seat: int, numeral: int) -> None:
    me = s.seats[seat]
    gone = next(k for k in me.collections if k.numeral == numeral)
    me.collections = [k for k in me.collections if k.numeral != numeral]
    s.box.extend(gone.tiles)


def _move_markers(s: State, below: int, by: int) -> None:
    """Every marker on a space <= below moves down `by`; those below space 1 are broken up."""
    for seat, me in enumerate(s.seats):
        for k in me.collections:
            if k.space <= below:
                k.space -= by
        for k in [k for k in me.collections if k.space < 1]:
            _break_up(s, seat, k.numeral)


def _exhibited(s: State, e: ev.Exhibited) -> None:
    comps = load_components(s.options.edition)
    me = s.seats[e.seat]
    if e.broken_up is not None:
        _break_up(s, e.seat, e.broken_up)
    me.coins -= e.polish
    _move_markers(s, e.space, 1)
    used = set(e.tiles)
    me.loose = [t for t in me.loose if t not in used]
    me.collections = sorted(
        me.collections + [Collection(numeral=e.numeral, tiles=list(e.tiles), space=e.space, value=e.value)],
        key=lambda k: k.numeral,
    )
    me.vp += comps.constants["exhibit_vp"]


def _finished_exhibiting(s: State, e: ev.ExhibitingFinished) -> None:
    s.decision = STORE


def _stored(s: State, e: ev.Stored) -> None:
    me = s.seats[e.seat]
    gone = set(e.discard)
    me.loose = [t for t in me.loose if t not in gone]
    s.box.extend(e.discard)
    me.coins -= e.fee
    s.decision, s.awaiting = None, -1


def _markers_scored(s: State, e: ev.MarkersScored) -> None:
    comps = load_components(s.options.edition)
    s.phase = EVALUATION
    for me in s.seats:  # recomputed, not read from the event: a redacted event may hold None
        me.vp += sum(comps.vp(k.space) for k in me.collections)


def _award(s: State, e: ev.AwardGiven) -> None:
    points = load_components(s.options.edition).constants["award_vp"]
    for seat in e.winners:
        s.seats[seat].vp += points


def _dropped(s: State, e: ev.MarkersDropped) -> None:
    _move_markers(s, load_components(s.options.edition).museum_spaces, e.drop)


def _final_bonus(s: State, e: ev.FinalBonusGiven) -> None:
    points = load_components(s.options.edition).calendar[s.round].final_bonus
    for b in e.bonuses:  # the amount follows from the date's place, so a redacted vp is harmless
        place = sum(1 for b2 in e.bonuses if b2.date > b.date)
        s.seats[b.seat].vp += points[place]


def _round_ended(s: State, e: ev.RoundEnded) -> None:
    s.past_values.extend(s.values)
    s.backs, s.values, s.figures, s.tomb_raider = [], [], {}, 0
    s.action_order, s.turn, s.phase = [], -1, ROUND_END
    s.first_player, s.order_spaces = e.next_first_player, list(e.order_spaces)


def _game_ended(s: State, e: ev.PergamonGameEnded) -> None:
    s.finished, s.phase, s.places, s.winners = True, OVER, list(e.places), list(e.winners)
    s.decision, s.awaiting = None, -1


_EVOLVERS: dict[type, Callable[[State, Any], None]] = {
    ev.RoundStarted: _round_started,
    ev.FindsDrawn: _finds_drawn,
    ev.FindsArranged: _finds_arranged,
    ev.FindsLaidOut: _finds_laid_out,
    ev.FundingBacksDrawn: _backs_drawn,
    ev.TombRaiderPlaced: _tomb_raider_placed,
    ev.FundingSpaceChosen: _space_chosen,
    ev.FundingRevealed: _revealed,
    ev.FundsPaidOut: _paid_out,
    ev.TurnStarted: _turn_started,
    ev.Excavated: _excavated,
    ev.ExcavationSkipped: _skipped,
    ev.TombRaiderExcavated: _tomb_raider_excavated,
    ev.TombRaiderIdle: _tomb_raider_idle,
    ev.Exhibited: _exhibited,
    ev.ExhibitingFinished: _finished_exhibiting,
    ev.Stored: _stored,
    ev.MarkersScored: _markers_scored,
    ev.AwardGiven: _award,
    ev.MarkersDropped: _dropped,
    ev.FinalBonusGiven: _final_bonus,
    ev.RoundEnded: _round_ended,
    ev.PergamonGameEnded: _game_ended,
}


def evolve(state: State | None, event: ev.Event) -> State:
    """The state after the event (the same object, updated in place, except for creation)."""
    if isinstance(event, ev.PergamonGameCreated):
        return _created(state, event)
    assert state is not None, "every event but the creation follows it"
    _EVOLVERS[type(event)](state, event)
    return state


def evolve_all(state: State | None, events: Iterable[ev.Event]) -> State | None:
    """Evolve many events at once (replay)."""
    for event in events:
        state = evolve(state, event)
    return state
