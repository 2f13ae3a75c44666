"""The clock keeper, in this process on the test's Redis: it leaves a running clock alone, times out
a seat past its deadline at the version it read (and enqueues the greedy AI's move), and gives an
outage (a gap between two looks) back to every running clock, in the log."""

from __future__ import annotations

import asyncio
import random
import time

import msgspec
import pytest

from domain import clock, games
from domain.clock import ClockChoice, PerMove
from domain.kernel import ClockPaused
from service.ai.clocks import ClockKeeper
from service.ai.scheduler import Scheduler, Turn
from service.config import Settings
from service.store.connection import connect
from service.store.streams import EventStore
from service.write import GameService, SeatSpec

from ..api_helpers import QUEUE_URL

PARTITIONS = 4


def _run(redis_url: str, prefix: str, work):
    async def go():
        client = connect(redis_url)
        try:
            service = GameService(EventStore(client, prefix=prefix, partitions=PARTITIONS))
            service.clock_min_s = 1
            return await work(service)
        finally:
            await client.aclose()

    return asyncio.run(go())


async def _clocked(service, seconds: int, then: str = "greedy") -> str:
    """A game of two people with a per-move clock, its first move played (the clocks then run)."""
    choice = ClockChoice(seats=[PerMove(seconds=seconds)] * 2, on_time_out=then)
    game = (await service.create("pantheon", {}, [SeatSpec(), SeatSpec()], clock=choice, claim=[0, 1])).game
    version, state = await service.state_at(game)
    seat = games.get("pantheon").decider.awaited(state).seat
    command = games.get("pantheon").random_command(state, seat, random.Random(1))
    await service.submit(game, seat, msgspec.to_builtins(command), expected_version=version)
    return game


@pytest.fixture
def keeper(redis_url, prefix):
    settings = Settings.from_environ({"PANTHEON_PREFIX": prefix, "PANTHEON_FEED_PARTITIONS": str(PARTITIONS)})
    made = ClockKeeper(settings, redis_url, Scheduler(redis_url, prefix, PARTITIONS, queue=QUEUE_URL))
    yield made
    made.close()
    made.scheduler.close()


def test_a_seat_past_its_deadline_is_timed_out_and_its_turn_given_to_the_greedy_ai(redis_url, prefix, keeper):
    game = _run(redis_url, prefix, lambda service: _clocked(service, 1))
    assert keeper.look().timed_out == 0  # its second has not run out
    time.sleep(1.1)
    report = keeper.look()
    assert report.timed_out == 1, report
    envelopes = _run(redis_url, prefix, lambda service: service.store.read(game))
    assert envelopes[-1].type == "timed_out"
    job = Turn.decode(keeper.scheduler.turns.current(game))
    assert job.version == envelopes[-1].version and job.seat == msgspec.msgpack.decode(envelopes[-1].payload)["seat"]
    assert keeper.scheduler.queue.count == 1  # the greedy AI's move for the seat waits for a worker
    assert keeper.look().timed_out == 0  # no second time-out of the same turn


def test_an_outage_between_two_looks_is_given_back_to_the_running_clocks(redis_url, prefix, keeper):
    game = _run(redis_url, prefix, lambda service: _clocked(service, 60))
    keeper.look()

    async def deadline(service):
        return clock.deadline((await service.clocks_of(game)).clocks)

    before = _run(redis_url, prefix, deadline)
    now = _run(redis_url, prefix, lambda service: service.store.redis_now_ms())
    _run(redis_url, prefix, lambda service: service.store.awaiting.beat(now - 20_000))  # no look for 20 s
    report = keeper.look()
    assert report.paused == 1 and report.timed_out == 0
    after = _run(redis_url, prefix, deadline)
    envelopes = _run(redis_url, prefix, lambda service: service.store.read(game))
    paused = msgspec.msgpack.decode(envelopes[-1].payload, type=ClockPaused)
    turn_began = envelopes[-2].recorded_at  # the first move, a moment ago: the gap began before it
    assert paused.from_ms == now - 20_000 and paused.to_ms >= now
    assert after - before == paused.to_ms - turn_began > 0  # only the part of the gap inside the turn
    assert keeper.look().paused == 0  # looked again at once: no gap
