"""Event streams and a broken Redis, on a real `pantheon api` process and a private redis-server:
open streams outlive a Redis restart and receive what is appended after it, a stream opened while
Redis is away is a 503, and a pool too small for a burst makes requests wait, then answers 503
(never 500)."""

from __future__ import annotations

import asyncio
import random
import time

import httpx

from ..api_helpers import assert_problem, bearer, next_command, referee_service
from ..live import live_api_process
from ..private_redis import needs_redis_server, private_server
from ..spectators import Crowd

pytestmark = needs_redis_server
HUMANS = {"seats": [{"type": "human", "holder": "creator"}] * 2}
PREFIX = "faults"


async def _play(client, referee, game, tokens, rnd, commands: int) -> int:
    """Play `commands` random commands; the game's version after them."""
    for _ in range(commands):
        seat, command, version = await next_command(client, referee, game, rnd)
        answer = await client.post(
            f"/games/{game}/commands", json=command, headers=bearer(tokens[seat]), params={"expected_version": version}
        )
        assert answer.status_code == 201, answer.text
    return (await client.get(f"/games/{game}")).json()["version"]


async def _ready(client, within: float) -> None:
    deadline = time.monotonic() + within
    while (await client.get("/health/ready")).status_code != 200:
        assert time.monotonic() < deadline, "the API did not see Redis again"
        await asyncio.sleep(0.1)


async def test_open_streams_outlive_a_redis_restart_and_receive_the_events_appended_after_it():
    with private_server() as server, live_api_process(server.url, PREFIX, PANTHEON_REDIS_TIMEOUT_S="1") as (base, _):
        async with (
            httpx.AsyncClient(base_url=base, timeout=10) as client,
            referee_service(server.url, PREFIX) as referee,
        ):
            created = (await client.post("/games", json=HUMANS)).json()
            game, tokens = created["game"], {s["seat"]: s["token"] for s in created["seats"]}
            rnd = random.Random(7)
            crowd = Crowd(int(base.rsplit(":", 1)[1]))
            try:
                crowd.open([game], 20)
                before = await _play(client, referee, game, tokens, rnd, 3)
                assert crowd.wait(lambda c: all(s.last_id == before for s in c), within=5)

                server.kill()
                await asyncio.sleep(0.5)  # the reader fails and backs off; the streams wait
                assert_problem(await client.get(f"/games/{game}/stream"), 503, "store_unavailable")
                server.start()  # the same port and data
                await _ready(client, within=10)
                async with referee_service(server.url, PREFIX) as fresh:
                    after = await _play(client, fresh, game, tokens, rnd, 3)

                assert crowd.wait(lambda c: all(s.last_id == after for s in c), within=10), sorted(
                    {s.last_id for s in crowd.spectators}
                )
                assert not any(s.ended for s in crowd.spectators), "a stream was dropped, not kept"
            finally:
                crowd.close()


async def test_a_burst_beyond_the_redis_pool_waits_for_a_connection_then_is_a_503_never_a_500():
    settings = {"PANTHEON_REDIS_POOL": "2", "PANTHEON_REDIS_TIMEOUT_S": "1"}
    with private_server() as server, live_api_process(server.url, PREFIX, **settings) as (base, _):
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            game = (await client.post("/games", json=HUMANS)).json()["game"]
            assert (await client.get(f"/games/{game}")).status_code == 200

            async def status() -> tuple[float, httpx.Response]:
                answer = await client.get(f"/games/{game}")
                return time.monotonic() - started, answer

            # Two requests hold the pool's connections while Redis is paused (their commands wait
            # for it, and retry after their 1 s timeout); the other eight wait 1 s for the pool.
            server.admin().execute_command("CLIENT", "PAUSE", 3000, "ALL")
            started = time.monotonic()
            answers = await asyncio.gather(*(status() for _ in range(10)))
            for _, answer in answers:
                assert answer.status_code in (200, 503), answer.text
                if answer.status_code == 503:
                    assert_problem(answer, 503, "store_unavailable")
                    assert answer.headers["retry-after"] == "1"
            early = [when for when, answer in answers if answer.status_code == 503 and when < 2.0]
            assert len(early) >= 6, sorted((round(w, 2), a.status_code) for w, a in answers)
            await asyncio.sleep(max(0.0, 3.2 - (time.monotonic() - started)))
            assert [(await client.get(f"/games/{game}")).status_code for _ in range(3)] == [200] * 3
