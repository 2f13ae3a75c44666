"""The Pergamon golden playthroughs replay to their recorded outcome, deciding the recorded
commands again gives the recorded events, and today's engine plays them byte for byte."""

import pytest

from domain.kernel import fold
from domain.pergamon import PERGAMON
from domain.rng import game_rng
from tests.golden.pergamon.golden import GAMES, HERE, dump, load, play


@pytest.mark.parametrize("name", sorted(GAMES))
def test_replaying_a_golden_game_gives_its_recorded_scores(name):
    header, lines = load(HERE / name)
    state = fold(PERGAMON, [e for line in lines for e in line.events])
    assert state.finished and state.round == 12
    assert [seat.vp for seat in state.seats] == header.scores
    assert state.places == header.places and state.winners == header.winners
    assert len(lines) == header.commands and sum(len(line.events) for line in lines) == header.events


@pytest.mark.parametrize("name", sorted(GAMES))
def test_deciding_the_recorded_commands_again_gives_the_recorded_events(name):
    header, lines = load(HERE / name)
    seed, state, version = bytes.fromhex(header.seed), None, 0
    for line in lines:
        events = PERGAMON.decide(state, line.command, game_rng(seed, header.game, version))
        version += len(events)
        assert events == line.events
        state = fold(PERGAMON, events, state)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_engine_still_plays_the_golden_game_byte_for_byte(name):
    label, options = GAMES[name]
    assert dump(play(label, options)) == (HERE / name).read_bytes(), (
        "the engine's outcome changed; if on purpose, run .venv/bin/python -m tests.golden.pergamon.golden --regenerate"
    )
