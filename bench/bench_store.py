"""Store benchmark (not a test): appends per second through the Lua append, with the AOF fsynced
every second versus on every write, on private redis-server instances.

    .venv/bin/python -m bench.bench_store [--appends 3000] [--concurrency 32]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

import msgspec
from redis.asyncio import Redis

from bench.private_redis import private_redis
from service.store.codec import Envelope, seal
from service.store.streams import EventStore


async def appends_per_second(url: str, appends: int, concurrency: int) -> float:
    client = Redis.from_url(url)
    store = EventStore(client, prefix="bench", partitions=16)
    payload = msgspec.Raw(msgspec.msgpack.encode({"type": "moved", "seat": 1, "placements": [[3, 4]] * 3}))

    async def game(g: int) -> None:
        prev = "0" * 64
        for version in range(appends // concurrency):
            e = seal(
                Envelope(
                    game=f"g{g}",
                    version=version + 1,
                    type="moved",
                    schema=1,
                    payload=payload,
                    recorded_at=0,
                    prev_hash=prev,
                )
            )
            prev = e.hash  # the append refuses an event not chained to the log's last hash
            await store.append(f"g{g}", version, [e])

    start = time.perf_counter()
    await asyncio.gather(*(game(g) for g in range(concurrency)))
    seconds = time.perf_counter() - start
    await client.aclose()
    return round(appends // concurrency * concurrency / seconds, 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--appends", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()
    result = {}
    for fsync in ("everysec", "always"):
        with private_redis(fsync) as url:
            result[f"appends_per_s_fsync_{fsync}"] = asyncio.run(
                appends_per_second(url, args.appends, args.concurrency)
            )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
