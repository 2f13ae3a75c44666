"""The `pantheon projector` process: one `Projector` on its own Redis client until SIGTERM or SIGINT."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import signal

from service.store.connection import TIMEOUT_S, connect
from service.store.streams import EventStore

from .projector import Projector, Stats, check_options


async def run_projector(
    redis_url: str,
    prefix: str,
    partitions: int,
    stop: asyncio.Event,
    *,
    redis_timeout_s: float = TIMEOUT_S,
    redis_detect_s: float | None = None,
    **options,
) -> Stats:
    """Run one projector against `redis_url` until `stop` is set; its statistics. `redis_timeout_s`:
    PANTHEON_REDIS_TIMEOUT_S, over which a command may take `block_ms` more; `redis_detect_s`:
    PANTHEON_REDIS_DETECT_S (None: its default)."""
    # a read blocks up to block_ms by design; a command unanswered well past that means a dead
    # connection (a vanished host sends no reset): fail it, and the step is retried on a new one
    block_ms = options.get("block_ms", Projector.block_ms)
    client = connect(redis_url, timeout_s=redis_timeout_s + block_ms / 1000, detect_s=redis_detect_s)
    store = EventStore(client, prefix=prefix, partitions=partitions)
    try:
        projector = Projector(store, **options)
        await projector.run(stop)
        return projector.stats
    finally:
        await store.aclose()


def serve_projector(
    redis_url: str | None,
    prefix: str,
    partitions: int,
    *,
    redis_timeout_s: float = TIMEOUT_S,
    redis_detect_s: float | None = None,
    **options,
) -> Stats:
    """The `pantheon projector` process: consume until SIGTERM or SIGINT, then finish the batch."""
    checked = {
        f.name: options.get(f.name, f.default)
        for f in dataclasses.fields(Projector)
        if f.name in ("batch", "block_ms", "claim_idle_ms", "dead_after_ms", "gather_ms")
    }
    try:
        check_options(**checked)
    except ValueError as error:
        raise SystemExit(f"pantheon projector: {error}") from None
    if not redis_url:
        raise SystemExit("Set REDIS_URL (e.g. redis://127.0.0.1:6379/0) to run a projector on its own.")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")

    async def main() -> Stats:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        return await run_projector(
            redis_url,
            prefix,
            partitions,
            stop,
            redis_timeout_s=redis_timeout_s,
            redis_detect_s=redis_detect_s,
            **options,
        )

    return asyncio.run(main())
