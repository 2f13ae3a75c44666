"""The overhead of an AI turn, thinking excluded: real `pantheon worker` processes on a private
redis-server play all-AI games; for every AI turn

- enqueue → stored: from the job's enqueue (RQ's `enqueued_at`) to its events being stored, minus
  the bot's own thinking (`think_s` in the job's result);
- stored → stored: from the previous command's events being recorded to this turn's, minus the
  thinking: everything between two AI moves (scheduling, queue, worker, decide, append).

Run: .venv/bin/python -m bench.bench_ai --games 20 --concurrent 2 --workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from datetime import UTC

from redis import Redis
from redis.asyncio import Redis as AsyncRedis
from rq.job import Job

from service.ai.scheduler import Scheduler, TurnNotifier
from service.store.streams import EventStore
from service.write import GameService, SeatSpec

from .bench_bots import percentile
from .private_redis import private_redis

PREFIX, PARTITIONS = "bench-ai", 4


async def create_games(url: str, count: int, players: int, level: str) -> list[str]:
    client = AsyncRedis.from_url(url)
    store = EventStore(client, prefix=PREFIX, partitions=PARTITIONS)
    service = GameService(store, on_awaiting=TurnNotifier(Scheduler(url, PREFIX, PARTITIONS), store))
    try:
        return [
            (await service.create("pantheon", {}, [SeatSpec(type="ai", level=level)] * players)).game
            for _ in range(count)
        ]
    finally:
        await client.aclose()


async def envelopes_of(url: str, games: list[str]) -> dict[str, list]:
    client = AsyncRedis.from_url(url)
    store = EventStore(client, prefix=PREFIX, partitions=PARTITIONS)
    try:
        return {game: await store.read(game) for game in games}
    finally:
        await client.aclose()


def wait_finished(sync: Redis, games: list[str], timeout: float) -> None:
    keys = EventStore(sync, prefix=PREFIX, partitions=PARTITIONS)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(sync.hexists(keys.keys(game).meta, "finished") for game in games):
            return
        time.sleep(0.05)
    raise SystemExit(f"games not finished after {timeout} s")


def overheads(sync: Redis, envelopes: dict[str, list]) -> tuple[list[float], list[float], list[float]]:
    """Per AI turn: enqueue→stored and stored→stored without thinking, and the thinking (seconds)."""
    strict, between, thinking = [], [], []
    for _game, log in envelopes.items():
        previous_recorded = None
        for e in log:
            if e.cause is None:
                continue
            if e.idempotency_key and e.idempotency_key.startswith("ai-"):
                job = Job.fetch(f"{PREFIX}-{e.idempotency_key}", connection=sync)
                result = job.return_value()
                if result and result.get("outcome") == "played":
                    enqueued = job.enqueued_at.replace(tzinfo=UTC).timestamp()
                    think = result["think_s"]
                    strict.append(result["stored_at"] - enqueued - think)
                    thinking.append(think)
                    if previous_recorded is not None:
                        between.append(e.recorded_at / 1000 - previous_recorded / 1000 - think)
            previous_recorded = e.recorded_at
    return strict, between, thinking


def summary(values: list[float]) -> dict:
    return {
        "turns": len(values),
        "p50_ms": round(1000 * percentile(values, 0.5), 2),
        "p99_ms": round(1000 * percentile(values, 0.99), 2),
        "max_ms": round(1000 * max(values, default=0), 2),
    }


def run(games: int, concurrent: int, workers: int, players: int, level: str) -> dict:
    """Play `games` all-AI games, `concurrent` at a time, with `workers` `pantheon worker` processes
    on a private redis-server; the AI turns per second and the overheads."""
    with private_redis() as url:
        env = dict(os.environ, REDIS_URL=url, PANTHEON_PREFIX=PREFIX, PANTHEON_FEED_PARTITIONS=str(PARTITIONS))
        processes = [
            subprocess.Popen(
                [sys.executable, "-m", "service.cli", "worker"],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for _ in range(workers)
        ]
        sync = Redis.from_url(url)
        try:
            time.sleep(1.0)  # let the workers start listening
            started, played = time.perf_counter(), []
            for _ in range(0, games, concurrent):
                batch = asyncio.run(create_games(url, min(concurrent, games - len(played)), players, level))
                wait_finished(sync, batch, timeout=900)
                played += batch
            elapsed = time.perf_counter() - started
            strict, between, thinking = overheads(sync, asyncio.run(envelopes_of(url, played)))
        finally:
            for w in processes:
                w.send_signal(signal.SIGTERM)
            for w in processes:
                w.wait(timeout=30)
            sync.close()
    return {
        "games": len(played),
        "players": players,
        "level": level,
        "workers": workers,
        "concurrent": concurrent,
        "seconds": round(elapsed, 1),
        "ai_turns_per_s": round(len(strict) / elapsed, 1),
        "enqueue_to_stored_minus_thinking": summary(strict),
        "stored_to_stored_minus_thinking": summary(between),
        "thinking": summary(thinking),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--concurrent", type=int, default=2, help="games in play at once")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--level", default="random", help="the bots' level (random thinks least)")
    args = p.parse_args()
    print(json.dumps(run(args.games, args.concurrent, args.workers, args.players, args.level)))


if __name__ == "__main__":
    main()
