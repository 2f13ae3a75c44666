"""A heuristic value of a state for one seat: the score it would have now (§19.2: gods in play,
doubled for one pantheon), what brings more gods (gods in hand it can play, godless temple
columns that attract drawn gods, the best candidate above all, §8), what keeps them (a temple
under each god), column values, its hand; minus the best other seat's. A finished game is worth
its result. Reads only the state a bot was given (a seat's knowledge, determinized).

`weighted` is greedy's evaluation; `expecting` is the strong bot's: the same terms, but the god
a drawn card would bring is worth what it is likely to be (the chance that a deck card is a god,
from the unseen cards, times the deck draws left in a round), and a pantheon's doubling counts in
full only as the deck runs out (early on, one god is one god: the next ones rarely match)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..rules import card, comps, gods_in_play, multiplier, printed, score
from ..state import State


def _multipliers(state: State) -> list[int]:
    """m(P) of every seat (§7.1), once per evaluation, not once per column: the hot path."""
    return [multiplier(state, seat) for seat in range(state.players)]


def _attractors(state: State, m: list[int]) -> list[int]:
    """The seats a god drawn now would go to (§8 tiers; several: a challenge among them)."""
    best: tuple[int, int, int] | None = None
    seats: list[int] = []
    for seat, cols in enumerate(state.columns):
        for c in cols:
            if c.god is not None:
                continue
            tier = 2 if c.temple and c.worshipers else 1 if c.temple else 0
            stone = int(c.temple is not None and card(state, c.temple).kind == "stone")
            key = (tier, printed(state, c) * m[seat] if tier != 1 else 0, stone)
            if best is None or key > best:
                best, seats = key, [seat]
            elif key == best and seat not in seats:
                seats.append(seat)
    return seats


class Weights(NamedTuple):
    """The evaluation's weights (greedy's are the defaults; the strong bot has its own)."""

    score: float = 10.0
    playable_gods: float = 4.0  # gods in hand with a godless column to go to
    gods_in_hand: float = 1.5
    kept: float = 1.5  # a god with a temple under it
    backed: float = 0.8  # a god with worshipers under it
    waiting_temple: float = 1.0  # a godless column with a temple
    attractor: float = 3.0  # the column a drawn god would go to is this seat's (while the deck lasts)
    hand: float = 0.25


GREEDY = Weights()


def _strength(state: State, seat: int, attracts: float, m: int, w: Weights, score_of: float) -> float:
    cols = state.columns[seat]
    godless = [c for c in cols if c.god is None]
    gods_in_hand = sum(card(state, x).type == "god" for x in state.hands[seat])
    value = w.score * score_of
    value += w.playable_gods * min(gods_in_hand, len(godless)) + w.gods_in_hand * gods_in_hand
    value += sum(w.kept for c in cols if c.god and c.temple) + sum(w.backed for c in cols if c.god and c.worshipers)
    value += sum(w.waiting_temple for c in godless if c.temple)
    value += attracts
    value += sum(printed(state, c) * m for c in cols) / 1000.0
    value += w.hand * len(state.hands[seat])
    return value


def _result(state: State, seat: int) -> float:
    return 1000.0 / len(state.winners) if seat in state.winners else -1000.0


def weighted(w: Weights) -> Callable[[State, int], float]:
    """The evaluation with these weights (greedy's: the first attracting seat, a fixed worth)."""

    def evaluate(state: State, seat: int) -> float:
        if state.finished:
            return _result(state, seat)
        m = _multipliers(state)
        first = _attractors(state, m)[:1]
        pull = w.attractor * min(1.0, state.deck / 10.0)
        strengths = [
            _strength(state, s, pull if s in first else 0.0, m[s], w, score(state, s)) for s in range(state.players)
        ]
        return strengths[seat] - max(v for s, v in enumerate(strengths) if s != seat)

    return evaluate


evaluate = weighted(GREEDY)


def _god_chance(state: State) -> float:
    """The chance that a card drawn from the deck now is a god (§20: uniform over the unseen)."""
    if not state.unseen or state.deck <= 0:
        return 0.0
    cards = comps(state).cards
    return sum(cards[c].type == "god" for c in state.unseen) / len(state.unseen)


def _expected_score(state: State, seat: int, doubling: float) -> float:
    """§19.2's score with the pantheon's doubling weighted by how near the end is."""
    gods = len(gods_in_play(state, seat))
    return gods + (score(state, seat) - gods) * doubling


def expecting(
    w: Weights, draws: float = 3.0, early_doubling: float = 0.5, end: int = 15
) -> Callable[[State, int], float]:
    """The strong bot's evaluation: a drawn god is worth `w.score` times its chance per draw times
    the deck draws of about a round (`draws`), shared by the seats it would go to; the doubling
    counts `early_doubling` while more than `end` cards are in the deck."""

    def evaluate(state: State, seat: int) -> float:
        if state.finished:
            return _result(state, seat)
        m = _multipliers(state)
        seats = _attractors(state, m)
        pull = w.score * _god_chance(state) * min(float(state.deck), draws) / max(1, len(seats))
        doubling = 1.0 if state.deck <= end else early_doubling
        strengths = [
            _strength(state, s, pull if s in seats else 0.0, m[s], w, _expected_score(state, s, doubling))
            for s in range(state.players)
        ]
        return strengths[seat] - max(v for s, v in enumerate(strengths) if s != seat)

    return evaluate


def _at_least(k: int, p: float) -> list[float]:
    """P(X >= j) for j = 1..k, X ~ Binomial(k, p): the chance that a j-th god comes in k draws."""
    exactly = [1.0]
    for _ in range(k):  # the distribution after one more draw
        exactly = [
            (exactly[j] if j < len(exactly) else 0.0) * (1 - p) + (exactly[j - 1] * p if j else 0.0)
            for j in range(len(exactly) + 1)
        ]
    return [sum(exactly[j:]) for j in range(1, k + 1)]


def _queue(state: State, m: list[int], k: int) -> list[float]:
    """Each seat's expected gods from the next `k` deck draws (§8): the j-th god drawn goes to the
    j-th best godless column (tier, value, stone), a tie shared; nothing else is assumed to change."""
    keyed = []
    for seat, cols in enumerate(state.columns):
        for c in cols:
            if c.god is None:
                tier = 2 if c.temple and c.worshipers else 1 if c.temple else 0
                stone = int(c.temple is not None and card(state, c.temple).kind == "stone")
                keyed.append(((tier, printed(state, c) * m[seat] if tier != 1 else 0, stone), seat))
    keyed.sort(key=lambda x: x[0], reverse=True)
    chances = _at_least(k, _god_chance(state)) if k > 0 else []
    out = [0.0] * state.players
    start = 0
    while start < len(keyed) and start < k:
        end = start
        while end < len(keyed) and keyed[end][0] == keyed[start][0]:
            end += 1
        share = sum(chances[start : min(end, k)]) / (end - start)
        for _, seat in keyed[start:end]:
            out[seat] += share
        start = end
    return out


def queueing(w: Weights, draws: int = 3, early_doubling: float = 0.5, end: int = 15) -> Callable[[State, int], float]:
    """As `expecting`, but every godless column in the queue of the next `draws` drawn gods counts
    (the second best gets the second god), not only the best."""

    def evaluate(state: State, seat: int) -> float:
        if state.finished:
            return _result(state, seat)
        m = _multipliers(state)
        pulls = _queue(state, m, min(state.deck, draws))
        doubling = 1.0 if state.deck <= end else early_doubling
        strengths = [
            _strength(state, s, w.score * pulls[s], m[s], w, _expected_score(state, s, doubling))
            for s in range(state.players)
        ]
        return strengths[seat] - max(v for s, v in enumerate(strengths) if s != seat)

    return evaluate
