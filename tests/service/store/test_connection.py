"""The shared connection pool is bounded and blocking: a request waits for a free connection, and
one that waited too long fails as "nothing was written" (a 503 `store_unavailable`)."""

from __future__ import annotations

import asyncio
import time

import pytest
from redis.exceptions import ConnectionError

from service.store.connection import connect
from service.write.errors import store_failure


async def test_a_full_pool_makes_a_command_wait_for_a_connection_and_then_fail_as_not_sent(redis_url):
    client = connect(redis_url, timeout_s=0.3, pool_size=1)
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
    assert (failure.status, failure.code, failure.extra) == (503, "store_unavailable", {"retry_after": 1})
