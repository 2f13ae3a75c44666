"""The expert bot (domain.ismcts, single-observer ISMCTS): it plays whole games of every registered
game with legal commands on a tiny budget, its choice is a function of knowledge, seed and
parameters alone (so the audit can run it again), and on a toy game its search finds the best
command and never one the rules refuse."""

from __future__ import annotations

import dataclasses
import random

import msgspec
import pytest

from domain import games
from domain.bots import bot_factories, make_bot
from domain.ismcts import ExpertBot
from domain.kernel import step
from domain.rng import game_rng

from .test_bots import TOY, Add

TINY = {"iterations": 6}
OPTIONS = {"pantheon": {"players": 2}, "pergamon": {"players": 2}, "pantheon_cards": {"players": 3}}


def positions(kind: str, seed: str, bots: list | None = None):
    """Each (state, seat awaited) of one game of `kind`, its seats played by `bots` (the expert on a
    tiny budget by default) from their knowledge; every command goes through the rules (`step`)."""
    entry = games.get(kind)
    decider = entry.decider
    players = OPTIONS[kind]["players"]
    bots = bots or [decider.bots.make("expert", **TINY) for _ in range(players)]
    rnd, state, version = random.Random(seed), None, 0
    command = entry.create_command(OPTIONS[kind])
    while True:
        state, events = step(decider, state, command, game_rng(seed.encode(), "g", version))  # refuses an illegal one
        version += len(events)
        if decider.is_terminal(state):
            return
        seat = decider.awaited(state).seat
        yield state, seat
        command = bots[seat].choose(decider.bots.knowledge(state, seat), seat, rnd)


@pytest.mark.parametrize("kind", sorted(OPTIONS))
def test_the_expert_plays_a_whole_game_with_legal_commands(kind):
    moves = sum(1 for _ in positions(kind, f"expert-{kind}"))
    assert moves > 30  # to the end: `positions` returns only once the game is over


@pytest.mark.parametrize("kind", sorted(OPTIONS))
def test_the_experts_choice_is_the_same_for_the_same_knowledge_seed_and_budget(kind):
    decider = games.get(kind).decider
    random_bots = [decider.bots.make("random") for _ in range(OPTIONS[kind]["players"])]
    for index, (state, seat) in enumerate(positions(kind, f"same-{kind}", random_bots)):
        if index % 9 or index > 120:
            continue
        known = decider.bots.knowledge(state, seat)
        view = decider.bots.view_hash(known)
        first = decider.bots.make("expert", iterations=30).choose(known, seat, random.Random("turn-key"))
        again = decider.bots.make("expert", iterations=30).choose(known, seat, random.Random("turn-key"))
        assert msgspec.to_builtins(again) == msgspec.to_builtins(first)
        assert decider.bots.view_hash(known) == view  # searching left the knowledge as it was


def test_on_a_toy_game_the_search_finds_the_best_command_and_never_a_refused_one():
    search = dataclasses.replace(
        TOY,
        params={**TOY.params, "expert": {"iterations": 60, "plies": 4, "scale": 3.0}},
        budgets={**TOY.budgets, "expert": "{iterations} iterations, playouts of {plies}"},
    )
    bots = bot_factories(search, {"expert": ExpertBot})
    state = {"totals": [0, 0], "turn": 0}
    expert = make_bot(bots, "expert")
    assert list(bots) == ["random", "greedy", "strong", "expert"]
    assert expert.budget == "60 iterations, playouts of 4"
    assert expert.choose(state, 0, random.Random(3)) == Add(0, 3)  # 4 is refused in every world
    assert state == {"totals": [0, 0], "turn": 0}  # the search plays on copies
    with_prior = make_bot(bots, "expert", prior=5, iterations=10)
    assert with_prior.choose(state, 0, random.Random(3)) == Add(0, 3)


def test_with_strongs_candidates_greedy_playouts_and_a_baseline_the_search_still_finds_the_best_command():
    search = dataclasses.replace(
        TOY,
        params={**TOY.params, "expert": {"iterations": 40, "plies": 4, "scale": 3.0, "policy": "greedy"}},
        budgets={**TOY.budgets, "expert": "{iterations} iterations"},
    )
    bots = bot_factories(search, {"expert": ExpertBot})
    state = {"totals": [0, 0], "turn": 0}
    for extra in (
        {"width": 2},
        {"width": 2, "prior": 3, "depth": 1, "baseline": True, "choice": "mean", "judged": 2},
        {"depth": 2},
    ):
        assert make_bot(bots, "expert", **extra).choose(state, 0, random.Random(5)) == Add(0, 3), extra
    assert state == {"totals": [0, 0], "turn": 0}
