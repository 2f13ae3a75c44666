"""Rebuilding read models from the event streams, and the record of the projection versions they hold."""

from __future__ import annotations

import asyncio
import logging
import sys
import time
import uuid
from collections.abc import Callable, Iterable
from typing import TextIO

from service.store.connection import TIMEOUT_S, connect
from service.store.errors import RedisError
from service.store.streams import EventStore

from .models import (
    FORCE,
    PROJECTIONS,
    SAME_OR_NEWER,
    Catalog,
    fold_with_hash,
    lost_models,
    write_views,
)

log = logging.getLogger("pantheon.projections")
Progress = Callable[[int, int, int], None]  # games done, games in all, events folded


async def game_ids(store: EventStore) -> list[str]:
    """Every game in the store (a SCAN of the meta keys; RedisCluster's scan visits every node)."""
    return await store.records.game_ids()


async def rebuild(
    store: EventStore,
    *,
    names: Iterable[str] | None = None,
    mode: int = SAME_OR_NEWER,
    concurrency: int = 16,
    catalog: Catalog = PROJECTIONS,
    progress: Progress | None = None,
) -> dict:
    """Fold every game's stream and store its read models (those named, or all); the totals."""
    wanted = None if names is None else set(names)
    games = await game_ids(store)
    start, done, events, failed = time.perf_counter(), 0, 0, []
    gate = asyncio.Semaphore(concurrency)

    async def one(game: str) -> None:
        nonlocal done, events
        async with gate:
            kind = await store.records.kind_in_redis(game)
            chosen = [p for p in catalog.get(kind or "", ()) if wanted is None or p.name in wanted]
            try:
                if chosen:
                    fold, last_hash = await fold_with_hash(store, game, chosen, kind or "")
                    lost = await lost_models(store, game, chosen)  # ahead of the log, or on a lost event
                    await write_views(store, game, fold, mode=mode, last_hash=last_hash, lost=lost)
                    events += fold.version
            except RedisError:
                raise
            except Exception:  # a bug or a bad event in one game: rebuild the others
                log.exception("rebuilding the read models of game %s failed", game)
                failed.append(game)
            done += 1
            if progress:
                progress(done, len(games), events)

    await asyncio.gather(*(one(g) for g in games))
    seconds = time.perf_counter() - start
    return {
        "games": len(games),
        "events": events,
        "failed": failed,
        "seconds": round(seconds, 3),
        "events_per_s": round(events / seconds, 1) if seconds else 0.0,
        "projections": sorted(wanted if wanted is not None else code_versions(catalog)),
    }


# --- projection versions -------------------------------------------------------------------


def code_versions(catalog: Catalog) -> dict[str, int]:
    return {p.name: p.version for ps in catalog.values() for p in ps}


async def stale_projections(store: EventStore, catalog: Catalog = PROJECTIONS) -> list[str]:
    """Projections whose stored models were built by an older version (or never)."""
    recorded = await store.models.recorded_versions()
    stale = []
    for name, version in sorted(code_versions(catalog).items()):
        if recorded.get(name, 0) > version:
            log.warning(
                "read models %r were built by version %d, newer than this code's %d; they are left "
                "alone (`pantheon projections rebuild` replaces them)",
                name,
                recorded[name],
                version,
            )
        elif recorded.get(name, 0) < version:
            stale.append(name)
    return stale


async def record_versions(store: EventStore, names: Iterable[str], catalog: Catalog = PROJECTIONS) -> None:
    versions = code_versions(catalog)
    await store.models.record_versions({n: versions[n] for n in names})


async def ensure_current(
    store: EventStore,
    catalog: Catalog = PROJECTIONS,
    progress: Progress | None = None,
    lock_ms: int = 600_000,
) -> list[str]:
    """Rebuild the projections whose version changed, once across every projector starting
    together (the others wait for it); the names rebuilt by this process."""
    token = uuid.uuid4().hex
    while stale := await stale_projections(store, catalog):
        if not await store.models.lock_rebuild(token, lock_ms):
            await asyncio.sleep(0.2)
            continue
        try:
            log.info("rebuilding read models %s: their projection version changed", stale)
            await rebuild(store, names=stale, catalog=catalog, progress=progress)
            await record_versions(store, stale, catalog)
        finally:
            await store.models.unlock_rebuild(token)
        return stale
    return []


class ProgressBar:
    """A progress bar on a terminal; on anything else one line per tenth of the way."""

    def __init__(self, out: TextIO = sys.stderr, width: int = 30) -> None:
        self.out, self.width, self.start, self.shown = out, width, time.perf_counter(), -1

    def __call__(self, done: int, total: int, events: int) -> None:
        tty = self.out.isatty()
        tenth = done * 10 // max(total, 1)
        if not tty and tenth == self.shown and done != total:
            return
        self.shown = tenth
        rate = events / max(time.perf_counter() - self.start, 1e-9)
        filled = self.width * done // max(total, 1)
        bar = "#" * filled + "-" * (self.width - filled)
        line = f"[{bar}] {done}/{total} games  {events:,} events  {rate:,.0f} events/s"
        self.out.write(("\r" + line + ("\n" if done == total else "")) if tty else line + "\n")
        self.out.flush()


def run_rebuild(
    redis_url: str | None,
    prefix: str,
    partitions: int,
    *,
    concurrency: int = 16,
    names: list[str] | None = None,
    out: TextIO = sys.stderr,
    redis_timeout_s: float = TIMEOUT_S,
    redis_detect_s: float | None = None,
) -> dict:
    """The `pantheon projections rebuild` command: rebuild (replacing models of any projection
    version), record the versions, and return the totals."""
    if not redis_url:
        raise SystemExit("Set REDIS_URL (e.g. redis://127.0.0.1:6379/0) to rebuild its read models.")
    if unknown := set(names or ()) - set(code_versions(PROJECTIONS)):
        raise SystemExit(
            f"There is no projection {', '.join(sorted(unknown))}; try {', '.join(sorted(code_versions(PROJECTIONS)))}."
        )

    async def main() -> dict:
        client = connect(redis_url, timeout_s=redis_timeout_s, detect_s=redis_detect_s)
        store = EventStore(client, prefix=prefix, partitions=partitions)
        try:
            totals = await rebuild(store, names=names, mode=FORCE, concurrency=concurrency, progress=ProgressBar(out))
            await record_versions(store, totals["projections"])
            return totals
        finally:
            await store.aclose()

    return asyncio.run(main())
