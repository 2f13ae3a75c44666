"""Cursor pagination: paging through the lobby (with filters) and a game's events sees every game and
every event exactly once, also while new games are created; a cursor the server did not make is a 400."""

from __future__ import annotations

import random

from ..service.api_helpers import (
    api_client,
    assert_problem,
    bearer,
    new_game,
    play,
    referee_service,
)


async def _pages(client, create: bool = False, **params) -> tuple[list[str], int]:
    seen, cursor, pages = [], None, 0
    while True:
        answer = await client.get("/games", params={**params, **({"cursor": cursor} if cursor else {})})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert len(body["games"]) <= params.get("limit", 50)
        seen += [g["game"] for g in body["games"]]
        pages, cursor = pages + 1, body["next"]
        if cursor is None:
            return seen, pages
        if create:  # newer games than the walk's start: not in it, and no game is seen twice
            await client.post("/games", json={"seats": [{"type": "human"}] * 2})


async def test_paging_through_the_lobby_sees_every_game_once_newest_first_while_games_are_created(redis_url, prefix):
    async with api_client(redis_url, prefix) as client:
        made = [
            (await client.post("/games", json={"seats": [{"type": "human"}] * 2})).json()["game"] for _ in range(23)
        ]
        seen, pages = await _pages(client, create=True, limit=5)
        assert seen[-23:] == made[::-1] and len(seen) == len(set(seen)) == 23 and pages >= 5


async def test_lobby_filters_kind_status_and_open_seats_page_by_page(redis_url, prefix):
    async with api_client(redis_url, prefix) as client:
        full = [(await new_game(client))[0] for _ in range(4)]  # both seats claimed: playing
        open_ = [
            (await client.post("/games", json={"seats": [{"type": "human"}] * 2})).json()["game"] for _ in range(5)
        ]
        assert set((await _pages(client, limit=2, open_seats="true"))[0]) == set(open_)
        assert set((await _pages(client, limit=2, open_seats="false"))[0]) == set(full)
        assert set((await _pages(client, limit=3, status="playing"))[0]) == set(full)
        assert set((await _pages(client, limit=3, status="open", kind="pantheon"))[0]) == set(open_)
        assert (await _pages(client, status="finished"))[0] == []


async def test_a_cursor_the_server_did_not_make_is_a_400_malformed_cursor(redis_url, prefix):
    async with api_client(redis_url, prefix) as client:
        for cursor in ("nope!", "bm9wZQ", "A" * 300, ""):
            assert_problem(await client.get("/games", params={"cursor": cursor}), 400, "malformed_cursor")


async def test_paging_through_events_sees_each_once_in_order_while_the_game_goes_on(redis_url, prefix):
    async with api_client(redis_url, prefix) as client, referee_service(redis_url, prefix) as referee:
        game, _, tokens = await new_game(client)
        await play(client, referee, game, tokens, seed=3, max_commands=30)
        whole = (await client.get(f"/games/{game}/events", headers=bearer(tokens[0]))).json()
        assert whole["kind"] == "pantheon" and whole["next"] is None
        versions, after, rnd, pages = [], 0, random.Random(1), 0
        while after is not None:
            page = (
                await client.get(
                    f"/games/{game}/events",
                    params={"after": after, "limit": rnd.randint(1, 9)},
                    headers=bearer(tokens[0]),
                )
            ).json()
            assert page["events"] and page["events"][0]["version"] == after + 1
            versions += [e["version"] for e in page["events"]]
            after, pages = page["next"], pages + 1
            if after is not None and pages % 5 == 0:  # the game goes on between pages: the walk ends at its last event
                await play(client, referee, game, tokens, seed=pages, max_commands=1)
        final = (await client.get(f"/games/{game}")).json()["version"]
        assert versions == list(range(1, final + 1)) and final > len(whole["events"])
        again = (await client.get(f"/games/{game}/events", headers=bearer(tokens[0]))).json()["events"]
        assert whole["events"] == again[: len(whole["events"])]
