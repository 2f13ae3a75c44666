"""Store benchmark (not a test): appends per second through the Lua append, with the AOF fsynced
every second versus on every write, on private redis-server instances.

    .venv/bin/python -m tests.bench.bench_store [--appends 3000] [--concurrency 32]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import socket
import subprocess
import tempfile
import time

import msgspec
from redis.asyncio import Redis

from service.codec import Envelope, seal
from service.store import EventStore


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis(fsync: str) -> tuple[subprocess.Popen, str, str]:
    directory = tempfile.mkdtemp(prefix="bench-redis-")
    port = _free_port()
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", directory, "--save", "",
         "--appendonly", "yes", "--appendfsync", fsync], stdout=subprocess.DEVNULL)
    time.sleep(0.3)
    return process, f"redis://127.0.0.1:{port}/0", directory


async def appends_per_second(url: str, appends: int, concurrency: int) -> float:
    client = Redis.from_url(url)
    store = EventStore(client, prefix="bench", partitions=16)
    payload = msgspec.Raw(msgspec.msgpack.encode({"type": "moved", "seat": 1, "placements": [[3, 4]] * 3}))

    async def game(g: int) -> None:
        for version in range(appends // concurrency):
            e = seal(Envelope(game=f"g{g}", version=version + 1, type="moved", schema=1, payload=payload,
                              recorded_at=0))
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
        process, url, directory = start_redis(fsync)
        try:
            result[f"appends_per_s_fsync_{fsync}"] = asyncio.run(appends_per_second(url, args.appends, args.concurrency))
        finally:
            process.terminate()
            process.wait()
            shutil.rmtree(directory, ignore_errors=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
