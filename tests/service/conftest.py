"""Fixtures of the service tests: an event store and a game service on the test's Redis and prefix."""

import pytest
from redis.asyncio import Redis

from service.store.streams import EventStore
from service.write import GameService


@pytest.fixture
async def store(redis_url, prefix):
    client = Redis.from_url(redis_url)
    yield EventStore(client, prefix=prefix, partitions=4)
    await client.aclose()


@pytest.fixture
def service(store):
    return GameService(store)
