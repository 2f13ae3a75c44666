"""What an acknowledged-means-replicated append costs (a benchmark, not a test): appends per second
and the latency of one append (p50, p99), without WAIT and with WAIT for one replica, on a single
redis-server with one replica and on a local Redis Cluster (3 masters, 3 replicas,
scripts/redis-cluster). Concurrent games append one event at a time through the store.

    .venv/bin/python -m bench.bench_wait [--appends 4000] [--concurrency 32]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import msgspec

from bench.private_redis import free_port
from service.store.codec import Envelope, seal
from service.store.connection import connect
from service.store.streams import EventStore

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def master_with_replica() -> Iterator[str]:
    """A redis-server (no persistence) and a replica of it, in sync; the master's URL."""
    directory = tempfile.mkdtemp(prefix="bench-wait-")
    ports, processes = [free_port(), free_port()], []
    try:
        for i, port in enumerate(ports):
            extra = ["--replicaof", "127.0.0.1", str(ports[0])] if i else []
            processes.append(
                subprocess.Popen(
                    [
                        "redis-server",
                        "--port",
                        str(port),
                        "--bind",
                        "127.0.0.1",
                        "--dir",
                        directory,
                        "--dbfilename",
                        f"{port}.rdb",
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        *extra,
                    ],
                    stdout=subprocess.DEVNULL,
                )
            )
        for _ in range(100):
            info = subprocess.run(
                ["redis-cli", "-p", str(ports[1]), "info", "replication"], capture_output=True, text=True
            ).stdout
            if "master_link_status:up" in info:
                break
            time.sleep(0.1)
        yield f"redis://127.0.0.1:{ports[0]}/0"
    finally:
        for process in processes:
            process.kill()
            process.wait()
        shutil.rmtree(directory, ignore_errors=True)


@contextlib.contextmanager
def cluster() -> Iterator[str]:
    directory = Path(tempfile.mkdtemp(prefix="bench-cluster-")) / "c"
    script = str(ROOT / "scripts" / "redis-cluster")
    try:
        yield subprocess.run(
            [script, "start", str(directory)], check=True, capture_output=True, text=True
        ).stdout.strip()
    finally:
        subprocess.run([script, "stop", str(directory)], check=False)
        shutil.rmtree(directory.parent, ignore_errors=True)


async def measure(url: str, appends: int, concurrency: int, replicas: int, run: str) -> dict:
    client = connect(url)
    store = EventStore(client, prefix=f"bench-{run}", partitions=16, wait_replicas=replicas)
    payload = msgspec.Raw(msgspec.msgpack.encode({"type": "moved", "seat": 1, "placements": [[3, 4]] * 3}))
    latencies: list[float] = []

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
            started = time.perf_counter()
            await store.append(f"g{g}", version, [e])
            latencies.append(time.perf_counter() - started)

    start = time.perf_counter()
    await asyncio.gather(*(game(g) for g in range(concurrency)))
    seconds = time.perf_counter() - start
    await store.close_nodes()
    await client.aclose()
    latencies.sort()
    return {
        "appends_per_s": round(len(latencies) / seconds),
        "p50_ms": round(latencies[len(latencies) // 2] * 1000, 2),
        "p99_ms": round(latencies[int(len(latencies) * 0.99)] * 1000, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--appends", type=int, default=4000)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()
    result = {}
    for name, make in (("single_with_replica", master_with_replica), ("cluster_3x2", cluster)):
        with make() as url:
            for replicas in (0, 1):
                result[f"{name}_wait_{replicas}"] = asyncio.run(
                    measure(url, args.appends, args.concurrency, replicas, f"{name}-{replicas}")
                )
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
