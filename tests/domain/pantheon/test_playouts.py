"""Random playouts over many seeds, for every player count and every option: every listed option
is accepted, every game ends, replay gives the same state, components are conserved."""

import random

import pytest

from domain.pantheon.commands import Options
from service.cli.simulate import game_seed, play_game, run


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("start_material", ["bsw", "rulebook"])
@pytest.mark.parametrize("bonus_tiles", ["draft", "random"])
def test_random_games_end_without_errors_or_invariant_violations(players, start_material, bonus_tiles):
    options = Options(players=players, start_material=start_material, bonus_tiles=bonus_tiles)
    for index in range(2):
        label = f"playouts-{players}-{start_material}-{bonus_tiles}"
        record = play_game(game_seed(label, index), options, random.Random(f"{label}:{index}"))
        assert record.errors + record.violations == []
        assert record.state.finished
        assert record.state.epoch == 6 and len(set(record.state.nations_played)) == 6


def test_the_same_seed_gives_the_same_games():
    _, first = run(games=2, players="mixed", seed="same")
    _, second = run(games=2, players="mixed", seed="same")
    assert [r.events for r in first] == [r.events for r in second]


def test_another_seed_gives_other_games():
    _, first = run(games=1, players="3", seed="one")
    _, second = run(games=1, players="3", seed="two")
    assert first[0].events != second[0].events
