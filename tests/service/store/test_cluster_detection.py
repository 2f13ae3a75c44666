"""Finding out whether REDIS_URL is a Redis Cluster when it does not answer at start: a role keeps
asking (for PANTHEON_REDIS_DETECT_S) and never takes a cluster it could not reach for a single
Redis; the API starts not ready and, once the node answers that it is a cluster, stops to be
started again with a cluster client."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

import httpx
import pytest
from redis.asyncio import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError

from service.store import connection

from ..conftest import ROOT
from ..live import RELAXED_ENV, free_port
from ..private_redis import CLUSTER_SCRIPT


def _port(node: str) -> int:
    return int(node.rsplit(":", 1)[1].split("/")[0])


def _down(port: int) -> None:
    subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"], capture_output=True)
    deadline = time.monotonic() + 10
    while subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).returncode == 0:
        assert time.monotonic() < deadline, "the node did not stop"
        time.sleep(0.05)


def _up(where, port: int) -> None:
    """Start the node again as scripts/redis-cluster made it (its nodes.conf keeps it in the cluster)."""
    subprocess.run([CLUSTER_SCRIPT, "restart", str(where), str(port)], check=True)


@pytest.fixture
def forgetting():
    """Every URL asked about in the test is asked again by the next one."""
    yield
    getattr(connection, "_KNOWN", {}).clear()


async def test_a_role_started_while_its_cluster_node_is_down_keeps_asking_and_gets_a_cluster_client(
    own_cluster, monkeypatch, forgetting
):
    node, where = own_cluster
    monkeypatch.setattr(connection, "DETECT_S", 30.0, raising=False)
    _down(_port(node))
    asking = asyncio.create_task(asyncio.to_thread(connection.connect, node))
    await asyncio.sleep(1.0)
    assert not asking.done(), "a node that did not answer was taken for a single Redis"
    _up(where, _port(node))
    client = await asyncio.wait_for(asking, 30)
    assert isinstance(client, RedisCluster)
    await client.aclose()


async def test_a_node_that_never_answers_stops_the_role_instead_of_being_taken_for_a_single_redis(
    monkeypatch, forgetting
):
    monkeypatch.setattr(connection, "DETECT_S", 0.5, raising=False)
    started = time.monotonic()
    with pytest.raises(RedisConnectionError, match="whether it is a Redis Cluster"):
        await asyncio.to_thread(connection.connect, f"redis://127.0.0.1:{free_port()}/0")
    assert time.monotonic() - started >= 0.3  # asked again meanwhile


def test_an_api_started_while_its_cluster_node_is_down_is_not_ready_then_stops_once_it_answers(own_cluster):
    node, where = own_cluster
    _down(_port(node))
    port = free_port()
    env = dict(
        os.environ,
        REDIS_URL=node,
        PANTHEON_PORT=str(port),
        PANTHEON_PREFIX="detect",
        PANTHEON_FEED_PARTITIONS="4",
        **RELAXED_ENV,
    )
    api = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "api"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        base, deadline = f"http://127.0.0.1:{port}", time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/health/live", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert api.poll() is None and time.monotonic() < deadline, "the API did not start"
            time.sleep(0.05)
        assert httpx.get(f"{base}/health/ready", timeout=5).status_code == 503
        _up(where, _port(node))
        api.wait(timeout=20)  # it stops by itself, to be started again with a cluster client
        assert "is a Redis Cluster" in api.stderr.read()
    finally:
        if api.poll() is None:
            api.kill()
        api.wait()
