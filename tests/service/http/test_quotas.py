"""Abuse is bounded: rate limits and quotas against the running server, shared by several API
processes (they count in Redis), answered 429 with Retry-After and problem details, and changing
nothing."""

from __future__ import annotations

import asyncio
import os
import time

import httpx
import pytest

from ..api_helpers import assert_problem
from ..live import live_api

HUMANS = {"seats": [{"type": "human", "holder": "creator"}, {"type": "human", "holder": "creator"}]}


def _assert_429(answer, code: str) -> None:
    assert_problem(answer, 429, code)
    assert int(answer.headers["retry-after"]) >= 1 and answer.json()["retry_after"] >= 1


def _lobby(client) -> int:
    return len(client.get("/games", params={"limit": 200}).json()["games"])


def test_game_creation_is_limited_per_address_and_the_limit_is_shared_by_every_api_process(redis_url, prefix):
    limits = {"PANTHEON_LIMIT_CREATE": "3/minute"}
    with live_api(redis_url, prefix, **limits) as a, live_api(redis_url, prefix, **limits) as b:  # noqa: SIM117 - a server, then its clients: two steps
        with httpx.Client(base_url=a) as first, httpx.Client(base_url=b) as second:
            assert [c.post("/games", json=HUMANS).status_code for c in (first, second, first)] == [201] * 3
            before = _lobby(first)
            _assert_429(second.post("/games", json=HUMANS), "rate_limited")
            _assert_429(first.post("/games", json=HUMANS), "rate_limited")
            assert _lobby(first) == before


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit_and_others_cannot_forge_one(redis_url, prefix):
    with live_api(redis_url, prefix, PANTHEON_LIMIT_CREATE="2/minute") as base, httpx.Client(base_url=base) as c:
        forged = [
            c.post("/games", json=HUMANS, headers={"X-Forwarded-For": f"10.0.0.{i}"}).status_code for i in range(3)
        ]
        assert forged == [201, 201, 429]  # not a trusted proxy: its X-Forwarded-For counts for nothing
    with (
        live_api(
            redis_url, prefix + "-p", PANTHEON_LIMIT_CREATE="2/minute", PANTHEON_TRUSTED_PROXIES="127.0.0.1"
        ) as base,
        httpx.Client(base_url=base) as c,
    ):

        def create(client_address: str) -> int:
            return c.post(
                "/games", json=HUMANS, headers={"X-Forwarded-For": f"{client_address}, 127.0.0.1"}
            ).status_code

        assert [create("192.0.2.1"), create("192.0.2.1"), create("192.0.2.2"), create("192.0.2.1")] == [
            201,
            201,
            201,
            429,
        ]


def test_commands_are_limited_per_seat_and_a_refused_one_changes_nothing(redis_url, prefix):
    with live_api(redis_url, prefix, PANTHEON_LIMIT_COMMANDS="3/minute") as base, httpx.Client(base_url=base) as c:
        created = c.post("/games", json=HUMANS).json()
        game, tokens = created["game"], {s["seat"]: s["token"] for s in created["seats"]}
        other = 1 - c.get(f"/games/{game}").json()["awaiting"]["seat"]
        url, headers = f"/games/{game}/commands", {"Authorization": f"Bearer {tokens[other]}"}
        answers = [c.post(url, json={"type": "pass"}, headers=headers) for _ in range(4)]
        assert [a.status_code for a in answers[:3]] == [422] * 3  # refused by the rules, but counted
        _assert_429(answers[3], "rate_limited")
        assert len(c.get(f"/games/{game}/rejected").json()) == 3
        awaited = 1 - other  # the other seat has its own allowance
        assert (
            c.post(url, json={"type": "pass"}, headers={"Authorization": f"Bearer {tokens[awaited]}"}).status_code
            != 429
        )


