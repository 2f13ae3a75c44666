"""Operations endpoints: liveness, readiness against Redis, Prometheus metrics."""

from __future__ import annotations

import asyncio
import random
import re
import time

import httpx

from service.http.app import create_app

from ..api_helpers import (
    PARTITIONS,
    api_client,
    app_settings,
    bearer,
    new_game,
    next_command,
    play,
    referee_service,
    serve,
)
from ..live import live_api
from ..projector_helpers import kill_holding


async def test_a_live_process_with_a_reachable_redis_is_live_and_ready(redis_url, prefix):
    async with api_client(redis_url, prefix) as client:
        assert (await client.get("/health/live")).json() == {"status": "ok"}
        assert (await client.get("/health/ready")).json() == {"status": "ok"}


async def test_without_redis_the_process_is_live_but_not_ready(prefix):
    async with serve(create_app(app_settings("redis://127.0.0.1:1/0", prefix))) as client:
        live, ready = await client.get("/health/live"), await client.get("/health/ready")

    assert live.status_code == 200
    assert ready.status_code == 503 and ready.json()["code"] == "not_ready"
    assert ready.headers["content-type"].startswith("application/problem+json")


async def test_without_redis_the_metrics_of_the_process_are_still_served(prefix):
    async with serve(create_app(app_settings("redis://127.0.0.1:1/0", prefix))) as client:
        await client.get("/health/live")
        metrics = await client.get("/metrics")

    assert metrics.status_code == 200
    assert sample(metrics.text, "pantheon_http_requests_total", method="GET", route="/health/live", status="200") == 1
    assert samples(metrics.text, "pantheon_projection_lag_seconds") == {}  # unknown: absent, not 0


def samples(text: str, name: str) -> dict[str, float]:
    """Every sample of one Prometheus metric: {its labels as written: value}."""
    found = {}
    for line in text.splitlines():
        if match := re.fullmatch(rf"{re.escape(name)}(?:\{{(.*)\}})? (\S+)", line):
            found[match.group(1) or ""] = float(match.group(2))
    return found


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one Prometheus sample (0 when absent)."""
    wanted = ",".join(f'{k}="{v}"' for k, v in labels.items())
    for line in text.splitlines():
        match = re.fullmatch(rf"{re.escape(name)}(?:\{{(.*)\}})? (\S+)", line)
        if match and (match.group(1) or "") == wanted:
            return float(match.group(2))
    return 0.0


async def test_metrics_count_requests_by_route_and_status_and_commands_by_result(redis_url, prefix):
    async with api_client(redis_url, prefix) as client, referee_service(redis_url, prefix) as referee:
        game, _, tokens = await new_game(client)
        seat, command, _ = await next_command(client, referee, game, random.Random(1))
        await client.post(f"/games/{game}/commands", json=command, headers=bearer(tokens[1 - seat]))
        await client.post(f"/games/{game}/commands", json=command, headers=bearer(tokens[seat]))
        await client.get("/games/0123456789abcdef")

        answer = await client.get("/metrics")

    text = answer.text
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    assert sample(text, "pantheon_http_requests_total", method="POST", route="/games", status="201") == 1
    assert (
        sample(text, "pantheon_http_requests_total", method="POST", route="/games/{game_id}/commands", status="422")
        == 1
    )
    assert sample(text, "pantheon_http_requests_total", method="GET", route="/games/{game_id}", status="404") == 1
    assert sample(text, "pantheon_commands_total", result="accepted", code="") == 1
    assert sample(text, "pantheon_commands_total", result="rejected", code="not_your_turn") == 1
    assert sample(text, "pantheon_command_seconds_count") == 2
    assert sample(text, "pantheon_command_seconds_bucket", le="+Inf") == 2
    assert "# TYPE pantheon_command_seconds histogram" in text


async def projection_lag(client) -> tuple[float, float]:
    """From /metrics: the largest projection lag of any feed partition, and the entries pending."""
    text = (await client.get("/metrics")).text
    lags = samples(text, "pantheon_projection_lag_seconds")
    assert "# TYPE pantheon_projection_lag_seconds gauge" in text and len(lags) == PARTITIONS, text
    assert set(lags) == {f'partition="{p}"' for p in range(PARTITIONS)}
    return max(lags.values()), sum(samples(text, "pantheon_projection_pending").values())


async def wait_no_lag(client, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while (lag := await projection_lag(client)) != (0.0, 0.0):
        assert time.monotonic() < deadline, f"the projection lag stayed at {lag}"
        await asyncio.sleep(0.1)


async def test_the_projection_lag_rises_while_no_projector_keeps_up_and_falls_to_zero_when_one_does(
    redis_url, prefix, start_projector
):
    async with api_client(redis_url, prefix) as client, referee_service(redis_url, prefix) as referee:
        game, _, tokens = await new_game(client)  # no projector has run yet: the feed has no group
        await asyncio.sleep(1.5)
        lag, pending = await projection_lag(client)
        assert 1.5 <= lag < 30 and pending == 0

        first = start_projector("--consumer", "first")
        await wait_no_lag(client)

        moves = iter(range(1000))

        async def one_command():
            assert await play(client, referee, game, tokens, seed=next(moves), max_commands=1) == 1

        # entries delivered and never acknowledged count: a projector killed holding some, with
        # nobody to claim them, then one more entry that nobody reads
        await kill_holding(referee.store, first, "first", one_command)
        await one_command()
        await asyncio.sleep(1.5)
        lag, pending = await projection_lag(client)
        assert 1.5 <= lag < 30 and pending >= 1

        start_projector("--consumer", "second")  # claims what the first one held, reads the rest
        await wait_no_lag(client)


def test_a_serving_process_leaves_what_it_loaded_out_of_the_collectors_scans_and_reports_it(redis_url, prefix):
    with live_api(redis_url, prefix) as base:
        text = httpx.get(f"{base}/metrics").text
    # the modules, routes and schema loaded before serving: tens of thousands of objects (about 95,000)
    assert sample(text, "pantheon_gc_frozen_objects") > 20_000
    assert set(samples(text, "python_gc_collections_total")) == {f'generation="{g}"' for g in range(3)}
