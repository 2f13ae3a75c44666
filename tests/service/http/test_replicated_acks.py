"""Acknowledged means replicated, on a retry too: a live `pantheon api` on a redis-server with one
replica and PANTHEON_WAIT_REPLICAS=1. While the replica is paused (SIGSTOP), a command, a keyed
create, a keyed fork and a keyed claim are answered 503 `not_replicated` the first time and on every
retry with the same key (a retry is answered from the stored first outcome only once a replica
confirms it), and so is a token re-issue; once the replica runs again, the same retries get 201 with
the first answer. A master that refuses writes itself (min-replicas-to-write, no replica) is a 503
`not_replicated` on every path too, never a 500, and changes nothing."""

from __future__ import annotations

import os
import random
import time

import httpx
import pytest

from service.store.codec import UNPACK_ENVELOPE
from service.store.streams import EventStore
from service.write.keyed import Derived

from ..api_helpers import PARTITIONS, bearer, new_game, next_command, referee_service
from ..live import live_api_process
from ..private_redis import needs_redis_server, private_server, replica_of, wait_in_sync

SECRET = "s" * 40  # PANTHEON_SECRET: the test derives the games its keys make
RETRIES = 2  # retries of each request while the replica is paused
KEYS = {
    "command": "command-key-0001",
    "create": "create-key-00001",
    "fork": "fork-key-0000001",
    "claim": "claim-key-000001",
}

pytestmark = [
    needs_redis_server,
    pytest.mark.skipif(
        bool(os.environ.get("REDIS_URL")),
        reason="runs once, in the pass without REDIS_URL (it makes Redis servers of its own)",
    ),
]


def _sends(
    admin_game: str, admin: str, seats: list[str], command: dict, seat: int, seat_token: str, at: int
) -> dict[str, dict]:
    """Each request that says "stored" when answered 2xx, as httpx.AsyncClient.request's arguments:
    `seat`'s command and the other seat's token re-issued in `admin_game` (a fork of it at `at`), a
    claim of seat 1 of `seats[0]`."""
    return {
        "command": {
            "method": "POST",
            "url": f"/games/{admin_game}/commands",
            "json": command,
            "headers": {**bearer(seat_token), "Idempotency-Key": KEYS["command"]},
        },
        "create": {
            "method": "POST",
            "url": "/games",
            "json": {"seats": [{"type": "human"}] * 2},
            "headers": {"Idempotency-Key": KEYS["create"]},
        },
        "fork": {
            "method": "POST",
            "url": f"/games/{admin_game}/fork",
            "json": {"at": at, "seats": [{"type": "human"}] * 2},
            "headers": {**bearer(admin), "Idempotency-Key": KEYS["fork"]},
        },
        "claim": {
            "method": "POST",
            "url": f"/games/{seats[0]}/seats/1/claim",
            "headers": {"Idempotency-Key": KEYS["claim"]},
        },
        "reissue": {"method": "POST", "url": f"/games/{admin_game}/seats/{1 - seat}/token", "headers": bearer(admin)},
    }


