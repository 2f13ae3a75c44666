"""The event store on Redis Streams: one stream per game, one atomic Lua append that checks the
expected version and the idempotency key, writes the events and records the append in a
partitioned feed. All keys of a game share one Redis Cluster hash tag (its feed partition)."""

from __future__ import annotations

import time
import uuid
import zlib
from dataclasses import dataclass
from typing import cast

from redis.asyncio import Redis, RedisCluster

from .awaiting import Awaiting
from .claims import ArchiveClaims
from .codec import PACK, UNPACK_ENVELOPE, Envelope
from .cold import ColdGame, ColdReader
from .feeds import Feeds
from .lobby import Lobby
from .models import ReadModels
from .quotas import Concurrency
from .records import GameRecords
from .replication import (
    WAIT_REPLICAS,
    WAIT_TIMEOUT_MS,
    Acknowledger,
    ReplicationUnconfirmed,  # noqa: F401  (callers catch it from the store, as before)
)
from .secret import ServerSecret

# the clients are made without decode_responses: Redis answers bytes where redis-py types bytes | str
_Entries = list[tuple[bytes, dict[bytes, bytes]]]

# KEYS: events stream, meta hash, the idempotency key's own string key (unused without a key),
#       feed stream, this append's receipt (a key that says, for a minute, that it went through),
#       the partition's awaiting hash (game -> "version|seat|since ms": whom each running game awaits).
# ARGV: expected version, '1' with an idempotency key ('' without), outcome to remember, game id,
#       last hash, seconds the key is remembered, the seat awaited after these events ('' once the
#       game has ended), the hash the first event is chained to ('' to not check it), the time the
#       envelopes record (ms; '' to not check it: an import keeps its times), m (a count of meta
#       fields to set), m field/value pairs, then one packed envelope per event.
# A recorded time off the Redis clock (TIME, here) by more than STAMP_AHEAD_MS ahead or STAMP_BEHIND_MS
# behind is refused ('clock', with TIME): the process stamps the envelopes again from it.
# An append whose first event is not chained to the log's last hash is a conflict too: it was
# decided on a state that holds an event a failover lost, at a version that now holds another.
STAMP_AHEAD_MS = 250  # a recorded time may be this far ahead of the Redis clock (a cluster's masters differ)
STAMP_BEHIND_MS = 2000  # and this far behind it (the time between stamping and the append, under load)
_APPEND_TEMPLATE = """
local version = tonumber(redis.call('HGET', KEYS[2], 'version') or '0')
local keyed = ARGV[2] ~= ''
if keyed then
  local prior = redis.call('GET', KEYS[3])
  if prior then return {'duplicate', prior} end  -- proven replicated before it is answered (replication.py)
end
if version ~= tonumber(ARGV[1]) then return {'conflict', tostring(version)} end
if version > 0 and ARGV[8] ~= '' and (redis.call('HGET', KEYS[2], 'hash') or '') ~= ARGV[8] then
  return {'conflict', tostring(version)}
end
if ARGV[9] ~= '' then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local stamp = tonumber(ARGV[9])
  if stamp > now + %(ahead)d or stamp < now - %(behind)d then return {'clock', tostring(now)} end
end
local m = tonumber(ARGV[10])
for i = 1, m do
  redis.call('HSET', KEYS[2], ARGV[9 + 2 * i], ARGV[10 + 2 * i])
end
local first = 11 + 2 * m
local n = #ARGV - first + 1
for i = 1, n do
  redis.call('XADD', KEYS[1], tostring(version + i) .. '-1', 'e', ARGV[first + i - 1])
end
redis.call('HSET', KEYS[2], 'version', version + n, 'hash', ARGV[5])
if keyed then redis.call('SET', KEYS[3], ARGV[3], 'EX', ARGV[6]) end
redis.call('XADD', KEYS[4], '*', 'game', ARGV[4], 'from', version + 1, 'to', version + n)
redis.call('SET', KEYS[5], '1', 'EX', 60)
if ARGV[7] == '' then
  redis.call('HDEL', KEYS[6], ARGV[4])
else
  local now = redis.call('TIME')
  local since = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
  redis.call('HSET', KEYS[6], ARGV[4], (version + n) .. '|' .. ARGV[7] .. '|' .. since)
  return {'ok', tostring(version + n), redis.call('HGET', KEYS[2], 'ai:' .. ARGV[7])}
end
return {'ok', tostring(version + n)}
"""
_APPEND = _APPEND_TEMPLATE.replace("%(ahead)d", str(STAMP_AHEAD_MS)).replace("%(behind)d", str(STAMP_BEHIND_MS))


# KEYS: an append's receipt. Whether it exists (proven replicated first: the append is answered by it).
_EXISTS = "return redis.call('EXISTS', KEYS[1])"


# The meta field counting the game's metadata revisions: every change of its metadata that appends no
# event (a seat claimed or handed to the AI...) adds one in the same atomic step, so
# that the stream version and this count together say whether anything about the game has changed
# (HTTP ETags). Changes made with an append need none: the version moves.
REV_FIELD = "rev"

