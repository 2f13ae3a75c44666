"""The bots are the kernel's (domain.bots): a game gives what they need of its rules (`Search`) and
gets random, greedy and strong players, their parameters in its own names."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from domain import games
from domain.bots import Search, bot_factories, make_bot
from domain.kernel import DomainError


@dataclass(frozen=True)
class Add:
    seat: int
    amount: int


def _apply(state: dict, command: Add, rng) -> tuple[dict, list]:
    if command.amount > 3:
        raise DomainError("too_much", "Add at most 3.")
    state["totals"][command.seat] += command.amount + rng.randbelow(2)  # a little chance
    state["turn"] = 1 - command.seat
    return state, [command]


TOY = Search(
    determinize=lambda knowledge, rnd: knowledge,
    candidates=lambda state, seat, rnd, samples: [Add(seat, n) for n in (1, 4, 3, 2)],
    evaluate=lambda state, seat: state["totals"][seat] - state["totals"][1 - seat],
    apply=_apply,
    clone=lambda state: {"totals": list(state["totals"]), "turn": state["turn"]},
    random_command=lambda state, seat, rnd: Add(seat, rnd.randint(1, 3)),
    mover=lambda state: None if max(state["totals"]) >= 20 else state["turn"],
    horizon=lambda state: max(state["totals"]) // 10,
    params={"random": {}, "greedy": {"draws": 3}, "strong": {"width": 2, "worlds": 2, "plies": 4}},
    budgets={"random": "anything", "greedy": "{draws} draws", "strong": "{rollouts} rollouts of {plies}"},
    aliases={"determinizations": "draws"},
)


def test_a_toy_game_gets_three_bots_that_play_its_best_legal_command_from_its_search():
    bots = bot_factories(TOY)
    state = {"totals": [0, 0], "turn": 0}
    assert list(bots) == ["random", "greedy", "strong"]
    assert make_bot(bots, "random").choose(state, 0, random.Random(1)) in [Add(0, n) for n in (1, 2, 3)]
    assert make_bot(bots, "greedy").choose(state, 0, random.Random(1)) == Add(0, 3)  # 4 is refused
    assert make_bot(bots, "strong").choose(state, 0, random.Random(1)) == Add(0, 3)
    assert state == {"totals": [0, 0], "turn": 0}  # looking ahead plays on copies


def test_parameters_keep_the_games_own_names_and_say_the_budget_in_its_words():
    bots = bot_factories(TOY)
    greedy, strong = make_bot(bots, "greedy", draws=5), make_bot(bots, "strong", worlds=3)
    assert (greedy.params, greedy.budget) == ({"draws": 5}, "5 draws")
    assert (strong.params, strong.budget) == ({"width": 2, "worlds": 3, "plies": 4}, "6 rollouts of 4")
    assert make_bot(bots, "greedy").params == {"draws": 3}  # each bot its own copy of the defaults


@pytest.mark.parametrize("kind", games.kinds())
def test_every_registered_game_has_the_kernels_four_levels_weakest_first(kind):
    bots = games.get(kind).decider.bots
    assert bots.names == ("random", "greedy", "strong", "expert")
    for name in bots.names:
        bot = bots.make(name)
        assert bot.name == name and isinstance(bot.params, dict) and bot.budget
