"""A game's records beside its log: its metadata hash (what never changes after creation, the
log's head, seats and their tokens' hashes, invites, AI hand-overs, the metadata revision) and its
idempotency records, each change one atomic step (a Lua script in the game's hash tag). A game that
is not in Redis any more is read from the archive (`EventStore.archived`)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, NamedTuple, cast

from .codec import PACK, Envelope

if TYPE_CHECKING:
    from .streams import EventStore

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

# KEYS: the game's meta hash, events stream, feed stream, the partition's awaiting hash. ARGV: seat,
# the new invite code's hash, the version and last hash the event was chained to, the event's hash,
# game id, the packed envelope of the platform event recording the re-issue. Replaces a claimed
# seat's token (or a reserved seat's invite) by the invite code and appends the event, as the
# append does: 'unclaimed' for a seat with neither, 'conflict' if the log moved on. Whom the game
# awaits does not change: the awaiting entry only moves to the new version, its clock runs on.
_REISSUE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
local old = redis.call('HGET', KEYS[1], 'seat:' .. ARGV[1])
if not old and redis.call('HEXISTS', KEYS[1], 'invite:' .. ARGV[1]) == 0 then return 'unclaimed' end
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[3]) or (redis.call('HGET', KEYS[1], 'hash') or '') ~= ARGV[4] then return 'conflict' end
if old then redis.call('HDEL', KEYS[1], 'token:' .. old, 'seat:' .. ARGV[1]) end
redis.call('HSET', KEYS[1], 'invite:' .. ARGV[1], ARGV[2], 'version', version + 1, 'hash', ARGV[5])
redis.call('XADD', KEYS[2], tostring(version + 1) .. '-1', 'e', ARGV[7])
redis.call('XADD', KEYS[3], '*', 'game', ARGV[6], 'from', version + 1, 'to', version + 1)
local awaited = redis.call('HGET', KEYS[4], ARGV[6])
if awaited then redis.call('HSET', KEYS[4], ARGV[6], (version + 1) .. string.match(awaited, '^%d+(|.*)$')) end
return 'ok'
"""

# KEYS: the game's meta hash, events stream, feed stream, the partition's awaiting hash. ARGV: seat,
# name, the version and hash the envelope is chained to, its hash, game id, the packed envelope, the
# hash of the token that must hold the seat, the most names a seat may take. A seat's name recorded
# with the platform event that names it, at the version the name was checked at (unique among the
# names then), and counted (`named:<seat>`): 'ok', 'conflict', 'not_yours' (the token no longer
# holds the seat), 'too_many' (the seat has taken its most names), 'gone' (archived).
_NAME = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
if redis.call('HGET', KEYS[1], 'seat:' .. ARGV[1]) ~= ARGV[8] then return 'not_yours' end
local named = tonumber(redis.call('HGET', KEYS[1], 'named:' .. ARGV[1]) or '0')
if named >= tonumber(ARGV[9]) then return 'too_many' end
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[3]) or (redis.call('HGET', KEYS[1], 'hash') or '') ~= ARGV[4] then return 'conflict' end
redis.call('HSET', KEYS[1], 'name:' .. ARGV[1], ARGV[2], 'named:' .. ARGV[1], named + 1, 'version', version + 1,
  'hash', ARGV[5])
