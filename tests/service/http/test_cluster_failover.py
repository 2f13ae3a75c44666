"""Acknowledged means replicated, through a failover of Redis Cluster: a live API process on a local
cluster of its own (scripts/redis-cluster, with a short node timeout) under play, every request with
an Idempotency-Key where it takes one. One master is killed with kill -9 and its replica promoted:
until the old master is back as the new one's replica, no command, create, fork, claim, re-issue or
retry answered from a stored outcome on that shard gets 2xx (503 `not_replicated`, once the API
reaches the promoted master), while the other shards play on. Once it is back, every one of them
gets its answer and play resumes; then the promoted master is killed too, and every acknowledged
command, game, claim and token is still there. No 500 anywhere."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest
import redis
from redis.crc import key_slot

from service.store.streams import EventStore
from service.write.keyed import Derived

from ..api_helpers import PARTITIONS, bearer, new_game, next_command, referee_service
from ..live import live_api_process
from ..private_redis import CLUSTER_SCRIPT, local_cluster, needs_redis_server, private_server

GAMES = 6
SECRET = "c" * 40  # PANTHEON_SECRET: the test picks keys whose games land on the shard it kills
# a master silent for 500 ms is failed over; a replica takes over however long its link was down
FAST = ("--cluster-node-timeout", "500", "--cluster-replica-validity-factor", "0")
HUMANS = {"seats": [{"type": "human"}] * 2}


class Nodes:
    """The test's cluster, asked through whichever node answers: who serves a slot, kill -9, restart."""

    def __init__(self, where: Path) -> None:
        self.where, self.down = where, set()

    def ports(self) -> list[int]:
        return [int(p) for p in (self.where / "ports").read_text().split()]

    def ask(self, *command):
        for port in self.ports():
            if port not in self.down:
                try:
                    return redis.Redis(port=port, socket_timeout=2).execute_command(*command)
                except redis.RedisError:
                    continue
        raise AssertionError("no node answers")

    def owner(self, slot: int) -> int:
        """The port of the master serving `slot`, as the cluster says now."""
        for low, high, master, *_ in self.ask("CLUSTER", "SLOTS"):
            if low <= slot <= high:
                return int(master[1])
        raise AssertionError(f"no master serves slot {slot}")

    def kill(self, port: int) -> None:
        os.kill(int((self.where / str(port) / "redis.pid").read_text()), signal.SIGKILL)
        self.down.add(port)

    def restart(self, port: int) -> None:
        subprocess.run([CLUSTER_SCRIPT, "restart", str(self.where), str(port)], check=True)
        self.down.discard(port)

    def promoted(self, slot: int, killed: int) -> int:
        """Wait until another node serves `slot` and the cluster is ok again; its port."""
        deadline = time.monotonic() + 30
        while (port := self.owner(slot)) == killed or b"cluster_state:ok" not in self.ask("CLUSTER", "INFO"):
            assert time.monotonic() < deadline, "the replica was not promoted"
            time.sleep(0.1)
        return port

    def replicated(self, master: int) -> None:
        """Wait until `master` has a replica in sync with it."""
        deadline = time.monotonic() + 30
        while True:
            info = redis.Redis(port=master).info("replication")
            replica = info.get("slave0") or {}
            if replica.get("state") == "online" and replica.get("offset") == info["master_repl_offset"]:
                return
            assert time.monotonic() < deadline, f"no replica caught up with {master}: {info}"
            time.sleep(0.1)


class Layout:
    """Where the test's games live: the slot of a game's keys, and keys that land on one shard."""

    def __init__(self, prefix: str) -> None:
        self.store = EventStore(redis.Redis(), prefix=prefix, partitions=PARTITIONS)  # no connection made

    def slot(self, game: str) -> int:
        return key_slot(self.store.keys(game).events.encode())

    def slots_of(self, nodes: Nodes, master: int) -> set[int]:
        """The slots of the feed partitions (and their games) that `master` serves."""
        slots = {key_slot(self.store.tag(p).encode()) for p in range(PARTITIONS)}
        return {s for s in slots if nodes.owner(s) == master}

    def key_landing(self, scope: str, slots: set[int], name: str) -> tuple[str, str]:
        """An Idempotency-Key whose game (derived for `scope`) lands in one of `slots`: (key, game)."""
        for n in range(10_000):
            key = f"{name}-key-{n:010d}"
            game = Derived.of(SECRET.encode(), scope, key).game_id()
            if self.slot(game) in slots:
                return key, game
        raise AssertionError("no key lands there")


