"""Projector benchmark (not a test): the CPU time a `pantheon projector` process spends per command
when many games are played at a human pace, so that its batches are small (the case issue 26 names:
1.2–2.2 ms per command at 1,000 paced games).

Each run starts a private redis-server (AOF, fsync every second), starts a projector process on the
default 16 feed partitions, creates `--games` 2-player games of the default kind (both seats
human), waits until the projector has projected them all, then plays every game at a human pace for
`--seconds`: each game's first command comes at a random moment within `--think` seconds (players
arrive staggered), then one every `--think` seconds jittered ±50%, a random legal command submitted
through the real write path (`GameService.submit`). After the window it waits until every game's
read models reach the version of its last command. Reported: the lag of every command (from its
append's answer until the board read model shows its version, polled every 2 ms), and the projector process's CPU time
(user + system, /proc) from the start of the window to that moment, per command; Redis's CPU per
command beside it (it includes the write path's own commands).

With `--old DIR`, every run is made twice, alternating: once with this checkout's projector and
once with the projector of the checkout in DIR (its own `.venv`, if it has one), both against the
same driver (this checkout's write path). `--profile FILE` records the first run of this checkout's
projector with py-spy (speedscope format, or collapsed stacks for a FILE ending in .txt; the py-spy
beside this Python: `pip install -e ".[bench]"`).

    .venv/bin/python -m bench.bench_projector [--games 500] [--think 5] [--seconds 40] [--runs 3]
        [--old ../leanprojector-old] [--profile prof.json]
"""

from __future__ import annotations

import argparse
import asyncio
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

from bench.bench_load import redis_cpu_s
from bench.private_redis import private_redis
from domain import games
from service.read.models import rm_key
from service.store.streams import EventStore
from service.write import GameService, SeatSpec

ROOT = Path(__file__).resolve().parents[1]
PREFIX = "bench-projector"
PARTITIONS = 16


