"""Fixtures of the HTTP tests: an app on the test's Redis and prefix, a referee on the same keys, and a
client of that Redis."""

import pytest

from service.store.connection import connect

from ..api_helpers import api_client, referee_service


@pytest.fixture
async def client(redis_url, prefix):
    async with api_client(redis_url, prefix) as client:
        yield client


@pytest.fixture
async def referee(redis_url, prefix):
    async with referee_service(redis_url, prefix) as service:
        yield service


@pytest.fixture
async def redis(redis_url):
    """A client of the test Redis, closed afterwards."""
    client = connect(redis_url)
    yield client
    await client.aclose()
