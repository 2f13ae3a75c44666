"""Whom each running game awaits, as the append records it in its partition's awaiting hash (game
-> "version|seat|since ms"): what the AI sweeper derives due turns from, and the idle clock of a
seat."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from .streams import EventStore

# KEYS: the partition's awaiting hash. ARGV: game, "version|seat|" of the awaited turn. Starts that
# turn's clock afresh (the Redis clock), if the game still awaits it.
_TOUCH_AWAITING = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current or string.sub(current, 1, #ARGV[2]) ~= ARGV[2] then return 0 end
local now = redis.call('TIME')
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. (tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)))
return 1
"""


class Awaiting:
    def __init__(self, store: EventStore) -> None:
        self.store, self.redis = store, store.redis
        self._touch = self.redis.register_script(_TOUCH_AWAITING)

    async def awaited(self, game: str) -> tuple[int, int, float] | None:
        """Whom the game awaits as the store recorded it: (version, seat, since in seconds), or None."""
        # Redis answers bytes (no decode_responses); redis-py types it bytes | str
        value = cast("bytes | None", await self.redis.hget(self.store.awaiting_key(self.store.partition(game)), game))
        if value is None:
            return None
        version, seat, since_ms = value.decode().split("|")
        return int(version), int(seat), int(since_ms) / 1000

    async def entries(self, partition: int) -> dict[bytes, bytes]:
        """The partition's running games and whom each awaits (game -> "version|seat|since ms")."""
        entries = await self.redis.hgetall(self.store.awaiting_key(partition))  # bytes: no decode_responses
        return cast("dict[bytes, bytes]", entries)

    async def beat(self, now_ms: int) -> int | None:
        """Record that the clock keeper looked at `now_ms` (the Redis clock); when it last did (None: never)."""
        last = await self.redis.set(f"{self.store.prefix}:clock:beat", now_ms, get=True)
        return None if last is None else int(last)

    async def restart_clock(self, game: str, version: int, seat: int) -> bool:
        """Start the clock of the awaited turn afresh (its idle time counts from now), if the game
        still awaits `seat` at `version`."""
        key = self.store.awaiting_key(self.store.partition(game))
        return bool(await self._touch(keys=[key], args=[game, f"{version}|{seat}|"]))
