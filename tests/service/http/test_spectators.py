"""Spectators cannot hurt players: a thousand event streams held open on one real `pantheon api`
process, over raw sockets, while a game is played; every answer is 2xx, commands stay fast, the
spectators of the game that moves receive its events, and the streams leave nothing behind."""

from __future__ import annotations

import random
import re
import resource
import statistics
import time

import httpx
import pytest

from ..api_helpers import bearer, next_command, referee_service
from ..live import live_api_process
from ..spectators import Crowd

pytestmark = pytest.mark.alone

SPECTATORS = 1000
WATCHED = 4  # games watched: the one played and three others, 250 spectators each
COMMANDS = 25
HUMANS = {"seats": [{"type": "human", "holder": "creator"}] * 2}


def _enough_files(wanted: int) -> None:
    """The test's sockets and the API's (inherited) both need a file descriptor per stream."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


async def _create(client: httpx.AsyncClient) -> tuple[str, dict[int, str]]:
    created = await client.post("/games", json=HUMANS)
    assert created.status_code == 201, created.text
    return created.json()["game"], {s["seat"]: s["token"] for s in created.json()["seats"]}


async def _play(client, referee, game, tokens, rnd, watched: str) -> tuple[list[float], list[int]]:
    """Play COMMANDS commands, reading the game's status and view and another game's view after
    each: the commands' latencies, and every status answered."""
    latencies, statuses = [], []
    for _ in range(COMMANDS):
        seat, command, version = await next_command(client, referee, game, rnd)
        started = time.perf_counter()
        answer = await client.post(
            f"/games/{game}/commands", json=command, headers=bearer(tokens[seat]), params={"expected_version": version}
        )
        latencies.append(time.perf_counter() - started)
        statuses.append(answer.status_code)
        for path in (f"/games/{game}", f"/games/{game}/view", f"/games/{watched}/view", f"/games/{watched}/events"):
            statuses.append((await client.get(path)).status_code)
    return latencies, statuses


def _gauge(text: str, name: str) -> int | None:
    found = re.search(rf"^{name} (\d+)$", text, flags=re.M)
    return int(found.group(1)) if found else None


async def test_a_thousand_spectators_neither_break_nor_slow_the_players_and_see_the_game_move(redis_url, prefix):
    _enough_files(4 * SPECTATORS)
    env = {"PANTHEON_MAX_CONNECTIONS": str(SPECTATORS + 200), "PANTHEON_LIMIT_STREAMS": str(SPECTATORS + 10)}
    with live_api_process(redis_url, prefix, **env) as (base, _):
        async with (
            httpx.AsyncClient(base_url=base, timeout=30) as client,
            referee_service(redis_url, prefix) as referee,
        ):
            played, tokens = await _create(client)
            others = [(await _create(client))[0] for _ in range(WATCHED - 1)]
            rnd = random.Random(14)
            alone, statuses = await _play(client, referee, played, tokens, rnd, others[0])
            assert set(statuses) == {200, 201}, statuses

            crowd = Crowd(int(base.rsplit(":", 1)[1]))
            try:
                versions = {g: (await client.get(f"/games/{g}")).json()["version"] for g in [played, *others]}
                crowd.open([played, *others], SPECTATORS // WATCHED)
                caught_up = crowd.wait(lambda crowd: all(s.last_id >= versions[s.game] for s in crowd), within=60)
                answered = sorted({s.status for s in crowd.spectators}, key=str)
                assert caught_up and answered == [200], (
                    answered,
                    sum(s.last_id < versions[s.game] for s in crowd.spectators),
                )

                watched, statuses = await _play(client, referee, played, tokens, rnd, others[0])
                assert set(statuses) == {200, 201}, [s for s in statuses if s >= 300]
                final = (await client.get(f"/games/{played}")).json()["version"]
                assert crowd.wait(lambda _: all(s.last_id == final for s in crowd.of(played)), within=10), sorted(
                    {s.last_id for s in crowd.of(played)}
                )
                assert not any(s.ended for s in crowd.spectators)
                metrics = (await client.get("/metrics")).text
                assert (_gauge(metrics, "pantheon_streams_open"), _gauge(metrics, "pantheon_stream_games")) == (
                    SPECTATORS,
                    WATCHED,
                )
            finally:
                crowd.close()
            # A command's p50 with a thousand spectators may be at most 3x that of the same process
            # alone, or 30 ms more (2 shared cores: other tests run beside this one); each stays
            # under a second (on the old code the commands were 503s before any was timed).
            p50_alone, p50_watched = statistics.median(alone), statistics.median(watched)
            print(
                f"command p50 alone {p50_alone * 1000:.1f} ms, with {SPECTATORS} spectators "
                f"{p50_watched * 1000:.1f} ms; max {max(alone) * 1000:.1f} / {max(watched) * 1000:.1f} ms"
            )
            assert p50_watched <= max(3 * p50_alone, p50_alone + 0.030), (p50_alone, p50_watched)
            assert max(watched) < 1.0, watched

            deadline = time.monotonic() + 10  # the closed streams give back their places and registrations
            while time.monotonic() < deadline:
                metrics = (await client.get("/metrics")).text
                if (_gauge(metrics, "pantheon_streams_open"), _gauge(metrics, "pantheon_stream_games")) == (0, 0):
                    break
                time.sleep(0.1)
            assert (_gauge(metrics, "pantheon_streams_open"), _gauge(metrics, "pantheon_stream_games")) == (0, 0)
