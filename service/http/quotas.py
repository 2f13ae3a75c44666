"""Rate limits and quotas, counted in Redis so that every API process shares them: games created
per client address, commands per seat (rates, with the `limits` library's sliding-window counters),
and games with AI seats and open event streams per address (concurrency, counted here). Over a
limit: 429 `rate_limited` or `quota_exceeded` with `Retry-After`."""

from __future__ import annotations

import ipaddress
import math
import time

from limits import RateLimitItem, parse_many
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from litestar import Request

from service.config import QuotaSettings
from service.errors import Code, ServiceError
from service.store.quotas import STREAM_LEASE_S, Concurrency, StreamPlace, close_rate_storage, rate_storage

__all__ = ["STREAM_LEASE_S", "Quotas", "StreamPlace"]


class Quotas:
    """`redis_url`: where the rate limits' counters are kept, a plain Redis that every API process
    shares (PANTHEON_QUEUE_URL on a Redis Cluster: `limits`' cluster storage fails under bursts
    with redis-py 8's asyncio cluster client); the concurrency quotas are kept in the store."""

    def __init__(
        self,
        redis_url: str,
        prefix: str,
        settings: QuotaSettings,
        *,
        timeout_s: float | None = None,
        pool_size: int | None = None,
    ) -> None:
        self.settings, self.prefix = settings, prefix
        self.limiter = SlidingWindowCounterRateLimiter(rate_storage(redis_url, prefix, timeout_s, pool_size))
        self.rates: dict[str, list[RateLimitItem]] = {
            "create": parse_many(settings.create),
            "commands": parse_many(settings.commands),
        }
        self.trusted = [ipaddress.ip_network(p, strict=False) for p in settings.trusted_proxies]

    async def close(self) -> None:
        await close_rate_storage(self.limiter.storage)

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
                await self._refuse(item, rate, identity)

    async def check(self, rate: str, identity: str) -> None:
        """429 when a limit of `rate` is already spent for `identity`, without counting this request."""
        for item in self.rates[rate]:
            if not await self.limiter.test(item, rate, identity):
                await self._refuse(item, rate, identity)

    async def _refuse(self, item: RateLimitItem, rate: str, identity: str) -> None:
        stats = await self.limiter.get_window_stats(item, rate, identity)
        retry = max(1, math.ceil(stats.reset_time - time.time()))
        raise ServiceError(Code.RATE_LIMITED, f"Too many requests ({item}); try again in {retry} s.", retry_after=retry)

    async def admit_ai_game(self, counts: Concurrency, client: str, running) -> None:
        """429 when `client` already has as many running games with AI seats as allowed; `running`
        says whether a game listed earlier still runs (finished ones are forgotten here)."""
        if await counts.ai_games(client, running) >= self.settings.ai_games:
            raise ServiceError(
                Code.QUOTA_EXCEEDED,
                f"You have {self.settings.ai_games} games with AI seats running; finish one first.",
                retry_after=60,
            )

    async def open_stream(self, counts: Concurrency, client: str) -> StreamPlace:
        """One of `client`'s places for an open event stream; 429 when none is free."""
        if await counts.streams_open(client) >= self.settings.streams:
            raise ServiceError(
                Code.QUOTA_EXCEEDED,
                f"You have {self.settings.streams} event streams open; close one first.",
                retry_after=5,
            )
        return await counts.take_stream_place(client)
