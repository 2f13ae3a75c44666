"""Operator commands that read a game from the server's Redis (REDIS_URL): export and audit."""

from __future__ import annotations

import asyncio
import sys

import msgspec
from redis.asyncio import Redis

from .codec import Envelope
from .config import Settings
from .export import Header
from .store import EventStore


def _store(settings: Settings) -> EventStore:
    if not settings.redis_url:
        sys.exit("Set REDIS_URL to the server's Redis (`pantheon serve` prints it).")
    return EventStore(Redis.from_url(settings.redis_url), prefix=settings.prefix, partitions=settings.partitions)


async def load_export(store: EventStore, game: str) -> tuple[Header, list[Envelope]]:
    """A stored game as an export: the seed only once the game has ended."""
    meta = await store.meta(game)
    if "kind" not in meta:
        raise LookupError(f"There is no game {game!r}.")
    envelopes = await store.read(game)
    text = {k: v.decode() for k, v in meta.items() if k in ("kind", "engine", "commitment", "seed", "finished")}
    header = Header(game=game, kind=text["kind"], engine=text.get("engine", ""), commitment=text["commitment"],
                    seed=text["seed"] if text.get("finished") == "1" else None,
                    seats=msgspec.json.decode(meta.get("seats", b"[]")),
                    lineage=msgspec.json.decode(meta["lineage"]) if "lineage" in meta else None,
                    events=len(envelopes))
    return header, envelopes


def fetch_export(game: str, settings: Settings | None = None) -> tuple[Header, list[Envelope]]:
    store = _store(settings or Settings())

    async def go():
        try:
            return await load_export(store, game)
        finally:
            await store.redis.aclose()

    return asyncio.run(go())
