"""Forks of a running game, the same for every registered game (domain.forks): the fork's command
is decided only as a game's first event, applying it in place gives what deciding and evolving it
give, and its event is shown to each viewer as that viewer's knowledge."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain import games
from domain.forks import Shuffler
from domain.kernel import DomainError, fold
from domain.rng import SeededRng, game_rng


def _mid_game(kind: str, commands: int = 40):
    """A random game of `kind` after its first `commands` commands."""
    game, rnd = games.get(kind), random.Random(kind)
    decider, state, version = game.decider, None, 0
    command = game.create_command(msgspec.to_builtins(game.random_options(game.players[1], rnd)))
    for _ in range(commands):
        events = decider.decide(state, command, game_rng(b"parent", "p", version))
        state, version = fold(decider, events, state), version + len(events)
        command = game.random_command(state, decider.awaited(state).seat, rnd)
    return state


def _data(value) -> object:
    return msgspec.to_builtins(value, order="sorted")


@pytest.mark.parametrize("viewer", [None, 0])
@pytest.mark.parametrize("kind", games.kinds())
def test_applying_a_fork_in_place_gives_what_deciding_and_evolving_it_give(kind, viewer):
    decider = games.get(kind).decider
    command = decider.fork_command(_mid_game(kind), viewer)
    events = decider.decide(None, command, game_rng(b"fork", "f", 0))
    state, applied = decider.apply(None, command, game_rng(b"fork", "f", 0))
    assert applied == events and [e.seat for e in events] == [viewer]
    assert _data(state) == _data(fold(decider, events))


@pytest.mark.parametrize("kind", games.kinds())
def test_a_fork_is_only_ever_its_games_first_event(kind):
    decider = games.get(kind).decider
    state = _mid_game(kind)
    for attempt in (decider.decide, decider.apply):
        with pytest.raises(DomainError) as refused:
            attempt(state, decider.fork_command(state, 1), game_rng(b"fork", "f", 9))
        assert refused.value.code == "game_exists"


@pytest.mark.parametrize("kind", games.kinds())
def test_each_viewer_sees_a_forks_first_event_as_what_they_know_of_it(kind):
    decider = games.get(kind).decider
    [event] = decider.decide(None, decider.fork_command(_mid_game(kind), 0), game_rng(b"fork", "f", 0))
    for viewer in (None, 0, 1):
        known = decider.bots.knowledge(event.state, viewer).state
        assert _data(decider.redact(event, viewer).state) == _data(known)


def test_a_deal_shuffles_by_the_games_rng_alone():
    one, other = list(range(30)), list(range(30))
    Shuffler(SeededRng(b"deal", b"f|0")).shuffle(one)
    Shuffler(SeededRng(b"deal", b"f|0")).shuffle(other)
    assert one == other != list(range(30)) and sorted(one) == list(range(30))
