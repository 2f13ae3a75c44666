"""The projector's batches (issue 26): one read takes the new entries of every partition of one
Redis, the events of a batch's cached games come in one round trip and their writes go in one, and
entries that come while the loop rests after a batch are taken together. Round trips are counted
where redis-py sends them (one packed send per command or per pipeline) on the test's real Redis."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from redis.asyncio import RedisCluster
from redis.asyncio.connection import AbstractConnection

from service.read.projector import Projector

from ..projector_helpers import mark_current, new_games, pending, play, rebuilt_snapshot, snapshot, wait_caught_up


class RoundTrips:
    """Counts what redis-py sends: one packed send is one round trip."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count, real = 0, AbstractConnection.send_packed_command

        async def counted(connection, command, check_health=True):
            self.count += 1
            return await real(connection, command, check_health)

        monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)


async def test_one_step_projects_every_partitions_new_entries_in_three_round_trips(store, service, monkeypatch):
    if isinstance(store.redis, RedisCluster):
        pytest.skip("a read spans partitions on one Redis only: on a cluster each partition is read alone")
    games = await new_games(service, 8)  # over the 4 partitions
    await mark_current(store)
    p = Projector(store)
    await p.setup()
    await p.drain()  # every game's fold is cached now
    await play(service, games, 1, random.Random(40))  # one new entry for each game
    trips = RoundTrips(monkeypatch)
    taken = await p.step(*store.feed_keys())
    monkeypatch.undo()
    assert (taken, trips.count) == (8, 3)  # the feed read, the events of all 8 games, their writes and acks
    assert await pending(store) == 0
    assert await snapshot(store, games) == await rebuilt_snapshot(store, games)


async def test_entries_that_come_while_the_projector_rests_after_a_batch_are_projected_together(store, service):
    games = await new_games(service, 4)
    await mark_current(store)
    p, stop = Projector(store, gather_ms=2000, block_ms=50), asyncio.Event()
    running = asyncio.create_task(p.run(stop))
    try:
        await wait_caught_up(store, games)  # the creations: the first batch, then it rests 2 s
        batches = p.stats.batches
        await play(service, games, 1, random.Random(41))  # four entries while it rests
        await wait_caught_up(store, games)
        together = store.feeds.read_together()  # one read of every partition (on a cluster: one each)
        reads = {n for n, feeds in enumerate(together) for game in games if store.keys(game).feed in feeds}
        assert p.stats.batches - batches == len(reads)  # one batch a read, not one a game
        await asyncio.sleep(2.2)  # it rests no longer and waits in a read: an entry is taken at once
        before = time.monotonic()
        await play(service, games[:1], 1, random.Random(42))
        await wait_caught_up(store, games)
        assert time.monotonic() - before < 1.5  # well under the 2 s it rests after a batch
    finally:
        stop.set()
        await running
    assert await snapshot(store, games) == await rebuilt_snapshot(store, games)


async def test_batches_of_several_partitions_handled_side_by_side_lose_no_write(store, service):
    """On a cluster each partition has its loop and they share one projector: each batch keeps its
    own writes until it sends them."""
    games = await new_games(service, 8)
    await mark_current(store)
    p = Projector(store)
    await p.setup()
    await p.drain()  # every game's fold is cached
    real = p._project

    async def taking_turns(*args):
        await asyncio.sleep(0.01)  # folding a game lets the other partitions' batches go on
        await real(*args)

    async def later(n: int, feed: str) -> int:
        await asyncio.sleep(0.015 * n)  # the loops' batches start at different moments
        return await p.step(feed)

    p._project = taking_turns  # type: ignore[method-assign]
    for seed in range(3):
        await play(service, games, 1, random.Random(50 + seed))
        taken = await asyncio.gather(*(later(n, feed) for n, feed in enumerate(store.feed_keys())))
        assert sum(taken) == 8
        assert await pending(store) == 0  # every entry acked: its write went through
    assert await snapshot(store, games) == await rebuilt_snapshot(store, games)
