"""What the archiver keeps in Redis: its claim on a game while it moves it to the archive, the one
script that then deletes the game's keys, what it reads of a game to decide and to copy it, its
figures for /metrics and the key that says an archiver of a host is alive. Moving the files is
`service.audit.archiver`'s."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, cast

from .codec import UNPACK_ENVELOPE

if TYPE_CHECKING:
    from .streams import EventStore

# KEYS: the claim, meta hash, events stream, refused commands, the partition's awaiting hash, then
# the game's read models (all in the game's hash tag). ARGV: the claim's token, the version and
# revision archived, the game id. Deletes the game if the claim is ours and the game is unchanged.
_DELETE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local stored = redis.call('HMGET', KEYS[2], 'version', 'rev')
if (stored[1] or '') ~= ARGV[2] or (stored[2] or '') ~= ARGV[3] then
  redis.call('DEL', KEYS[1])
  return 0
end
redis.call('HDEL', KEYS[5], ARGV[4])
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], unpack(KEYS, 6))
return 1
"""


def status_key(prefix: str) -> str:
    """The archivers' figures for /metrics: `skipped:<reason>`, games skipped so far, and `skipped` and
    `swept_at` of the last sweep."""
    return f"{prefix}:archiver:status"


def alive_key(prefix: str, host: str) -> str:
    """The key that says an archiver of `host` is alive (`pantheon alive archiver`): set before each sweep."""
    return f"{prefix}:archiver:alive:{host}"


def archiver_alive(client, prefix: str, host: str) -> bool:
    """Whether an archiver of `host` said it is alive (a synchronous client: `pantheon alive`)."""
    return bool(client.exists(alive_key(prefix, host)))


class ArchiveClaims:
    def __init__(self, store: EventStore) -> None:
        self.store, self.redis = store, store.redis
        self._delete = self.redis.register_script(_DELETE)
        self.status_key = status_key(store.prefix)

    async def last_activity(self, game: str) -> tuple[bool, int, int]:
        """Whether the game has ended, its version, and the time of its last event (or of its
        creation) in ms, as Redis holds them."""
        keys = self.store.keys(game)
        finished, created, version = await self.redis.hmget(keys.meta, "finished", "created_at", "version")
        # Redis answers bytes (no decode_responses); redis-py types it bytes | str
        last = cast("list[tuple[bytes, dict[bytes, bytes]]]", await self.redis.xrevrange(keys.events, count=1))
        last_ms = max(int(created or 0), UNPACK_ENVELOPE.decode(last[0][1][b"e"]).recorded_at if last else 0)
        return finished is not None, int(version or 0), last_ms

    async def claim(self, game: str, token: str, seconds: int) -> bool:
        """Claim the game for `seconds` unless another archiver holds it."""
        return bool(await self.redis.set(self.store.keys(game).archiving, token, nx=True, ex=seconds))

    async def release(self, game: str) -> None:
        await self.redis.delete(self.store.keys(game).archiving)

    async def in_redis(self, game: str) -> tuple[dict[str, bytes], list[dict[bytes, bytes]]]:
        """The game's metadata and refused commands as Redis holds them (not the archive)."""
        keys = self.store.keys(game)
        meta = {k.decode(): v for k, v in cast("dict[bytes, bytes]", await self.redis.hgetall(keys.meta)).items()}
        rejected = cast("list[tuple[bytes, dict[bytes, bytes]]]", await self.redis.xrange(keys.rejected))
        return meta, [fields for _, fields in rejected]

    async def delete(self, game: str, token: str, version: str, rev: str, read_models: list[str]) -> bool:
        """Delete the game's keys (its claim, metadata, events, refused commands, awaiting entry and
        `read_models`) in one step if the claim is still `token`'s and the game is still at
        `version` and metadata revision `rev`; else only the claim. Whether it was deleted."""
        keys = self.store.keys(game)
        awaiting = self.store.awaiting_key(self.store.partition(game))
        deleted = await self._delete(
            keys=[keys.archiving, keys.meta, keys.events, keys.rejected, awaiting, *map(keys.read_model, read_models)],
            args=[token, version, rev, game],
        )
        return bool(deleted)

    async def record_sweep(self, skipped: int) -> None:
        await self.redis.hset(self.status_key, mapping={"skipped": skipped, "swept_at": f"{time.time():.3f}"})

    async def count_skipped(self, reason: str) -> None:
        await self.redis.hincrby(self.status_key, f"skipped:{reason}", 1)

    async def status(self) -> dict[str, float]:
        """The archivers' figures, for /metrics (the archivers are processes of their own)."""
        return {
            k.decode(): float(v)
            for k, v in cast("dict[bytes, bytes]", await self.redis.hgetall(self.status_key)).items()
        }

    async def say_alive(self, host: str, seconds: int) -> None:
        await self.redis.set(alive_key(self.store.prefix, host), int(time.time()), ex=seconds)

    async def say_stopped(self, host: str) -> None:
        await self.redis.delete(alive_key(self.store.prefix, host))