# How long an accepted command's idempotency key is remembered by default (PANTHEON_IDEMPOTENCY_TTL_S).
IDEMPOTENCY_TTL_S = 24 * 3600


class ClockOff(Exception):
    """The envelopes' recorded time was off the Redis clock: stamp them again from `now` (ms)."""

    def __init__(self, now: int) -> None:
        super().__init__(f"the recorded time is off the Redis clock ({now} ms)")
        self.now = now


class VersionConflict(Exception):
    """The stream moved on since the command was decided."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the game is at version {current}")
        self.current = current


@dataclass(frozen=True)
class Appended:
    """The outcome of an append: the new version, or the remembered outcome of a duplicate."""

    version: int
    duplicate: bool = False
    outcome: bytes = b""
    handed: bytes | None = None  # the AI level the awaited seat was handed to (its `ai:<seat>` field), if any


@dataclass(frozen=True)
class GameKeys:
    events: str
    meta: str
    idempotency: str  # the prefix of the game's idempotency keys: one string key each, with a TTL
    feed: str
    rejected: str

    @property
    def receipts(self) -> str:
        """The prefix of the game's append receipts (each lives a minute)."""
        return self.meta.rsplit(":", 1)[0] + ":receipt"

    def idempotency_key(self, key: str) -> str:
        return f"{self.idempotency}:{key}"

    def read_model(self, name: str) -> str:
        """The hash holding the game's read model `name` (service.read.models writes it)."""
        return self.meta.rsplit(":", 1)[0] + f":rm:{name}"

    @property
    def archiving(self) -> str:
        """The archiver's claim on the game while it moves it to the archive."""
        return self.meta.rsplit(":", 1)[0] + ":archiving"


