"""Operator commands that read a game from the server's Redis (REDIS_URL): export and audit."""

from __future__ import annotations

import asyncio
import sys

import msgspec

from service.config import Settings
from service.store.codec import Envelope
from service.store.connection import connect
from service.store.streams import EventStore

from .export import Header


def _store(settings: Settings) -> EventStore:
    if not settings.redis_url:
        sys.exit("Set REDIS_URL to the server's Redis (`pantheon serve` prints it).")
    from .cold import Archive

    client = connect(
        settings.redis_url,
        timeout_s=settings.redis_timeout_s,
        pool_size=settings.redis_pool,
        detect_s=settings.redis_detect_s,
    )
    return EventStore(
        client,
        prefix=settings.prefix,
        partitions=settings.partitions,
        wait_replicas=settings.wait_replicas,
        wait_timeout_ms=settings.wait_timeout_ms,
        cold=Archive(settings.archive_path),
    )


async def load_export(store: EventStore, game: str) -> tuple[Header, list[Envelope]]:
    """A stored game as an export: the seed only once its secrets are revealed (it has ended, and
    so has any game it was dealt from)."""
    meta = await store.records.meta(game)
    if "kind" not in meta:
        raise LookupError(f"There is no game {game!r}.")
    envelopes = await store.read(game)
    text = {k: v.decode() for k, v in meta.items() if k in ("kind", "engine", "commitment", "seed", "finished")}
    header = Header(
        game=game,
        kind=text["kind"],
        engine=text.get("engine", ""),
        commitment=text["commitment"],
        seed=text["seed"] if await store.records.revealed(game) else None,
        seats=msgspec.json.decode(meta.get("seats", b"[]")),
        lineage=msgspec.json.decode(meta["lineage"]) if "lineage" in meta else None,
        events=len(envelopes),
    )
    return header, envelopes


def fetch_export(game: str, settings: Settings | None = None) -> tuple[Header, list[Envelope]]:
    return _run(settings, lambda store: load_export(store, game))


def _run(settings: Settings | None, work):
    store = _store(settings or Settings())

    async def go():
        try:
            return await work(store)
        finally:
            await store.aclose()

    return asyncio.run(go())


def export_game(game: str, out, settings: Settings | None = None) -> int:
    """Write a game as JSON Lines to `out` (a binary file); the number of events."""
    from .export import decider_for, export_lines

    header, envelopes = _run(settings, lambda store: load_export(store, game))
    for line in export_lines(header, envelopes, decider_for(header.kind)):
        out.write(line + b"\n")
    return len(envelopes)


def import_file(path: str, settings: Settings | None = None) -> str:
    """Verify an exported file and recreate its game (read-only); the game id."""
    from service.write import GameService, ServiceError

    from .export import read_export
    from .lineage import import_game

    with open(path, "rb") as f:
        header, envelopes = read_export(f.read().splitlines())

    async def work(store):
        return await import_game(GameService(store), header, envelopes)

    try:
        return _run(settings, work)
    except ServiceError as error:
        sys.exit(f"{error.code}: {error.message}")
