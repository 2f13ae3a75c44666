"""The key layout on Redis Cluster: every key of a game lives in its feed partition's hash slot,
so its scripts and transactions run on one node, and the feed partitions of a deployment spread
over every master, so that the write load does too."""

from __future__ import annotations

import pytest
from redis import Redis
from redis.asyncio import RedisCluster
from redis.crc import key_slot

from service.store.streams import EventStore
from service.write.meta import SeatSpec

# the slots of the masters `redis-cli --cluster create` makes of 3 masters (scripts/redis-cluster)
THREE_MASTERS = ((0, 5460), (5461, 10922), (10923, 16383))


def _master_of(slot: int) -> int:
    return next(i for i, (low, high) in enumerate(THREE_MASTERS) if low <= slot <= high)


def test_the_default_feed_partitions_spread_over_three_masters():
    store = EventStore(Redis(), prefix="pantheon", partitions=16)  # the default prefix and partitions (no I/O)
    masters = [_master_of(key_slot(feed.encode())) for feed in store.feed_keys()]
    assert set(masters) == {0, 1, 2}
    assert min(masters.count(m) for m in range(3)) >= 3  # none of them gets only a sliver


async def test_on_a_live_cluster_every_key_of_a_game_is_in_one_slot_and_the_feeds_reach_every_master(
    redis_url, prefix, service
):
    if not isinstance(service.store.redis, RedisCluster):
        pytest.skip("needs a Redis Cluster (scripts/test's cluster pass runs it)")
    redis: RedisCluster = service.store.redis
    created = await service.create("pantheon", {}, [SeatSpec(type="person")] * 2)
    game, keys = created.game, service.store.keys(created.game)
    found = [key async for key in redis.scan_iter(match=f"*{game}*", count=1000)]  # on every node
    assert keys.events.encode() in found and keys.meta.encode() in found, found
    assert {key_slot(k) for k in found} == {key_slot(keys.feed.encode())}, found

    masters = {node.name for node in redis.get_primaries()}
    assert len(masters) == 3
    deployment = EventStore(redis, prefix="pantheon", partitions=16)
    owners = {redis.nodes_manager.get_node_from_slot(key_slot(feed.encode())).name for feed in deployment.feed_keys()}
    assert owners == masters
