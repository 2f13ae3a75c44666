"""Archive benchmark (not a test): how long the reads of a finished game take in Redis, once
archived and read from its files (the first read of an API process), and once archived and
cached in the process; and how long archiving one game takes. In-process app (no HTTP server),
a private redis-server, an archive directory of its own.

    .venv/bin/python -m bench.bench_archive [--games 4] [--reads 50]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time

from redis.asyncio import Redis

from bench.private_redis import private_redis
from service.audit.archiver import Archiver
from service.audit.cold import Archive
from service.store.streams import EventStore
from tests.service.api_helpers import PARTITIONS, api_client, new_game, play, referee_service

ROUTES = ("", "/view", "/score", "/events", "/export")


async def _timed(client, url: str, reads: int) -> float:
    """The median time of `reads` GETs of `url`, in ms."""
    times = []
    for _ in range(reads):
        started = time.perf_counter()
        answer = await client.get(url)
        times.append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 200, answer.text
    return statistics.median(times)


async def main(games: int, reads: int) -> dict:
    with private_redis() as url, tempfile.TemporaryDirectory(prefix="bench-archive-") as directory:
        redis = Redis.from_url(url)
        async with api_client(url, "bench", archive_dir=directory) as client, referee_service(url, "bench") as referee:
            played = []
            for seed in range(games):
                game, _, tokens = await new_game(client)
                await play(client, referee, game, tokens, seed=seed)
                played.append(game)
            hot = {r: statistics.mean([await _timed(client, f"/games/{g}{r}", reads) for g in played]) for r in ROUTES}
            archive = Archive(directory)
            archiver = Archiver(
                EventStore(redis, prefix="bench", partitions=PARTITIONS, cold=archive),
                archive,
                finished_s=0,
                abandoned_s=10**9,
            )
            moves = []
            for game in played:
                started = time.perf_counter()
                assert await archiver.move(game)
                moves.append((time.perf_counter() - started) * 1000)
        first = {r: [] for r in ROUTES}
        for game in played:
            for route in ROUTES:  # a fresh API process per read: nothing cached
                async with api_client(url, "bench", archive_dir=directory) as fresh:
                    first[route].append(await _timed(fresh, f"/games/{game}{route}", 1))
        async with api_client(url, "bench", archive_dir=directory) as client:
            for game in played:
                await client.get(f"/games/{game}")
            cached = {
                r: statistics.mean([await _timed(client, f"/games/{g}{r}", reads) for g in played]) for r in ROUTES
            }
        await redis.aclose()
    return {
        "games": games,
        "archive_one_game_ms_mean": round(statistics.mean(moves), 1),
        "median_ms_in_redis": {r or "/": round(v, 2) for r, v in hot.items()},
        "ms_archived_first_read": {r or "/": round(statistics.mean(v), 2) for r, v in first.items()},
        "median_ms_archived_cached": {r or "/": round(v, 2) for r, v in cached.items()},
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--reads", type=int, default=50)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main(args.games, args.reads))))
