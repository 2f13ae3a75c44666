"""The shared connection pool is bounded and blocking: a request waits for a free connection, and
one that waited too long fails as "nothing was written" (a 503 `store_unavailable`)."""

from __future__ import annotations

import asyncio
import time

import pytest
from redis.asyncio import RedisCluster
from redis.exceptions import ConnectionError, MaxConnectionsError

from service.http.problems import status_of
from service.store.connection import connect
from service.write.errors import store_failure


async def test_a_full_pool_makes_a_command_wait_for_a_connection_and_then_fail_as_not_sent(redis_url):
    client = connect(redis_url, timeout_s=0.3, pool_size=1)
    if isinstance(client, RedisCluster):  # its pools are per node and do not wait: the next test
        await client.aclose()
        return
    held = await client.connection_pool.get_connection()
    try:
        started = time.monotonic()
        with pytest.raises(ConnectionError) as waited:
            await client.ping()
        assert 0.25 <= time.monotonic() - started < 1.0
        loop = asyncio.get_running_loop()
        loop.call_later(0.1, lambda: asyncio.ensure_future(client.connection_pool.release(held)))
        assert await client.ping()  # a connection given back in time is taken by the waiting command
        held = None
    finally:
        if held is not None:
            await client.connection_pool.release(held)
        await client.aclose()
    failure = store_failure(waited.value, writing=True)  # even on the write path: it was never sent
    assert (status_of(failure), failure.code, failure.extra) == (503, "store_unavailable", {"retry_after": 1})


async def test_on_a_cluster_commands_beyond_the_bound_wait_for_a_turn_and_then_fail_as_not_sent(redis_url):
    client = connect(redis_url, timeout_s=0.3, pool_size=2)
    if not isinstance(client, RedisCluster):  # a single Redis's pool: the test above
        await client.aclose()
        return
    held = [client.turn() for _ in range(2)]
    for turn in held:
        await turn.__aenter__()
    try:
        started = time.monotonic()
        with pytest.raises(ConnectionError) as waited:
            await client.get("{k}")
        assert 0.25 <= time.monotonic() - started < 1.0
        asyncio.get_running_loop().call_later(
            0.1, lambda: asyncio.ensure_future(held.pop().__aexit__(None, None, None))
        )
        async with client.pipeline(transaction=False) as pipe:  # pipelines wait for a turn too
            pipe.get("{k}")
            assert await pipe.execute() == [None]
    finally:
        for turn in held:
            await turn.__aexit__(None, None, None)
        await client.aclose()
    failure = store_failure(waited.value, writing=True)
    assert (status_of(failure), failure.code) == (503, "store_unavailable")


def test_a_cluster_nodes_full_pool_is_an_error_of_nothing_sent():
    failure = store_failure(MaxConnectionsError(), writing=True)  # redis-py's cluster pools do not wait
    assert (status_of(failure), failure.code) == (503, "store_unavailable")


async def test_a_burst_beyond_the_pool_waits_its_turn_and_cancelled_commands_give_their_turns_back(redis_url):
    """More commands at once than connections: each waits for a turn, none fails; commands cancelled
    while they waited or held a connection (a client gone, a deadline) leave the pool whole."""
    client = connect(redis_url, timeout_s=2.0, pool_size=4)
    if isinstance(client, RedisCluster):  # its turns are the BoundedCluster's: the test above
        await client.aclose()
        return
    pool = client.connection_pool
    try:
        assert await asyncio.gather(*(client.ping() for _ in range(200))) == [True] * 200
        for _ in range(3):  # cancelled mid-flight, at every stage of taking and giving back a connection
            tasks = [asyncio.ensure_future(client.blpop(["pool-test:none"], timeout=0.05)) for _ in range(12)]
            await asyncio.sleep(0.01)
            for task in tasks[::2]:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        assert await asyncio.gather(*(client.ping() for _ in range(50))) == [True] * 50
        # every turn given back, none twice: four commands hold the four connections at once, a fifth waits
        started = time.monotonic()
        await asyncio.gather(*(client.blpop(["pool-test:none"], timeout=0.3) for _ in range(4)))
        assert time.monotonic() - started < 0.55
        assert len(pool._in_use_connections) == 0 and len(pool._available_connections) <= 4
    finally:
        await client.aclose()
