"""Projection benchmark (not a test): rebuild speed in events per second, and projection lag —
the time from a command's append being acknowledged to its read models reaching that version —
while commands arrive at a steady rate and a `pantheon projector` process keeps up. Runs on a
private redis-server (AOF, fsync every second) unless --redis-url is given.

    .venv/bin/python -m bench.bench_projections [--rebuild-games 200] [--rate 100] [--seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import msgspec
from redis.asyncio import Redis

from domain.pantheon.random_play import random_command
from service.cli.simulate import simulate
from service.read.models import rm_key
from service.read.rebuild import record_versions
from service.store.codec import Envelope, seal
from service.store.streams import EventStore
from service.write import GameService, SeatSpec

from .private_redis import private_redis

ROOT = Path(__file__).resolve().parents[2]
PARTITIONS = 16
ENCODE = msgspec.msgpack.Encoder()


async def store_game(store: EventStore, game: str, steps: list) -> int:
    """Append a simulated game command by command, as the game service would; its event count."""
    version, prev = 0, "0" * 64
    for command, events in steps:
        envelopes = []
        for event in events:
            version += 1
            e = seal(
                Envelope(
                    game=game,
                    version=version,
                    type=type(event).__struct_config__.tag,
                    schema=1,
                    payload=msgspec.Raw(ENCODE.encode(event)),
                    recorded_at=0,
                    command=type(command).__struct_config__.tag,
                    prev_hash=prev,
                )
            )
            envelopes.append(e)
            prev = e.hash
        meta = {"kind": "pantheon"} if version == len(events) else None  # set with the first events
        await store.append(game, version - len(events), envelopes, meta=meta)
    return version


async def fill(url: str, prefix: str, games: int) -> int:
    """Store `games` random finished games; the number of events."""
    redis = Redis.from_url(url)
    store = EventStore(redis, prefix=prefix, partitions=PARTITIONS)
    records = list(simulate(games, "mixed", "bench-projections", check=False))
    gate = asyncio.Semaphore(32)

    async def one(i: int) -> int:
        async with gate:
            return await store_game(store, f"bench{i:05d}", records[i].steps)

    events = sum(await asyncio.gather(*(one(i) for i in range(games))))
    await redis.aclose()
    return events


def env_for(url: str, prefix: str) -> dict:
    return dict(os.environ, REDIS_URL=url, PANTHEON_PREFIX=prefix, PANTHEON_FEED_PARTITIONS=str(PARTITIONS))


def rebuild_speed(url: str, games: int) -> dict:
    """`pantheon projections rebuild` over `games` stored random games: its own JSON totals."""
    events = asyncio.run(fill(url, "bench-rebuild", games))
    done = subprocess.run(
        [sys.executable, "-m", "service.cli", "projections", "rebuild"],
        cwd=ROOT,
        env=env_for(url, "bench-rebuild"),
        capture_output=True,
        text=True,
        check=True,
    )
    totals = json.loads(done.stdout.strip().splitlines()[-1])
    assert totals["events"] == events, (totals, events)
    return {
        "rebuild_games": totals["games"],
        "rebuild_events": totals["events"],
        "rebuild_events_per_s": totals["events_per_s"],
    }


async def lag(url: str, games: int, rate: float, seconds: float) -> dict:
    """Submit `rate` random commands per second over `games` games while a projector process runs;
    the lag from each append's acknowledgment to the read models showing its version."""
    prefix = "bench-lag"
    redis = Redis.from_url(url)
    store = EventStore(redis, prefix=prefix, partitions=PARTITIONS)
    service = GameService(store)
    await record_versions(store, ["board", "score", "summary"])
    projector = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "projector"],
        cwd=ROOT,
        env=env_for(url, prefix),
        stdout=subprocess.DEVNULL,
    )
    ids = [(await service.create("pantheon", {}, [SeatSpec()] * (2 + i % 3))).game for i in range(games)]
    await asyncio.sleep(2.0)  # the projector has started and projected the new games
    rnd, waiting, lags = random.Random(1), {}, []

    async def watch(stop: asyncio.Event) -> None:
        while not stop.is_set() or waiting:
            if waiting:
                games_now = list(waiting)
                async with redis.pipeline(transaction=False) as pipe:
                    for g in games_now:
                        pipe.hget(rm_key(store, g, "board"), "v")
                    versions = await pipe.execute()
                now = time.perf_counter()
                for g, v in zip(games_now, versions):
                    pending = waiting[g]
                    while pending and v is not None and int(v) >= pending[0][0]:
                        lags.append(now - pending.pop(0)[1])
                    if not pending:
                        del waiting[g]
            await asyncio.sleep(0.001)

    stop = asyncio.Event()
    watcher = asyncio.create_task(watch(stop))
    start, n = time.perf_counter(), 0
    while (elapsed := time.perf_counter() - start) < seconds:
        await asyncio.sleep(max(0.0, n / rate - elapsed))
        game = ids[n % games]
        _, state = await service.state_at(game)
        if not state.finished:
            seat = state.agenda[0].seat
            submitted = await service.submit(game, seat, msgspec.to_builtins(random_command(state, seat, rnd)))
            waiting.setdefault(game, []).append((submitted.version, time.perf_counter()))
        n += 1
    stop.set()
    await asyncio.wait_for(watcher, 30)
    projector.send_signal(signal.SIGTERM)
    projector.wait(timeout=10)
    await redis.aclose()
    ms = sorted(x * 1000 for x in lags)
    return {
        "lag_commands": len(ms),
        "lag_rate_per_s": rate,
        "lag_p50_ms": round(statistics.median(ms), 2),
        "lag_p99_ms": round(ms[int(len(ms) * 0.99) - 1], 2),
        "lag_max_ms": round(ms[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rebuild-games", type=int, default=200)
    parser.add_argument("--games", type=int, default=20, help="games played at once for the lag")
    parser.add_argument("--rate", type=float, default=100.0, help="commands per second for the lag")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--redis-url", help="an existing Redis (its bench-* keys are left behind)")
    args = parser.parse_args()
    with contextlib.nullcontext(args.redis_url) if args.redis_url else private_redis("everysec") as url:
        result = rebuild_speed(url, args.rebuild_games)
        result.update(asyncio.run(lag(url, args.games, args.rate, args.seconds)))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
