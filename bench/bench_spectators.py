"""Spectators benchmark (not a test): command latency p50/p99 on one `pantheon api` process, and
reads of another game, with no spectators and then with a thousand event streams open on it (a
quarter of them on the game being played), side by side; with spectators also how long the new
events took to reach every spectator of the played game. Private redis-server; the API, Redis and
this client (the spectators on a thread of their own, raw sockets) share the machine's cores.

    .venv/bin/python -m bench.bench_spectators [--spectators 1000] [--commands 150]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import time

import httpx

from bench.private_redis import private_redis
from tests.service.api_helpers import bearer, next_command, referee_service
from tests.service.live import live_api_process
from tests.service.spectators import Crowd

HUMANS = {"seats": [{"type": "human", "holder": "creator"}] * 2}
WATCHED = 4  # the played game and three others share the spectators


def _ms(values: list[float], q: float) -> float:
    values = sorted(values)
    return 1000 * values[min(len(values) - 1, int(q * len(values)))]


async def _create(client: httpx.AsyncClient) -> tuple[str, dict[int, str]]:
    created = (await client.post("/games", json=HUMANS)).json()
    return created["game"], {s["seat"]: s["token"] for s in created["seats"]}


async def _phase(client, referee, crowd: Crowd | None, game, tokens, other: str, commands: int) -> dict:
    """Play `commands` commands on `game`, each followed by reads of `other`; latencies in seconds."""
    rnd, out = random.Random(game), {"command": [], "read": [], "delivery": []}
    for _ in range(commands):
        seat, command, version = await next_command(client, referee, game, rnd)
        started = time.perf_counter()
        answer = await client.post(f"/games/{game}/commands", json=command, headers=bearer(tokens[seat]))
        out["command"].append(time.perf_counter() - started)
        assert answer.status_code == 201, answer.text
        if crowd is not None:
            target = answer.json()["version"]
            assert crowd.wait(lambda _: all(s.last_id >= target for s in crowd.of(game)), within=10, every=0.001)  # noqa: B023 - called within this iteration
            out["delivery"].append(time.perf_counter() - started)
        for path in (f"/games/{other}", f"/games/{other}/view"):
            started = time.perf_counter()
            assert (await client.get(path)).status_code == 200
            out["read"].append(time.perf_counter() - started)
    return out


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024


async def run(spectators: int, commands: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * spectators)), hard))
    env = {"PANTHEON_MAX_CONNECTIONS": str(spectators + 200), "PANTHEON_LIMIT_STREAMS": str(spectators + 10)}
    with private_redis() as url, live_api_process(url, "bench", **env) as (base, process):
        async with httpx.AsyncClient(base_url=base, timeout=30) as client, referee_service(url, "bench") as referee:
            others = [(await _create(client))[0] for _ in range(WATCHED - 1)]
            alone, tokens = await _create(client)
            results = {0: await _phase(client, referee, None, alone, tokens, others[0], commands)}
            rss = {0: _rss_mb(process.pid)}
            played, tokens = await _create(client)
            crowd = Crowd(int(base.rsplit(":", 1)[1]))
            try:
                started = time.perf_counter()
                crowd.open([played, *others], spectators // WATCHED)
                assert crowd.wait(lambda c: all(s.status == 200 and s.last_id > 0 for s in c), within=120)
                opened = time.perf_counter() - started
                results[spectators] = await _phase(client, referee, crowd, played, tokens, others[0], commands)
                rss[spectators] = _rss_mb(process.pid)
                assert not any(s.ended for s in crowd.spectators)
            finally:
                crowd.close()
    _report(results, rss, spectators, commands, opened)


def _report(results: dict, rss: dict, spectators: int, commands: int, opened: float) -> None:
    print(
        f"{commands} commands on one game, each followed by 2 reads of another game; "
        f"{spectators} spectators opened (and caught up) in {opened:.1f} s"
    )
    print(f"{'':32}{'0 spectators':>16}{f'{spectators} spectators':>20}")
    rows = [
        ("command p50 (ms)", "command", 0.5),
        ("command p99 (ms)", "command", 0.99),
        ("command max (ms)", "command", 1.0),
        ("read p50 (ms)", "read", 0.5),
        ("read p99 (ms)", "read", 0.99),
        ("command + delivered to all p50", "delivery", 0.5),
        ("command + delivered to all p99", "delivery", 0.99),
    ]
    for label, key, q in rows:
        cells = [f"{_ms(results[n][key], q):.1f}" if results[n][key] else "-" for n in (0, spectators)]
        print(f"{label:32}{cells[0]:>16}{cells[1]:>20}")
    print(f"{'API process RSS (MB)':32}{rss[0]:>16.0f}{rss[spectators]:>20.0f}")
    print(
        f"throughput: {commands / sum(results[0]['command']):.0f} vs "
        f"{commands / sum(results[spectators]['command']):.0f} commands/s (one client, one at a time)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--commands", type=int, default=150)
    args = parser.parse_args()
    asyncio.run(run(args.spectators, args.commands))


if __name__ == "__main__":
    main()
