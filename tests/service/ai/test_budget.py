"""The expert's time budget as iterations (service/ai/budget.py): bots without an iteration budget
are left as they are, a budget too small for the timing searches buys the floor, and no budget
buys more than one iteration per 0.1 ms (the bound checked, never a time)."""

from domain.pergamon import PERGAMON
from domain.pergamon.commands import PergamonCreateGame, PergamonOptions
from domain.pergamon.decide import apply
from domain.rng import SeededRng
from service.ai.budget import FASTEST_S, FLOOR, GROWTH, budgeted


def first_position():
    state, _ = apply(None, PergamonCreateGame(options=PergamonOptions(players=2)), SeededRng(b"budget"))
    seat = PERGAMON.awaited(state).seat
    return PERGAMON.bots.knowledge(state, seat), seat


def test_a_bot_without_an_iteration_budget_is_made_as_it_is():
    knowledge, seat = first_position()
    for level in ("random", "greedy", "strong"):
        assert budgeted(PERGAMON.bots, level, knowledge, seat, 1.0).params == PERGAMON.bots.make(level).params


def test_the_expert_gets_the_floor_from_no_budget_and_never_more_than_the_fastest_pace_buys():
    knowledge, seat = first_position()
    assert budgeted(PERGAMON.bots, "expert", knowledge, seat, 0.0).params["iterations"] == FLOOR
    bought = budgeted(PERGAMON.bots, "expert", knowledge, seat, 0.05).params["iterations"]
    assert FLOOR <= bought <= 0.05 / (FASTEST_S * GROWTH)
