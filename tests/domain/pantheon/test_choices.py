"""The choice tree (domain/pantheon/choices.py): every leaf is a command decide accepts, and every
command the random player and the bots play is a leaf, over random games of 2, 3 and 4 players."""

import random

import pytest

from domain.kernel import DomainError
from domain.pantheon import PANTHEON
from domain.pantheon.bots import make_bot, seat_knowledge
from domain.rng import SeededRng

from .helpers_choices import choices, path_to, played, random_walk

WALKS = 8


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_leaf_reached_by_random_walks_is_a_command_decide_accepts(players):
    rnd, leaves, kinds = random.Random(players), 0, set()
    for game in range(3):
        for state, _ in played(f"leaves-{players}-{game}", players):
            seat = state.agenda[0].seat
            for walk in range(WALKS):
                path, command = random_walk(state, seat, rnd, deep=walk / WALKS)
                try:
                    PANTHEON.decide(state, command, SeededRng(b"choices", path[-1].encode()))
                except DomainError as refused:
                    pytest.fail(f"the leaf {path} of {state.agenda[0].kind} is refused: {refused!r}")
                leaves += 1
                kinds.add((state.agenda[0].kind, type(command).__name__))
    assert leaves > 4000
    assert {("action", "Move"), ("action", "Buy"), ("follow_up", "Move"), ("draw", "DrawCard")} <= kinds


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_command_of_the_random_player_is_a_leaf_of_the_tree(players):
    found = 0
    for game in range(3):
        for state, command in played(f"random-{players}-{game}", players):
            seat = state.agenda[0].seat
            path = path_to(state, seat, command)
            assert choices(state, seat, path[:-1]).choices  # the path is followed again from the root
            found += 1
    assert found > 500


def _greedy(state, seat, rnd):
    return make_bot("greedy").choose(seat_knowledge(state, seat), seat, rnd)


def _mixed(state, seat, rnd):
    return _greedy(state, seat, rnd) if seat % 2 == 0 else make_bot("random").choose(seat_knowledge(state, seat), seat, rnd)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_command_of_the_greedy_bot_is_a_leaf_of_the_tree(players):
    found = 0
    for state, command in played(f"greedy-{players}", players, _mixed, plies=150):
        path_to(state, state.agenda[0].seat, command)
        found += 1
    assert found == 150
