"""Helpers for the projector tests: random games, snapshots of read models, waiting for projectors."""

from __future__ import annotations

import asyncio
import random
import time

import msgspec

from domain.games import projections_for
from domain.pantheon.random_play import random_command
from service.read.models import GROUP, PROJECTIONS, rm_key, stored_versions
from service.read.rebuild import rebuild, record_versions
from service.store.streams import EventStore
from service.write import GameService, SeatSpec


async def new_games(service: GameService, count: int) -> list[str]:
    """`count` games with 2, 3 and 4 players in turn."""
    return [(await service.create("pantheon", {}, [SeatSpec()] * (2 + i % 3))).game for i in range(count)]


async def play(service: GameService, games: list[str], commands: int, rnd: random.Random,
               pause: float = 0.0) -> int:
    """Submit up to `commands` random commands to each game, in turn; the count submitted."""
    submitted = 0
    for _ in range(commands):
        for game in games:
            _, state = await service.state_at(game)
            if state.finished:
                continue
            seat = state.agenda[0].seat
            await service.submit(game, seat, msgspec.to_builtins(random_command(state, seat, rnd)))
            submitted += 1
            if pause:
                await asyncio.sleep(pause)
    return submitted


async def snapshot(store: EventStore, games: list[str]) -> dict:
    """Every stored read model of the games: {(game, name): {field: value}}."""
    out = {}
    for game in games:
        for p in PROJECTIONS["pantheon"]:
            out[(game, p.name)] = await store.redis.hgetall(rm_key(store, game, p.name))
    return out


async def rebuilt_snapshot(store: EventStore, games: list[str]) -> dict:
    """The snapshot a fresh rebuild gives (the stored read models are deleted first)."""
    await store.redis.delete(*(rm_key(store, g, p.name) for g in games for p in PROJECTIONS["pantheon"]))
    await rebuild(store.redis, store)
    return await snapshot(store, games)


async def mark_current(store: EventStore) -> None:
    """Record the projection versions, so a starting projector has nothing to rebuild."""
    await record_versions(store.redis, store.prefix, [p.name for p in PROJECTIONS["pantheon"]])


async def pending(store: EventStore) -> int:
    """Feed entries delivered to a projector and not acknowledged yet, over every partition."""
    total = 0
    for feed in store.feed_keys():
        if await store.redis.exists(feed) and await store.redis.xinfo_groups(feed):
            total += (await store.redis.xpending(feed, GROUP))["pending"]
    return total


async def caught_up(store: EventStore, games: list[str]) -> bool:
    for game in games:
        head, _ = await store.head(game)
        if await stored_versions(store.redis, store, game, projections_for("pantheon")) != head:
            return False
    return await pending(store) == 0


async def wait_caught_up(store: EventStore, games: list[str], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not await caught_up(store, games):
        assert time.monotonic() < deadline, "the projectors did not catch up"
        await asyncio.sleep(0.05)
