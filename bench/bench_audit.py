"""The audit's cost on games played by AI seats: all-AI games are played in-process (each turn as a
worker plays it, provenance included) on a private redis-server, then each is audited three ways:
without the AI checks, with the view hashes (what `GET /games/{id}/audit` does), and with every
bot run again (`pantheon audit --bots`).

Run: .venv/bin/python -m bench.bench_audit --games 5 --players 4 --level random
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import statistics
import time

from redis.asyncio import Redis

from domain.pantheon import PANTHEON
from service.ai.worker import play_turn
from service.audit.archive import load_export
from service.audit.checks import audit
from service.store.streams import EventStore
from service.write import GameService, SeatSpec

from .private_redis import private_redis


async def played(service: GameService, players: int, level: str) -> str:
    game = (await service.create("pantheon", {}, [SeatSpec(type="ai", level=level)] * players)).game
    while True:
        version, state = await service.state_at(game)
        awaited = PANTHEON.awaited(state)
        if awaited is None:
            return game
        await play_turn(service, game, version, awaited.seat)


def timed(header, envelopes, decider, **kwargs) -> float:
    started = time.perf_counter()
    report = audit(header, envelopes, decider, **kwargs)
    elapsed = (time.perf_counter() - started) * 1000
    assert all(c.ok is not False for c in report.checks), report.summary()  # without bots: ai_views unknown
    return elapsed


async def run(url: str, games: int, players: int, level: str) -> dict:
    client = Redis.from_url(url)
    service = GameService(EventStore(client, prefix="bench-audit", partitions=4))
    rows = []
    try:
        for _ in range(games):
            header, envelopes = await load_export(service.store, await played(service, players, level))
            rows.append(
                {
                    "events": len(envelopes),
                    "ai_commands": sum(1 for e in envelopes if e.provenance),
                    "plain_ms": timed(header, envelopes, dataclasses.replace(PANTHEON, bots=None)),
                    "views_ms": timed(header, envelopes, PANTHEON),
                    "rerun_ms": timed(header, envelopes, PANTHEON, rerun_bots=True),
                }
            )
    finally:
        await client.aclose()
    median = {key: round(statistics.median(r[key] for r in rows), 1) for key in rows[0]}
    return {
        "games": games,
        "players": players,
        "level": level,
        "median": median,
        "slowest_views_ms": round(max(r["views_ms"] for r in rows), 1),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=5)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--level", default="random")
    args = p.parse_args()
    with private_redis() as url:
        print(json.dumps(asyncio.run(run(url, args.games, args.players, args.level))))


if __name__ == "__main__":
    main()
