"""Memory benchmark (not a test): what one finished game keeps in Redis, by key, after it was
played to the end through the write path (random legal commands, a few refused ones, an
idempotency key on every command) and its read models were projected.

With `--archive`, also a live game (half played) and what each finished game keeps in Redis
once the archiver has moved it to the archive (a directory of its own, removed afterwards), and
the size of its archive files.

    .venv/bin/python -m bench.bench_memory [--games 6] [--archive]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import tempfile
from pathlib import Path

import msgspec
from redis.asyncio import Redis

from bench.private_redis import private_redis
from domain.pantheon.random_play import random_command
from service.read.projector import Projector
from service.store.streams import EventStore
from service.write import GameService, SeatSpec, ServiceError


async def _play(service: GameService, players: int, rnd: random.Random, commands: int | None = None) -> str:
    game = (await service.create("pantheon", {}, [SeatSpec()] * players)).game
    n = 0
    while True:
        _, state = await service.state_at(game)
        if state.finished or n == commands:
            return game
        seat = state.agenda[0].seat
        if n % 50 == 0:  # now and then a refused command, as real clients send
            with contextlib.suppress(ServiceError):
                await service.submit(game, (seat + 1) % players, {"type": "pass", "seat": (seat + 1) % players})
        command = msgspec.to_builtins(random_command(state, seat, rnd))
        await service.submit(game, seat, command, idempotency_key=f"k{n}")
        n += 1


def _kind(key: str, game: str) -> str:
    rest = key.split(f":game:{game}:", 1)[1]
    if rest.startswith("receipt:"):  # one per append, each lives a minute
        return "append receipts"
    return "idempotency keys" if rest.startswith("idem:") else rest


async def _game_bytes(redis: Redis, game: str, *, lasting: bool = False) -> int:
    """The bytes of the game's keys (`lasting`: but for the idempotency keys and append receipts,
    which expire on their own)."""
    keys = [k.decode() async for k in redis.scan_iter(match=f"*:game:{game}:*", count=1000)]
    if lasting:
        keys = [k for k in keys if ":idem:" not in k and ":receipt:" not in k]
    return sum([await redis.memory_usage(k, samples=0) or 0 for k in keys])


async def _archived(redis: Redis, store: EventStore, played: list[str], live: list[str]) -> dict:
    """Archive the finished games (not the live ones): what stays in Redis, the files' sizes."""
    from service.audit.archiver import Archiver
    from service.audit.cold import Archive

    with tempfile.TemporaryDirectory(prefix="bench-archive-") as directory:
        archive = Archive(directory)
        archiver = Archiver(store, archive, finished_s=0, abandoned_s=10**9)
        lobby = f"{store.prefix}:lobby:ended"
        lobby_before = await redis.memory_usage(lobby, samples=0) or 0
        done = await archiver.sweep()
        assert sorted(d.game for d in done) == sorted(played), "every finished game archived, no live one"
        assert all([await redis.exists(store.keys(g).meta) for g in live]), "live games stay in Redis"
        export = [Path(archive.paths(g)[0]).stat().st_size for g in played]
        rest = [Path(archive.paths(g)[1]).stat().st_size for g in played]
        after = [await _game_bytes(redis, g) for g in played]
        lasting = [await _game_bytes(redis, g, lasting=True) for g in played]
        lobby_bytes = await redis.memory_usage(lobby, samples=0) or 0
        raw = [len(archive.export_bytes(g) or b"") for g in played]
    return {
        "archived_bytes_in_redis_mean": round(statistics.mean(after)),
        "archived_lasting_bytes_in_redis_mean": round(statistics.mean(lasting)),
        "ended_lobby_bytes_per_game": round(lobby_bytes / max(1, await redis.zcard(lobby))),
        "ended_lobby_bytes_before": lobby_before,
        "archive_export_gz_bytes_mean": round(statistics.mean(export)),
        "archive_export_gz_bytes_max": max(export),
        "archive_export_uncompressed_bytes_mean": round(statistics.mean(raw)),
        "archive_rest_gz_bytes_mean": round(statistics.mean(rest)),
    }


async def main(games: int, archive: bool = False) -> dict:
    with private_redis() as url:
        redis = Redis.from_url(url)
        store = EventStore(redis, prefix="mem", partitions=16)
        service, rnd = GameService(store), random.Random(7)
        played = [await _play(service, 2 + i % 3, rnd) for i in range(games)]
        live = [await _play(service, 2 + i % 3, rnd, commands=150) for i in range(games)] if archive else []
        projector = Projector(store)
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
        result = {
            "games": games,
            "events_mean": round(statistics.mean(events)),
            "bytes_per_game_mean": round(statistics.mean(per_game)),
            "bytes_per_game_max": max(per_game),
            "per_game_by_key_mean": {k: round(statistics.mean(v)) for k, v in sorted(by_kind.items())},
            "feed_bytes_after_trim": feed_bytes,
        }
        if archive:
            result["finished_lasting_bytes_mean"] = round(
                statistics.mean([await _game_bytes(redis, g, lasting=True) for g in played])
            )
            result["live_events_mean"] = round(statistics.mean([await redis.xlen(store.keys(g).events) for g in live]))
            result["live_bytes_mean"] = round(statistics.mean([await _game_bytes(redis, g) for g in live]))
            result["live_lasting_bytes_mean"] = round(
                statistics.mean([await _game_bytes(redis, g, lasting=True) for g in live])
            )
            result |= await _archived(redis, store, played, live)
        await redis.aclose()
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--archive", action="store_true", help="also live games, and finished ones once archived")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main(args.games, args.archive))))