def cpu_s(pid: int) -> tuple[float, float]:
    """CPU seconds a process has used so far: (user, system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / os.sysconf("SC_CLK_TCK"), int(fields[12]) / os.sysconf("SC_CLK_TCK")


def calls(before: dict, after: dict, command: str) -> int:
    """How many times Redis ran `command` between two INFO commandstats."""
    key = f"cmdstat_{command}"
    return after.get(key, {}).get("calls", 0) - before.get(key, {}).get("calls", 0)


def start_projector(redis_url: str, checkout: Path, options: list[str]) -> subprocess.Popen:
    """A `pantheon projector` process of `checkout` (its own virtualenv's Python when it has one)."""
    python = checkout / ".venv" / "bin" / "python"
    env = dict(
        os.environ,
        REDIS_URL=redis_url,
        PANTHEON_PREFIX=PREFIX,
        PANTHEON_FEED_PARTITIONS=str(PARTITIONS),
        PYTHONPATH=str(checkout),
    )
    return subprocess.Popen(
        [str(python if python.exists() else sys.executable), "-m", "service.cli", "projector", *options],
        cwd=checkout,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def caught_up(redis: Redis, store: EventStore, heads: dict[str, int], timeout_s: float = 120) -> float:
    """Wait until every game's board read model reaches its head version; the seconds waited."""
    started = time.perf_counter()
    while time.perf_counter() - started < timeout_s:
        names = list(heads)
        async with redis.pipeline(transaction=False) as pipe:
            for game in names:
                pipe.hget(rm_key(store, game, "board"), "v")
            versions = await pipe.execute()
        if all(v is not None and int(v) >= heads[g] for g, v in zip(names, versions)):
            return time.perf_counter() - started
        await asyncio.sleep(0.05)
    raise TimeoutError("the projector did not catch up")


async def watch(redis: Redis, store: EventStore, waiting: dict[str, list], lags: list[float], stop: asyncio.Event):
    """The lag of every command: from its append's answer until the game's board read model
    reaches its version (every waiting game's version read in one round trip every 2 ms)."""
    while not stop.is_set() or waiting:
        if waiting:
            names = list(waiting)
            async with redis.pipeline(transaction=False) as pipe:
                for game in names:
                    pipe.hget(rm_key(store, game, "board"), "v")
                versions = await pipe.execute()
            now = time.perf_counter()
            for game, v in zip(names, versions):
                pending = waiting[game]
                while pending and v is not None and int(v) >= pending[0][0]:
                    lags.append(now - pending.pop(0)[1])
                if not pending:
                    del waiting[game]
        await asyncio.sleep(0.002)


async def play(
    service: GameService,
    game: str,
    heads: dict[str, int],
    args,
    rnd: random.Random,
    end: float,
    gate: asyncio.Semaphore,
    waiting: dict[str, list],
) -> int:
    """Play one game at a human pace until `end`; the commands submitted."""
    spec = games.default()
    decider, submitted = spec.decider, 0
    await asyncio.sleep(rnd.uniform(0, args.think))  # players arrive staggered
    while time.perf_counter() < end:
        async with gate:  # the driver's connections are few; the games' players many
            _, state = await service.state_at(game)
            if decider.is_terminal(state):
                break
            seat = decider.awaited(state).seat
            command = msgspec.to_builtins(spec.random_command(state, seat, rnd))
            heads[game] = (await service.submit(game, seat, command)).version
            waiting.setdefault(game, []).append((heads[game], time.perf_counter()))
        submitted += 1
        await asyncio.sleep(min(args.think * rnd.uniform(0.5, 1.5), max(0.0, end - time.perf_counter())))
    return submitted


async def one_run(redis_url: str, checkout: Path, args, seed: int, profile: str | None) -> dict:
    redis = Redis.from_url(redis_url)
    store = EventStore(redis, prefix=PREFIX, partitions=PARTITIONS)
    service, spec = GameService(store), games.default()
    heads: dict[str, int] = {}
    options = ["--gather-ms", str(args.gather_ms)] if args.gather_ms is not None and checkout == ROOT else []
    projector = start_projector(
        redis_url, checkout, options
    )  # it sees every game from its creation on, as in production
    spy = None
    try:
        await asyncio.sleep(2.0)  # it has started (and rebuilt nothing: there is nothing yet)
        for _ in range(args.games):
            created = await service.create(spec.kind, {}, [SeatSpec(type="human")] * 2, claim=[0, 1])
            heads[created.game] = created.version
        await caught_up(redis, store, heads)
        if profile:
            spy = subprocess.Popen(
                [
                    str(Path(sys.executable).with_name("py-spy")),
                    "record",
                    "-p",
                    str(projector.pid),
                    "-o",
                    profile,
                    "--format",
                    "raw" if profile.endswith(".txt") else "speedscope",
                    "--nonblocking",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        stats0 = await redis.info("commandstats")
        cpu0, redis0, t0 = cpu_s(projector.pid), redis_cpu_s(redis_url), time.perf_counter()
        rnd, gate = random.Random(seed), asyncio.Semaphore(32)
        end, waiting, lags, stop = t0 + args.seconds, {}, [], asyncio.Event()
        watcher = asyncio.create_task(watch(redis, store, waiting, lags, stop))
        counts = await asyncio.gather(
            *(play(service, g, heads, args, random.Random(rnd.random()), end, gate, waiting) for g in list(heads))
        )
        lag_s = await caught_up(redis, store, heads)
        stop.set()
        await watcher
        cpu1, redis1, wall = cpu_s(projector.pid), redis_cpu_s(redis_url), time.perf_counter() - t0
        stats1 = await redis.info("commandstats")
    finally:
        if spy is not None:
            spy.send_signal(signal.SIGINT)  # py-spy writes its profile when interrupted
            spy.wait(timeout=60)
        projector.terminate()
        projector.wait(timeout=30)
        await redis.aclose()
    commands, (user, system) = sum(counts), (cpu1[0] - cpu0[0], cpu1[1] - cpu0[1])
    return {
        "commands": commands,
        "per_s": round(commands / wall, 1),
        "projector_cpu_ms_per_command": round(1000 * (user + system) / max(commands, 1), 3),
        "of_which_system_ms": round(1000 * system / max(commands, 1), 3),
        "projector_cpu_share": round((user + system) / wall, 3),
        "redis_cpu_ms_per_command": round(1000 * (redis1 - redis0) / max(commands, 1), 3),
        "catch_up_s": round(lag_s, 2),
        "lag_p50_ms": round(1000 * statistics.median(lags), 1),
        "lag_p99_ms": round(1000 * sorted(lags)[int(len(lags) * 0.99)], 1),
        "feed_reads_per_command": round(calls(stats0, stats1, "xreadgroup") / max(commands, 1), 2),
        "load_average": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--think", type=float, default=5.0, help="mean seconds between a game's commands")
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--old", type=Path, help="another checkout whose projector runs alternately")
    parser.add_argument("--gather-ms", type=int, help="this checkout's projector's --gather-ms (default: its own)")
    parser.add_argument("--profile", help="py-spy speedscope profile of this checkout's first run")
    args = parser.parse_args()
    variants = [("new", ROOT)] + ([("old", args.old.resolve())] if args.old else [])
    out: dict = {"games": args.games, "think_s": args.think, "seconds": args.seconds, "runs": []}
    for run in range(args.runs):
        for name, checkout in variants if run % 2 == 0 else variants[::-1]:
            with private_redis() as url:
                profile = args.profile if run == 0 and name == "new" else None
                report = {"variant": name, **asyncio.run(one_run(url, checkout, args, run, profile))}
            out["runs"].append(report)
            print(json.dumps(report), file=sys.stderr, flush=True)
    for name, _ in variants:
        runs = [r for r in out["runs"] if r["variant"] == name]
        out[f"{name}_median_ms"] = statistics.median(r["projector_cpu_ms_per_command"] for r in runs)
        out[f"{name}_median_lag_p50_ms"] = statistics.median(r["lag_p50_ms"] for r in runs)
        out[f"{name}_median_lag_p99_ms"] = statistics.median(r["lag_p99_ms"] for r in runs)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
