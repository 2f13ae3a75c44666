"""The lobby: the listed games that are running and those that have ended, newest first by
creation time. Its two sorted sets are not in any game's hash tag (on a Redis Cluster they may be
on two nodes): a move from one to the other never delists a game without listing it on the other
side first (a failure between the two leaves it in both, and a retry finishes the move)."""

from __future__ import annotations

import builtins
from typing import cast

from redis.asyncio import Redis, RedisCluster

# redis-py types answers as bytes | str and a page with scores as a union: these clients are made
# without decode_responses, so the casts below say what Redis answers.


class Lobby:
    def __init__(self, redis: Redis | RedisCluster, prefix: str) -> None:
        self.redis = redis
        self.running_key, self.ended_key = f"{prefix}:lobby", f"{prefix}:lobby:ended"

    def _key(self, ended: bool) -> str:
        return self.ended_key if ended else self.running_key

    async def list(self, game: str, created_at: int, *, ended: bool = False) -> None:
        """List a game (with its creation time) among the running games, or the ended ones."""
        await self.redis.zadd(self._key(ended), {game: created_at})

    async def list_if_absent(self, game: str, created_at: int) -> None:
        """List a running game unless it is listed already (its creation time kept)."""
        await self.redis.zadd(self.running_key, {game: created_at}, nx=True)

    async def newest(self, limit: int, *, ended: bool = False) -> builtins.list[str]:
        """The ids of the newest listed games that are running (or, with `ended`, that have ended)."""
        return [
            g.decode() for g in cast("builtins.list[bytes]", await self.redis.zrevrange(self._key(ended), 0, limit - 1))
        ]

    async def page_after(
        self, after: tuple[int, str] | None, count: int, *, ended: bool = False
    ) -> builtins.list[tuple[str, int]]:
        """Up to `count` listed games (id, creation time), newest first, after the game `after`
        (its creation time and id; None: from the newest). Ties in time are ordered by id, descending."""
        key = self._key(ended)
        if after is None:
            found = cast(
                "builtins.list[tuple[bytes, float]]",
                await self.redis.zrevrangebyscore(key, "+inf", "-inf", start=0, num=count, withscores=True),
            )
            return [(g.decode(), int(score)) for g, score in found]
        at, game = after
        ties = sorted(
            (g.decode() for g in cast("builtins.list[bytes]", await self.redis.zrangebyscore(key, at, at))),
            reverse=True,
        )
        page = [(g, at) for g in ties if g < game][:count]
        older = cast(
            "builtins.list[tuple[bytes, float]]",
            await self.redis.zrevrangebyscore(key, f"({at}", "-inf", start=0, num=count - len(page), withscores=True),
        )
        return page + [(g.decode(), int(score)) for g, score in older]

    async def move_to_ended(self, game: str) -> None:
        """Move a game from the running games to the ended ones (if it was listed at all)."""
        await self._move(game, self.running_key, self.ended_key)

    async def move_to_running(self, game: str) -> None:
        """Move a game back from the ended games to the running ones (if it was listed there)."""
        await self._move(game, self.ended_key, self.running_key)

    async def _move(self, game: str, source: str, target: str) -> None:
        score = await self.redis.zscore(source, game)
        if score is not None:  # listed on the target side before it leaves the source: never in neither
            await self.redis.zadd(target, {game: score})
            await self.redis.zrem(source, game)