class EventStore:
    """Append and read events of games; `partitions` feed streams for the projectors. The door to
    the rest of what Redis keeps, one adapter each (sharing the client, the key layout and the
    acknowledger): `records` (metadata, seats, tokens, idempotency), `awaiting`, `lobby`, `quotas`,
    `models` (read models), `feeds` (the projectors' groups), `claims` (the archiver's)."""

    def __init__(
        self,
        redis: Redis | RedisCluster,
        prefix: str = "pantheon",
        partitions: int = 16,
        *,
        idempotency_ttl_s: int = IDEMPOTENCY_TTL_S,
        wait_replicas: int | None = WAIT_REPLICAS,
        wait_timeout_ms: int = WAIT_TIMEOUT_MS,
        cold: ColdReader | None = None,
    ) -> None:
        self.redis = redis
        # the archive of games moved out of Redis: a game whose metadata is not in Redis is read from it
        self.cold = cold
        # every answer that says "stored" is proven replicated through it (wait_replicas None: by deployment)
        self.acknowledger = Acknowledger(redis, wait_replicas, wait_timeout_ms)
        self.prefix = prefix
        self.partitions = partitions
        self.records = GameRecords(self)
        self.awaiting = Awaiting(self)
        self.lobby = Lobby(redis, prefix)
        self.quotas = Concurrency(redis, prefix)
        self.models = ReadModels(self)
        self.feeds = Feeds(self)
        self.claims = ArchiveClaims(self)
        self.idempotency_ttl_s = idempotency_ttl_s
        self._append = redis.register_script(_APPEND)
        # the Redis clock less this process's (ms): what `now_ms` adds, learned from the appends
        self.clock_offset_ms = 0
        self._exists = redis.register_script(_EXISTS)

    def server_secret(self, configured: str | None = None) -> ServerSecret:
        """The deployment's server secret: `configured` (PANTHEON_SECRET), else the one kept in Redis."""
        return ServerSecret(self.redis, self.prefix, configured, acknowledger=self.acknowledger)

    def partition(self, game: str) -> int:
        return zlib.crc32(game.encode()) % self.partitions

    def tag(self, partition: int) -> str:
        return f"{{{self.prefix}:p{partition}}}"

    def keys(self, game: str) -> GameKeys:
        tag = self.tag(self.partition(game))
        base = f"{tag}:game:{game}"
        return GameKeys(f"{base}:events", f"{base}:meta", f"{base}:idem", f"{tag}:feed", f"{base}:rejected")

    def feed_keys(self) -> list[str]:
        return [f"{self.tag(p)}:feed" for p in range(self.partitions)]

    def awaiting_key(self, partition: int) -> str:
        """The partition's running games and whom each awaits: game -> "version|seat|since", where
        `since` is the Redis clock in ms at the append that made the seat awaited. Written by the
        append itself, so it is never out of step with the stream (the AI sweeper's source of truth)."""
        return f"{self.tag(partition)}:awaiting"

    async def append(
        self,
        game: str,
        expected_version: int,
        envelopes: list[Envelope],
        *,
        idempotency_key: str | None = None,
        outcome: bytes = b"",
        meta: dict[str, str | int | bytes] | None = None,
        awaiting: int | None = None,
        stamp: int | None = None,
    ) -> Appended:
        """Append atomically, or raise VersionConflict (also when the first envelope is not chained to
        the log's last hash: decided on a state a failover lost); a known idempotency key appends nothing and
        gives the outcome remembered with it (for `idempotency_ttl_s`; only appends are remembered).
        `meta` fields are set on the game in the same atomic step (used when creating a game), and so
        is `awaiting`, the seat the game awaits after these events (None: it has ended). `stamp`: the
        time the envelopes record, checked against the Redis clock (ClockOff when it is off; the
        store's `now_ms` then follows the Redis clock)."""
        k = self.keys(game)
        last_hash = envelopes[-1].hash if envelopes else ""
        pairs = [x for item in (meta or {}).items() for x in item]
        chained_to = envelopes[0].prev_hash if envelopes else ""
        args = [
            expected_version,
            "1" if idempotency_key else "",
            outcome,
            game,
            last_hash,
            self.idempotency_ttl_s,
            "" if awaiting is None else awaiting,
            chained_to,
            "" if stamp is None else stamp,
            len(meta or {}),
            *pairs,
        ]
        args += [PACK.encode(e) for e in envelopes]
        idem, receipt = k.idempotency_key(idempotency_key or ""), f"{k.receipts}:{uuid.uuid4().hex}"
        awaiting_key = self.awaiting_key(self.partition(game))
        keys = [k.events, k.meta, idem, k.feed, receipt, awaiting_key]
        status, value, *handed = await self.acknowledger.run(
            self._append, keys, args, stored=lambda result: result[0] in (b"ok", b"duplicate")
        )
        if status == b"conflict":
            # The client library resends a command whose connection failed; if this very append
            # went through the first time, its receipt says so (and the events are ours).
            if await self.acknowledger.run(self._exists, [receipt], []):
                return Appended(version=expected_version + len(envelopes))
            raise VersionConflict(int(value))
        if status == b"duplicate":
            return Appended(version=-1, duplicate=True, outcome=value)
        if status == b"clock":
            self.clock_offset_ms = int(value) - int(time.time() * 1000)
            raise ClockOff(int(value))
        return Appended(version=int(value), handed=handed[0] if handed else None)

    def now_ms(self) -> int:
        """The Redis clock as this process knows it (ms): the time an append records, which the append
        checks against Redis' own clock (TIME), one clock for every process."""
        return int(time.time() * 1000) + self.clock_offset_ms

    async def redis_now_ms(self) -> int:
        """The Redis clock (TIME), read now (ms)."""
        seconds, micros = await self.redis.time()
        return int(seconds) * 1000 + int(micros) // 1000

    async def aclose(self) -> None:
        """Close the client of Redis (and not the cluster masters': `close_nodes`)."""
        await self.redis.aclose()

    async def close_nodes(self) -> None:
        """Close the clients of the cluster's masters (the caller closes `redis`)."""
        await self.acknowledger.close()

    async def head(self, game: str) -> tuple[int, str]:
        """The game's current version and last hash (0 and '' for an unknown game)."""
        version, last = cast("list[bytes | None]", await self.redis.hmget(self.keys(game).meta, "version", "hash"))
        if version is None and (cold := await self.archived(game)):
            version, last = cold.meta.get("version"), cold.meta.get("hash")
        return int(version or 0), (last or b"").decode()

    async def read(self, game: str, after: int = 0, until: int | None = None) -> list[Envelope]:
        """Envelopes with after < version <= until, in order."""
        end = f"{until}-1" if until is not None else "+"
        k = self.keys(game)
        if self.cold is None:
            entries = cast(_Entries, await self.redis.xrange(k.events, f"{after + 1}-1", end))
        else:  # and whether the game is in Redis, in the same round trip (one hash tag: one node)
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.xrange(k.events, f"{after + 1}-1", end)
                pipe.exists(k.meta)
                entries, present = await pipe.execute()
            if not entries and not present and (cold := await self.cold.load(game)):
                return [e for e in cold.envelopes if e.version > after and (until is None or e.version <= until)]
        return [UNPACK_ENVELOPE.decode(fields[b"e"]) for _, fields in entries]

    async def archived(self, game: str) -> ColdGame | None:
        """The game as the archive holds it, when it is not in Redis (None: in Redis, or unknown)."""
        if self.cold is None or await self.redis.exists(self.keys(game).meta):
            return None
        return await self.cold.load(game)

    async def rejected_entries(self, game: str) -> list[dict[bytes, bytes]]:
        """The fields of each refused command of the game, oldest first (from the archive once archived)."""
        entries = cast(_Entries, await self.redis.xrange(self.keys(game).rejected))
        if not entries and (cold := await self.archived(game)):
            return cold.rejected
        return [fields for _, fields in entries]

    async def record_refusal(self, game: str, entry: dict[str, str | int | bytes], kept: int) -> None:
        """Add a refused command's fields to the game's refused commands, keeping the newest `kept`."""
        await self.redis.xadd(self.keys(game).rejected, entry, maxlen=kept, approximate=False)  # type: ignore[arg-type]

    async def ping(self) -> None:
        """Raise unless Redis answers."""
        await self.redis.ping()
