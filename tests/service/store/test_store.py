"""The event store's guarantees, against a real Redis."""

import asyncio
import hashlib

import msgspec
import pytest
from redis.crc import key_slot

from domain.kernel import SeatReissued
from service.store.codec import GENESIS_HASH, Envelope, canonical_bytes, seal, wrap_platform
from service.store.connection import connect
from service.store.streams import EventStore, VersionConflict


@pytest.fixture
async def store(redis_url, prefix):
    client = connect(redis_url)
    yield EventStore(client, prefix=prefix, partitions=8)
    await client.aclose()


def envelopes(game, after, count, prev=None):
    """`count` envelopes after version `after`, chained by default to the log this helper makes."""
    if prev is None:
        prev = envelopes(game, 0, after, GENESIS_HASH)[-1].hash if after else GENESIS_HASH
    out = []
    for version in range(after + 1, after + count + 1):
        e = seal(
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
        out.append(e)
        prev = e.hash
    return out


async def test_appended_events_read_back_in_order_with_versions_without_gaps(store):
    first = envelopes("g1", 0, 3)
    assert (await store.append("g1", 0, first)).version == 3
    assert (await store.append("g1", 3, envelopes("g1", 3, 2, first[-1].hash))).version == 5
    read = await store.read("g1")
    assert [e.version for e in read] == [1, 2, 3, 4, 5]
    assert read[:3] == first
    assert [e.version for e in await store.read("g1", after=2, until=4)] == [3, 4]
    assert await store.head("g1") == (5, read[-1].hash)


async def test_fifty_concurrent_appends_at_one_version_apply_exactly_once(store):
    [first] = envelopes("race", 0, 1)
    await store.append("race", 0, [first])

    async def attempt(i):
        try:
            await store.append("race", 1, envelopes("race", 1, 2, first.hash))
            return "applied"
        except VersionConflict as conflict:
            assert conflict.current == 3
            return "conflict"

    results = await asyncio.gather(*(attempt(i) for i in range(50)))
    assert results.count("applied") == 1 and results.count("conflict") == 49
    assert [e.version for e in await store.read("race")] == [1, 2, 3]


async def test_a_retried_idempotency_key_returns_the_first_outcome_and_appends_nothing(store):
    first = await store.append("idem", 0, envelopes("idem", 0, 2), idempotency_key="k1", outcome=b"first")
    again = await store.append("idem", 0, envelopes("idem", 0, 2), idempotency_key="k1", outcome=b"second")
    later = await store.append("idem", 2, envelopes("idem", 2, 1), idempotency_key="k1", outcome=b"third")
    assert first.version == 2 and not first.duplicate
    assert again.duplicate and again.outcome == b"first"
    assert later.duplicate and later.outcome == b"first"
    assert len(await store.read("idem")) == 2


async def test_the_hash_chain_verifies_and_a_changed_byte_breaks_it(store):
    await store.append("chain", 0, envelopes("chain", 0, 4))
    read = await store.read("chain")
    prev = GENESIS_HASH
    for e in read:
        assert e.prev_hash == prev
        assert e.hash == hashlib.sha256(bytes.fromhex(prev) + canonical_bytes(e)).hexdigest()
        prev = e.hash
    tampered = msgspec.structs.replace(read[1], payload=msgspec.Raw(msgspec.msgpack.encode({"n": 99})))
    assert seal(tampered).hash != read[1].hash


async def test_a_crash_between_deciding_and_appending_leaves_the_store_consistent(store):
    await store.append("crash", 0, envelopes("crash", 0, 2))
    decided = envelopes("crash", 2, 3)  # decided, then the process dies before appending
    del decided
    assert await store.head("crash") == (2, (await store.read("crash"))[-1].hash)
    assert (await store.append("crash", 2, envelopes("crash", 2, 1))).version == 3
    with pytest.raises(VersionConflict):
        await store.append("crash", 2, envelopes("crash", 2, 1))


async def test_an_idempotency_key_is_remembered_for_its_ttl_only(store):
    short = EventStore(store.redis, prefix=store.prefix, partitions=store.partitions, idempotency_ttl_s=30)
    await short.append("ttl", 0, envelopes("ttl", 0, 1), idempotency_key="k", outcome=b"first")
    assert 0 < await store.redis.ttl(store.keys("ttl").idempotency_key("k")) <= 30
    assert (
        await short.records.prior_outcome("ttl", "k") == b"first"
        and await short.records.prior_outcome("ttl", "other") is None
    )
    await store.redis.delete(store.keys("ttl").idempotency_key("k"))  # as when it expires
    assert (await short.append("ttl", 1, envelopes("ttl", 1, 1), idempotency_key="k", outcome=b"again")).version == 2


async def test_every_key_of_a_game_and_its_feed_share_one_cluster_hash_slot(store):
    for game in ("a", "b", "c0ffee", "zz-top"):
        k = store.keys(game)
        idempotency = k.idempotency_key("seat0|{any} key a client sends")
        slots = {key_slot(key.encode()) for key in (k.events, k.meta, idempotency, k.feed, k.rejected)}
        assert len(slots) == 1


async def test_each_append_is_recorded_in_the_games_feed_partition(store):
    await store.append("fed", 0, envelopes("fed", 0, 2))
    await store.append("fed", 2, envelopes("fed", 2, 3))
    entries = await store.redis.xrange(store.keys("fed").feed)
    assert [(f[b"game"], f[b"from"], f[b"to"]) for _, f in entries] == [(b"fed", b"1", b"2"), (b"fed", b"3", b"5")]


async def test_meta_fields_are_set_in_the_same_atomic_step_as_the_first_events(store):
    await store.append("made", 0, envelopes("made", 0, 2), meta={"kind": "toy", "seats": b"[]"})
    assert (await store.records.meta("made"))["kind"] == b"toy"
    with pytest.raises(VersionConflict):
        await store.append("made", 0, envelopes("made", 0, 1), meta={"kind": "other"})
    assert (await store.records.meta("made"))["kind"] == b"toy"


async def test_a_reissue_replaces_the_token_and_appends_its_event_at_once_or_not_at_all(store):
    first = envelopes("seats", 0, 2)
    await store.append("seats", 0, first, meta={"seat:1": "old", "token:old": 1})
    stale = wrap_platform("seats", 1, first[0].hash, SeatReissued(seat=1), recorded_at=2)  # decided at version 1
    meta, feed = await store.records.meta("seats"), await store.redis.xlen(store.keys("seats").feed)

    assert await store.records.reissue_seat("seats", 1, "code", stale) == "conflict"
    assert await store.records.meta("seats") == meta and await store.redis.xlen(store.keys("seats").feed) == feed
    assert await store.records.reissue_seat("seats", 0, "code", stale) == "unclaimed"
    fresh = wrap_platform("seats", 2, first[-1].hash, SeatReissued(seat=1), recorded_at=2)
    assert await store.records.reissue_seat("seats", 1, "code", fresh) == "ok"

    after = await store.records.meta("seats")
    assert "seat:1" not in after and "token:old" not in after and after["invite:1"] == b"code"
    assert (await store.read("seats"))[-1] == fresh and await store.head("seats") == (3, fresh.hash)
    assert await store.redis.xlen(store.keys("seats").feed) == feed + 1
    assert (
        await store.records.reissue_seat(
            "seats", 1, "again", wrap_platform("seats", 3, fresh.hash, SeatReissued(seat=1), recorded_at=3)
        )
        == "ok"
    )  # a reserved seat too
    assert await store.records.reissue_seat("gone", 1, "code", fresh) == "gone"
