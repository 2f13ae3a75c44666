"""An append is acknowledged only once enough replicas confirmed it (WAIT on the append's own
connection): by default one on a Redis Cluster and none on a single Redis, whatever is connected;
fewer in time is `not_replicated`, never an acknowledgement, and so is the stored outcome a retry
would be answered with, until a replica confirms it."""

from __future__ import annotations

import time

import msgspec
import pytest
from redis.asyncio import RedisCluster

from service.config import BY_NAME
from service.http.problems import status_of
from service.store.codec import GENESIS_HASH, Envelope, seal
from service.store.connection import connect
from service.store.replication import Acknowledger
from service.store.secret import ServerSecret
from service.store.streams import EventStore, ReplicationUnconfirmed
from service.write.errors import store_failure


def envelopes(game, count):
    out, prev = [], GENESIS_HASH
    for version in range(1, count + 1):
        out.append(
            seal(
                Envelope(
                    game=game,
                    version=version,
                    type="thing",
                    schema=1,
                    payload=msgspec.Raw(msgspec.msgpack.encode({"n": version})),
                    recorded_at=1,
                    prev_hash=prev,
                )
            )
        )
        prev = out[-1].hash
    return out


@pytest.fixture
async def client(redis_url):
    client = connect(redis_url)
    yield client
    await client.aclose()


async def test_by_default_a_cluster_waits_for_one_replica_and_a_single_redis_for_none(client, prefix):
    store = EventStore(client, prefix=prefix, partitions=4)
    assert (await store.append("g", 0, envelopes("g", 2), idempotency_key="k")).version == 2
    assert store.acknowledger.wanted == (1 if isinstance(client, RedisCluster) else 0)
    await store.close_nodes()


def test_the_setting_is_a_number_or_unset_and_auto_is_refused_with_a_reason():
    setting = BY_NAME["wait_replicas"]
    assert setting.read({}) is None and setting.read({"PANTHEON_WAIT_REPLICAS": "1"}) == 1
    for wrong in ("auto", "-1", "one"):
        with pytest.raises(ValueError):
            setting.read({"PANTHEON_WAIT_REPLICAS": wrong})


async def test_an_append_fewer_replicas_confirm_in_time_is_not_replicated_nor_is_its_stored_outcome(client, prefix):
    store = EventStore(client, prefix=prefix, partitions=4, wait_replicas=3, wait_timeout_ms=100)  # more than any
    started = time.monotonic()
    with pytest.raises(ReplicationUnconfirmed) as unconfirmed:
        await store.append("g", 0, envelopes("g", 2), idempotency_key="k", outcome=b"first")
    assert 0.09 <= time.monotonic() - started < 2
    assert unconfirmed.value.wanted == 3 and unconfirmed.value.confirmed < 3
    failure = store_failure(unconfirmed.value, writing=True)
    assert (status_of(failure), failure.code, failure.extra) == (503, "not_replicated", {"retry_after": 1})
    assert "may not survive a failover" in failure.message and "same Idempotency-Key" in failure.message
    with pytest.raises(ReplicationUnconfirmed):  # a retry is answered only once replicated too
        await store.append("g", 0, envelopes("g", 2), idempotency_key="k", outcome=b"again")
    with pytest.raises(ReplicationUnconfirmed):  # and so is the outcome a retry would be answered with
        await store.records.prior_outcome("g", "k")
    assert await store.records.prior_outcome("g", "unknown") is None  # nothing stored: nothing to prove
    relaxed = EventStore(client, prefix=prefix, partitions=4, wait_replicas=0)
    assert [e.version for e in await relaxed.read("g")] == [1, 2]  # it is on the master, once
    retry = await relaxed.append("g", 0, envelopes("g", 2), idempotency_key="k", outcome=b"again")
    assert retry.duplicate and retry.outcome == b"first"
    await store.close_nodes()


async def test_the_server_secret_made_in_redis_is_used_only_once_enough_replicas_have_it(client, prefix):
    """Retries of keyed requests derive their answers from it: a failover that lost it would change them."""
    waiting = Acknowledger(client, wait_replicas=3, wait_timeout_ms=100)  # more than any
    with pytest.raises(ReplicationUnconfirmed):
        await ServerSecret(client, prefix, acknowledger=waiting).value()
    made = await client.get(f"{prefix}:secret")  # on the master: used once it can be proven
    assert made and await ServerSecret(client, prefix, acknowledger=Acknowledger(client, 0)).value() == made
    await waiting.close()
