"""Rate limits and quotas, counted in Redis so that every API process shares them: games created
per client address, commands per seat (rates, with the `limits` library's sliding-window counters),
and games with AI seats and open event streams per address (concurrency, counted here). Over a
limit: 429 `rate_limited` or `quota_exceeded` with `Retry-After`."""

from __future__ import annotations

import ipaddress
import math
import time
import uuid
from dataclasses import dataclass

from limits import RateLimitItem, parse_many
from limits.aio.storage import RedisStorage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from litestar import Request
from redis.asyncio import Redis

from service.config import QuotaSettings
from service.store.connection import connection_options
from service.write import ServiceError

STREAM_LEASE_S = 60  # an open stream renews its place this often; a crashed process's places lapse


def _limits_uri(redis_url: str) -> str:
    scheme, rest = redis_url.split("://", 1)
    return {"unix": "async+redis+unix", "redis": "async+redis", "rediss": "async+rediss"}[scheme] + "://" + rest


class Quotas:
    """`redis_url`: where the rate limits' counters are kept, a plain Redis that every API process
    shares (PANTHEON_QUEUE_URL on a Redis Cluster: `limits`' cluster storage fails under bursts
    with redis-py 8's asyncio cluster client); the concurrency quotas are kept in the store."""

    def __init__(self, redis_url: str, prefix: str, settings: QuotaSettings, *, timeout_s: float | None = None) -> None:
        self.settings, self.prefix = settings, prefix
        storage = RedisStorage(_limits_uri(redis_url), implementation="redispy", key_prefix=f"{prefix}:limits",
                               **(connection_options(timeout_s) if timeout_s else connection_options()))
        self.limiter = SlidingWindowCounterRateLimiter(storage)
        self.rates: dict[str, list[RateLimitItem]] = {"create": parse_many(settings.create),
                                                     "commands": parse_many(settings.commands)}
        self.trusted = [ipaddress.ip_network(p, strict=False) for p in settings.trusted_proxies]

    async def close(self) -> None:
        await self.limiter.storage.bridge.storage.aclose()

    def client(self, request: Request) -> str:
        """The client's address: the peer's, or, behind a trusted proxy, the last address in
        X-Forwarded-For that is not itself a trusted proxy."""
        peer = request.client.host if request.client else "unknown"
        if not self._trusted(peer):
            return peer
        hops = [h.strip() for h in request.headers.get("x-forwarded-for", "").split(",") if h.strip()]
        for hop in reversed(hops):
            if not self._trusted(hop):
                return hop
        return peer

    def _trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.trusted)

    async def hit(self, rate: str, identity: str) -> None:
        """Count one request against every limit of `rate` for `identity`; 429 when one is spent."""
        for item in self.rates[rate]:
            if not await self.limiter.hit(item, rate, identity):
                stats = await self.limiter.get_window_stats(item, rate, identity)
                retry = max(1, math.ceil(stats.reset_time - time.time()))
                raise ServiceError(429, "rate_limited", f"Too many requests ({item}); try again in {retry} s.",
                                   retry_after=retry)

    async def admit_ai_game(self, redis: Redis, client: str, running) -> None:
        """429 when `client` already has as many running games with AI seats as allowed; `running`
        says whether a game listed earlier still runs (finished ones are forgotten here)."""
        key = f"{self.prefix}:quota:ai:{client}"
        for game in [g.decode() for g in await redis.zrange(key, 0, -1)]:
            if not await running(game):
                await redis.zrem(key, game)
        if await redis.zcard(key) >= self.settings.ai_games:
            raise ServiceError(429, "quota_exceeded", f"You have {self.settings.ai_games} games with AI seats running; "
                                                      "finish one first.", retry_after=60)

    async def count_ai_game(self, redis: Redis, client: str, game: str) -> None:
        key = f"{self.prefix}:quota:ai:{client}"
        await redis.zadd(key, {game: time.time()})
        await redis.expire(key, 30 * 24 * 3600)

    async def open_stream(self, redis: Redis, client: str) -> StreamPlace:
        """One of `client`'s places for an open event stream; 429 when none is free."""
        key, now = f"{self.prefix}:quota:streams:{client}", time.time()
        async with redis.pipeline(transaction=True) as pipe:
            pipe.zremrangebyscore(key, 0, now)  # places whose process died without giving them back
            pipe.zcard(key)
            _, held = await pipe.execute()
        if held >= self.settings.streams:
            raise ServiceError(429, "quota_exceeded", f"You have {self.settings.streams} event streams open; close "
                                                      "one first.", retry_after=5)
        place = StreamPlace(redis, key, uuid.uuid4().hex)
        await place.renew()
        return place


@dataclass
class StreamPlace:
    """A held stream place: renew it while the stream runs, release it when the stream ends."""

    redis: Redis
    key: str
    place: str

    async def renew(self) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(self.key, {self.place: time.time() + STREAM_LEASE_S})
            pipe.expire(self.key, STREAM_LEASE_S * 2)
            await pipe.execute()

    async def release(self) -> None:
        await self.redis.zrem(self.key, self.place)
