"""Operations endpoints: liveness, readiness against Redis, Prometheus metrics."""

from __future__ import annotations

import random
import re

from service.http.app import create_app

from ..api_helpers import (
    PARTITIONS,
    api_client,
    bearer,
    new_game,
    next_command,
    referee_service,
    serve,
)


async def test_a_live_process_with_a_reachable_redis_is_live_and_ready(redis_url, prefix):
    async with api_client(redis_url, prefix) as client:
        assert (await client.get("/health/live")).json() == {"status": "ok"}
        assert (await client.get("/health/ready")).json() == {"status": "ok"}


async def test_without_redis_the_process_is_live_but_not_ready(prefix):
    async with serve(create_app("redis://127.0.0.1:1/0", prefix, PARTITIONS)) as client:
        live, ready = await client.get("/health/live"), await client.get("/health/ready")

    assert live.status_code == 200
    assert ready.status_code == 503 and ready.json()["code"] == "not_ready"
    assert ready.headers["content-type"].startswith("application/problem+json")


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
    assert sample(text, "pantheon_http_requests_total", method="POST", route="/games/{game_id}/commands", status="403") == 1
    assert sample(text, "pantheon_http_requests_total", method="GET", route="/games/{game_id}", status="404") == 1
    assert sample(text, "pantheon_commands_total", result="accepted", code="") == 1
    assert sample(text, "pantheon_commands_total", result="rejected", code="wrong_seat") == 1
    assert sample(text, "pantheon_command_seconds_count") == 2
    assert sample(text, "pantheon_command_seconds_bucket", le="+Inf") == 2
    assert "# TYPE pantheon_command_seconds histogram" in text
