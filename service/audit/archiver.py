"""The archiver: moves finished games (after a retention period) and abandoned games (no event for
longer than another) out of Redis into the archive, safely with several archivers at once.

Per game: a claim (SET NX with an expiry, in the game's hash tag), the files written (atomically)
and read back and compared with what Redis holds, then one script that deletes the game's keys
only if the claim is still ours and the game has not changed since it was read. A crash at any
step leaves the game whole in Redis (the files, if any, are written again next time) or whole in
the archive. A game that cannot be archived (its events unreadable here, its files not reading back)
is skipped, logged and counted, and the sweep goes on with the others."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
import uuid
from dataclasses import dataclass

import msgspec

from projections.registry import projections_for
from service.store.codec import Envelope
from service.store.errors import RedisError
from service.store.streams import EventStore

from .archive import load_export
from .cold import Archive, side_bytes
from .export import ExportError, decider_for, export_lines

log = logging.getLogger(__name__)
CLAIM_S = 300  # how long an archiver's claim on a game lasts (an archiver that died lets go after this)


@dataclass(frozen=True)
class Due:
    game: str
    reason: str  # finished or abandoned
    version: int = 0  # the version it was due at: a game that moved since is not archived


@dataclass(frozen=True)
class Skipped:
    game: str
    reason: str  # unreadable (its events or files), mismatch (its files do not read back as Redis holds it), error
    error: str


def skip_reason(error: Exception) -> str:
    """The metric's label for a game that could not be archived (a few values, whatever the error)."""
    if isinstance(error, ArchiveMismatch):
        return "mismatch"
    return "unreadable" if isinstance(error, (ExportError, msgspec.MsgspecError)) else "error"


class Archiver:
    """Moves games that are due from `store` (a store without an archive: Redis only) to `archive`."""

    def __init__(
        self, store: EventStore, archive: Archive, *, finished_s: float, abandoned_s: float, claim_s: int = CLAIM_S
    ) -> None:
        self.store, self.archive = store, archive
        self.finished_s, self.abandoned_s, self.claim_s = finished_s, abandoned_s, claim_s
        self.claims = store.claims
        self._delete = self.claims.delete  # (a test makes it crash: the archiver dies before deleting)
        self.skipped: list[Skipped] = []  # the games the last sweep could not archive

    async def games(self) -> list[str]:
        """Every game in Redis (a SCAN of their metadata keys, on every node of a cluster)."""
        return await self.store.records.game_ids()

    async def due(self, game: str, now: float | None = None) -> Due | None:
        """Whether the game is to be archived now, and why."""
        now = time.time() if now is None else now
        finished, version, last_ms = await self.claims.last_activity(game)
        idle = now - last_ms / 1000
        if finished:
            return Due(game, "finished", version) if idle >= self.finished_s else None
        return Due(game, "abandoned", version) if idle >= self.abandoned_s else None

    async def sweep(self, now: float | None = None) -> list[Due]:
        """Archive every game that is due; the games this archiver archived. A game that cannot be
        archived is skipped (listed in `skipped`, logged, counted in Redis for /metrics); Redis or the
        disk failing ends the sweep (every game would fail alike)."""
        done, self.skipped = [], []
        for game in await self.games():
            try:
                due = await self.due(game, now)
                if due is not None and await self.move(game, ended=due.reason == "finished", version=due.version):
                    done.append(due)
            except (RedisError, OSError):
                raise
            except Exception as error:  # noqa: BLE001 - one game's log must not keep every other in Redis
                await self._skip(Skipped(game, skip_reason(error), repr(error)))
        await self.claims.record_sweep(len(self.skipped))
        return done

    async def _skip(self, skipped: Skipped) -> None:
        log.warning("game %s cannot be archived, skipped (%s): %s", skipped.game, skipped.reason, skipped.error)
        self.skipped.append(skipped)
        await self.claims.count_skipped(skipped.reason)

    async def move(self, game: str, *, ended: bool = True, version: int | None = None) -> bool:
        """Archive the game now (if at `version`, when given), if no other archiver is at it; whether
        this call archived it."""
        token = uuid.uuid4().hex
        if not await self.claims.claim(game, token, self.claim_s):
            return False
        try:
            return await self._move(game, token, ended, version)
        except BaseException:
            await self.claims.release(game)  # (it expires anyway if this fails too)
            raise

    async def _move(self, game: str, token: str, ended: bool, due_at: int | None) -> bool:
        meta, rejected = await self.claims.in_redis(game)
        moved = due_at is not None and int(meta.get("version", b"0")) != due_at  # a move since it was due
        if "kind" not in meta or moved:  # (no kind: archived meanwhile by an archiver whose claim had expired)
            await self.claims.release(game)
            return False
        header, envelopes = await load_export(self.store, game)
        version = meta.get("version", b"").decode()
        if int(version or 0) != len(envelopes):  # an append between the two reads: next time
            await self.claims.release(game)
            return False
        export = b"".join(line + b"\n" for line in export_lines(header, envelopes, decider_for(header.kind)))
        await asyncio.to_thread(self.archive.write, game, export, side_bytes(meta, rejected))
        await asyncio.to_thread(self._verify, game, meta, envelopes, rejected)
        if not ended:  # leaves the lobby of running games before its keys go (a game listed twice is fine)
            await self.store.lobby.move_to_ended(game)
        names = [p.name for p in projections_for(meta["kind"].decode())]
        rev = meta.get("rev", b"").decode()
        deleted = await self._delete(game, token, version, rev, names)
        if not deleted and not ended:  # it moved meanwhile: it is running after all
            await self.store.lobby.move_to_running(game)
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


class ArchiveMismatch(Exception):
    """The archive's files did not read back as Redis holds the game."""


async def run(
    store: EventStore,
    archive: Archive,
    *,
    finished_s: float,
    abandoned_s: float,
    every_s: float,
    stop: asyncio.Event | None = None,
) -> None:
    """Sweep every `every_s` seconds until `stop` is set; a failed sweep is logged and tried again."""
    archiver = Archiver(store, archive, finished_s=finished_s, abandoned_s=abandoned_s)
    stop = stop or asyncio.Event()
    host = socket.gethostname()
    while not stop.is_set():
        try:
            # alive for three periods, and a sweep's worth more (a sweep of many games takes a while)
            await store.claims.say_alive(host, int(3 * every_s) + 300)
            for due in await archiver.sweep():  # (a game it skips, it logs)
                log.info("archived %s game %s", due.reason, due.game)
        except Exception as error:  # noqa: BLE001 - Redis away, a full disk: try again next period
            log.warning("archive sweep failed: %r", error)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every_s)
    try:
        await store.claims.say_stopped(host)  # stopped on purpose: no longer alive
    except Exception as error:  # noqa: BLE001 - it lapses anyway
        log.warning("could not say the archiver stopped: %r", error)
