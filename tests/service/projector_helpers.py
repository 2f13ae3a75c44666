"""Helpers for the projector tests: random games, snapshots of read models, waiting for projectors,
and faults of projector processes (SIGKILL while they hold feed entries)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import msgspec

from domain.pantheon.random_play import random_command
from projections.registry import projections_for
from service.read.models import GROUP, PROJECTIONS, rm_key, stored_versions
from service.read.rebuild import rebuild, record_versions
from service.store.streams import EventStore
from service.write import GameService, SeatSpec


async def new_games(service: GameService, count: int) -> list[str]:
    """`count` games with 2, 3 and 4 players in turn."""
    return [(await service.create("pantheon", {}, [SeatSpec()] * (2 + i % 3))).game for i in range(count)]


async def play(service: GameService, games: list[str], commands: int, rnd: random.Random, pause: float = 0.0) -> int:
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
    await rebuild(store)
    return await snapshot(store, games)


async def mark_current(store: EventStore) -> None:
    """Record the projection versions, so a starting projector has nothing to rebuild."""
    await record_versions(store, [p.name for p in PROJECTIONS["pantheon"]])


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
        if await stored_versions(store, game, projections_for("pantheon")) != head:
            return False
    return await pending(store) == 0


async def wait_caught_up(store: EventStore, games: list[str], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not await caught_up(store, games):
        assert time.monotonic() < deadline, "the projectors did not catch up"
        await asyncio.sleep(0.05)


def stop(process: subprocess.Popen) -> dict:
    """SIGTERM, and the statistics the projector prints as it exits."""
    process.send_signal(signal.SIGTERM)
    out, _ = process.communicate(timeout=10)
    assert process.returncode == 0
    return json.loads(out.strip().splitlines()[-1])


async def consumers(store: EventStore) -> dict[str, dict[str, int]]:
    """The consumers of the projectors' group on each feed partition: {feed: {name: entries it holds}}."""
    out = {}
    for feed in store.feed_keys():
        joined = await store.redis.exists(feed) and await store.redis.xinfo_groups(feed)
        listed = await store.redis.xinfo_consumers(feed, GROUP) if joined else []
        out[feed] = {c["name"].decode(): c["pending"] for c in listed}
    return out


async def wait_reading(
    store: EventStore,
    names: set[str],
    append: Callable[[], Awaitable[object]],
    *,
    every_partition: bool = False,
    timeout: float = 20.0,
) -> None:
    """Append (one more feed entry each time) until each of `names` has read an entry on some feed
    partition, or on every one: Redis lists a consumer in its group from its first entry on."""
    deadline = time.monotonic() + timeout
    while True:
        listed = [set(names_on) for names_on in (await consumers(store)).values()]
        if all(names <= on for on in listed) if every_partition else names <= set().union(*listed):
            return
        assert time.monotonic() < deadline, f"the projectors did not all read: {listed}"
        await append()
        await asyncio.sleep(0.005)


async def held(store: EventStore, consumer: str) -> dict[str, list[bytes]]:
    """The feed entries delivered to `consumer` and not acknowledged, by feed: {feed: [ids]}."""
    out = {}
    for feed in store.feed_keys():
        if await store.redis.exists(feed) and await store.redis.xinfo_groups(feed):
            rows = await store.redis.xpending_range(feed, GROUP, "-", "+", 1000, consumername=consumer)
            if rows:
                out[feed] = [row["message_id"] for row in rows]
    return out


async def held_games(store: EventStore, consumer: str) -> set[str]:
    """The games of the feed entries `consumer` holds."""
    games = set()
    for feed, ids in (await held(store, consumer)).items():
        for entry_id in ids:
            [(_, fields)] = await store.redis.xrange(feed, entry_id, entry_id)
            games.add(fields[b"game"].decode())
    return games


def _stopped(pid: int) -> bool:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("T", "t")


async def kill_holding(
    store: EventStore,
    process: subprocess.Popen,
    consumer: str,
    append: Callable[[], Awaitable[object]],
    timeout: float = 30.0,
) -> float:
    """SIGKILL a projector process while its consumer holds feed entries delivered to it and not
    acknowledged: append (one more feed entry), freeze the process (SIGSTOP, and wait until it is
    stopped) and look; if it holds nothing, let it go on (SIGCONT) and try again. Freezing first
    makes the look and the kill one moment: it cannot ack in between. Returns the monotonic time
    it was frozen (it never ran again after that), the moment of its crash."""
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, f"{consumer} never held an entry when frozen"
        assert process.poll() is None, f"{consumer} exited"
        await append()
        os.kill(process.pid, signal.SIGSTOP)
        while not _stopped(process.pid):
            await asyncio.sleep(0.001)
        frozen = time.monotonic()
        if await held(store, consumer):
            process.kill()
            process.wait(timeout=10)
            return frozen
        os.kill(process.pid, signal.SIGCONT)
