"""What the rate limits and quotas count in Redis, shared by every API process: the running games
with AI seats and the open event streams of each client address (concurrency, counted here), and
where the `limits` library keeps the rate limits' sliding-window counters. The policy (how many,
what a client is told) is the API's: `service.http.quotas`."""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from limits.aio.storage import RedisStorage
from redis.asyncio import BlockingConnectionPool, Redis, RedisCluster

from .connection import POOL_SIZE, TIMEOUT_S, connection_options

if TYPE_CHECKING:
    from limits.aio.storage.redis.redispy import RedispyBridge

STREAM_LEASE_S = 60  # an open stream renews its place this often; a crashed process's places lapse
AI_GAMES_KEPT_S = 30 * 24 * 3600  # a client's list of games with AI seats lapses this long after its last


def _limits_uri(redis_url: str) -> str:
    scheme, rest = redis_url.split("://", 1)
    return {"unix": "async+redis+unix", "redis": "async+redis", "rediss": "async+rediss"}[scheme] + "://" + rest


def rate_storage(
    redis_url: str, prefix: str, timeout_s: float | None = None, pool_size: int | None = None
) -> RedisStorage:
    """The `limits` storage of the rate limits' counters on `redis_url`, under `<prefix>:limits`, on a
    bounded, waiting pool like the store's: `limits` would make redis-py's default one, which refuses a command
    at once when its 100 connections are in use (a 503 for a command at 1,000 paced games)."""
    timeout = timeout_s or TIMEOUT_S
    pool = BlockingConnectionPool.from_url(
        redis_url, max_connections=pool_size or POOL_SIZE, timeout=timeout, **connection_options(timeout)
    )
    return RedisStorage(
        _limits_uri(redis_url),
        implementation="redispy",
        key_prefix=f"{prefix}:limits",
        connection_pool=pool,  # type: ignore[arg-type]  # its options are typed as scalars; a pool is documented
    )


async def close_rate_storage(storage: Any) -> None:
    """Close the connection pool of a storage `rate_storage` made (`limits` has no close of its own)."""
    client = cast("RedispyBridge", cast("RedisStorage", storage).bridge).storage
    await client.aclose()
    await client.connection_pool.disconnect()  # given to the client, so not closed with it


class Concurrency:
    """Per client address: its running games with AI seats, and its places for open event streams."""

    def __init__(self, redis: Redis | RedisCluster, prefix: str) -> None:
        self.redis, self.prefix = redis, prefix

    def _ai_key(self, client: str) -> str:
        return f"{self.prefix}:quota:ai:{client}"

    async def ai_games(self, client: str, running: Callable[[str], Awaitable[bool]]) -> int:
        """How many games with AI seats `client` runs: its games that `running` says still run (the
        others are forgotten here)."""
        key = self._ai_key(client)
        listed = cast("list[bytes]", await self.redis.zrange(key, 0, -1))  # no decode_responses
        for game in [g.decode() for g in listed]:
            if not await running(game):
                await self.redis.zrem(key, game)
        return int(await self.redis.zcard(key))

    async def count_ai_game(self, client: str, game: str) -> None:
        """Count a game with AI seats among `client`'s."""
        key = self._ai_key(client)
        await self.redis.zadd(key, {game: time.time()})
        await self.redis.expire(key, AI_GAMES_KEPT_S)

    async def streams_open(self, client: str) -> int:
        """How many event streams `client` holds open (places whose process died are dropped first)."""
        key = f"{self.prefix}:quota:streams:{client}"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zremrangebyscore(key, 0, time.time())
            pipe.zcard(key)
            _, held = await pipe.execute()
        return int(held)

    async def take_stream_place(self, client: str) -> StreamPlace:
        """A new place of `client` for an open event stream, held for a lease (renew it)."""
        place = StreamPlace(self.redis, f"{self.prefix}:quota:streams:{client}", uuid.uuid4().hex)
        await place.renew()
        return place


@dataclass
class StreamPlace:
    """A held stream place: renew it while the stream runs, release it when the stream ends."""

    redis: Redis | RedisCluster
    key: str
    place: str

    async def renew(self) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(self.key, {self.place: time.time() + STREAM_LEASE_S})
            pipe.expire(self.key, STREAM_LEASE_S * 2)
            await pipe.execute()

    async def release(self) -> None:
        await self.redis.zrem(self.key, self.place)
