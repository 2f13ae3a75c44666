"""The example client (examples/play_vs_ai.py) plays a whole game against the AI over HTTP with
nothing but the server's choices, and, while Redis pauses its writes and is killed and started
again, retries with the same Idempotency-Key: nothing lost, nothing doubled, the audit passes."""

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from service.store.connection import connect
from service.store.streams import EventStore
from tests.service.live import live_api
from tests.service.private_redis import needs_redis_server, private_server

ROOT = Path(__file__).resolve().parents[2]
pytestmark = needs_redis_server


@pytest.mark.long
def test_the_example_client_plays_a_game_against_the_ai_through_redis_faults_and_every_move_counts_once():
    with private_server() as server, live_api(server.url, "example", PANTHEON_REDIS_TIMEOUT_S="0.5") as base:
        env = dict(
            os.environ,
            REDIS_URL=server.url,
            PANTHEON_PREFIX="example",
            PANTHEON_FEED_PARTITIONS="4",
            PANTHEON_AI_LEASE_S="3",
            PANTHEON_AI_SWEEP_S="0.5",
        )
        worker = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "worker"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = subprocess.Popen(
            [sys.executable, "examples/play_vs_ai.py", "--url", base, "--auto", "--seed", "3", "--ai", "random"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        stop = threading.Event()

        def faults() -> None:  # while the game runs: writes paused, then Redis killed and started again
            while not stop.wait(1.5):
                server.admin().execute_command("CLIENT", "PAUSE", 1200, "WRITE")
                if stop.wait(2.0):
                    return
                server.kill()
                time.sleep(0.5)
                server.start()

        injector = threading.Thread(target=faults, daemon=True)
        injector.start()
        try:
            out, _ = client.communicate(timeout=600)
        finally:
            stop.set()
            injector.join()
            worker.kill()
            worker.wait()
        assert client.returncode == 0, out
        result = json.loads(out.strip().splitlines()[-1])
        assert result["retries"] > 0  # the faults were felt, and ridden out
        with httpx.Client(base_url=base, timeout=30) as http:
            assert http.get(f"/games/{result['game']}/audit").json()["ok"]
        envelopes = asyncio.run(_envelopes(server.url, result["game"]))
    keys = [e.idempotency_key for e in envelopes if e.seat == 0 and e.cause is not None]
    assert keys and all(keys) and len(keys) == len(set(keys))  # every move sent with its key, each once


async def _envelopes(url: str, game: str):
    client = connect(url)
    try:
        return await EventStore(client, prefix="example", partitions=4).read(game)
    finally:
        await client.aclose()
