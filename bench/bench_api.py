"""API benchmark (not a test): command throughput of the real API against a bare Litestar
endpoint doing one XADD (same machine, same client, same run, both saturated by 100 concurrent
loops), and command latency p50/p99 with 100 games played concurrently at a human-like pace (each
game waits `--think` seconds between commands). Servers run as subprocesses against a private
redis-server; the client shares the 2 cores with them.

    .venv/bin/python -m bench.bench_api [--games 100] [--seconds 15]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import httpx

from bench.private_redis import free_port
from tests.service.live import RELAXED_ENV


def _wait(url: str) -> None:
    for _ in range(100):
        try:
            if httpx.get(url, timeout=1).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


class Servers:
    """A private redis-server, the API and the bare app, each its own process."""

    def __enter__(self):
        self.dir = tempfile.mkdtemp(prefix="bench-api-")
        redis_port, self.api_port, self.bare_port = free_port(), free_port(), free_port()
        self.redis_url = f"redis://127.0.0.1:{redis_port}/0"
        self.procs = [
            subprocess.Popen(
                [
                    "redis-server",
                    "--port",
                    str(redis_port),
                    "--bind",
                    "127.0.0.1",
                    "--dir",
                    self.dir,
                    "--save",
                    "",
                    "--appendonly",
                    "yes",
                    "--appendfsync",
                    "everysec",
                ],
                stdout=subprocess.DEVNULL,
            )
        ]
        # the load comes from one address, far faster than the default per-address and per-seat limits
        env = dict(
            os.environ,
            REDIS_URL=self.redis_url,
            PANTHEON_PORT=str(self.api_port),
            PANTHEON_PREFIX="bench",
            **RELAXED_ENV,
        )
        self.procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "service.cli", "api"],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        self.procs.append(  # the bare baseline on the API's own HTTP stack (bench/bare_app.py)
            subprocess.Popen(
                [sys.executable, "-m", "bench.bare_app"],
                env=dict(env, PANTHEON_PORT=str(self.bare_port)),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        _wait(f"http://127.0.0.1:{self.api_port}/health/live")
        _wait(f"http://127.0.0.1:{self.bare_port}/xadd")
        return self

    def __exit__(self, *exc):
        for p in reversed(self.procs):
            p.terminate()
            p.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


async def bare_rate(port: int, loops: int, seconds: float) -> float:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", limits=httpx.Limits(max_connections=loops)) as c:
        done = 0
        deadline = time.perf_counter() + seconds

        async def loop(i: int) -> None:
            nonlocal done
            while time.perf_counter() < deadline:
                r = await c.post("/xadd", json={"game": f"g{i}", "type": "draw_card", "seat": 0, "slot": None})
                r.raise_for_status()
                done += 1

        start = time.perf_counter()
        await asyncio.gather(*(loop(i) for i in range(loops)))
        return done / (time.perf_counter() - start)


def _command(awaiting: dict, options: dict | None) -> dict:
    decision = awaiting["decision"]
    if decision in ("action", "draw"):
        return {"type": "draw_card", "slot": None}
    o = options["options"]
    if decision == "choose_bonus":
        return {"type": "choose_bonus", "tile": o["tiles"][0]}
    if decision == "bonus_column":
        return {"type": "place_column", "hex": o["hexes"][0]}
    if decision == "sacrifice":
        return {"type": "improve_sacrifice", "kind": o["kinds"][0]}
    if decision == "reserve_choice":
        return {"type": "choose_reserve", "piece": "foot"}
    if decision == "gallia":
        return {"type": "gallia_choice", "choice": "draw"}
    if decision == "discard":
        hand = o["hand"]
        cards, left = {}, o["count"]
        for card, n in hand.items():
            take = min(n, left)
            if take:
                cards[card], left = take, left - take
        return {"type": "discard", "cards": cards}
    return {"type": "pass"}


async def game_latencies(port: int, games: int, seconds: float, think: float = 0.0) -> tuple[list[float], float]:
    """Latencies of every command, and commands per second over the run."""
    limits = httpx.Limits(max_connections=games)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", limits=limits, timeout=30) as c:

        async def setup(i: int):
            created = (await c.post("/games", json={"kind": "pantheon", "seats": [{"type": "human"}] * 2})).json()
            game = created["game"]
            tokens = [(await c.post(f"/games/{game}/seats/{s}/claim")).json()["token"] for s in range(2)]
            return game, tokens

        tables = await asyncio.gather(*(setup(i) for i in range(games)))
        latencies: list[float] = []
        deadline = time.perf_counter() + seconds

        async def play(game: str, tokens: list[str]) -> None:
            awaiting = (await c.get(f"/games/{game}")).json()["awaiting"]
            while time.perf_counter() < deadline and awaiting:
                auth = {"Authorization": f"Bearer {tokens[awaiting['seat']]}"}
                options = None
                if awaiting["decision"] not in ("action", "draw"):  # rare: the start of the game
                    options = (await c.get(f"/games/{game}/options/blocks", headers=auth)).json()
                body = _command(awaiting, options)
                start = time.perf_counter()
                r = await c.post(f"/games/{game}/commands", json=body, headers=auth)
                latencies.append(time.perf_counter() - start)
                r.raise_for_status()
                awaiting = r.json()["awaiting"]
                if think:
                    await asyncio.sleep(think)

        start = time.perf_counter()
        await asyncio.gather(*(play(g, t) for g, t in tables))
        return latencies, len(latencies) / (time.perf_counter() - start)


def _pct(values: list[float], q: float) -> float:
    return round(statistics.quantiles(values, n=100)[int(q) - 1] * 1000, 2)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument(
        "--think",
        type=float,
        default=0.5,
        help="seconds each game waits between commands "
        "in the latency phase (100 games at 0.5 s offer about 200 commands/s)",
    )
    args = parser.parse_args()
    with Servers() as s:
        bare_one = asyncio.run(bare_rate(s.bare_port, 1, args.seconds / 3))
        _, commands_one = asyncio.run(game_latencies(s.api_port, 1, args.seconds / 3))
        bare = asyncio.run(bare_rate(s.bare_port, args.games, args.seconds))
        saturated, commands = asyncio.run(game_latencies(s.api_port, args.games, args.seconds))
        latencies, _ = asyncio.run(game_latencies(s.api_port, args.games, args.seconds, think=args.think))
    print(
        json.dumps(
            {
                "one_client_bare_per_s": round(bare_one, 1),
                "one_client_commands_per_s": round(commands_one, 1),
                "one_client_ratio": round(commands_one / bare_one, 2),
                "bare_xadd_requests_per_s": round(bare, 1),
                "commands_per_s": round(commands, 1),
                "ratio": round(commands / bare, 2),
                "games": args.games,
                "saturated_latency_p50_ms": _pct(saturated, 50),
                "saturated_latency_p99_ms": _pct(saturated, 99),
                "think_s": args.think,
                "commands_at_think": len(latencies),
                "command_latency_p50_ms": _pct(latencies, 50),
                "command_latency_p99_ms": _pct(latencies, 99),
            }
        )
    )


if __name__ == "__main__":
    main()
