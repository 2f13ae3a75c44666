"""Store benchmark (not a test): appends per second through the Lua append, with the AOF fsynced
every second versus on every write, on private redis-server instances.

    .venv/bin/python -m bench.bench_store [--appends 3000] [--concurrency 32] [--stamped]

`--stamped`: each event records the time on the Redis clock and the append checks it against TIME
(what the write path does since the turn clocks, docs/clocks.md); without it, no time is checked.
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


async def appends_per_second(url: str, appends: int, concurrency: int, stamped: bool = False) -> tuple[float, float]:
    """Appends per second by the clock, and the Redis CPU time of one append's script (INFO
    commandstats: µs per EVALSHA, less bent by the machine's other load than the rate)."""
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
                    recorded_at=(stamp := store.now_ms() if stamped else 0),
                    prev_hash=prev,
                )
            )
            prev = e.hash  # the append refuses an event not chained to the log's last hash
            await store.append(f"g{g}", version, [e], **({"stamp": stamp} if stamped else {}))

    start = time.perf_counter()
    await asyncio.gather(*(game(g) for g in range(concurrency)))
    seconds = time.perf_counter() - start
    stats = (await client.info("commandstats")).get("cmdstat_evalsha", {})
    await client.aclose()
    return round(appends // concurrency * concurrency / seconds, 1), float(stats.get("usec_per_call", 0))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--appends", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--stamped", action="store_true", help="the Redis clock's time, checked by the append")
    args = parser.parse_args()
    result = {}
    for fsync in ("everysec", "always"):
        with private_redis(fsync) as url:
            rate, usec = asyncio.run(appends_per_second(url, args.appends, args.concurrency, args.stamped))
            result[f"appends_per_s_fsync_{fsync}"] = rate
            result[f"script_usec_fsync_{fsync}"] = usec
    print(json.dumps(result))


if __name__ == "__main__":
    main()
