"""A Pergamon state holds no secret and no pre-drawn chance (rules §10, §11), so what a seat knows
is exactly the fold of the events as it saw them: the unrevealed tiles, the unseen count and the
seen tiles of the box, the calendar stacks left, the funding cards' backs and values so far. The
bots' determinizations and a fork's first state must agree with that replayed public log; only
the other seats' VP of a secret-VP game differ (they start at 0: rulings R14, R16)."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.kernel import fold
from domain.pergamon import PERGAMON
from domain.pergamon.bots import SEARCH
from domain.pergamon.bots.knowledge import seat_knowledge
from domain.pergamon.commands import PergamonOptions
from domain.pergamon.playout import game_seed, play_game
from domain.pergamon.state import State
from domain.rng import SeededRng


def _data(state: State, viewer: int | None, secret: bool) -> object:
    data = msgspec.to_builtins(state, order="sorted")
    if secret:  # R14, R16: the VP the viewer was not shown stay out of its knowledge
        for i, seat in enumerate(data["seats"]):
            if i != viewer:
                seat["vp"] = 0
    return data


def public_log_problems(log: list, viewer: int | None, dealt: State) -> list[str]:
    """What in the public log (as `viewer` saw it) the dealt state contradicts."""
    replayed = fold(PERGAMON, [PERGAMON.redact(event, viewer) for event in log])
    secret = replayed.options.vp_visibility == "secret"
    if _data(replayed, viewer, secret) != _data(dealt, viewer, secret):
        return ["the public log replayed does not end in the dealt state"]
    return []


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("vp", ["open", "secret"])
def test_determinizations_and_forks_agree_with_the_public_log(players, vp):
    options = PergamonOptions(players=players, vp_visibility=vp)
    record = play_game(game_seed("facts", players), options, random.Random(players))
    events = [e for _, batch in record.steps for e in batch]
    commands = len(record.steps)
    ends = [sum(len(b) for _, b in record.steps[: commands * k // 7]) for k in range(1, 7)]
    for end in ends:
        log = events[:end]
        state = fold(PERGAMON, log)
        for viewer in (*range(players), None):
            dealt = SEARCH.determinize(seat_knowledge(state, viewer), random.Random(end))
            assert public_log_problems(log, viewer, dealt) == [], (end, viewer)
            [forked] = PERGAMON.decide(None, PERGAMON.fork_command(state, viewer), SeededRng(b"facts"))
            assert public_log_problems(log, viewer, forked.state) == [], (end, viewer, "fork")


def test_a_state_with_a_tile_moved_from_the_unrevealed_to_the_box_contradicts_the_log():
    record = play_game(game_seed("facts", 3), PergamonOptions(players=3), random.Random(3))
    log = [e for _, batch in record.steps[:40] for e in batch]
    state = fold(PERGAMON, log)
    assert public_log_problems(log, 0, state) == []
    moved = msgspec.convert(msgspec.to_builtins(state), State)
    moved.unrevealed = moved.unrevealed[1:]
    moved.unseen_box += 1
    assert public_log_problems(log, 0, moved) != []
