"""The choice tree (domain/pantheon/choices.py): every leaf is a command decide accepts, and every
command the random player and the bots play is a leaf, over random games of 2, 3 and 4 players."""

import json
import os
import pathlib
import random
import subprocess
import sys

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
    for game in range(2):
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
    assert leaves > 2500
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
    return (
        _greedy(state, seat, rnd)
        if seat % 2 == 0
        else make_bot("random").choose(seat_knowledge(state, seat), seat, rnd)
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_command_of_the_greedy_bot_is_a_leaf_of_the_tree(players):
    found = 0
    for state, command in played(f"greedy-{players}", players, _mixed, plies=150):
        path_to(state, state.agenda[0].seat, command)
        found += 1
    assert found > 100  # 150 commands, or fewer when the game ends first (the 3-seat one ends after 129)


KEYS_SCRIPT = """
import json, random, msgspec
from tests.domain.pantheon.helpers_choices import choices, played, random_walk
rnd, out = random.Random(1), []
for ply, (state, _) in enumerate(played("keys", 3, plies=120)):
    seat = state.agenda[0].seat
    path, _ = random_walk(state, seat, rnd, deep=0.9)
    out.append([msgspec.to_builtins(choices(state, seat, path[:n])) for n in range(len(path))])
print(json.dumps(out))
"""


def test_the_tree_is_the_same_in_every_process_whatever_its_string_hash_seed():
    # The HTTP layer puts a path of keys in a token that another process may follow.
    root = pathlib.Path(__file__).resolve().parents[3]
    runs = [
        subprocess.run(
            [sys.executable, "-c", KEYS_SCRIPT],
            cwd=root,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            timeout=300,
        )
        for seed in ("1", "2")
    ]
    assert all(run.returncode == 0 for run in runs), runs[0].stderr
    trees = [json.loads(run.stdout) for run in runs]
    assert len(trees[0]) == 120 and trees[0] == trees[1]