class Play:
    """Every answer the API gave, and the Idempotency-Keys of the commands it acknowledged."""

    def __init__(self, client: httpx.AsyncClient, referee) -> None:
        self.client, self.referee, self.rnd = client, referee, random.Random(23)
        self.statuses: list[int] = []
        self.acknowledged: dict[str, list[str]] = {}  # game -> keys
        self.n = 0

    async def send(self, **request) -> httpx.Response | None:
        """The answer, or None for a connection dropped (a failover under way)."""
        try:
            answer = await self.client.request(**request)
        except httpx.TransportError:
            return None
        self.statuses.append(answer.status_code)
        return answer

    async def until_answered(self, request: dict, *, deadline_s: float = 45) -> httpx.Response:
        """Send `request` until it gets other than 503 (or a dropped connection)."""
        deadline = time.monotonic() + deadline_s
        while (answer := await self.send(**request)) is None or answer.status_code == 503:
            assert time.monotonic() < deadline, f"never answered: {request} {answer and answer.text}"
            await asyncio.sleep(0.1)
        return answer

    async def command(self, game: str, tokens: list[str]) -> dict | None:
        """The next random command of the game as a request with a new key (None once it has ended)."""
        step = await next_command(self.client, self.referee, game, self.rnd)
        if step is None:
            return None
        seat, command, version = step
        self.n += 1
        return {
            "method": "POST",
            "url": f"/games/{game}/commands",
            "json": command,
            "params": {"expected_version": version},
            "headers": {**bearer(tokens[seat]), "Idempotency-Key": f"cmd-{self.n:06d}"},
        }

    async def round(self, games: list) -> None:
        """One acknowledged command in every game (each retried with its key until answered)."""
        for game, _, tokens in games:
            if (request := await self.command(game, tokens)) is not None:
                self.applied(game, await self.until_answered(request), request)

    def applied(self, game: str, answer: httpx.Response, request: dict) -> None:
        assert answer.status_code == 201, answer.text
        self.acknowledged.setdefault(game, []).append(request["headers"]["Idempotency-Key"])


async def _refused_for_replication(play: Play, request: dict) -> list[httpx.Response]:
    """Send `request` until the API answers it from the promoted master (503 `not_replicated`); every
    answer, none of which may be 2xx."""
    answers, deadline = [], time.monotonic() + 30
    while True:
        answer = await play.send(**request)
        if answer is not None:
            answers.append(answer)
            assert not 200 <= answer.status_code < 300, (request, answer.text)
            if answer.status_code == 503 and answer.json()["code"] == "not_replicated":
                return answers
        assert time.monotonic() < deadline, f"not refused as unreplicated: {request} {answer and answer.text}"
        await asyncio.sleep(0.1)


async def _settled(call):
    """`call()`'s result once the referee's cluster client has found the new master."""
    deadline = time.monotonic() + 30
    while True:
        try:
            return await call()
        except (redis.RedisError, OSError):
            assert time.monotonic() < deadline, "the cluster did not settle"
            await asyncio.sleep(0.2)