def test_running_games_with_ai_seats_are_limited_per_address(redis_url, prefix):
    with_ai = {"seats": [{"type": "human"}, {"type": "ai", "level": "random"}]}
    with live_api(redis_url, prefix, PANTHEON_LIMIT_AI_GAMES="2") as base, httpx.Client(base_url=base) as c:
        assert [c.post("/games", json=with_ai).status_code for _ in range(2)] == [201, 201]
        before = _lobby(c)
        _assert_429(c.post("/games", json=with_ai), "quota_exceeded")
        assert _lobby(c) == before
        humans = c.post("/games", json=HUMANS).json()
        assert humans["game"]
        handed = c.post(
            f"/games/{humans['game']}/seats/1/ai",
            json={"level": "random"},
            headers={"Authorization": f"Bearer {humans['admin_token']}"},
        )
        _assert_429(handed, "quota_exceeded")
        assert c.get(f"/games/{humans['game']}").json()["seats"][1]["type"] == "human"


def test_open_event_streams_are_limited_per_address_and_a_closed_one_frees_its_place(redis_url, prefix):
    with live_api(redis_url, prefix, PANTHEON_LIMIT_STREAMS="2") as base, httpx.Client(base_url=base, timeout=5) as c:
        game = c.post("/games", json=HUMANS).json()["game"]
        url = f"{base}/games/{game}/stream"
        with httpx.Client(timeout=5) as one, httpx.Client(timeout=5) as two:  # noqa: SIM117 - a server, then its clients: two steps
            with one.stream("GET", url) as first, two.stream("GET", url) as second:
                assert first.status_code == second.status_code == 200
                reading = [first.iter_lines(), second.iter_lines()]  # kept: a dropped iterator closes its stream
                assert [next(lines) for lines in reading] == ["id: 1", "id: 1"]
                _assert_429(c.get(url), "quota_exceeded")
        for _ in range(50):  # the server notices the closed connections within a wait or two
            with c.stream("GET", url) as again:
                if again.status_code == 200:
                    break
            time.sleep(0.1)
        assert again.status_code == 200


@pytest.mark.parametrize("setting", ["PANTHEON_LIMIT_CREATE", "PANTHEON_LIMIT_COMMANDS"])
def test_the_limits_are_documented_in_the_security_page(setting):
    from pathlib import Path

    assert setting in (Path(__file__).resolve().parents[3] / "docs" / "security.md").read_text()


GARBAGE = [b"[" * 485 + b"]" * 485, b"{not json", b"\xff\xfe", b'{"seats": "two"}', b""]


def test_over_a_rate_limit_a_request_is_429_before_its_body_is_read_whatever_the_body(redis_url, prefix):
    env = {"PANTHEON_LIMIT_CREATE": "2/minute", "PANTHEON_LIMIT_COMMANDS": "2/minute"}
    with live_api(redis_url, prefix, **env) as base, httpx.Client(base_url=base) as c:
        key = {"Idempotency-Key": "a-retried-create-0123456789"}
        created = [c.post("/games", json=HUMANS, headers=key).json(), c.post("/games", json=HUMANS).json()]
        before = _lobby(c)
        for body in GARBAGE:
            _assert_429(c.post("/games", content=body, headers={"Content-Type": "application/json"}), "rate_limited")
        retried = c.post("/games", json=HUMANS, headers=key)  # a retry still gets its answer (it is not a new game)
        assert retried.status_code == 201 and retried.json() == created[0]
        game, token = created[0]["game"], created[0]["seats"][0]["token"]
        url, headers = (
            f"/games/{game}/commands",
            {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        assert [c.post(url, content=b"{not json", headers=headers).status_code for _ in range(2)] == [400, 400]
        for body in GARBAGE:
            _assert_429(c.post(url, content=body, headers=headers), "rate_limited")
        assert _lobby(c) == before and c.get(f"/games/{game}").json()["version"] == created[0]["version"]


async def test_a_burst_of_rate_limited_requests_beyond_the_pool_is_counted_not_refused(redis_url, prefix):
    """The rate limits' counters share a bounded pool with waiting turns: 500 requests counted at once
    (a busy process at 1,000 games) are all counted; `limits`' own pool refused any beyond 100 at once
    (MaxConnectionsError: the command answered 503 `store_unavailable`)."""
    from service.config import QuotaSettings
    from service.http.quotas import Quotas

    counters = os.environ.get("PANTHEON_QUEUE_URL") or redis_url  # a plain Redis, as the API's (not a cluster)
    quotas = Quotas(counters, prefix, QuotaSettings(commands="100000/second"), timeout_s=5)
    try:
        await asyncio.gather(*(quotas.hit("commands", f"client-{i % 7}") for i in range(500)))
    finally:
        await quotas.close()
