"""The API serves views from the projector's read models, with read-your-writes."""

import asyncio
import random

import msgspec

from domain.pantheon import PANTHEON
from service.read.models import rm_key
from service.read.projector import Projector
from service.store.connection import connect
from service.store.streams import EventStore

from ..api_helpers import (
    PARTITIONS,
    api_client,
    bearer,
    new_game,
    next_command,
    referee_service,
)


async def test_a_view_asked_at_the_version_a_command_returned_shows_at_least_that_version(redis_url, prefix):
    redis = connect(redis_url)
    store = EventStore(redis, prefix=prefix, partitions=PARTITIONS)
    projector, stop = Projector(store, block_ms=50), asyncio.Event()
    running = asyncio.create_task(projector.run(stop))
    try:
        async with api_client(redis_url, prefix) as client, referee_service(redis_url, prefix) as referee:
            game, _, tokens = await new_game(client)
            rnd = random.Random(3)
            for _ in range(15):
                seat, command, _ = await next_command(client, referee, game, rnd)
                done = (await client.post(f"/games/{game}/commands", json=command, headers=bearer(tokens[seat]))).json()
                view = (
                    await client.get(
                        f"/games/{game}/view", params={"min_version": done["version"]}, headers=bearer(tokens[seat])
                    )
                ).json()
                assert view["version"] >= done["version"]
                version, state = await referee.state_at(game, view["version"])
                assert view["view"] == msgspec.to_builtins(PANTHEON.seat_view(state, seat))
            for _ in range(100):  # the projector catches up and the stored model is what is served
                if int(await redis.hget(rm_key(store, game, "board"), "v") or 0) == done["version"]:
                    break
                await asyncio.sleep(0.02)
            assert int(await redis.hget(rm_key(store, game, "board"), "v")) == done["version"]
            score = (await client.get(f"/games/{game}/score")).json()
            assert score["version"] == done["version"]
            assert [s["total"] for s in score["view"]["seats"]] == [s.score for s in state.seats]
    finally:
        stop.set()
        await running
        await redis.aclose()


async def test_a_view_of_a_version_the_game_has_not_reached_is_a_404(redis_url, prefix):
    async with api_client(redis_url, prefix) as client:
        game, _, _ = await new_game(client)
        answer = await client.get(f"/games/{game}/view", params={"min_version": 10_000})
    assert answer.status_code == 404 and answer.json()["code"] == "unknown_version"
