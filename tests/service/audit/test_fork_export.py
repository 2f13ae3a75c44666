"""The first event of a fork of a running game (its whole state, dealt afresh) in the export format,
for every registered game and with no server: it reads back as the bytes its hash covers, and the
fork's log audits clean with its seed."""

from __future__ import annotations

import hashlib
import random

import pytest

from domain import games
from domain.kernel import fold
from domain.rng import game_rng
from service.audit.checks import audit
from service.audit.export import Header, chain, export_lines, read_export


def log_of(kind: str, seed: bytes, game: str, first, commands: int | None, rnd: random.Random):
    """(command, events) pairs of `first`, the game's first command, and of up to `commands` random
    ones after it (None: to the end), each decided with the game's RNG at its version; and the state
    they lead to."""
    decider, random_command = games.get(kind).decider, games.get(kind).random_command
    steps, state, command = [], None, first
    while command is not None:
        events = decider.decide(state, command, game_rng(seed, game, sum(len(e) for _, e in steps)))
        steps.append((command, events))
        state = fold(decider, events, state)
        awaited = decider.awaited(state)
        more = commands is None or len(steps) <= commands
        command = random_command(state, awaited.seat, rnd) if awaited and more else None
    return steps, state


@pytest.mark.parametrize("kind", games.kinds())
def test_forks_of_a_running_game_export_read_back_byte_for_byte_and_audit_clean(kind):
    spec, rnd, seed = games.get(kind), random.Random(23), b"f" * 32
    parent_steps, _ = log_of(kind, b"p" * 32, "parent", spec.create_command({"players": min(spec.players)}), None, rnd)
    commitment = hashlib.sha256(seed).hexdigest()
    for at in range(20, len(parent_steps), 20):  # every 20 commands: the state in the shapes a game takes
        parent = fold(spec.decider, [e for _, events in parent_steps[:at] for e in events])
        steps, forked = log_of(kind, seed, "fork", spec.decider.fork_command(parent, at % 2), 10, rnd)
        envelopes = chain("fork", steps, facts={"commitment": commitment})
        header = Header(
            game="fork",
            kind=kind,
            engine=spec.engine,
            commitment=commitment,
            seed=seed.hex(),
            lineage={"parent": "parent", "at": at, "redealt": True},
            events=len(envelopes),
        )

        _, back = read_export(list(export_lines(header, envelopes, spec.decider)))

        assert back == envelopes, at
        checks = {c.name: c.ok for c in audit(header, back, spec.decider).checks}
        assert checks == {
            "commitment": True,
            "hash_chain": True,
            "replay": True,
            "commands_redecided": True,
            "ai_views": True,
            "platform_events": True,
            "clocks": True,
            "final_scores": True if spec.decider.is_terminal(forked) else None,
        }, at
