"""The archiver: moves finished games (after a retention period) and abandoned games (no event for
longer than another) out of Redis into the archive, safely with several archivers at once.

Per game: a claim (SET NX with an expiry, in the game's hash tag), the files written (atomically)
and read back and compared with what Redis holds, then one script that deletes the game's keys
only if the claim is still ours and the game has not changed since it was read. A crash at any
step leaves the game whole in Redis (the files, if any, are written again next time) or whole in
the archive."""

from __future__ import annotations

import asyncio
import logging
import socket
import time
import uuid
from dataclasses import dataclass

from domain import games as registry
from service.store.codec import UNPACK_ENVELOPE, Envelope
from service.store.streams import EventStore

from .archive import load_export
from .cold import Archive, side_bytes
from .export import decider_for, export_lines

log = logging.getLogger(__name__)
CLAIM_S = 300  # how long an archiver's claim on a game lasts (an archiver that died lets go after this)

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


@dataclass(frozen=True)
class Due:
    game: str
    reason: str  # finished or abandoned
    version: int = 0  # the version it was due at: a game that moved since is not archived


class Archiver:
    """Moves games that are due from `store` (a store without an archive: Redis only) to `archive`."""

    def __init__(self, store: EventStore, archive: Archive, *, finished_s: float, abandoned_s: float,
                 claim_s: int = CLAIM_S) -> None:
        self.store, self.archive = store, archive
        self.finished_s, self.abandoned_s, self.claim_s = finished_s, abandoned_s, claim_s
        self._delete = store.redis.register_script(_DELETE)

    async def games(self) -> list[str]:
        """Every game in Redis (a SCAN of their metadata keys, on every node of a cluster)."""
        pattern = f"{{{self.store.prefix}:p*}}:game:*:meta"
        return sorted({key.decode().rsplit(":", 2)[-2] async for key in self.store.redis.scan_iter(match=pattern,
                                                                                                  count=1000)})

    async def due(self, game: str, now: float | None = None) -> Due | None:
        """Whether the game is to be archived now, and why."""
        now = time.time() if now is None else now
        finished, created, version = await self.store.redis.hmget(self.store.keys(game).meta, "finished",
                                                                  "created_at", "version")
        last = await self.store.redis.xrevrange(self.store.keys(game).events, count=1)
        last_ms = max(int(created or 0), UNPACK_ENVELOPE.decode(last[0][1][b"e"]).recorded_at if last else 0)
        idle = now - last_ms / 1000
        if finished is not None:
            return Due(game, "finished", int(version or 0)) if idle >= self.finished_s else None
        return Due(game, "abandoned", int(version or 0)) if idle >= self.abandoned_s else None

    async def sweep(self, now: float | None = None) -> list[Due]:
        """Archive every game that is due; the games this archiver archived."""
        done = []
        for game in await self.games():
            due = await self.due(game, now)
            if due is not None and await self.move(game, ended=due.reason == "finished", version=due.version):
                done.append(due)
        return done

    async def move(self, game: str, *, ended: bool = True, version: int | None = None) -> bool:
        """Archive the game now (if at `version`, when given), if no other archiver is at it; whether
        this call archived it."""
        keys, token = self.store.keys(game), uuid.uuid4().hex
        if not await self.store.redis.set(keys.archiving, token, nx=True, ex=self.claim_s):
            return False
        try:
            return await self._move(game, token, ended, version)
        except BaseException:
            await self.store.redis.delete(keys.archiving)  # (it expires anyway if this fails too)
            raise

    async def _move(self, game: str, token: str, ended: bool, due_at: int | None) -> bool:
        keys = self.store.keys(game)
        meta = {k.decode(): v for k, v in (await self.store.redis.hgetall(keys.meta)).items()}
        moved = due_at is not None and int(meta.get("version", b"0")) != due_at  # a move since it was due
        if "kind" not in meta or moved:  # (no kind: archived meanwhile by an archiver whose claim had expired)
            await self.store.redis.delete(keys.archiving)
            return False
        rejected = [fields for _, fields in await self.store.redis.xrange(keys.rejected)]
        header, envelopes = await load_export(self.store, game)
        version = meta.get("version", b"").decode()
        if int(version or 0) != len(envelopes):  # an append between the two reads: next time
            await self.store.redis.delete(keys.archiving)
            return False
        export = b"".join(line + b"\n" for line in export_lines(header, envelopes, decider_for(header.kind)))
        await asyncio.to_thread(self.archive.write, game, export, side_bytes(meta, rejected))
        await asyncio.to_thread(self._verify, game, meta, envelopes, rejected)
        if not ended:  # leaves the lobby of running games before its keys go (a game listed twice is fine)
            await self._delist(game)
        names = [p.name for p in registry.get(meta["kind"].decode()).projections]
        deleted = await self._delete(
            keys=[keys.archiving, keys.meta, keys.events, keys.rejected,
                  self.store.awaiting_key(self.store.partition(game)), *map(keys.read_model, names)],
            args=[token, version, meta.get("rev", b"").decode(), game])
        if not deleted and not ended:  # it moved meanwhile: it is running after all
            await self._relist(game)
        return bool(deleted)

    def _verify(self, game: str, meta: dict[str, bytes], envelopes: list[Envelope], rejected: list) -> None:
        """Read the files back: the same events (their hash chain unbroken, ending at the hash Redis
        holds), the same metadata and refused commands; else ArchiveMismatch and Redis keeps the game."""
        cold = self.archive.read(game)
        if cold is None or cold.envelopes != envelopes or cold.meta != meta or cold.rejected != rejected:
            raise ArchiveMismatch(f"the archive of {game} does not read back as Redis holds it")
        for before, e in zip(cold.envelopes, cold.envelopes[1:]):
            if e.prev_hash != before.hash:
                raise ArchiveMismatch(f"the archive of {game} breaks its hash chain at {e.version}")
        if cold.envelopes and cold.envelopes[-1].hash != meta.get("hash", b"").decode():
            raise ArchiveMismatch(f"the archive of {game} does not end at the hash Redis holds")

    async def _delist(self, game: str) -> None:
        lobby, ended = f"{self.store.prefix}:lobby", f"{self.store.prefix}:lobby:ended"
        score = await self.store.redis.zscore(lobby, game)
        if score is not None:
            await self.store.redis.zadd(ended, {game: score})
            await self.store.redis.zrem(lobby, game)

    async def _relist(self, game: str) -> None:
        lobby, ended = f"{self.store.prefix}:lobby", f"{self.store.prefix}:lobby:ended"
        score = await self.store.redis.zscore(ended, game)
        if score is not None:
            await self.store.redis.zadd(lobby, {game: score})
            await self.store.redis.zrem(ended, game)


