"""Turn clocks over HTTP against the live server (`pantheon api` and `pantheon worker` processes on the
test's Redis), with the test-only PANTHEON_CLOCK_MIN_S=1 so a clock runs out in a second: the clock
shown before a seat is claimed, bad clocks refused, `time_out` in no client's reach, and a seat
whose time runs out played by the greedy AI, or forfeiting the game; the audit passes either way."""

from __future__ import annotations

import asyncio
import os
import random
import time
import uuid

import httpx
import pytest

from service.store.connection import connect_sync
from tests.service.ai.test_ai import stop, worker
from tests.service.api_helpers import assert_problem, bearer, next_command, referee_service
from tests.service.live import live_api

pytestmark = pytest.mark.long

SECOND = {"type": "per_move", "seconds": 1}


@pytest.fixture(scope="module")
def live(redis_url):
    """A live API with 1 s clocks allowed and a worker whose clock keeper looks every 0.3 s, on a key
    prefix of this module's own (one server for its tests: each start costs seconds), deleted after."""
    prefix = f"test-{uuid.uuid4().hex[:10]}"
    workers = [worker(redis_url, prefix, PANTHEON_AI_SWEEP_S="0.3")]
    try:
        with live_api(redis_url, prefix, PANTHEON_CLOCK_MIN_S="1") as base:
            yield base, prefix
    finally:
        stop(workers)
        for url in dict.fromkeys([redis_url, os.environ.get("PANTHEON_QUEUE_URL") or redis_url]):
            client = connect_sync(url)
            keys = list(client.scan_iter(match=f"*{prefix}*", count=1000))
            if keys:
                client.delete(*keys)
            for queue in client.smembers("rq:queues"):
                if prefix.encode() in queue:
                    client.srem("rq:queues", queue)
            client.close()


@pytest.fixture
def server(live):
    return live[0]


async def _clocked(client, then: str) -> tuple[str, str]:
    body = {
        "seats": [{"type": "human", "holder": "creator"}, {"type": "ai", "level": "random"}],
        "clock": {"seats": [SECOND, None], "on_time_out": then},
    }
    created = await client.post("/games", json=body)
    assert created.status_code == 201, created.text
    return created.json()["game"], created.json()["seats"][0]["token"]


async def _until(client, game: str, condition, timeout_s: float = 30) -> dict:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        detail = (await client.get(f"/games/{game}")).json()
        if condition(detail):
            return detail
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out waiting on game {game}: {detail}")


async def _let_the_clock_run_out(client, redis_url, prefix, game: str, token: str) -> dict:
    """Seat 0 plays its moves until its clock runs (the clocks start with the game's first command),
    then plays no more: the game's status as its 1 s began to run out."""
    async with referee_service(redis_url, prefix) as referee:
        while True:
            detail = await _until(client, game, lambda d: d["finished"] or d["awaiting"]["seat"] == 0)
            if detail["clock"]["deadline_ms"] is not None:
                break
            _, command, version = await next_command(client, referee, game, random.Random(detail["version"]))
            answer = await client.post(
                f"/games/{game}/commands", json=command, headers=bearer(token), params={"expected_version": version}
            )
            assert answer.status_code == 201, answer.text
    running = detail["clock"]
    assert running["seats"] == [{"seat": 0, "remaining_ms": running["seats"][0]["remaining_ms"], "running": True}]
    assert 0 <= running["seats"][0]["remaining_ms"] <= 1_000
    return detail


async def test_a_clock_is_shown_before_any_seat_is_claimed(server):
    async with httpx.AsyncClient(base_url=server) as client:
        body = {
            "seats": [{"type": "human"}, {"type": "human"}],
            "clock": {"seats": [SECOND, {"type": "fischer", "bank_s": 60, "increment_s": 2}]},
        }
        created = await client.post("/games", json=body)
        assert created.status_code == 201, created.text
        detail = (await client.get(f"/games/{created.json()['game']}")).json()
    assert detail["open_seats"] == [0, 1]
    assert detail["clock"]["choice"] == {
        "seats": [SECOND, {"type": "fischer", "bank_s": 60, "increment_s": 2}],
        "on_time_out": "greedy",
    }
    assert detail["clock"]["deadline_ms"] is None  # the clocks start with the first command
    assert [s["remaining_ms"] for s in detail["clock"]["seats"]] == [1_000, 60_000]


