"""The event store on Redis Streams: one stream per game, one atomic Lua append that checks the
expected version and the idempotency key, writes the events and records the append in a
partitioned feed. All keys of a game share one Redis Cluster hash tag (its feed partition)."""

from __future__ import annotations

import json
import time
import uuid
import zlib
from dataclasses import dataclass

from redis.asyncio import Redis, RedisCluster
from redis.exceptions import RedisError, ResponseError

from service.config import value

from .codec import PACK, UNPACK_ENVELOPE, Envelope
from .cold import ColdGame, ColdReader
from .connection import connect_node

WAIT_REPLICAS: int | None = value("wait_replicas")  # PANTHEON_WAIT_REPLICAS (None: auto), read once at import
WAIT_TIMEOUT_MS: int = value("wait_timeout_ms")  # PANTHEON_WAIT_TIMEOUT_MS
REPLICAS_TTL_S = 5.0  # how long a master's count of replicas (INFO replication) is taken as known

# KEYS: events stream, meta hash, the idempotency key's own string key (unused without a key),
#       feed stream, this append's receipt (a key that says, for a minute, that it went through; a replay
#       writes it too, so that a WAIT after it covers the first append),
#       the partition's awaiting hash (game -> "version|seat|since ms": whom each running game awaits).
# ARGV: expected version, '1' with an idempotency key ('' without), outcome to remember, game id,
#       last hash, seconds the key is remembered, the seat awaited after these events ('' once the
#       game has ended), the hash the first event is chained to ('' to not check it), m (a count
#       of meta fields to set), m field/value pairs, then one packed envelope per event.
# An append whose first event is not chained to the log's last hash is a conflict too: it was
# decided on a state that holds an event a failover lost, at a version that now holds another.
_APPEND = """
local version = tonumber(redis.call('HGET', KEYS[2], 'version') or '0')
local keyed = ARGV[2] ~= ''
if keyed then
  local prior = redis.call('GET', KEYS[3])
  if prior then
    -- a write of this connection's own after the first append's: a WAIT that follows confirms both
    redis.call('SET', KEYS[5], 'replay', 'EX', 60)
    return {'duplicate', prior}
  end
end
if version ~= tonumber(ARGV[1]) then return {'conflict', tostring(version)} end
if version > 0 and ARGV[8] ~= '' and (redis.call('HGET', KEYS[2], 'hash') or '') ~= ARGV[8] then
  return {'conflict', tostring(version)}
end
local m = tonumber(ARGV[9])
for i = 1, m do
  redis.call('HSET', KEYS[2], ARGV[8 + 2 * i], ARGV[9 + 2 * i])
end
local first = 10 + 2 * m
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
end
return {'ok', tostring(version + n)}
"""
# KEYS: the game's meta hash, the claim's key record (unused without a key). ARGV: seat, the new
# token's hash, the invite code's hash ('' for none), the request's hash ('' without a key),
# seconds the key is remembered. Claims an unclaimed seat: 'taken' if claimed, 'invite' if the seat
# is reserved for another code. With a key (its token derived from it), a retry of a claim it made
# is 'again' (the seat still has that token and the key's record lives; 'reused' for another
# request), and a claim records the key.
_CLAIM = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
local held = redis.call('HGET', KEYS[1], 'seat:' .. ARGV[1])
if held then
  if ARGV[4] ~= '' and held == ARGV[2] then
    local prior = redis.call('GET', KEYS[2])
    if prior == ARGV[4] then return 'again' end
    if prior then return 'reused' end
  end
  return 'taken'
end
local invite = redis.call('HGET', KEYS[1], 'invite:' .. ARGV[1])
if invite and invite ~= ARGV[3] then return 'invite' end
redis.call('HSET', KEYS[1], 'seat:' .. ARGV[1], ARGV[2], 'token:' .. ARGV[2], ARGV[1])
redis.call('HDEL', KEYS[1], 'invite:' .. ARGV[1])
redis.call('HINCRBY', KEYS[1], 'rev', 1)
if ARGV[4] ~= '' then redis.call('SET', KEYS[2], ARGV[4], 'EX', ARGV[5]) end
return 'ok'
"""

# KEYS: the game's meta hash. ARGV: seat, the new token's hash. Replaces a claimed seat's token
# (the old one stops working at once); 'unclaimed' for a seat nobody has claimed.
_REISSUE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
local old = redis.call('HGET', KEYS[1], 'seat:' .. ARGV[1])
if not old then return 'unclaimed' end
redis.call('HDEL', KEYS[1], 'token:' .. old)
redis.call('HSET', KEYS[1], 'seat:' .. ARGV[1], ARGV[2], 'token:' .. ARGV[2], ARGV[1])
redis.call('HINCRBY', KEYS[1], 'rev', 1)
return 'ok'
"""

