"""Read models in Redis: one hash per game and projection (`pv` its projection version, `v` its
version, `h` the hash of the last event folded, and its views as JSON: "public", "seat:N"), the
record of the projection versions they were built with, and the lock of a rebuild. The folding
is `service.read`'s; this adapter only stores and reads."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from redis.asyncio import RedisCluster

if TYPE_CHECKING:
    from .streams import EventStore

GROUP = "projectors"  # the consumer group every projector process joins on each feed partition

# KEYS: the game's feed partition, then one read-model hash per projection (same hash tag).
# ARGV: group, mode, version, the hash of event `version`, n ids to ack, the ids, then per read
#       model: its projection version, a count of fields, the version and hash of a stored model
#       known to hold an event the log lost ('' and '' for none: see `lost_models`), field/value
#       pairs. A model is replaced when the write is newer (or as the mode allows), or when it is
#       still that lost one: then even by an older version (a model ahead of the log after a
#       failover goes back to the log's head), and only then, so a slower writer never goes back.
# Returns {models written, models kept that are ahead of this write or at its version with another
# hash} (the second: a peer's newer work, or a model on an event the log lost: see `lost_models`).
_WRITE = """
local mode = tonumber(ARGV[2])
local version = tonumber(ARGV[3])
local n_ids = tonumber(ARGV[5])
local at = 6 + n_ids
local written, kept = 0, 0
for k = 2, #KEYS do
  local pv, nf = tonumber(ARGV[at]), tonumber(ARGV[at + 1])
  local lost_v, lost_h = ARGV[at + 2], ARGV[at + 3]
  local stored = redis.call('HMGET', KEYS[k], 'pv', 'v', 'h')
  local spv, sv = tonumber(stored[1] or '0'), tonumber(stored[2] or '0')
  local newer = pv > spv or (pv == spv and version > sv)
  local lost = lost_v ~= '' and pv == spv and sv == tonumber(lost_v) and (stored[3] or '') == lost_h
  if newer or lost or (mode >= 1 and pv == spv and version == sv) or (mode == 2 and pv ~= spv) then
    redis.call('DEL', KEYS[k])
    redis.call('HSET', KEYS[k], 'pv', pv, 'v', version, 'h', ARGV[4], unpack(ARGV, at + 4, at + 3 + 2 * nf))
    written = written + 1
  elseif pv == spv and (sv > version or (sv == version and (stored[3] or '') ~= ARGV[4])) then
    kept = kept + 1
  end
  at = at + 4 + 2 * nf
