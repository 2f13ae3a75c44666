"""An append is acknowledged only once enough replicas confirmed it (WAIT on the append's own
connection): by default one replica whenever the master has one; fewer in time is an
`outcome_unknown`, never an acknowledgement, and a retry with the same key tells the outcome."""

from __future__ import annotations

import time

import msgspec
import pytest
from redis.asyncio import RedisCluster

from service.store.codec import GENESIS_HASH, Envelope, seal
from service.store.connection import connect
from service.store.streams import EventStore, ReplicationUnconfirmed
from service.write.errors import store_failure


def envelopes(game, count):
    out, prev = [], GENESIS_HASH
    for version in range(1, count + 1):
        out.append(seal(Envelope(game=game, version=version, type="thing", schema=1,
                                 payload=msgspec.Raw(msgspec.msgpack.encode({"n": version})), recorded_at=1,
                                 prev_hash=prev)))
        prev = out[-1].hash
    return out


@pytest.fixture
async def client(redis_url):
    client = connect(redis_url)
    yield client
    await client.aclose()


async def test_by_default_an_append_waits_for_one_replica_when_the_master_has_one(client, prefix):
    store = EventStore(client, prefix=prefix, partitions=4, wait_replicas=None)
    assert (await store.append("g", 0, envelopes("g", 2), idempotency_key="k")).version == 2
    master = await store._master_of(store.keys("g").events)
    replicas = int((await master.info("replication"))["connected_slaves"])
    assert await store._wanted(master) == min(replicas, 1)
    if isinstance(client, RedisCluster):  # scripts/redis-cluster gives every master a replica
        assert replicas == 1
    await store.close_nodes()


async def test_an_append_fewer_replicas_confirm_in_time_is_an_outcome_unknown_and_a_retry_tells(client, prefix):
    store = EventStore(client, prefix=prefix, partitions=4, wait_replicas=3, wait_timeout_ms=100)  # more than any
    started = time.monotonic()
    with pytest.raises(ReplicationUnconfirmed) as unconfirmed:
        await store.append("g", 0, envelopes("g", 2), idempotency_key="k", outcome=b"first")
    assert 0.09 <= time.monotonic() - started < 2
    assert unconfirmed.value.wanted == 3 and unconfirmed.value.confirmed < 3
    failure = store_failure(unconfirmed.value, writing=True)
    assert (failure.status, failure.code) == (503, "outcome_unknown")
    assert "may or may not survive" in failure.message and "same Idempotency-Key" in failure.message
    with pytest.raises(ReplicationUnconfirmed):  # a retry is answered only once replicated too
        await store.append("g", 0, envelopes("g", 2), idempotency_key="k", outcome=b"again")
    relaxed = EventStore(client, prefix=prefix, partitions=4, wait_replicas=0)
    assert [e.version for e in await relaxed.read("g")] == [1, 2]  # it is on the master, once
    retry = await relaxed.append("g", 0, envelopes("g", 2), idempotency_key="k", outcome=b"again")
    assert retry.duplicate and retry.outcome == b"first"
    await store.close_nodes()
