"""The strong bot's own parts: its evaluation (the queue of columns that drawn gods go to, §8,
with the chance of a god from the unseen cards, §20; the pantheon's doubling, §19.2) and a deck
draw looked at as its two outcomes, a god and not a god."""

import random

import pytest

from domain.pantheon_cards import commands as cmd
from domain.pantheon_cards.bots import make_bot, seat_knowledge
from domain.pantheon_cards.bots.evaluate import _at_least, _expected_score, _god_chance, _multipliers, _queue
from domain.pantheon_cards.rules import card

from .scenario import A, B, C, Ts, Tw, W, col, given, god


def _position(deck: int = 30, **kw):
    return given(
        col(A, 1, W(1000, 1), temple=Ts(1)),  # the best godless column: the first god drawn comes here
        col(B, 1, W(500, 1), temple=Tw(1)),  # then this one
        col(C, 1, temple=Tw(2)),  # a temple alone: the third
        col(C, 2, W(10, 1), temple=Ts(2), god=god("zeus")),
        players=3,
        deck=deck,
        **kw,
    )


@pytest.mark.parametrize("k", [1, 3, 5])
def test_the_chances_of_a_jth_god_in_k_draws_add_up_to_the_expected_gods(k):
    chances = _at_least(k, 0.25)
    assert len(chances) == k and chances == sorted(chances, reverse=True)
    assert chances[0] == pytest.approx(1 - 0.75**k) and sum(chances) == pytest.approx(0.25 * k)


def test_the_gods_of_the_next_draws_go_down_the_attraction_queue():
    state = _position()
    p = _god_chance(state)
    gods = sum(card(state, c).type == "god" for c in state.unseen)
    assert p == gods / len(state.unseen) and 0 < p < 1
    first, second, third = _at_least(3, p)
    assert _queue(state, _multipliers(state), 3) == pytest.approx([first, second, third])
    assert _queue(state, _multipliers(state), 1) == pytest.approx([p, 0.0, 0.0])  # one draw: the best column only
    assert _queue(_position(deck=0), _multipliers(state), 0) == [0.0, 0.0, 0.0]


def test_a_tie_at_the_head_of_the_queue_is_shared():
    state = given(
        col(A, 1, W(500, 1), temple=Ts(1)), col(B, 1, W(500, 2), temple=Ts(2)), col(C, 1, temple=Tw(1)), players=3
    )
    first, second, third = _at_least(3, _god_chance(state))
    assert _queue(state, _multipliers(state), 3) == pytest.approx([(first + second) / 2] * 2 + [third])


def test_one_pantheons_doubling_counts_in_full_only_near_the_end():
    state = _position()  # C holds Zeus alone: a score of 2 (R37)
    assert _expected_score(state, C, 0.5) == 1.5 and _expected_score(state, C, 1.0) == 2.0
    assert _expected_score(state, A, 0.5) == 0.0


def test_a_deck_draw_is_looked_at_as_a_god_and_not_a_god_weighted_by_their_odds():
    state = _position(decision="draw_card", stage="draw", active=B, general=[W(50, 1)])
    bot = make_bot("strong", split_draws=True)
    draw = cmd.DrawCard(seat=B, source="deck")
    (p, as_god, _), (q, as_other, _) = bot._outcomes(state, draw, 7)
    assert p == pytest.approx(_god_chance(state)) and p + q == pytest.approx(1.0)
    assert as_god is not None and as_other is not None
    drawn_god = set(state.unseen) - set(as_god.unseen)
    assert len(drawn_god) == 1 and card(state, drawn_god.pop()).type == "god"
    assert as_god.columns[A][0].god is not None  # attracted to the best column (§8), not B's hand
    drawn = set(state.unseen) - set(as_other.unseen)
    assert len(drawn) == 1 and drawn <= set(as_other.hands[B]) and card(state, drawn.pop()).type != "god"
    (one, after, _rnd), *rest = bot._outcomes(state, cmd.DrawCard(seat=B, source="general_discard"), 7)
    assert not rest and one == 1.0 and after is not None and W(50, 1) in after.hands[B]


def test_the_strong_bot_decides_the_same_from_the_same_knowledge_and_chance():
    state = _position(decision="draw_card", stage="draw", active=B, general=[W(50, 1)])
    choices = {repr(make_bot("strong").choose(seat_knowledge(state, B), B, random.Random(11))) for _ in range(2)}
    assert len(choices) == 1
