"""On a Redis Cluster the roles find it out from REDIS_URL alone; RQ's queue needs a plain Redis
(PANTHEON_QUEUE_URL): without one a role stops with a sentence that says so, and with one `pantheon
serve` runs every role against the two (an AI seat's turn goes through the queue and is played)."""

import os
import subprocess
import sys
import time

import httpx
import pytest

from ..live import ROOT, free_port, running
from ..private_redis import needs_redis_server, private_server

pytestmark = [
    needs_redis_server,
    pytest.mark.skipif(
        bool(os.environ.get("REDIS_URL")),
        reason="runs once, in the pass without REDIS_URL (it makes a cluster of its own)",
    ),
]


def _env(node: str, prefix: str, **more: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PANTHEON_QUEUE_URL"}
    return {**env, "REDIS_URL": node, "PANTHEON_PREFIX": prefix, **more}


def test_a_role_on_a_cluster_without_a_queue_redis_stops_and_says_what_to_set(own_cluster, prefix):
    node, _ = own_cluster
    for role in ("api", "worker", "serve"):
        ran = subprocess.run(
            [sys.executable, "-m", "service.cli", role],
            cwd=ROOT,
            env=_env(node, prefix),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert ran.returncode != 0 and "PANTHEON_QUEUE_URL" in ran.stderr and "Redis Cluster" in ran.stderr, (
            role,
            ran.stderr[-500:],
        )


def test_serve_on_a_cluster_and_a_queue_redis_runs_every_role(own_cluster, prefix):
    node, _ = own_cluster
    port = free_port()
    with private_server() as queue:
        env = _env(
            node,
            prefix,
            PANTHEON_QUEUE_URL=queue.url,
            PANTHEON_PORT=str(port),
            PANTHEON_AI_WORKERS="1",
            PANTHEON_AI_SWEEP_S="0.5",
        )
        with running("serve", env, port, timeout_s=60, stop_s=30) as (base, _):
            created = httpx.post(f"{base}/games", json={"seats": [{"type": "ai", "level": "random"}] * 2}, timeout=10)
            assert created.status_code == 201, created.text
            game = created.json()["game"]
            deadline = time.monotonic() + 60
            while httpx.get(f"{base}/games/{game}", timeout=5).json()["version"] < 5:  # AI turns, via RQ
                assert time.monotonic() < deadline, "no AI turn was played"
                time.sleep(0.2)
            assert queue.admin().keys(f"rq:*{prefix}*"), "the queue's jobs are on the queue's Redis"
