"""Fixtures of the HTTP tests: an app on the test's Redis and prefix, and a referee on the same keys."""

import pytest

from ..api_helpers import api_client, referee_service


@pytest.fixture
async def client(redis_url, prefix):
    async with api_client(redis_url, prefix) as client:
        yield client


@pytest.fixture
async def referee(redis_url, prefix):
    async with referee_service(redis_url, prefix) as service:
        yield service
