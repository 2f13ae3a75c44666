"""An acknowledged command survives a failover of Redis Cluster: load on a live API process over a
local cluster of its own (scripts/redis-cluster), every command with an Idempotency-Key and every
acknowledged one recorded; one master is killed with kill -9, its replica is promoted, the load
goes on (a 503 is retried with the same key); then every acknowledged command is in its game's
log exactly once, and every game audits."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
import uuid

import httpx
import pytest
import redis
from redis.crc import key_slot

from service.store.streams import EventStore

from ..api_helpers import PARTITIONS, bearer, new_game, next_command, referee_service
from ..live import live_api_process
from ..private_redis import needs_redis_server, private_server

GAMES = 6
ROUNDS_BEFORE, ROUNDS_AFTER = 4, 4


def _owner(admin: redis.Redis, slot: int) -> tuple[str, int]:
    """(node id, port) of the master serving `slot`, as the cluster says now."""
    for low, high, master, *_ in admin.execute_command("CLUSTER", "SLOTS"):
        if low <= slot <= high:
            port, node_id = master[1], master[2]
            return (node_id.decode() if isinstance(node_id, bytes) else node_id), int(port)
    raise AssertionError(f"no master serves slot {slot}")


FAILED_OVER: list[str] = []  # what the load met while a master was away (503 codes, dropped connections)


async def _retrying(call, deadline: float):
    """`call()` until it answers other than 503 or a dropped connection (a failover under way)."""
    while True:
        try:
            answer = await call()
            if answer.status_code != 503:
                return answer
            FAILED_OVER.append(answer.json()["code"])
        except httpx.TransportError as error:
            FAILED_OVER.append(type(error).__name__)
        assert time.monotonic() < deadline, "the API did not come back after the failover"
        await asyncio.sleep(0.2)


@needs_redis_server
@pytest.mark.skipif(bool(os.environ.get("REDIS_URL")), reason="runs once, in the pass without REDIS_URL "
                    "(it makes a cluster of its own)")
async def test_every_acknowledged_command_survives_a_master_killed_mid_load(own_cluster, prefix):
    node, where = own_cluster
    FAILED_OVER.clear()
    with private_server() as queue, live_api_process(node, prefix, PANTHEON_QUEUE_URL=queue.url,
                                                     PANTHEON_REDIS_TIMEOUT_S="2") as (base, _):
        acknowledged: dict[str, list[str]] = {}  # game -> Idempotency-Keys of the acknowledged commands
        async with httpx.AsyncClient(base_url=base, timeout=10) as client, referee_service(node, prefix) as referee:
            games = [await new_game(client) for _ in range(GAMES)]
            rnd = random.Random(18)

            stop = asyncio.Event()

            async def player(game: str, tokens: list[str]) -> None:
                """Commands one after another until stopped, each retried with its key until answered."""
                while not stop.is_set():
                    deadline = time.monotonic() + 60
                    try:
                        step = await next_command(client, referee, game, rnd)
                    except (redis.RedisError, OSError, httpx.TransportError, KeyError):
                        assert time.monotonic() < deadline
                        await asyncio.sleep(0.2)  # the referee's or the API's Redis fails over
                        continue
                    if step is None:
                        return
                    seat, command, version = step
                    key = uuid.uuid4().hex
                    answer = await _retrying(lambda: client.post(
                        f"/games/{game}/commands", json=command, params={"expected_version": version},
                        headers={**bearer(tokens[seat]), "Idempotency-Key": key}), deadline)
                    assert answer.status_code in (200, 201), answer.text
                    acknowledged.setdefault(game, []).append(key)

            async def acknowledged_at_least(count: int) -> None:
                while sum(len(keys) for keys in acknowledged.values()) < count:
                    assert time.monotonic() < give_up and not any(p.done() for p in players)
                    await asyncio.sleep(0.05)

            give_up = time.monotonic() + 120
            players = [asyncio.create_task(player(game, tokens)) for game, _, tokens in games]
            await acknowledged_at_least(GAMES * ROUNDS_BEFORE)

            # kill -9 the master of the first game's slot mid-load, and wait for its replica's promotion
            store = EventStore(redis.Redis(), prefix=prefix, partitions=PARTITIONS)  # the key layout only
            slot = key_slot(store.keys(games[0][0]).events.encode())
            seed_port = int(node.rsplit(":", 1)[1].split("/")[0])
            admin = redis.Redis(port=seed_port)
            victim, port = _owner(admin, slot)
            if port == seed_port:  # ask the cluster through a node that stays up
                admin = redis.Redis(port=next(int(p) for p in (where / "ports").read_text().split() if int(p) != port))
            os.kill(int((where / str(port) / "redis.pid").read_text()), signal.SIGKILL)
            killed_at, before = time.monotonic(), sum(len(keys) for keys in acknowledged.values())
            while _owner(admin, slot)[0] == victim or b"cluster_state:ok" not in admin.execute_command(
                    "CLUSTER", "INFO"):
                assert time.monotonic() - killed_at < 30, "the replica was not promoted"
                await asyncio.sleep(0.2)
            await acknowledged_at_least(before + GAMES * ROUNDS_AFTER)
            stop.set()
            await asyncio.gather(*players)
            print("met during the failover:", {c: FAILED_OVER.count(c) for c in set(FAILED_OVER)}, "acknowledged:",
                  sum(len(keys) for keys in acknowledged.values()))
            assert FAILED_OVER, "the load never met the failover"  # the kill landed under load

            for game, _, _ in games:
                envelopes = await referee.store.read(game)
                commands = [e.idempotency_key for e in envelopes if e.cause is not None and e.idempotency_key]
                assert sorted(commands) == sorted(acknowledged.get(game, [])), game  # each exactly once
                audit = (await _retrying(lambda: client.get(f"/games/{game}/audit"),
                                         time.monotonic() + 30)).json()
                checks = {c["name"]: c["ok"] for c in audit["checks"]}  # a running game: no seed revealed yet
                assert audit["first_failure"] is None and checks["hash_chain"], audit
