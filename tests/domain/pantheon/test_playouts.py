"""Random playouts over many seeds: every listed option is accepted, every game ends, replay
gives the same state, components are conserved."""

import pytest

from service.simulate import run


@pytest.mark.parametrize("players", ["2", "3", "4"])
def test_random_games_end_without_errors_or_invariant_violations(players):
    result, records = run(games=6, players=players, seed=f"playouts-{players}")
    problems = [p for r in records for p in r.errors + r.violations]
    assert problems == []
    assert result["finished"] == 6


def test_the_same_seed_gives_the_same_games():
    _, first = run(games=2, players="mixed", seed="same")
    _, second = run(games=2, players="mixed", seed="same")
    assert [r.events for r in first] == [r.events for r in second]