@needs_redis_server
@pytest.mark.skipif(
    bool(os.environ.get("REDIS_URL")), reason="runs once, in the pass without REDIS_URL (it makes a cluster of its own)"
)
@pytest.mark.long
async def test_a_shard_without_a_replica_acknowledges_nothing_and_everything_acknowledged_survives_two_kills(
    tmp_path, prefix
):
    where = tmp_path / "cluster"
    started, layout = time.monotonic(), Layout(prefix)
    with (
        local_cluster(where, *FAST) as node,
        private_server() as queue,
        live_api_process(
            node,
            prefix,
            PANTHEON_QUEUE_URL=queue.url,
            PANTHEON_SECRET=SECRET,
            PANTHEON_WAIT_TIMEOUT_MS="300",
            PANTHEON_REDIS_TIMEOUT_S="2",
        ) as (base, _),
    ):
        nodes = Nodes(where)
        async with httpx.AsyncClient(base_url=base, timeout=10) as client, referee_service(node, prefix) as referee:
            play = Play(client, referee)
            games = [await new_game(client) for _ in range(GAMES)]
            first = games[0][0]
            victim = nodes.owner(layout.slot(first))
            slots = layout.slots_of(nodes, victim)
            on_victim = [(game, tokens) for game, _, tokens in games if layout.slot(game) in slots]
            # a game on the victim's shard: seats 0 and 2 claimed now (0 with a key), seat 1 kept free
            spare_create = {
                "method": "POST",
                "url": "/games",
                "json": {"seats": [{"type": "human"}] * 3},
                "headers": {"Idempotency-Key": layout.key_landing("create", slots, "spare")[0]},
            }
            spare = (await play.until_answered(spare_create)).json()
            seat_url = f"/games/{spare['game']}/seats"
            claim_0 = {
                "method": "POST",
                "url": f"{seat_url}/0/claim",
                "headers": {"Idempotency-Key": "claim-0-0000000000"},
            }
            first_claim = (await play.until_answered(claim_0)).json()
            seat_2 = (await play.until_answered({"method": "POST", "url": f"{seat_url}/2/claim"})).json()["token"]
            for _ in range(2):
                await play.round(games)
            acked_command = await play.command(first, games[0][2])
            first_answer = await play.until_answered(acked_command)
            play.applied(first, first_answer, acked_command)

            nodes.kill(victim)
            promoted = nodes.promoted(layout.slot(first), victim)
            # the promoted master has no replica until the old one is back: nothing there is acknowledged
            create_key, created = layout.key_landing("create", slots, "create")
            fork_key, forked = layout.key_landing(f"fork|{first}", slots, "fork")
            version = (await referee.store.head(first))[0]
            window = {
                "commands": [await play.command(game, tokens) for game, tokens in on_victim],
                "retried command": [acked_command],
                "retried create": [spare_create],
                "retried claim": [claim_0],
                "create": [
                    {"method": "POST", "url": "/games", "json": HUMANS, "headers": {"Idempotency-Key": create_key}}
                ],
                "fork": [
                    {
                        "method": "POST",
                        "url": f"/games/{first}/fork",
                        "json": {"at": version, **HUMANS},
                        "headers": {**bearer(games[0][1]), "Idempotency-Key": fork_key},
                    }
                ],
                "claim": [
                    {
                        "method": "POST",
                        "url": f"{seat_url}/1/claim",
                        "headers": {"Idempotency-Key": "claim-1-0000000000"},
                    }
                ],
                "re-issue": [{"method": "POST", "url": f"{seat_url}/2/token", "headers": bearer(spare["admin_token"])}],
            }
            for requests in window.values():
                for request in requests:
                    await _refused_for_replication(play, request)
            for _ in range(4):  # new games without a key: acknowledged only off the victim's shard
                answer = await play.send(method="POST", url="/games", json=HUMANS)
                if answer is not None and answer.status_code == 201:
                    assert layout.slot(answer.json()["game"]) not in slots, answer.json()
            await play.round([g for g in games if layout.slot(g[0]) not in slots])  # the other shards play on

            nodes.restart(victim)  # back as the promoted master's replica
            nodes.replicated(promoted)
            answered = {name: [await play.until_answered(r) for r in requests] for name, requests in window.items()}
            assert all(a.status_code == 201 for answers in answered.values() for a in answers), {
                n: [a.text for a in answers] for n, answers in answered.items()
            }
            for request, answer in zip(window["commands"], answered["commands"]):
                play.applied(request["url"].split("/")[2], answer, request)
            assert answered["retried command"][0].json() == first_answer.json()
            assert answered["retried create"][0].json() == spare and answered["retried claim"][0].json() == first_claim
            assert answered["create"][0].json()["game"] == created and answered["fork"][0].json()["game"] == forked
            invite = answered["re-issue"][0].json()  # a re-issue answers an invite code, never a token
            reclaim = {"method": "POST", "url": f"{seat_url}/2/claim", "json": {"invite": invite["code"]}}
            reclaimed = await play.until_answered(reclaim)  # while the shard has its replica again
            assert reclaimed.status_code == 201, reclaimed.text
            for _ in range(2):
                await play.round(games)

            nodes.kill(promoted)  # the second kill: the old master, now in sync, takes over
            nodes.promoted(layout.slot(first), promoted)
            for game, _, _ in games:
                logged = [
                    e.idempotency_key
                    for e in await _settled(lambda: referee.store.read(game))  # noqa: B023 - called within this iteration
                    if e.cause is not None and e.idempotency_key
                ]
                assert sorted(logged) == sorted(play.acknowledged.get(game, [])), game  # each exactly once
            for game in (created, forked, spare["game"]):
                assert (await play.until_answered({"method": "GET", "url": f"/games/{game}"})).status_code == 200
            view = f"/games/{spare['game']}/view"
            for token in (first_claim["token"], answered["claim"][0].json()["token"], reclaimed.json()["token"]):
                assert (
                    await play.until_answered({"method": "GET", "url": view, "headers": bearer(token)})
                ).status_code == 200
            revoked = await play.until_answered({"method": "GET", "url": view, "headers": bearer(seat_2)})
            assert revoked.status_code in (401, 403), revoked.text  # the re-issue revoked it, for good
    assert all(s < 500 or s == 503 for s in play.statuses), sorted(set(play.statuses))
    print(
        f"statuses {sorted(set(play.statuses))}, acknowledged {sum(map(len, play.acknowledged.values()))} "
        f"commands, {time.monotonic() - started:.1f} s"
    )
