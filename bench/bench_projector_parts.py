"""Where the projector's CPU goes per command (not a test): each part of what a projector does for
one command of a cached game, timed apart in CPU time (µs per command), on a private redis-server.

Plays `--games` 2-player games of the default kind `--commands` random commands each through the
real write path, then walks every game command by command as a warm projector would, timing the
parts: the feed read that brings the command's entry (XREADGROUP, one entry), the read of the
events after the cached fold (the `_READ` script), decoding and folding them, rendering the views,
encoding them as JSON, and the write with its ack (the `_WRITE` script). Then the idle work of a
partition's loop: an empty XAUTOCLAIM, and an XREADGROUP that times out (Redis ends a blocked read
at its next cron tick: after about 100 ms with `hz 10`, however short the block asked).

    .venv/bin/python -m bench.bench_projector_parts [--games 20] [--commands 60] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from collections import Counter

import msgspec

from bench.private_redis import private_redis
from domain import games
from projections import GameFold
from service.read.models import PROJECTIONS, event_decoder, read_envelopes
from service.store.connection import connect
from service.store.models import GROUP, ModelWrite

JSON = msgspec.json.Encoder()
from service.store.streams import EventStore
from service.write import GameService, SeatSpec

PREFIX = "bench-parts"


async def play(service: GameService, game: str, commands: int, rnd: random.Random) -> list[int]:
    """The game's version after its creation and after each command."""
    spec = games.default()
    version, state = await service.state_at(game)
    versions = [version]
    for _ in range(commands):
        if spec.decider.is_terminal(state):
            break
        seat = spec.decider.awaited(state).seat
        command = msgspec.to_builtins(spec.random_command(state, seat, rnd))
        versions.append((await service.submit(game, seat, command)).version)
        version, state = await service.state_at(game)
    return versions


def timed(parts: Counter, name: str, started: int) -> int:
    now = time.process_time_ns()
    parts[name] += now - started
    return now


async def walk(store: EventStore, game: str, versions: list[int], parts: Counter) -> int:
    """Project the game command by command as a warm projector does; the commands walked."""
    kind, feed = games.default().kind, store.keys(game).feed
    projections, decoder = PROJECTIONS[kind], event_decoder(kind)
    fold, versions_by_name = GameFold(projections), {p.name: p.version for p in projections}
    for envelope in await read_envelopes(store, game, 0, versions[0]):
        fold.apply(envelope.version, decoder.decode(envelope.payload))
    for to in versions[1:]:
        await store.redis.xadd(feed, {"game": game, "to": to})  # what the append adds (not timed)
        t = time.process_time_ns()
        (entry_id, _), *_ = await store.feeds.read_new(feed, "bench", 64, None)
        t = timed(parts, "feed read (XREADGROUP)", t)
        envelopes = await read_envelopes(store, game, fold.version - 1, to)
        t = timed(parts, "events read (_READ script)", t)
        for envelope in envelopes[1:]:
            fold.apply(envelope.version, decoder.decode(envelope.payload))
        t = timed(parts, "decode and fold", t)
        views = fold.views()
        t = timed(parts, "render views", t)
        models = [
            ModelWrite(name, versions_by_name[name], {f: JSON.encode(v) for f, v in fields.items()})
            for name, fields in views.items()
        ]
        t = timed(parts, "encode views (JSON)", t)
        await store.models.write(game, fold.version, envelopes[-1].hash, models, mode=0, ack=[entry_id])
        timed(parts, "write and ack (_WRITE script)", t)
    return len(versions) - 1


async def idle(store: EventStore, parts: Counter, n: int) -> None:
    feed = store.feed_keys()[0]
    for _ in range(n):
        t = time.process_time_ns()
        await store.feeds.claim_idle(feed, "bench", 1000, 64)
        t = timed(parts, "idle: XAUTOCLAIM", t)
        await store.feeds.read_new(feed, "bench", 64, 1)
        timed(parts, "idle: XREADGROUP timing out", t)


async def measure(url: str, args) -> dict:
    store = EventStore(connect(url), prefix=PREFIX, partitions=16)
    service, spec = GameService(store), games.default()
    for feed in store.feed_keys():
        await store.feeds.join(feed)
    rnd, played = random.Random(1), {}
    for _ in range(args.games):
        game = (await service.create(spec.kind, {}, [SeatSpec(type="human")] * 2, claim=[0, 1])).game
        played[game] = await play(service, game, args.commands, rnd)
    for feed in store.feed_keys():  # the entries of the play above: read and acked, so that walk reads its own
        while entries := await store.feeds.read_new(feed, "bench", 1000, None):
            await store.redis.xack(feed, GROUP, *(entry_id for entry_id, _ in entries))
    rounds = []
    for _ in range(args.rounds):
        parts: Counter = Counter()
        commands = 0
        for game, versions in played.items():
            await store.redis.delete(*(store.models.key(game, p.name) for p in PROJECTIONS[spec.kind]))
            commands += await walk(store, game, versions, parts)
        await idle(store, parts, 200)
        per_command = {k: round(v / 1000 / commands, 1) for k, v in parts.items() if not k.startswith("idle")}
        per_call = {k: round(v / 1000 / 200, 1) for k, v in parts.items() if k.startswith("idle")}
        rounds.append(
            {"commands": commands, "µs per command": per_command, "sum": round(sum(per_command.values()), 1)}
            | {"µs per idle call": per_call}
        )
    await store.aclose()
    return {"games": args.games, "rounds": rounds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--commands", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with private_redis() as url:
        print(json.dumps(asyncio.run(measure(url, args)), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
