"""Every registered game's golden playthroughs replay to their recorded outcome, deciding the
recorded commands again gives the recorded events, and today's engine plays them byte for byte."""

import pytest

from domain import games
from domain.kernel import fold
from domain.rng import game_rng
from tests.golden.golden import HERE, dump, load, names, play, players_of, recipe

GOLDEN = [name for kind in games.kinds() for name in names(kind)]


def _kind(name: str):
    return games.get(name.split("/", 1)[0])


@pytest.mark.parametrize("kind", games.kinds())
def test_every_registered_game_has_a_golden_game_for_each_number_of_players(kind):
    assert all((HERE / name).is_file() for name in names(kind)), (
        "run .venv/bin/python -m tests.golden.golden --regenerate"
    )


@pytest.mark.parametrize("name", GOLDEN)
def test_replaying_a_golden_game_gives_its_recorded_outcome(name):
    header, lines = load(name)
    decider = _kind(name).decider
    state = fold(decider, [e for _, events in lines for e in events])
    assert decider.is_terminal(state)
    outcome = decider.outcome(state)
    assert {field: getattr(outcome, field) for field in recipe(decider.kind).outcome} == {
        field: header[field] for field in recipe(decider.kind).outcome
    }
    assert len(lines) == header["commands"] and sum(len(events) for _, events in lines) == header["events"]


@pytest.mark.parametrize("name", GOLDEN)
def test_deciding_the_recorded_commands_again_gives_the_recorded_events(name):
    header, lines = load(name)
    decider = _kind(name).decider
    seed, state, version = bytes.fromhex(header["seed"]), None, 0
    for command, recorded in lines:
        events = decider.decide(state, command, game_rng(seed, header["game"], version))
        version += len(events)
        assert events == recorded
        state = fold(decider, events, state)


@pytest.mark.parametrize("name", GOLDEN)
def test_the_engine_still_plays_the_golden_game_byte_for_byte(name):
    assert dump(play(name.split("/", 1)[0], players_of(name))) == (HERE / name).read_bytes(), (
        "the engine's outcome changed; if on purpose, run .venv/bin/python -m tests.golden.golden --regenerate"
    )