async def test_no_write_nor_retry_is_acknowledged_while_the_replica_is_paused_then_each_gets_its_first_answer(prefix):
    with (
        private_server() as master,
        replica_of(master) as replica,
        live_api_process(
            master.url, prefix, PANTHEON_WAIT_REPLICAS="1", PANTHEON_WAIT_TIMEOUT_MS="300", PANTHEON_SECRET=SECRET
        ) as (base, _),
    ):
        async with (
            httpx.AsyncClient(base_url=base, timeout=10) as client,
            referee_service(master.url, prefix) as referee,
        ):
            game, admin, tokens = await new_game(client)
            other = (await client.post("/games", json={"seats": [{"type": "human"}] * 2})).json()["game"]
            seat, command, version = await next_command(client, referee, game, random.Random(3))
            sends = _sends(game, admin, [other], command, seat, tokens[seat], version)
            wait_in_sync(master, replica)

            replica.pause()
            try:
                paused = {
                    name: [await client.request(**send) for _ in range(1 + RETRIES)] for name, send in sends.items()
                }
            finally:
                replica.resume()
            wait_in_sync(master, replica)
            again = {
                name: [await client.request(**send) for _ in range(2)]
                for name, send in sends.items()
                if name != "reissue"
            }  # a re-issue has no key: sent again, it is a new invite code

        statuses = {name: [a.status_code for a in answers] for name, answers in paused.items()}
        assert statuses == {name: [503] * (1 + RETRIES) for name in sends}, statuses
        for name, answers in paused.items():
            for answer in answers:
                body = answer.json()
                assert body["code"] == "not_replicated" and answer.headers["retry-after"], (name, body)
                assert "Idempotency-Key" in body["detail"], body
        # once replicated: the first answer, the same on every retry
        for name, answers in again.items():
            assert [a.status_code for a in answers] == [201, 201], (name, [a.text for a in answers])
            assert answers[0].json() == answers[1].json(), name
        assert again["command"][0].json()["first"] == version + 1
        created = Derived.of(SECRET.encode(), "create", KEYS["create"])
        assert again["create"][0].json()["game"] == created.game_id()
        assert again["create"][0].json()["admin_token"] == created.admin()
        assert again["fork"][0].json()["game"] == Derived.of(SECRET.encode(), f"fork|{game}", KEYS["fork"]).game_id()
        claimed = again["claim"][0].json()["token"]
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            assert (await client.get(f"/games/{other}/view", headers=bearer(claimed))).status_code == 200

        store = EventStore(master.admin(), prefix=prefix, partitions=PARTITIONS)  # what the master holds
        entries = master.admin().xrange(store.keys(game).events)
        appends = [e for e in (UNPACK_ENVELOPE.decode(fields[b"e"]) for _, fields in entries) if e.cause is not None]
        assert [e.idempotency_key for e in appends].count(KEYS["command"]) == 1  # applied once, however often sent


@pytest.fixture
def refusing_master():
    """A redis-server that refuses writes while it has no replica (min-replicas-to-write 1), its
    replica (for the test to kill), and the plain Redis of the queue and rate limits (never so
    configured)."""
    with (
        private_server() as queue,
        private_server("--min-replicas-to-write", "1") as master,
        replica_of(master) as replica,
    ):
        yield master, replica, queue


async def test_a_master_refusing_writes_for_want_of_replicas_is_a_503_on_every_path(refusing_master, prefix):
    master, replica, queue = refusing_master
    with live_api_process(
        master.url,
        prefix,
        PANTHEON_SECRET=SECRET,
        PANTHEON_QUEUE_URL=queue.url,
        PANTHEON_WAIT_REPLICAS="1",
        PANTHEON_WAIT_TIMEOUT_MS="300",
    ) as (base, _):  # its operator sets 1
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            game, admin, tokens = await new_game(client)
            other = (await client.post("/games", json={"seats": [{"type": "human"}] * 2})).json()["game"]
            async with referee_service(master.url, prefix) as referee:
                seat, command, version = await next_command(client, referee, game, random.Random(4))
            sends = _sends(game, admin, [other], command, seat, tokens[seat], version)
            first = await client.request(**sends["command"])  # a retry of it is proven too
            assert first.status_code == 201
            sends["retry"] = sends.pop("command")
            sends["unkeyed create"] = {"method": "POST", "url": "/games", "json": {"seats": [{"type": "human"}] * 2}}
            replica.kill()
            while master.admin().info("replication")["connected_slaves"]:
                time.sleep(0.05)
            before = sorted(master.admin().keys("*"))

            answers = {name: await client.request(**send) for name, send in sends.items()}

        got = {name: (a.status_code, a.json().get("code")) for name, a in answers.items()}
        assert got == {name: (503, "not_replicated") for name in sends}, got
        changed = set(master.admin().keys("*")) - set(before)
        assert not {k for k in changed if b":proof" not in k}, changed  # nothing stored
