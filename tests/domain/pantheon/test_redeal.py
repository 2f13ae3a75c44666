"""A fork of a running game is dealt afresh from what one viewer knows: their own cards as they
are, everything they have not seen re-dealt from the fork's seed, and the game plays on."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.kernel import fold
from domain.pantheon import PANTHEON, Options
from domain.pantheon.bots.knowledge import seat_knowledge
from domain.pantheon.invariants import check_invariants
from domain.pantheon.random_play import random_command
from domain.pantheon.redeal import Redeal, Redealt
from domain.rng import game_rng
from service.cli.simulate import game_seed, play_game


def _mid_game(players: int, label: str, commands: int):
    """A random game's state after its first `commands` commands."""
    record = play_game(game_seed(label, players), Options(players=players), random.Random(label))
    return fold(PANTHEON, [e for _, batch in record.steps[:commands] for e in batch])


def _data(value) -> object:
    return msgspec.to_builtins(value, order="sorted")


def _redeal(state, viewer, seed: bytes = b"fork-seed"):
    [event] = PANTHEON.decide(None, PANTHEON.fork_command(state, viewer), game_rng(seed, "fork", 0))
    return event


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("viewer", [0, 1, None])
def test_the_dealt_state_is_consistent_with_everything_the_viewer_knows(players, viewer):
    state = _mid_game(players, "redeal-consistent", 60)
    event = _redeal(state, viewer)

    assert isinstance(event, Redealt) and event.seat == viewer
    assert _data(seat_knowledge(event.state, viewer)) == _data(seat_knowledge(state, viewer))
    assert check_invariants(event.state) == []
    if viewer is not None:
        mine, dealt = state.seats[viewer], event.state.seats[viewer]
        assert (dealt.hand, dealt.half_gods) == (mine.hand, mine.half_gods)


def test_what_the_viewer_has_not_seen_is_dealt_afresh_by_the_seed():
    state = _mid_game(4, "redeal-afresh", 80)
    deals = [_redeal(state, 0, seed=bytes([n])).state for n in range(12)]

    assert any([s.seats[i].hand for i in (1, 2, 3)] != [state.seats[i].hand for i in (1, 2, 3)] for s in deals)
    assert len({repr(([s.seats[i].hand for i in (1, 2, 3)], s.draw_pile)) for s in deals}) > 1
    assert _data(_redeal(state, 0, seed=bytes([5])).state) == _data(deals[5])  # the same seed deals the same


def test_each_viewer_sees_the_dealt_state_only_as_their_knowledge():
    state = _mid_game(3, "redeal-redact", 50)
    event = _redeal(state, 1)
    for viewer in (0, 1, 2, None):
        shown = PANTHEON.redact(event, viewer)
        assert _data(shown.state) == _data(seat_knowledge(event.state, viewer).state)
    assert PANTHEON.redact(event, 0).state.seats[2].hand == [0] * len(state.seats[2].hand)


def test_a_fork_plays_on_from_the_dealt_state_to_the_end_and_replays():
    state = _mid_game(3, "redeal-play", 40)
    seed, rnd = b"play-on", random.Random(3)
    events = [_redeal(state, 2, seed)]
    current = PANTHEON.evolve(None, events[0])
    version = 1
    while not PANTHEON.is_terminal(current):
        command = random_command(current, PANTHEON.awaited(current).seat, rnd)
        batch = PANTHEON.decide(current, command, game_rng(seed, "fork", version))
        for event in batch:
            current = PANTHEON.evolve(current, event)
            assert check_invariants(current) == []
        events += batch
        version += len(batch)
    assert _data(fold(PANTHEON, events)) == _data(current)


def test_a_redeal_is_refused_once_the_fork_has_begun():
    state = _mid_game(2, "redeal-twice", 10)
    command = PANTHEON.fork_command(state, 0)
    assert isinstance(command, Redeal)
    with pytest.raises(Exception) as refused:
        PANTHEON.decide(state, command, game_rng(b"x", "fork", 1))
    assert getattr(refused.value, "code", None) == "game_exists"


def test_the_redeal_command_and_its_event_survive_the_store_codec():
    state = _mid_game(2, "redeal-codec", 30)
    command, event = PANTHEON.fork_command(state, 0), _redeal(state, 0)
    commands = msgspec.msgpack.Decoder(PANTHEON.command_type)
    events = msgspec.msgpack.Decoder(PANTHEON.event_type)
    assert _data(commands.decode(msgspec.msgpack.encode(command))) == _data(command)
    assert _data(events.decode(msgspec.msgpack.encode(event))) == _data(event)
