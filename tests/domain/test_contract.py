"""The wire contract of each registered game: wire commands are the recorded commands without `seat`
and without the platform's, named after the game; every seat command a random game plays goes to the
wire and back unchanged, so the recorded format stays exactly what it was."""

from __future__ import annotations

import random
import typing

import msgspec
import pytest

from domain import games
from domain.kernel import step
from projections.registry import score_view


def _structs(tp) -> set[type]:
    found, todo = set(), [tp]
    while todo:
        t = todo.pop()
        if isinstance(t, type) and issubclass(t, msgspec.Struct):
            if t not in found:
                found.add(t)
                todo += [f.type for f in msgspec.structs.fields(t)]
        else:
            todo += list(typing.get_args(t))
    return found


@pytest.mark.parametrize("kind", games.kinds())
def test_wire_commands_carry_no_seat_no_create_game_and_the_games_name(kind):
    contract = games.get(kind).contract
    members = typing.get_args(contract.command)
    assert members and all("seat" not in s.__struct_fields__ for s in members)
    assert "create_game" not in [s.__struct_config__.tag for s in members]
    for tp in (contract.command, contract.event, contract.view, contract.blocks, score_view(kind)):
        assert all(s.__name__.startswith(contract.name) for s in _structs(tp)), tp


@pytest.mark.parametrize("kind", games.kinds())
def test_every_seat_command_of_random_games_goes_to_the_wire_and_back_unchanged(kind):
    game, contract = games.get(kind), games.get(kind).contract
    rnd, checked = random.Random(4), 0
    for seed in range(3):
        options = game.random_options(rnd.choice(game.players), rnd)
        state, _ = step(
            game.decider, game.decider.initial_state(), game.create_command(msgspec.to_builtins(options)), _Rng(seed)
        )
        for _ in range(150):
            awaited = game.decider.awaited(state)
            if awaited is None:
                break
            command = game.random_command(state, awaited.seat, rnd)
            body = contract.to_wire(command)
            assert "seat" not in body
            wire = msgspec.json.decode(msgspec.json.encode(body), type=contract.command)
            assert contract.to_domain(wire, awaited.seat) == command
            state, _ = step(game.decider, state, command, _Rng(seed))
            checked += 1
    assert checked > 100


class _Rng:
    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def randbelow(self, n: int) -> int:
        return self.random.randrange(n)
