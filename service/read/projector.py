"""The projector worker: consumes the feed with a consumer group and keeps read models at their stream's version."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field

from projections import GameFold
from service.store.errors import RedisError
from service.store.streams import EventStore

from .models import (
    PROJECTIONS,
    Catalog,
    decode_envelopes,
    event_decoder,
    lost_models,
    model_writes,
    read_envelopes,
    stored_versions,
    write_views,
)
from .rebuild import ensure_current

log = logging.getLogger("pantheon.projector")


@dataclass
class _Cached:
    fold: GameFold
    kind: str
    written: int = 0  # the stored read models are known to be at least at this version
    hash: str = ""  # the hash of the fold's last event: the log must still hold it at that version
    lost: dict = field(default_factory=dict)  # stored models on events the log lost: replaced by the next write


@dataclass
class Stats:
    entries: int = 0  # feed entries handled (acked)
    batches: int = 0  # reads (or claims) that brought entries
    claimed: int = 0  # of which taken over from another consumer
    writes: int = 0  # read-model hashes written
    folded: int = 0  # events folded
    failures: int = 0  # games whose entries were left pending after an error
    trimmed: int = 0  # feed entries dropped once every group had read them
    renewed: int = 0  # claims renewed on entries still being worked on in a long batch
    removed: int = 0  # dead consumers removed from the group (once on each partition)
    diverged: int = 0  # cached folds dropped because the log lost an event they had folded


@dataclass
class Projector:
    """One projector process's consumer; run several for more throughput or availability.

    Each feed entry says "game G moved to version `to`". For a batch of entries the projector
    folds each game up to its newest event (from a cached fold when it has one), then stores the
    views and acks the game's entries in one Lua step that never goes back in version. So a
    redelivered entry, a peer projector or a crash between any two steps changes nothing: at
    worst work is done twice with the same result.

    After a crash: entries delivered to a consumer and not acknowledged for `claim_idle_ms` are
    claimed (XAUTOCLAIM) by a live projector, which looks for them every quarter of that time; so
    a dead projector's entries are projected about 1 to 1.25 × `claim_idle_ms` after they were
    delivered to it (1 to 1.25 s by default). A live projector working on a batch longer than half
    `claim_idle_ms` renews its claim on the entries it has not done yet (XCLAIM to itself, JUSTID),
    so a slow batch is not taken over; a projector stalled longer than `claim_idle_ms` (stopped,
    starved) does lose its entries to a peer, which is harmless: both write the same versions.

    Dead consumers: every `dead_after_ms` / 4 a projector says on each partition that it is alive
    for `dead_after_ms` more, and removes from the group the consumers no longer alive that were
    given no entry for `dead_after_ms` and hold no pending entries (one Lua step: XGROUP
    DELCONSUMER would drop an entry delivered meanwhile). So a dead consumer leaves within about
    1.25 × `dead_after_ms` of its death, and one that still holds entries stays until a peer has
    claimed them. Redis's own idle time cannot tell a dead consumer from a live one on a quiet
    partition: up to Redis 7.0 it counts from the consumer's last entry, not from its last read.

    A failover can lose an event that was never acknowledged (the append's WAIT failed) but was
    already projected; the next append then reuses its version with another event. So each read
    model keeps the hash of its last event next to its version (written in the same step), a
    cached fold is used only while the log still holds its last event (by hash, read with the
    events that follow), and a game's stored models are checked against the log before a
    redelivered entry is skipped: models on a lost event are rebuilt from the log, even when that
    takes them back in version (a model ahead of the log), and only while they are still the lost
    ones. The hash chain makes the last hash stand for every event before it.

    A game that cannot be projected (a bug, a bad event) leaves its entries pending; this
    projector tries it again after a pause that doubles from `retry_s` to `retry_max_s`."""

    store: EventStore
    consumer: str = field(default_factory=lambda: f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}")
    batch: int = 64
    block_ms: int = 1000  # the longest one read waits for new entries (shortened to the next claim)
    claim_idle_ms: int = 1_000  # entries unacknowledged this long at another consumer are claimed
    dead_after_ms: int = 30_000  # a consumer silent this long and holding nothing is removed from the group
    cache_size: int = 1024
    catalog: Catalog = field(default_factory=lambda: PROJECTIONS)
    trim_every_s: float = 5.0  # how often a partition's feed is trimmed of entries every group has read
    retry_s: float = 1.0  # the first pause before a game that failed is tried again (then doubled)
    retry_max_s: float = 60.0
    gather_ms: int = 10  # after a batch, entries gather this long before the next read (see `_consume`)
    stats: Stats = field(default_factory=Stats)
    _cache: OrderedDict = field(default_factory=OrderedDict)
    _failing: dict = field(default_factory=dict)  # game -> (monotonic time it may be tried again, pause)

    def __post_init__(self) -> None:
        check_options(
            batch=self.batch,
            block_ms=self.block_ms,
            claim_idle_ms=self.claim_idle_ms,
            dead_after_ms=self.dead_after_ms,
            gather_ms=self.gather_ms,
        )
        self.feeds = self.store.feeds

    async def setup(self) -> list[str]:
        """Join the consumer group on every partition; rebuild projections whose version changed."""
        for feed in self.feeds.keys():  # noqa: SIM118 - Feeds is no dict
            await self.feeds.join(feed)
        return await ensure_current(self.store, self.catalog)

    async def run(self, stop: asyncio.Event) -> None:
        """Consume every partition until `stop` is set (within about `block_ms`), then leave the group:
        all of them in one loop on one Redis, one loop per partition on a cluster (where a read
        cannot span hash tags)."""
        await self.setup()
        await asyncio.gather(*(self._consume(group, stop) for group in self._groups()))
        await self._leave()

    def _groups(self) -> list[list[str]]:
        return self.feeds.read_together()

    async def drain(self) -> int:
        """Handle everything claimable or new on every partition, without blocking; the count acked."""
        start = self.stats.entries
        while True:
            acked = self.stats.entries
            handled = sum([await self.step(*group, claim=True) for group in self._groups()])
            if not handled or self.stats.entries == acked:  # nothing left, or only failing games
                return self.stats.entries - start

    async def step(self, *feeds: str, block_ms: int | None = None, claim: bool = False) -> int:
        """One batch from some partitions (several only on one Redis: one read spans them):
        entries idle too long at other consumers (`claim`), else new ones; the count taken."""
        batches = await self._claim(list(feeds)) if claim else []
        if not batches:
            batches = await self.feeds.read_new_many(list(feeds), self.consumer, self.batch, block_ms)
        self.stats.batches += bool(batches)
        await self._handle(batches)
        return sum(len(entries) for _, entries in batches)

    async def trim(self, feed: str) -> int:
        """Drop the feed's entries that every consumer group has read and acknowledged (the feed
        would otherwise keep every append forever); the count dropped. Nothing without a group."""
        return await self.feeds.trim(feed)

    async def remove_dead(self, feed: str) -> list[str]:
        """Say on the partition that this consumer is alive for `dead_after_ms` more; remove from
        its group the consumers no longer alive that were given no entry for `dead_after_ms` and
        hold no pending entries (all in one step). The names removed."""
        names = await self.feeds.remove_dead(feed, self.consumer, self.dead_after_ms)
        for name in names:
            log.info("removed dead consumer %s from the group on %s", name, feed)
        return names

    # --- consuming ----------------------------------------------------------------------------
    async def _consume(self, feeds: list[str], stop: asyncio.Event) -> None:
        """The loop on some partitions. After a batch smaller than `batch`, it waits `gather_ms`
        before reading again, so that at a human pace one read, one read of events and one write
        serve several commands (each wake-up of the process costs more than a command's folding);
        an entry that comes while the loop waits in a read is taken at once."""
        now = time.monotonic()
        next_claim, next_sweep, next_trim, backoff = now, now, now + self.trim_every_s, 0.1
        while not stop.is_set():
            try:
                now = time.monotonic()
                if now >= next_trim:
                    next_trim = now + self.trim_every_s
                    for feed in feeds:
                        trimmed = await self.trim(feed)  # (`x += await …` reads x before awaiting: updates lost)
                        self.stats.trimmed += trimmed
                if now >= next_sweep:
                    next_sweep = now + self.dead_after_ms / 4000
                    for feed in feeds:
                        removed = await self.remove_dead(feed)
                        self.stats.removed += len(removed)
                claim = now >= next_claim
                if claim:
                    next_claim = now + self.claim_idle_ms / 4000
                wait_ms = int((next_claim - time.monotonic()) * 1000)  # a read ends in time for the next claim
                taken = await self.step(*feeds, block_ms=max(1, min(self.block_ms, wait_ms)), claim=claim)
                backoff = 0.1
                if 0 < taken < self.batch and self.gather_ms:
                    await asyncio.sleep(self.gather_ms / 1000)
            except RedisError as error:  # Redis away or restarted: retry later
                log.warning("projector step on %s failed: %r", ", ".join(feeds), error)
                if "NOGROUP" in str(error):
                    for feed in feeds:
                        await self.feeds.join(feed)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)

    async def _leave(self) -> None:
        """Remove this consumer from the group where it holds nothing (its pending entries stay
        for another to claim them)."""
        await self.feeds.leave(self.consumer)

    async def _claim(self, feeds: list[str]) -> list:
        batches = await self.feeds.claim_idle_many(feeds, self.consumer, self.claim_idle_ms, self.batch)
        self.stats.claimed += sum(len(entries) for _, entries in batches)
        return batches

    async def _renew(self, feed: str, ids: list[bytes]) -> None:
        """Reset the idle time of entries this consumer still works on (XCLAIM to itself with
        JUSTID, which leaves their delivery count alone), so that no peer claims them meanwhile."""
        self.stats.renewed += await self.feeds.renew(feed, self.consumer, ids)

    async def _handle(self, batches: list) -> None:
        """Project every game named in the batch ([(feed, entries)]); a game that fails leaves its
        entries pending (and is skipped until its pause is over). The events of the cached games
        are read in one round trip first, and their writes (each with its acks) sent together at
        the end. Whenever half `claim_idle_ms` has passed since the last time, the writes so far
        are sent and the claim on the entries not done yet is renewed."""
        # the batch's writes not sent yet, (game, _Cached, ids to ack): its own, as on a cluster the
        # partitions' loops handle their batches side by side (a Redis error drops them with the batch)
        held_since, writes = time.monotonic(), list[tuple[str, _Cached, list[bytes]]]()
        games: dict[str, tuple[str, list[bytes], int]] = {}
        for feed, entries in batches:
            orphans = []
            for entry_id, fields in entries:
                if not fields or b"game" not in fields:  # deleted or foreign entry: nothing to project
                    orphans.append(entry_id)
                    continue
                _, ids, to = games.get(fields[b"game"].decode(), (feed, [], 0))
                games[fields[b"game"].decode()] = (feed, ids + [entry_id], max(to, int(fields[b"to"])))
            if orphans:
                await self.feeds.ack(feed, orphans)
                self.stats.entries += len(orphans)
        batch = list(games.items())
        read = await self._read_cached([game for game, _ in batch])
        for n, (game, (feed, ids, to)) in enumerate(batch):
            if self.claim_idle_ms and time.monotonic() - held_since >= self.claim_idle_ms / 2000:
                await self._flush(writes)
                await self._renew_rest(batch[n:])
                held_since = time.monotonic()
            if self._failing and self._failing.get(game, (0.0,))[0] > time.monotonic():
                continue  # it failed a moment ago: its entries stay pending until its pause is over
            try:
                await self._project(feed, game, ids, to, read.get(game), writes)
            except RedisError:
                raise
            except Exception:  # a bug or a bad event: keep going with the other games
                self.stats.failures += 1
                pause = min(self._failing.get(game, (0.0, self.retry_s / 2))[1] * 2, self.retry_max_s)
                self._failing[game] = (time.monotonic() + pause, pause)
                log.exception(
                    "projecting game %s failed; its feed entries stay pending, tried again in %.0f s", game, pause
                )
            else:
                self.stats.entries += len(ids)
                if self._failing:
                    self._failing.pop(game, None)
        await self._flush(writes)

    async def _renew_rest(self, rest: list) -> None:
        by_feed: dict[str, list[bytes]] = {}
        for _, (feed, ids, _) in rest:
            by_feed.setdefault(feed, []).extend(ids)
        for feed, ids in by_feed.items():
            await self._renew(feed, ids)

    async def _read_cached(self, games: list[str]) -> dict[str, list]:
        """The envelopes from the last event of each cached fold on, for the games of the batch
        that have one (one round trip); a game whose log is empty there is left to `_project`."""
        cached = [(game, self._cache[game].fold.version) for game in games if game in self._cache]
        if not cached:
            return {}
        blobs = await self.store.models.envelopes_blobs([(game, max(version - 1, 0)) for game, version in cached])
        read = {game: decode_envelopes(blob) for (game, _), blob in zip(cached, blobs)}
        return {game: envelopes for game, envelopes in read.items() if envelopes or self.store.cold is None}

    async def _flush(self, queued: list) -> None:
        """Send the writes of the batch so far, with their acks, in one round trip; only then do
        their folds go back in the cache."""
        writes, queued[:] = list(queued), []
        if not writes:
            return
        results = await self.store.models.write_many(
            [(game, c.fold.version, c.hash, model_writes(c.fold, lost=c.lost), ids) for game, c, ids in writes]
        )
        for (game, cached, _), (written, kept) in zip(writes, results):
            if kept and (lost := await lost_models(self.store, game, cached.fold.projections)):
                # a peer projected an event the log has lost since (a model ahead, or another hash)
                log.warning(
                    "game %s: read models %s hold events its log lost; rebuilt from the log", game, sorted(lost)
                )
                written += await write_views(self.store, game, cached.fold, last_hash=cached.hash, lost=lost)
            self.stats.writes += written
            cached.written, cached.lost = cached.fold.version, {}
            self._keep(game, cached)

    def _keep(self, game: str, cached: _Cached) -> None:
        self._cache[game] = cached  # only a fold that went through whole goes back in the cache
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    async def _project(
        self, feed: str, game: str, ids: list[bytes], to: int, read: list | None = None, writes: list | None = None
    ) -> None:
        """Fold the game to its newest event; its write (with the ack of `ids`) waits for `_flush`.
        `read`: the envelopes from its cached fold's last event on, read already."""
        cached = self._cache.pop(game, None)
        envelopes = await self._after(game, cached, read) if cached is not None else None
        if envelopes is None:  # not cached, or its fold holds an event the log lost
            cached = await self._cold(game, to)
            if cached is None:  # already projected (a redelivery), or the game is gone
                await self.feeds.ack(feed, ids)
                return
            envelopes = await read_envelopes(self.store, game, 0)
        decoder = event_decoder(cached.kind)
        for e in envelopes:
            cached.fold.apply(e.version, decoder.decode(e.payload))
            cached.hash = e.hash
            self.stats.folded += 1
        if cached.fold.version > cached.written or cached.lost:
            if writes is None:  # not part of a batch: sent at once
                await self._flush([(game, cached, ids)])
            else:
                writes.append((game, cached, ids))
        else:
            await self.feeds.ack(feed, ids)
            self._keep(game, cached)

    async def _after(self, game: str, cached: _Cached, read: list | None = None) -> list | None:
        """The envelopes that follow the cached fold (`read`: those from its last event on, read
        already); None when the log no longer holds the event the fold ends with (a failover lost
        it, and the version may hold another event now)."""
        version = cached.fold.version
        envelopes = read if read is not None else await read_envelopes(self.store, game, max(version - 1, 0))
        if version == 0:
            return envelopes
        if not envelopes or envelopes[0].version != version or envelopes[0].hash != cached.hash:
            self.stats.diverged += 1
            log.warning(
                "game %s: the log no longer holds event %d as projected (a failover lost it); "
                "its read models are rebuilt from the log",
                game,
                version,
            )
            return None
        return envelopes[1:]

    async def _cold(self, game: str, to: int) -> _Cached | None:
        """A fresh fold for a game not in the cache, or None when its read models reach `to`
        already and hold only events the log holds."""
        kind = await self.store.records.kind_in_redis(game)
        projections = self.catalog.get(kind) if kind else None
        if not projections:
            return None
        lost = await lost_models(self.store, game, projections)
        if not lost and await stored_versions(self.store, game, projections) >= to:
            return None
        if lost:
            log.warning("game %s: read models %s hold events its log lost; rebuilt from the log", game, sorted(lost))
        assert kind is not None  # projections were found for it
        return _Cached(GameFold(projections), kind, lost=lost)


def check_options(*, batch: int, block_ms: int, claim_idle_ms: int, dead_after_ms: int, gather_ms: int = 0) -> None:
    """Raise ValueError unless the projector's options work together. A consumer's loop on a
    partition waits up to min(block_ms, claim_idle_ms / 4) ms in a read, and between reads says
    every dead_after_ms / 4 that it is alive for dead_after_ms more: dead_after_ms must be at
    least 4 times that wait, or a live consumer could be removed as dead (harmlessly: it holds
    nothing then, and its next entry brings it back; but it should not happen)."""
    if batch < 1 or block_ms < 1 or claim_idle_ms < 0 or gather_ms < 0:
        raise ValueError(
            f"batch={batch} and block_ms={block_ms} must be positive, claim_idle_ms={claim_idle_ms} "
            f"and gather_ms={gather_ms} not negative"
        )
    poll_ms = min(block_ms, max(1, claim_idle_ms // 4))
    if dead_after_ms < 4 * poll_ms:
        raise ValueError(
            f"dead_after_ms={dead_after_ms} is under 4 times the longest wait between two reads "
            f"({poll_ms} ms): live consumers would look dead"
        )