# KEYS: the game's meta hash. ARGV: field/value pairs. Sets them and counts a revision, if the game
# is in Redis (0 if it is not: archived).
_SET_META = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
redis.call('HINCRBY', KEYS[1], 'rev', 1)
return 1
"""

# KEYS: the game's meta hash. ARGV: a field. Deletes it and, if it was there, counts a revision.
_DROP_META = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[1], 'rev', 1)
return 1
"""

# KEYS: the partition's awaiting hash. ARGV: game, "version|seat|" of the awaited turn. Starts that
# turn's clock afresh (the Redis clock), if the game still awaits it.
_TOUCH_AWAITING = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current or string.sub(current, 1, #ARGV[2]) ~= ARGV[2] then return 0 end
local now = redis.call('TIME')
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. (tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)))
return 1
"""

# The meta field counting the game's metadata revisions: every change of its metadata that appends no
# event (a seat claimed or handed to the AI, a token replaced...) adds one in the same atomic step, so
# that the stream version and this count together say whether anything about the game has changed
# (HTTP ETags). Changes made with an append need none: the version moves.
REV_FIELD = "rev"

# How long an accepted command's idempotency key is remembered by default (PANTHEON_IDEMPOTENCY_TTL_S).
IDEMPOTENCY_TTL_S = 24 * 3600


class ReplicationUnconfirmed(RedisError):
    """The append is on the master but fewer replicas than required confirmed it in time: it may
    or may not survive a failover (answered 503 `outcome_unknown`, never as acknowledged)."""

    def __init__(self, wanted: int, confirmed: int) -> None:
        super().__init__(f"{confirmed} of {wanted} replicas confirmed the append in time")
        self.wanted, self.confirmed = wanted, confirmed


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


def _name(client: Redis) -> str:
    kwargs = client.connection_pool.connection_kwargs
    return f"{kwargs.get('host')}:{kwargs.get('port')}:{kwargs.get('db', 0)}:{kwargs.get('path', '')}"


class EventStore:
    """Append and read events of games; `partitions` feed streams for the projectors."""

    def __init__(self, redis: Redis, prefix: str = "pantheon", partitions: int = 16, *,
                 idempotency_ttl_s: int = IDEMPOTENCY_TTL_S, wait_replicas: int | None = WAIT_REPLICAS,
                 wait_timeout_ms: int = WAIT_TIMEOUT_MS, cold: ColdReader | None = None) -> None:
        self.redis = redis
        # the archive of games moved out of Redis: a game whose metadata is not in Redis is read from it
        self.cold = cold
        self.wait_replicas, self.wait_timeout_ms = wait_replicas, wait_timeout_ms
        self._nodes: dict[str, Redis] = {}  # on a cluster: a plain client per master, for append + WAIT
        self._replicas: dict[str, tuple[float, int]] = {}  # node -> (when asked, connected replicas)
        self.prefix = prefix
        self.partitions = partitions
        self.idempotency_ttl_s = idempotency_ttl_s
        self._append = redis.register_script(_APPEND)
        self._claim = redis.register_script(_CLAIM)
        self._reissue = redis.register_script(_REISSUE)
        self._drop_meta = redis.register_script(_DROP_META)
        self._set_meta = redis.register_script(_SET_META)
        self._touch_awaiting = redis.register_script(_TOUCH_AWAITING)

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

    async def append(self, game: str, expected_version: int, envelopes: list[Envelope], *,
                     idempotency_key: str | None = None, outcome: bytes = b"",
                     meta: dict[str, str | int | bytes] | None = None, awaiting: int | None = None) -> Appended:
        """Append atomically, or raise VersionConflict (also when the first envelope is not chained to
        the log's last hash: decided on a state a failover lost); a known idempotency key appends nothing and
        gives the outcome remembered with it (for `idempotency_ttl_s`; only appends are remembered).
        `meta` fields are set on the game in the same atomic step (used when creating a game), and so
        is `awaiting`, the seat the game awaits after these events (None: it has ended)."""
        k = self.keys(game)
        last_hash = envelopes[-1].hash if envelopes else ""
        pairs = [x for item in (meta or {}).items() for x in item]
        chained_to = envelopes[0].prev_hash if envelopes else ""
        args = [expected_version, "1" if idempotency_key else "", outcome, game, last_hash, self.idempotency_ttl_s,
                "" if awaiting is None else awaiting, chained_to, len(meta or {}), *pairs]
        args += [PACK.encode(e) for e in envelopes]
        idem, receipt = k.idempotency_key(idempotency_key or ""), f"{k.receipts}:{uuid.uuid4().hex}"
        awaiting_key = self.awaiting_key(self.partition(game))
        status, value, wanted, confirmed = await self._append_replicated(
            [k.events, k.meta, idem, k.feed, receipt, awaiting_key], args)
        if status == b"conflict":
            # The client library resends a command whose connection failed; if this very append
            # went through the first time, its receipt says so (and the events are ours).
            if await self.redis.exists(receipt):
                if wanted:  # this connection's WAIT says nothing of the first attempt's write
                    raise ReplicationUnconfirmed(wanted, 0)
                return Appended(version=expected_version + len(envelopes))
            raise VersionConflict(int(value))
        if status in (b"ok", b"duplicate") and confirmed < wanted:  # a replay too: the first may be unreplicated
            raise ReplicationUnconfirmed(wanted, confirmed)
        if status == b"duplicate":
            return Appended(version=-1, duplicate=True, outcome=value)
        return Appended(version=int(value))

    async def _append_replicated(self, keys: list[str], args: list) -> tuple[bytes, bytes, int, int]:
        """Run the append script; when replicas are wanted, followed by WAIT on the same connection
        (in one pipeline: WAIT counts only the writes of its own connection). On a Redis Cluster
        that connection is one of the slot's master, from a plain client of that node; a slot
        that moved meanwhile (MOVED: nothing written) is tried once more on its new master.
        (status, value, replicas wanted, replicas that confirmed)."""
        for attempt in (1, 2):
            client = await self._master_of(keys[0])
            wanted = await self._wanted(client)
            if not wanted:
                status, value = await self._append(keys=keys, args=args, client=client)
                return status, value, 0, 0
            try:
                async with client.pipeline(transaction=False) as pipe:
                    await self._append(keys=keys, args=args, client=pipe)
                    pipe.execute_command("WAIT", wanted, self.wait_timeout_ms)
                    (status, value), confirmed = await pipe.execute()
                return status, value, wanted, int(confirmed)
            except ResponseError as error:
                if not str(error).startswith(("MOVED", "ASK")) or attempt == 2:
                    raise
                await self._relearn_slots()
            except RedisError:
                await self._relearn_slots()  # a master gone: its replica may be promoted by the next append
                raise
        raise AssertionError("unreachable")

    async def _master_of(self, key: str) -> Redis:
        if not isinstance(self.redis, RedisCluster):
            return self.redis
        await self.redis.initialize()  # learns the slots once (a no-op after)
        node = self.redis.get_node_from_key(key)
        client = self._nodes.get(node.name)
        if client is None:
            client = self._nodes[node.name] = connect_node(node.host, node.port)
        return client

    async def _relearn_slots(self) -> None:
        if isinstance(self.redis, RedisCluster):
            try:
                await self.redis.nodes_manager.initialize()
            except RedisError:
                pass

    async def _wanted(self, client: Redis) -> int:
        """Replicas the append waits for: the setting, or (auto) one if the master has one now
        (INFO replication, asked again every REPLICAS_TTL_S)."""
        if self.wait_replicas is not None:
            return self.wait_replicas
        name = _name(client)
        asked, count = self._replicas.get(name, (0.0, 0))
        if time.monotonic() - asked > REPLICAS_TTL_S:
            count = int((await client.info("replication")).get("connected_slaves", 0))
            self._replicas[name] = (time.monotonic(), count)
        return min(count, 1)

    async def close_nodes(self) -> None:
        """Close the clients of the cluster's masters (the caller closes `redis`)."""
        for client in self._nodes.values():
            await client.aclose()
        self._nodes.clear()

    async def awaited(self, game: str) -> tuple[int, int, float] | None:
        """Whom the game awaits as the store recorded it: (version, seat, since in seconds), or None."""
        value = await self.redis.hget(self.awaiting_key(self.partition(game)), game)
        if value is None:
            return None
        version, seat, since_ms = value.decode().split("|")
        return int(version), int(seat), int(since_ms) / 1000

    async def restart_awaiting_clock(self, game: str, version: int, seat: int) -> bool:
        """Start the clock of the awaited turn afresh (its idle time counts from now), if the game
        still awaits `seat` at `version`."""
        key = self.awaiting_key(self.partition(game))
        return bool(await self._touch_awaiting(keys=[key], args=[game, f"{version}|{seat}|"]))

    async def head(self, game: str) -> tuple[int, str]:
        """The game's current version and last hash (0 and '' for an unknown game)."""
        version, last = await self.redis.hmget(self.keys(game).meta, "version", "hash")
        if version is None and (cold := await self.archived(game)):
            version, last = cold.meta.get("version"), cold.meta.get("hash")
        return int(version or 0), (last or b"").decode()

    async def read(self, game: str, after: int = 0, until: int | None = None) -> list[Envelope]:
        """Envelopes with after < version <= until, in order."""
        end = f"{until}-1" if until is not None else "+"
        k = self.keys(game)
        if self.cold is None:
            entries = await self.redis.xrange(k.events, f"{after + 1}-1", end)
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
        entries = await self.redis.xrange(self.keys(game).rejected)
        if not entries and (cold := await self.archived(game)):
            return cold.rejected
        return [fields for _, fields in entries]

    async def exists(self, game: str) -> bool:
        return bool(await self.redis.exists(self.keys(game).meta)) or await self.archived(game) is not None

    async def set_meta(self, game: str, **fields: str | int | bytes) -> bool:
        """Set metadata fields and count a revision, in one step; False (nothing set) if the game is not
        in Redis (archived)."""
        args = [x for item in fields.items() for x in item]
        return bool(await self._set_meta(keys=[self.keys(game).meta], args=args))

    async def drop_meta(self, game: str, field: str) -> bool | None:
        """Delete a metadata field and count a revision, in one step; False if it was not there, None
        if the game is not in Redis (archived)."""
        dropped = int(await self._drop_meta(keys=[self.keys(game).meta], args=[field]))
        return None if dropped < 0 else bool(dropped)

    async def meta(self, game: str) -> dict[str, bytes]:
        meta = {k.decode(): v for k, v in (await self.redis.hgetall(self.keys(game).meta)).items()}
        if not meta and (cold := await self.archived(game)):
            return dict(cold.meta)
        return meta

    async def set_meta_if_absent(self, game: str, field: str, value: str | bytes) -> bool:
        return bool(await self.redis.hsetnx(self.keys(game).meta, field, value))

    async def claim_seat(self, game: str, seat: int, token_hash: str, invite_hash: str = "", *,
                         request: str = "") -> str:
        """Record a seat's token hash if the seat is free (and its invite code matches, where it has
        one): "ok", "taken" or "invite". With the `request` hash of a claim whose token was derived
        from an Idempotency-Key, the claim is remembered (for `idempotency_ttl_s`, by the token's
        hash) and a retry of it is "again" ("reused" for another request under the key)."""
        k = self.keys(game)
        record = k.idempotency_key(f"claim|{seat}|{token_hash}")
        args = [seat, token_hash, invite_hash, request, self.idempotency_ttl_s]
        return (await self._claim(keys=[k.meta, record], args=args)).decode()

    async def reissue_seat(self, game: str, seat: int, token_hash: str) -> bool:
        """Replace a claimed seat's token hash (the old token stops working); False if unclaimed."""
        return (await self._reissue(keys=[self.keys(game).meta], args=[seat, token_hash])) == b"ok"

    async def revealed(self, game: str) -> bool:
        """Whether the game's secrets (seed, hashes, export, refused commands) may be shown: once it
        has ended, and, for a fork dealt from a running game, once every game it was dealt from
        (`sealed_by`, a JSON list) has ended too."""
        finished, sealed_by = await self.fields(game, "finished", "sealed_by")
        if finished is None:
            return False
        for parent in json.loads(sealed_by) if sealed_by else ():
            if (await self.fields(parent, "finished"))[0] is None:
                return False
        return True

    async def fields(self, game: str, *names: str) -> list[bytes | None]:
        """Metadata fields of the game, from Redis or (archived) from the archive."""
        values = await self.redis.hmget(self.keys(game).meta, *names)
        if all(v is None for v in values) and (cold := await self.archived(game)):
            return [cold.meta.get(name) for name in names]
        return values

    async def prior_outcome(self, game: str, idempotency_key: str) -> bytes | None:
        """The outcome remembered with an idempotency key of the game (None: not known, or expired)."""
        return await self.redis.get(self.keys(game).idempotency_key(idempotency_key))
