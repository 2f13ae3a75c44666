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
