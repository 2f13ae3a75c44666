"""A failed write never changes a game, and the API answers 503 (never 500) while Redis is full,
too slow or gone, then recovers by itself: real faults on a private redis-server, over HTTP."""

from __future__ import annotations

import asyncio
import random

import msgspec
import pytest

from domain.pantheon.random_play import random_command
from service.audit.archive import load_export
from service.audit.checks import audit
from service.http.app import create_app
from service.http.problems import status_of
from service.store.connection import connect
from service.store.streams import EventStore
from service.write import GameService, SeatSpec, ServiceError

from ..api_helpers import (
    PARTITIONS,
    RELAXED,
    app_settings,
    assert_problem,
    bearer,
    next_command,
    referee_service,
    serve,
)
from ..private_redis import needs_redis_server, private_server

pytestmark = needs_redis_server


async def _game(client) -> tuple[str, dict[int, str]]:
    created = (await client.post("/games", json={"seats": [{"type": "human", "holder": "creator"}] * 2})).json()
    return created["game"], {s["seat"]: s["token"] for s in created["seats"]}


async def _play(client, referee, game, tokens, rnd, commands: int) -> None:
    for _ in range(commands):
        step = await next_command(client, referee, game, rnd)
        if step is None:
            return
        seat, command, version = step
        answer = await client.post(
            f"/games/{game}/commands", json=command, headers=bearer(tokens[seat]), params={"expected_version": version}
        )
        assert answer.status_code == 201, answer.text


async def _audits_clean_at_the_end(client, referee, game, tokens, rnd) -> None:
    await _play(client, referee, game, tokens, rnd, 5000)
    header, envelopes = await load_export(referee.store, game)
    report = audit(header, envelopes, await referee.decider(game))
    assert report.ok, [c for c in report.checks if not c.ok]


async def test_a_store_out_of_memory_is_a_503_that_changes_nothing_and_the_game_goes_on_correctly():
    with private_server() as server:
        app = create_app(app_settings(server.url, "oom", quotas=RELAXED))
        async with serve(app) as client, referee_service(server.url, "oom") as referee:
            game, tokens = await _game(client)
            rnd = random.Random(1)
            await _play(client, referee, game, tokens, rnd, 30)
            for _trial in range(8):  # a command refused by a full store, then the game goes on
                seat, command, version = await next_command(client, referee, game, rnd)
                server.admin().config_set("maxmemory", 1)
                try:
                    refused = await client.post(f"/games/{game}/commands", json=command, headers=bearer(tokens[seat]))
                finally:
                    server.admin().config_set("maxmemory", 0)
                body = assert_problem(refused, 503, "store_unavailable")
                assert refused.headers["retry-after"] == "1" and body["retry_after"] == 1
                assert (await client.get(f"/games/{game}")).json()["version"] == version
                await _play(client, referee, game, tokens, rnd, 3)
            await _audits_clean_at_the_end(client, referee, game, tokens, rnd)


async def test_a_store_too_slow_to_confirm_an_append_is_a_503_outcome_unknown_and_a_retry_with_the_key_tells():
    with private_server() as server:
        store = EventStore(connect(server.url, timeout_s=0.3), prefix="slow", partitions=PARTITIONS)
        service, rnd = GameService(store), random.Random(2)
        game = (await service.create("pantheon", {}, [SeatSpec()] * 2)).game
        for _ in range(10):
            _, state = await service.state_at(game)
            seat = state.agenda[0].seat
            await service.submit(game, seat, msgspec.to_builtins(random_command(state, seat, rnd)))
        version, state = await service.state_at(game)
        seat = state.agenda[0].seat
        command = msgspec.to_builtins(random_command(state, seat, rnd))
        server.admin().execute_command("CLIENT", "PAUSE", 1500, "WRITE")  # reads go on, the append waits
        with pytest.raises(ServiceError) as unknown:
            await service.submit(game, seat, command, idempotency_key="slow-move-1")
        assert (status_of(unknown.value), unknown.value.code) == (503, "outcome_unknown")
        await asyncio.sleep(1.6)  # the pause ends (Redis drops a timed-out client's waiting command)
        retried = await service.submit(game, seat, command, idempotency_key="slow-move-1")
        assert retried.first == version + 1  # applied now, or found applied: either way exactly once
        again = await service.submit(game, seat, command, idempotency_key="slow-move-1")
        assert again.duplicate and (again.version, again.first) == (retried.version, retried.first)
        events = await store.read(game)
        assert len([e for e in events if e.idempotency_key == "slow-move-1" and e.cause]) == 1
        header, envelopes = await load_export(store, game)
        assert all(c.ok is not False for c in audit(header, envelopes, await service.decider(game)).checks)
        await store.redis.aclose()


async def test_while_redis_is_gone_every_route_answers_503_and_the_api_recovers_by_itself_when_it_is_back():
    with private_server() as server:
        app = create_app(app_settings(server.url, "gone", quotas=RELAXED, redis_timeout_s=0.5))
        async with serve(app) as client, referee_service(server.url, "gone") as referee:
            game, tokens = await _game(client)
            rnd = random.Random(3)
            await _play(client, referee, game, tokens, rnd, 10)
            seat, command, version = await next_command(client, referee, game, rnd)
            server.kill()
            for answer in (
                await client.get(f"/games/{game}"),
                await client.get(f"/games/{game}/view"),
                await client.get("/games"),
                await client.post(f"/games/{game}/commands", json=command, headers=bearer(tokens[seat])),
            ):
                assert answer.status_code == 503, answer.text
                assert answer.json()["code"] in ("store_unavailable", "outcome_unknown")
            assert_problem(await client.get("/health/ready"), 503, "not_ready")
            server.start()  # the same port, the same data
            for _ in range(50):
                if (await client.get("/health/ready")).status_code == 200:
                    break
                await asyncio.sleep(0.1)
            assert (await client.get(f"/games/{game}")).json()["version"] == version
            async with referee_service(server.url, "gone") as fresh:  # the test's own client: a new one
                await _audits_clean_at_the_end(client, fresh, game, tokens, rnd)


async def test_a_stale_cache_in_one_api_process_never_refuses_a_legal_command():
    with private_server() as server:
        first, second = (create_app(app_settings(server.url, "stale", quotas=RELAXED)) for _ in range(2))
        async with serve(first) as a, serve(second) as b, referee_service(server.url, "stale") as referee:
            game, tokens = await _game(a)
            rnd = random.Random(4)
            for _ in range(40):
                seat, command, version = await next_command(a, referee, game, rnd)  # a's cache is now current
                moved = await b.post(f"/games/{game}/commands", json=command, headers=bearer(tokens[seat]))
                assert moved.status_code == 201, moved.text
                seat, command, version = await next_command(b, referee, game, rnd)
                answer = await a.post(
                    f"/games/{game}/commands",
                    json=command,
                    headers=bearer(tokens[seat]),
                    params={"expected_version": version},
                )
                assert answer.status_code == 201, answer.text  # a decides on what b appended
            assert await referee.rejected(game) == []  # and no legal command was ever logged as refused
