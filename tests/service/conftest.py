"""Fixtures of the service tests: an event store and a game service on the test's Redis and prefix,
and `pantheon projector` processes on them."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.store.connection import connect
from service.store.streams import EventStore
from service.write import GameService

from .private_redis import local_cluster

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def store(redis_url, prefix):
    client = connect(redis_url)
    yield EventStore(client, prefix=prefix, partitions=4)
    await client.aclose()


@pytest.fixture
def service(store):
    return GameService(store)


@pytest.fixture
def env(redis_url, prefix):
    """The environment of a role process on the test's Redis and prefix (4 feed partitions, like `store`)."""
    return dict(os.environ, REDIS_URL=redis_url, PANTHEON_PREFIX=prefix, PANTHEON_FEED_PARTITIONS="4")


@pytest.fixture
def start_projector(env):
    """Start `pantheon projector` processes; any still running when the test ends are killed."""
    started = []

    def start(*args: str) -> subprocess.Popen:
        started.append(
            subprocess.Popen(
                [sys.executable, "-m", "service.cli", "projector", "--block-ms", "100", *args],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
        )
        return started[-1]

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
            process.communicate()


@pytest.fixture
def own_cluster(tmp_path):
    """A local Redis Cluster of the test's own (scripts/redis-cluster: 3 masters, 3 replicas), for
    tests that fault it or run roles on it: (a node's URL, its directory)."""
    where = tmp_path / "cluster"
    with local_cluster(where) as node:
        yield node, where