class ArchiveMismatch(Exception):
    """The archive's files did not read back as Redis holds the game."""


def alive_key(prefix: str, host: str) -> str:
    """The key that says an archiver of `host` is alive (`pantheon alive archiver`): set before each sweep."""
    return f"{prefix}:archiver:alive:{host}"


async def run(store: EventStore, archive: Archive, *, finished_s: float, abandoned_s: float, every_s: float,
              stop: asyncio.Event | None = None) -> None:
    """Sweep every `every_s` seconds until `stop` is set; a failed sweep is logged and tried again."""
    archiver = Archiver(store, archive, finished_s=finished_s, abandoned_s=abandoned_s)
    stop = stop or asyncio.Event()
    key = alive_key(store.prefix, socket.gethostname())
    while not stop.is_set():
        try:
            # alive for three periods, and a sweep's worth more (a sweep of many games takes a while)
            await store.redis.set(key, int(time.time()), ex=int(3 * every_s) + 300)
            for due in await archiver.sweep():
                log.info("archived %s game %s", due.reason, due.game)
        except Exception as error:  # noqa: BLE001 - Redis away, a full disk: try again next period
            log.warning("archive sweep failed: %r", error)
        try:
            await asyncio.wait_for(stop.wait(), every_s)
        except asyncio.TimeoutError:
            pass
    try:
        await store.redis.delete(key)  # stopped on purpose: no longer alive
    except Exception as error:  # noqa: BLE001 - it lapses anyway
        log.warning("could not say the archiver stopped: %r", error)
