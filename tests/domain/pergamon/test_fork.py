"""Forks of a running game: the fork starts from the viewer's knowledge, keeps what was revealed
(backs included), draws everything else afresh with its own seed, and plays to the end."""

import random

import msgspec

from domain.kernel import fold
from domain.pergamon import PERGAMON
from domain.pergamon import events as ev
from domain.pergamon.commands import ChooseFundingSpace, PergamonOptions
from domain.pergamon.fork import PergamonForked
from domain.pergamon.invariants import check_invariants
from domain.pergamon.playout import game_seed, play_game
from domain.pergamon.random_play import random_command
from domain.rng import SeededRng

from .scenario import refused


def _parent(options, steps: int):
    record = play_game(game_seed("fork", steps), options, random.Random(steps))
    events = [e for _, es in record.steps[:steps] for e in es]
    return fold(PERGAMON, events)


def _play_on(state, seed: bytes):
    rnd, version = random.Random(seed), 0
    while not state.finished:
        state, _ = PERGAMON.apply(
            state, random_command(state, state.awaiting, rnd), SeededRng(seed + bytes([version % 256]))
        )
        version += 1
        assert check_invariants(state) == []
    return state


def test_a_fork_starts_from_the_parent_state_and_plays_to_the_end():
    parent = _parent(PergamonOptions(players=3), 40)
    command = PERGAMON.fork_command(parent, 0)
    events = PERGAMON.decide(None, command, SeededRng(b"child"))
    assert len(events) == 1 and isinstance(events[0], PergamonForked)
    child = fold(PERGAMON, events)
    assert child == parent and child is not parent
    assert _play_on(child, b"child").finished
    assert refused(child, command).code == "game_exists"


def test_a_fork_between_backs_and_reveal_keeps_the_backs_and_draws_the_values_afresh():
    record = play_game(game_seed("fork-backs", 0), PergamonOptions(players=4), random.Random(0))
    state, values = None, set()
    for _, es in record.steps:
        for e in es:
            state = PERGAMON.evolve(state, e)
        if state.round == 3 and state.decision == "choose_funding_space" and len(state.figures) == 3:
            break
    backs = list(state.backs)
    for seed in range(12):
        child = fold(PERGAMON, PERGAMON.decide(None, PERGAMON.fork_command(state, None), SeededRng(bytes([seed]))))
        last = child.awaiting
        taken = set(child.figures.values())
        space = next(k for k in range(1, 14) if k not in taken)
        out = PERGAMON.decide(child, ChooseFundingSpace(seat=last, space=space), SeededRng(bytes([seed, 9])))
        revealed = next(e for e in out if isinstance(e, ev.FundingRevealed))
        assert child.backs == backs
        values.add(tuple(revealed.values))
    assert len(values) > 1


def test_with_secret_vp_a_fork_from_a_seat_knows_only_its_own_vp():
    parent = _parent(PergamonOptions(players=3, vp_visibility="secret"), 70)
    assert sum(s.vp for s in parent.seats[1:]) > 0
    event = PERGAMON.decide(None, PERGAMON.fork_command(parent, 0), SeededRng(b"s"))[0]
    assert [s.vp for s in event.state.seats] == [parent.seats[0].vp, 0, 0]
    assert "vp" in msgspec.json.encode(event).decode()
    assert [s.vp for s in PERGAMON.redact(event, 1).state.seats] == [0, 0, 0]