BAD_CLOCKS = [
    ({"seats": [{"type": "per_move", "seconds": 0}, None]}, "bad_clock", 422),  # under the minimum
    ({"seats": [SECOND]}, "bad_clock", 422),  # not one per seat
    ({"seats": [None, SECOND]}, "bad_clock", 422),  # seat 1 is the AI's
    ({"seats": [{"type": "fischer", "bank_s": 60, "increment_s": -1}, None]}, "bad_clock", 422),
    ({"seats": [{"type": "fischer", "bank_s": 31 * 24 * 3600}, None]}, "bad_clock", 422),  # over 30 days
    ({"seats": [SECOND, None], "on_time_out": "strong"}, "malformed_request", 400),
    ({"seats": [{"type": "hourglass", "seconds": 60}, None]}, "malformed_request", 400),
]


async def test_a_bad_clock_is_a_problem_and_makes_no_game(server):
    async with httpx.AsyncClient(base_url=server) as client:
        before = (await client.get("/games")).json()["games"]
        for clock, code, status in BAD_CLOCKS:
            body = {"seats": [{"type": "human"}, {"type": "ai"}], "clock": clock}
            problem = assert_problem(await client.post("/games", json=body), status, code)
            assert problem["detail"][0].isupper(), problem
        assert (await client.get("/games")).json()["games"] == before


async def test_no_client_can_send_a_time_out(server):
    async with httpx.AsyncClient(base_url=server) as client:
        body = {"seats": [{"type": "human", "holder": "creator"}] * 2, "clock": {"seats": [SECOND, SECOND]}}
        created = (await client.post("/games", json=body)).json()
        game, token = created["game"], created["seats"][0]["token"]  # no AI: nothing else changes the game
        before = (await client.get(f"/games/{game}")).json()["version"]
        sent = await client.post(
            f"/games/{game}/commands", json={"type": "time_out", "observed_ms": 2**40}, headers=bearer(token)
        )
        assert_problem(sent, 400, "not_a_seat_command")
        assert (await client.get(f"/games/{game}")).json()["version"] == before


async def test_a_seat_whose_time_runs_out_is_played_by_the_greedy_ai_and_the_audit_passes(server, redis_url, live):
    async with httpx.AsyncClient(base_url=server) as client:
        game, token = await _clocked(client, "greedy")
        detail = await _let_the_clock_run_out(client, redis_url, live[1], game, token)
        timed_out_at = detail["version"] + 1
        await _until(client, game, lambda d: d["version"] > timed_out_at)  # the greedy move for seat 0
        events = (await client.get(f"/games/{game}/events", params={"after": detail["version"]})).json()["events"]
        assert events[0]["type"] == "timed_out" and events[0]["payload"]["seat"] == 0
        assert events[0]["payload"]["observed_ms"] >= events[0]["payload"]["deadline_ms"]
        audit = (await client.get(f"/games/{game}/audit")).json()
    async with referee_service(redis_url, live[1]) as referee:
        after = [e for e in await referee.store.read(game, timed_out_at) if e.cause is not None]
    assert after[0].seat == 0 and after[0].provenance["bot"] == "greedy"
    checks = {c["name"]: c for c in audit["checks"]}
    assert checks["clocks"]["ok"] is True and "1 time-outs" in checks["clocks"]["detail"]
    assert all(c["ok"] is not False for c in audit["checks"]), audit["checks"]


async def test_a_seat_whose_time_runs_out_forfeits_and_is_ranked_last(server, redis_url, live):
    async with httpx.AsyncClient(base_url=server) as client:
        game, token = await _clocked(client, "forfeit")
        await _let_the_clock_run_out(client, redis_url, live[1], game, token)
        detail = await _until(client, game, lambda d: d["finished"])
        audit = (await client.get(f"/games/{game}/audit")).json()
    assert detail["status"] == "finished" and detail["outcome"]["winners"] == [1]
    assert detail["seed"] and detail["clock"]["deadline_ms"] is None and detail["clock"]["forfeited"] == 0
    assert audit["ok"] is True, [c for c in audit["checks"] if c["ok"] is not True]