redis.call('XADD', KEYS[2], tostring(version + 1) .. '-1', 'e', ARGV[7])
redis.call('XADD', KEYS[3], '*', 'game', ARGV[6], 'from', version + 1, 'to', version + 1)
local awaited = redis.call('HGET', KEYS[4], ARGV[6])
if awaited then redis.call('HSET', KEYS[4], ARGV[6], (version + 1) .. string.match(awaited, '^%d+(|.*)$')) end
return 'ok'
"""

# KEYS: the game's meta hash, then the idempotency record of one key in each seat's namespace (none
# without a key). ARGV: a token's hash. What a seat's command needs before it is decided, in one round
# trip: the token's seat (nil: not a seat token here) and that seat's record of the key.
_COMMAND_CONTEXT = """
local seat = redis.call('HGET', KEYS[1], 'token:' .. ARGV[1])
if not seat or #KEYS == 1 then return {seat, false} end
return {seat, redis.call('GET', KEYS[2 + tonumber(seat)]) or false}
"""

# KEYS: a key. Its value (a stored outcome that a retry is answered from: proven replicated first).
_GET = "return redis.call('GET', KEYS[1])"

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


class SeatPlayer(NamedTuple):
    """Who plays a seat, as the game's metadata says: its seats (JSON) and the AI level the seat was
    handed to (None: not handed)."""

    seats: bytes | None
    handed: bytes | None


class GameRecords:
    def __init__(self, store: EventStore) -> None:
        self.store, self.redis = store, store.redis
        self._claim = self.redis.register_script(_CLAIM)
        self._reissue = self.redis.register_script(_REISSUE)
        self._name = self.redis.register_script(_NAME)
        self._drop_meta = self.redis.register_script(_DROP_META)
        self._set_meta = self.redis.register_script(_SET_META)
        self._get = self.redis.register_script(_GET)
        self._command_context = self.redis.register_script(_COMMAND_CONTEXT)

    async def meta(self, game: str) -> dict[str, bytes]:
        # Redis answers bytes (no decode_responses); redis-py types it bytes | str
        raw = cast("dict[bytes, bytes]", await self.redis.hgetall(self.store.keys(game).meta))
        meta = {k.decode(): v for k, v in raw.items()}
        if not meta and (cold := await self.store.archived(game)):
            return dict(cold.meta)
        return meta

    async def fields(self, game: str, *names: str) -> list[bytes | None]:
        """Metadata fields of the game, from Redis or (archived) from the archive."""
        values = cast("list[bytes | None]", await self.redis.hmget(self.store.keys(game).meta, *names))
        if all(v is None for v in values) and (cold := await self.store.archived(game)):
            return [cold.meta.get(name) for name in names]
        return values

    async def set_meta(self, game: str, **fields: str | int | bytes) -> bool:
        """Set metadata fields and count a revision, in one step; False (nothing set) if the game is not
        in Redis (archived)."""
        args = [x for item in fields.items() for x in item]
        return bool(await self.store.acknowledger.run(self._set_meta, [self.store.keys(game).meta], args))

    async def drop_meta(self, game: str, field: str) -> bool | None:
        """Delete a metadata field and count a revision, in one step; False if it was not there, None
        if the game is not in Redis (archived)."""
        dropped = int(
            await self.store.acknowledger.run(
                self._drop_meta, [self.store.keys(game).meta], [field], stored=lambda result: result == 1
            )
        )
        return None if dropped < 0 else bool(dropped)

    async def set_meta_if_absent(self, game: str, field: str, value: str | bytes) -> bool:
        return bool(await self.redis.hsetnx(self.store.keys(game).meta, field, value))

    async def claim_seat(
        self, game: str, seat: int, token_hash: str, invite_hash: str = "", *, request: str = ""
    ) -> str:
        """Record a seat's token hash if the seat is free (and its invite code matches, where it has
        one): "ok", "taken" or "invite". With the `request` hash of a claim whose token was derived
        from an Idempotency-Key, the claim is remembered (for `idempotency_ttl_s`, by the token's
        hash) and a retry of it is "again" ("reused" for another request under the key)."""
        k = self.store.keys(game)
        record = k.idempotency_key(f"claim|{seat}|{token_hash}")
        args = [seat, token_hash, invite_hash, request, self.store.idempotency_ttl_s]
        return (
            await self.store.acknowledger.run(
                self._claim, [k.meta, record], args, stored=lambda result: result in (b"ok", b"again")
            )
        ).decode()

    async def reissue_seat(self, game: str, seat: int, invite_hash: str, envelope: Envelope) -> str:
        """Replace a claimed seat's token (the old one stops working) or a reserved seat's invite by
        a new invite code's hash, and append `envelope` (the platform event that records it,
        chained to the log's last event) in the same step: "ok"; "unclaimed" for a seat with
        neither; "conflict" if the log is no longer where `envelope` is chained; "gone" if the
        game is not in Redis (archived)."""
        k = self.store.keys(game)
        args = [seat, invite_hash, envelope.version - 1, envelope.prev_hash, envelope.hash, game, PACK.encode(envelope)]
        keys = [k.meta, k.events, k.feed, self.store.awaiting_key(self.store.partition(game))]
        return (
            await self.store.acknowledger.run(self._reissue, keys, args, stored=lambda result: result == b"ok")
        ).decode()

    async def name_seat(
        self, game: str, seat: int, name: str, token_hash: str, envelope: Envelope, *, most: int
    ) -> str:
        """Give a seat held by the token of `token_hash` its name (metadata `name:<seat>`) and append
        `envelope` (the platform event that records it, chained to the log's last event) in the same
        step: "ok"; "not_yours" if that token no longer holds the seat; "too_many" if the seat has
        been named `most` times; "conflict" if the log is no longer where `envelope` is chained;
        "gone" if the game is not in Redis (archived)."""
        k = self.store.keys(game)
        args = [seat, name, envelope.version - 1, envelope.prev_hash, envelope.hash, game, PACK.encode(envelope)]
        keys = [k.meta, k.events, k.feed, self.store.awaiting_key(self.store.partition(game))]
        return (
            await self.store.acknowledger.run(
                self._name, keys, [*args, token_hash, most], stored=lambda result: result == b"ok"
            )
        ).decode()

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

    async def prior_outcome(self, game: str, idempotency_key: str) -> bytes | None:
        """The outcome remembered with an idempotency key of the game (None: not known, or expired),
        proven replicated before it is given (ReplicationUnconfirmed), since a retry is answered with it."""
        key = self.store.keys(game).idempotency_key(idempotency_key)
        if await self.redis.get(key) is None:  # most keys are new: only a known one costs a proof
            return None
        return await self.proven_outcome(game, idempotency_key)

    async def proven_outcome(self, game: str, idempotency_key: str) -> bytes | None:
        """The outcome remembered with a key known to have one (read again, proven replicated)."""
        key = self.store.keys(game).idempotency_key(idempotency_key)
        return await self.store.acknowledger.run(self._get, [key], [], stored=lambda result: result is not None)

    async def command_context(
        self, game: str, token_hash: str, idempotency_keys: list[str]
    ) -> tuple[int | None, bytes | None]:
        """Before a seat's command, in one round trip: the seat of the token with this hash (None: not
        a seat token of the game in Redis) and the record that seat holds of its idempotency key
        (`idempotency_keys`: the key in each seat's namespace, seat by seat; empty without one). A
        record found must be proven replicated (`proven_outcome`) before a retry is answered with it.
        (The game's version is not asked: a decision on a stale fold is refused by the append.)"""
        k = self.store.keys(game)
        keys = [k.meta, *(k.idempotency_key(key) for key in idempotency_keys)]
        seat, record = await self._command_context(keys, [token_hash])  # false is nil in a script's answer
        return (None if seat is None else int(seat)), record

    async def exists(self, game: str) -> bool:
        return bool(await self.redis.exists(self.store.keys(game).meta)) or await self.store.archived(game) is not None

    async def is_running(self, game: str) -> bool:
        """Whether the game is in Redis and has not ended (an archived game is not running)."""
        kind, finished = await self.redis.hmget(self.store.keys(game).meta, "kind", "finished")
        return kind is not None and finished is None

    async def kind_in_redis(self, game: str) -> str | None:
        """The game's kind if the game is in Redis (None: unknown, or archived)."""
        kind = cast("bytes | None", await self.redis.hget(self.store.keys(game).meta, "kind"))
        return None if kind is None else kind.decode()

    async def have_ended(self, games: list[str]) -> list[bool]:
        """Whether each game in Redis has ended (False too for one not in Redis), in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for game in games:
                pipe.hexists(self.store.keys(game).meta, "finished")
            return [bool(e) for e in await pipe.execute()]

    async def seat_player(self, game: str, seat: int) -> SeatPlayer:
        """Who plays `seat`, as Redis holds it."""
        seats, handed = cast(
            "list[bytes | None]", await self.redis.hmget(self.store.keys(game).meta, "seats", f"ai:{seat}")
        )
        return SeatPlayer(seats, handed)

    async def game_ids(self) -> list[str]:
        """Every game in Redis (a SCAN of the metadata keys; a RedisCluster's scan visits every node)."""
        head = f"{{{self.store.prefix}:p"  # self.tag(p) is "{prefix:p<p>}"
        ids = []
        async for key in self.redis.scan_iter(match=f"{head}*}}:game:*:meta", count=1000):
            key = key.decode()
            ids.append(key[key.index("}:game:") + len("}:game:") : -len(":meta")])
        return sorted(set(ids))
