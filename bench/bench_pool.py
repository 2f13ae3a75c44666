"""The pool's convoy (not a test): many requests sharing one bounded Redis pool in one event loop, as
the API's at 1,000 paced games, with redis-py's BlockingConnectionPool and with ours
(`service.store.connection.BoundedPool`), alternately. Each of `--tasks` requests thinks (jittered
around `--think` s), works `--work-ms` of CPU (the handler's own), then makes `--calls` round trips;
its latency is from the end of its thinking to its last answer. Against a private redis-server.

    .venv/bin/python -m bench.bench_pool [--tasks 1000] [--think 2] [--work-ms 1.2] [--calls 2] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time

import uvloop
from redis.asyncio import BlockingConnectionPool, Redis

from bench.private_redis import private_redis
from service.store.connection import BoundedPool


async def one_run(url: str, pool_kind: str, args: argparse.Namespace) -> dict:
    options = {"max_connections": args.pool, "timeout": 5.0, "socket_timeout": 5.0}
    pool = (BlockingConnectionPool if pool_kind == "blocking" else BoundedPool).from_url(url, **options)
    client = Redis.from_pool(pool)
    latencies: list[float] = []
    failed = 0
    rnd = random.Random(1)
    until = time.perf_counter() + args.seconds

    async def player(i: int) -> None:
        nonlocal failed
        await asyncio.sleep(rnd.uniform(0, args.think))  # staggered starts
        while time.perf_counter() < until:
            start = time.perf_counter()
            spin = start + args.work_ms / 1000
            while time.perf_counter() < spin:  # the handler's own CPU
                pass
            try:
                for _ in range(args.calls):
                    await client.incr(f"bench-pool:{i}")
            except Exception:
                failed += 1
            latencies.append(time.perf_counter() - start)
            await asyncio.sleep(rnd.uniform(args.think / 2, args.think * 1.5))

    cpu = time.process_time()
    await asyncio.gather(*(player(i) for i in range(args.tasks)))
    cpu = time.process_time() - cpu
    await client.aclose()
    q = statistics.quantiles(latencies, n=100)
    return {
        "pool": pool_kind,
        "requests": len(latencies),
        "failed": failed,
        "p50_ms": round(q[49] * 1000, 1),
        "p90_ms": round(q[89] * 1000, 1),
        "p99_ms": round(q[98] * 1000, 1),
        "max_ms": round(max(latencies) * 1000, 1),
        "cpu_ms_per_request": round(1000 * cpu / len(latencies), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--work-ms", type=float, default=1.2)
    parser.add_argument("--calls", type=int, default=2)
    parser.add_argument("--pool", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with private_redis() as url:
        for _ in range(args.rounds):
            for kind in ("blocking", "bounded"):
                print(json.dumps(uvloop.run(one_run(url, kind, args))), flush=True)


if __name__ == "__main__":
    main()
