"""The audit of turn clocks: a game that ended by a time-out passes every check; a time-out appended
before the deadline the log gives (a forged or buggy keeper) fails the `clocks` check at that event."""

from __future__ import annotations

import asyncio
import random

import msgspec
import pytest

from domain import games
from domain.clock import ClockChoice, PerMove
from domain.kernel import TimedOut
from service.audit.archive import load_export
from service.audit.checks import audit
from service.store.codec import PACK
from service.write import SeatSpec
from tests.service.audit.test_platform_events import _chained


async def _timed_out(service, then: str):
    """A 2-person Pantheon game with 1 s clocks, a few moves in, whose awaited seat timed out."""
    service.clock_min_s = 1
    choice = ClockChoice(seats=[PerMove(seconds=1), PerMove(seconds=1)], on_time_out=then)
    game = (await service.create("pantheon", {}, [SeatSpec(), SeatSpec()], clock=choice, claim=[0, 1])).game
    rnd, decider = random.Random(3), games.get("pantheon")
    for _ in range(3):
        version, state = await service.state_at(game)
        seat = decider.decider.awaited(state).seat
        await service.submit(game, seat, msgspec.to_builtins(decider.random_command(state, seat, rnd)))
    version, state = await service.state_at(game)
    await asyncio.sleep(1.05)
    await service.time_out(game, decider.decider.awaited(state).seat, version, await service.store.redis_now_ms())
    return game


def _clocks(report):
    return next((c.ok, c.first_failure) for c in report.checks if c.name == "clocks")


async def test_a_game_ended_by_a_time_out_passes_every_check(service):
    game = await _timed_out(service, "forfeit")
    header, envelopes = await load_export(service.store, game)
    report = audit(header, envelopes, games.get("pantheon").decider)
    assert header.seed and envelopes[-1].type == "timed_out"
    assert report.ok, [(c.name, c.detail) for c in report.checks if c.ok is not True]
    assert _clocks(report) == (True, None)


@pytest.mark.parametrize("early_ms", [1, 900])
async def test_a_time_out_appended_before_the_deadline_fails_the_audit_there(service, early_ms):
    game = await _timed_out(service, "forfeit")
    header, envelopes = await load_export(service.store, game)
    last = envelopes[-1]
    event = msgspec.msgpack.decode(last.payload, type=TimedOut)
    early = event.deadline_ms - early_ms  # what a keeper that did not wait would have written
    forged = msgspec.structs.replace(
        last,
        recorded_at=early,
        payload=msgspec.Raw(PACK.encode(msgspec.structs.replace(event, observed_ms=early))),
    )
    report = audit(header, _chained([*envelopes[:-1], forged]), games.get("pantheon").decider)
    assert not report.ok and _clocks(report) == (False, last.version)
    assert "before the deadline" in next(c.detail for c in report.checks if c.name == "clocks")
