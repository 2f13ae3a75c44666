"""Memory benchmark (not a test): what one finished game keeps in Redis, by key, after it was
played to the end through the write path (random legal commands, a few refused ones, an
idempotency key on every command) and its read models were projected.

    .venv/bin/python -m tests.bench.bench_memory [--games 6]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics

import msgspec
from redis.asyncio import Redis

from domain.pantheon.random_play import random_command
from service.read.projector import Projector
from service.store.streams import EventStore
from service.write import GameService, SeatSpec, ServiceError
from tests.bench.private_redis import private_redis


async def _play(service: GameService, players: int, rnd: random.Random) -> str:
    game = (await service.create("pantheon", {}, [SeatSpec()] * players)).game
    n = 0
    while True:
        _, state = await service.state_at(game)
        if state.finished:
            return game
        seat = state.agenda[0].seat
        if n % 50 == 0:  # now and then a refused command, as real clients send
            try:
                await service.submit(game, (seat + 1) % players, {"type": "pass", "seat": (seat + 1) % players})
            except ServiceError:
                pass
        command = msgspec.to_builtins(random_command(state, seat, rnd))
        await service.submit(game, seat, command, idempotency_key=f"k{n}")
        n += 1


def _kind(key: str, game: str) -> str:
    rest = key.split(f":game:{game}:", 1)[1]
    return "idempotency keys" if rest.startswith("idem:") else rest


async def main(games: int) -> dict:
    with private_redis() as url:
        redis = Redis.from_url(url)
        store = EventStore(redis, prefix="mem", partitions=16)
        service, rnd = GameService(store), random.Random(7)
        played = [await _play(service, 2 + i % 3, rnd) for i in range(games)]
        projector = Projector(redis, store)
        await projector.setup()
        await projector.drain()
        for feed in store.feed_keys():
            await projector.trim(feed)
        per_game, by_kind, events = [], {}, []
        for game in played:
            keys = [k.decode() async for k in redis.scan_iter(match=f"*:game:{game}:*", count=1000)]
            sizes = {k: await redis.memory_usage(k, samples=0) for k in keys}
            per_game.append(sum(sizes.values()))
            events.append(await redis.xlen(store.keys(game).events))
            totals: dict[str, int] = {}
            for key, size in sizes.items():
                totals[_kind(key, game)] = totals.get(_kind(key, game), 0) + size
            for kind, size in totals.items():
                by_kind.setdefault(kind, []).append(size)
        feed_bytes = sum([await redis.memory_usage(f, samples=0) or 0 for f in store.feed_keys()])
        await redis.aclose()
    return {"games": games, "events_mean": round(statistics.mean(events)),
            "bytes_per_game_mean": round(statistics.mean(per_game)), "bytes_per_game_max": max(per_game),
            "per_game_by_key_mean": {k: round(statistics.mean(v)) for k, v in sorted(by_kind.items())},
            "feed_bytes_after_trim": feed_bytes}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    print(json.dumps(asyncio.run(main(parser.parse_args().games))))