end
if n_ids > 0 then redis.call('XACK', KEYS[1], ARGV[1], unpack(ARGV, 6, 5 + n_ids)) end
return {written, kept}
"""

# KEYS: a game's events stream. ARGV: first and last entry id. The stored envelopes (each one
# msgpack value, field "e") concatenated behind a msgpack array32 header: one msgpack array.
_READ = """
local entries = redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[2])
local parts = {}
for i, entry in ipairs(entries) do
  local fields = entry[2]
  for j = 1, #fields, 2 do
    if fields[j] == 'e' then parts[#parts + 1] = fields[j + 1] end
  end
end
local n = #parts
return string.char(0xdd, math.floor(n / 16777216) % 256, math.floor(n / 65536) % 256,
                   math.floor(n / 256) % 256, n % 256) .. table.concat(parts)
"""

Row = list  # the values of the fields asked for, None where absent


@dataclass
class ModelWrite:
    """One read model to store: its projection's name and version, its fields (views as JSON), and
    the version and hash of a stored model known to hold an event the log lost ('' for none)."""

    name: str
    projection_version: int
    fields: dict[str, bytes] = field(default_factory=dict)
    lost: tuple[int | str, str] = ("", "")


class ReadModels:
    def __init__(self, store: EventStore) -> None:
        self.store, self.redis = store, store.redis
        self.versions_key = f"{store.prefix}:projections:versions"
        self.rebuild_lock_key = f"{store.prefix}:projections:rebuild-lock"

    def key(self, game: str, name: str) -> str:
        """The hash holding read model `name` of a game."""
        return self.store.keys(game).read_model(name)

    async def write(
        self,
        game: str,
        version: int,
        last_hash: str,
        models: Sequence[ModelWrite],
        *,
        mode: int,
        ack: Sequence[bytes] = (),
    ) -> tuple[int, int]:
        """Store the models at `version` unless the stored ones are newer (as `mode` allows; a lost
        model is replaced while it is still that one) and ack `ack` on the game's feed partition, in
        one step: (models written, models kept ahead of this write or at its version with another hash)."""
        written, kept = await self.redis.eval(_WRITE, *self._write_args(game, version, last_hash, models, mode, ack))
        return int(written), int(kept)

    def _write_args(
        self, game: str, version: int, last_hash: str, models: Sequence[ModelWrite], mode: int, ack: Sequence[bytes]
    ) -> list:
        """The number of keys, the keys and the arguments of `_WRITE`."""
        keys = [self.store.keys(game).feed]
        args: list[str | bytes | int | float] = [GROUP, mode, version, last_hash, len(ack), *ack]
        for model in models:
            keys.append(self.key(game, model.name))
            args += [model.projection_version, len(model.fields), *model.lost]
            for name, value in model.fields.items():
                args += [name, value]
        return [len(keys), *keys, *args]

    async def write_many(self, writes: Sequence[tuple[str, int, str, Sequence[ModelWrite], Sequence[bytes]]]) -> list:
        """Like `write` (mode NEWER) for several games, (game, version, last hash, models, ack) each,
        in one round trip (one Redis; on a cluster, whose pipelines take no scripts, side by side):
        [(models written, models kept)] in the same order."""
        if isinstance(self.redis, RedisCluster) or len(writes) == 1:
            return list(await asyncio.gather(*(self.write(g, v, h, m, mode=0, ack=a) for g, v, h, m, a in writes)))
        async with self.redis.pipeline(transaction=False) as pipe:
            for game, version, last_hash, models, ack in writes:
                pipe.eval(_WRITE, *self._write_args(game, version, last_hash, models, 0, ack))
            return [(int(written), int(kept)) for written, kept in await pipe.execute()]

    async def envelopes_blobs(self, reads: Sequence[tuple[str, int]]) -> list[bytes]:
        """`envelopes_blob(game, after, None)` for several (game, after), in one round trip (on a
        cluster: side by side)."""
        if isinstance(self.redis, RedisCluster) or len(reads) == 1:
            return list(await asyncio.gather(*(self.envelopes_blob(game, after, None) for game, after in reads)))
        async with self.redis.pipeline(transaction=False) as pipe:
            for game, after in reads:
                pipe.eval(_READ, 1, self.store.keys(game).events, f"{after + 1}-1", "+")
            return await pipe.execute()

    async def stored(self, game: str, names: Sequence[str], *fields: str) -> list[Row]:
        """The `fields` of each of the game's read models `names` (one round trip: one hash tag)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for name in names:
                pipe.hmget(self.key(game, name), *fields)
            return await pipe.execute()

    async def with_meta(self, game: str, meta: Sequence[str], name: str | None, *fields: str) -> list[Row]:
        """The game's metadata fields `meta` as Redis holds them and, with a `name`, the `fields` of
        its read model `name`, in one round trip (one hash tag): one row, or two."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(self.store.keys(game).meta, *meta)
            if name:
                pipe.hmget(self.key(game, name), *fields)
            return await pipe.execute()

    async def version(self, game: str, name: str) -> int | None:
        """The version the game's read model `name` reached (None: there is none in Redis)."""
        stored = await self.redis.hget(self.key(game, name), "v")
        return None if stored is None else int(stored)

    async def envelopes_blob(self, game: str, after: int, until: int | None) -> bytes:
        """The packed envelopes with after < version <= until as one msgpack array built in Redis."""
        end = f"{until}-1" if until is not None else "+"
        return await self.redis.eval(_READ, 1, self.store.keys(game).events, f"{after + 1}-1", end)

    async def recorded_versions(self) -> dict[str, int]:
        """Projection name -> the version the stored read models were built with."""
        return {
            k.decode(): int(v)
            for k, v in cast("dict[bytes, bytes]", await self.redis.hgetall(self.versions_key)).items()
        }

    async def record_versions(self, versions: dict[str, int]) -> None:
        if versions:
            await self.redis.hset(self.versions_key, mapping=versions)  # type: ignore[arg-type]

    async def lock_rebuild(self, token: str, lock_ms: int) -> bool:
        """Take the one rebuild lock for `lock_ms` unless another process holds it."""
        return bool(await self.redis.set(self.rebuild_lock_key, token, nx=True, px=lock_ms))

    async def unlock_rebuild(self, token: str) -> None:
        """Give the rebuild lock back, if it is still this `token`'s."""
        if await self.redis.get(self.rebuild_lock_key) == token.encode():
            await self.redis.delete(self.rebuild_lock_key)
