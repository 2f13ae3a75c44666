"""AI turns through RQ: real worker processes, real Redis, the same command path as people."""

import asyncio
import os
import signal
import subprocess
import sys
import time

import pytest
import redis
from redis.asyncio import Redis

from service.ai import Scheduler, play_ai_turn, turn_key
from service.games import GameService, SeatSpec
from service.store import EventStore

PARTITIONS = 4


def worker(redis_url: str, prefix: str, **env: str) -> subprocess.Popen:
    environment = dict(os.environ, REDIS_URL=redis_url, PANTHEON_PREFIX=prefix,
                       PANTHEON_FEED_PARTITIONS=str(PARTITIONS), **env)
    return subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env=environment,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def create(redis_url: str, prefix: str, seats: list[SeatSpec], schedule: bool = True) -> str:
    client = Redis.from_url(redis_url)
    scheduler = Scheduler(redis_url, prefix, PARTITIONS) if schedule else None
    service = GameService(EventStore(client, prefix=prefix, partitions=PARTITIONS), on_awaiting=scheduler)
    game = (await service.create("pantheon", {}, seats)).game
    await client.aclose()
    return game


async def state_of(redis_url: str, prefix: str, game: str):
    client = Redis.from_url(redis_url)
    service = GameService(EventStore(client, prefix=prefix, partitions=PARTITIONS))
    try:
        return await service.state_at(game), await service.store.read(game)
    finally:
        await client.aclose()


def wait_for(condition, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_the_same_ai_turn_run_twice_applies_once(redis_url, prefix):
    game = asyncio.run(create(redis_url, prefix, [SeatSpec(type="ai", level="random")] * 2, schedule=False))
    (version, state), _ = asyncio.run(state_of(redis_url, prefix, game))
    seat = state.agenda[0].seat
    first = play_ai_turn(redis_url, prefix, PARTITIONS, game, version, seat)
    second = play_ai_turn(redis_url, prefix, PARTITIONS, game, version, seat)
    (after, _), envelopes = asyncio.run(state_of(redis_url, prefix, game))
    assert first == "played" and second in ("stale", "duplicate")
    batch = [e for e in envelopes if e.idempotency_key == turn_key(game, version, seat)]
    assert batch and batch[0].version == version + 1 and after == batch[-1].version
    assert batch[0].provenance["bot"] == "random" and len(batch[0].provenance["view"]) == 64


def test_a_four_seat_all_ai_game_is_played_to_its_end_by_the_workers(redis_url, prefix):
    workers = [worker(redis_url, prefix), worker(redis_url, prefix)]
    try:
        game = asyncio.run(create(redis_url, prefix, [SeatSpec(type="ai", level="random")] * 4))
        wait_for(lambda: asyncio.run(state_of(redis_url, prefix, game))[0][1].finished, timeout=600)
    finally:
        for w in workers:
            w.send_signal(signal.SIGTERM)
        for w in workers:
            w.wait(timeout=30)
    (version, state), envelopes = asyncio.run(state_of(redis_url, prefix, game))
    keys = [e.idempotency_key for e in envelopes if e.cause is not None and e.seat is not None]
    assert len(keys) == len(set(keys))  # every AI turn applied exactly once
    assert all(e.provenance for e in envelopes if e.cause is not None and e.seat is not None)


def test_a_worker_killed_mid_turn_leaves_the_turn_to_be_played_after_all(redis_url, prefix):
    client = redis.Redis.from_url(redis_url)
    scheduler = Scheduler(redis_url, prefix, PARTITIONS)
    for _ in range(5):  # the kill must land while the strong bot thinks: retry if the turn was too quick
        game = asyncio.run(create(redis_url, prefix, [SeatSpec(type="ai", level="strong")] * 2, schedule=False))
        (version, state), _ = asyncio.run(state_of(redis_url, prefix, game))
        seat = state.agenda[0].seat
        doomed = worker(redis_url, prefix, PANTHEON_AI_LEASE_S="1")
        scheduler(game, version, seat)
        job_key = f"rq:job:{prefix}-{turn_key(game, version, seat)}"
        wait_for(lambda: client.hget(job_key, "status") in (b"started", b"finished"), timeout=60)
        doomed.send_signal(signal.SIGKILL)
        doomed.wait()
        if asyncio.run(state_of(redis_url, prefix, game))[0][0] == version:
            break
    else:
        pytest.fail("every turn finished before the worker could be killed")
    heir = worker(redis_url, prefix, PANTHEON_AI_LEASE_S="1")
    try:
        wait_for(lambda: asyncio.run(state_of(redis_url, prefix, game))[0][0] > version, timeout=90)
    finally:
        heir.send_signal(signal.SIGTERM)
        heir.wait(timeout=30)
    _, envelopes = asyncio.run(state_of(redis_url, prefix, game))
    assert len([e for e in envelopes if e.idempotency_key == turn_key(game, version, seat) and e.cause]) == 1
    client.close()
