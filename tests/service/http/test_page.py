"""GET /games/{id}/page: the game, the caller's view and its choices in one read, the same as the
three reads it replaces, for every caller, with a tag of its own per viewer."""

from __future__ import annotations

import asyncio

import httpx

from ..api_helpers import api_client, assert_problem, bearer, new_game, play
from ..live import live_api
from .test_round_trips import Monitor


async def _reads(client, game: str, token: str | None) -> dict:
    """What the three separate reads say (the view at the page's version, folded: `?at=N`)."""
    headers = bearer(token) if token else {}
    detail = (await client.get(f"/games/{game}")).json()
    view = await client.get(f"/games/{game}/view", headers=headers, params={"at": detail["version"]})
    options = await client.get(f"/games/{game}/options", headers=headers) if token else None
    return {
        "game": detail,
        "view": view.json(),
        "choices": options.json() if options is not None and options.status_code == 200 else None,
    }


async def test_a_page_says_what_the_game_the_view_and_the_choices_say_for_every_caller(client, referee):
    game, admin, tokens = await new_game(client)
    await play(client, referee, game, tokens, max_commands=7)
    for token, seat in [(tokens[0], 0), (tokens[1], 1), (None, None), (admin, None)]:
        page = await client.get(f"/games/{game}/page", headers=bearer(token) if token else {})
        assert page.status_code == 200, page.text
        body = page.json()

        assert body == {"kind": body["game"]["kind"], **await _reads(client, game, token if seat is not None else None)}
        assert body["view"]["seat"] == seat and (body["choices"] is None) == (seat is None)


async def test_a_pages_tag_changes_with_a_move_and_never_answers_for_another_viewer(client, referee):
    game, admin, tokens = await new_game(client)
    first = await client.get(f"/games/{game}/page", headers=bearer(tokens[0]))
    tag = first.headers["etag"]

    again = await client.get(f"/games/{game}/page", headers={**bearer(tokens[0]), "If-None-Match": tag})
    other = await client.get(f"/games/{game}/page", headers={**bearer(tokens[1]), "If-None-Match": tag})
    public = await client.get(f"/games/{game}/page", headers={"If-None-Match": tag})
    await play(client, referee, game, tokens, max_commands=1)
    moved = await client.get(f"/games/{game}/page", headers={**bearer(tokens[0]), "If-None-Match": tag})

    assert again.status_code == 304 and "Authorization" in first.headers["vary"]
    assert "private" in first.headers["cache-control"]
    assert other.status_code == 200 and other.json()["view"]["seat"] == 1
    assert public.status_code == 200 and public.json()["choices"] is None
    assert moved.status_code == 200 and moved.json()["game"]["version"] > first.json()["game"]["version"]


async def test_a_page_asks_for_a_version_the_game_has_and_a_token_of_the_game(client):
    game, admin, tokens = await new_game(client)
    version = (await client.get(f"/games/{game}")).json()["version"]

    ahead = await client.get(f"/games/{game}/page", params={"min_version": version + 1})
    forged = await client.get(f"/games/{game}/page", headers=bearer("forged-token"))
    unknown = await client.get("/games/ffffffffffffffff/page")
    reached = await client.get(f"/games/{game}/page", params={"min_version": version}, headers=bearer(tokens[0]))

    assert_problem(ahead, ahead.status_code, "unknown_version")
    assert_problem(forged, 403, "wrong_token")
    assert_problem(unknown, 404, "unknown_game")
    assert reached.status_code == 200 and reached.json()["game"]["version"] == version


async def test_a_page_costs_one_round_trip_when_the_process_holds_the_game_as_the_log_ends(client, referee, redis_url):
    game, _, tokens = await new_game(client)
    await play(client, referee, game, tokens, max_commands=2)  # decided here: this process holds the fold
    monitor = Monitor(redis_url, game)
    try:
        await asyncio.to_thread(monitor.mark)
        monitor.names.clear()
        page = await client.get(f"/games/{game}/page", headers=bearer(tokens[0]))
        await asyncio.to_thread(monitor.mark)
    finally:
        monitor.close()

    assert page.status_code == 200, page.text
    # the metadata with the token's field; the fold is not caught up, as it ends where the log does
    assert [name.split()[0].upper() for name in monitor.names] == ["HGETALL"], monitor.names


async def test_a_page_shows_the_moves_another_process_made(client, referee, redis_url, prefix):
    game, _, tokens = await new_game(client)
    await play(client, referee, game, tokens, max_commands=2)
    before = (await client.get(f"/games/{game}/page", headers=bearer(tokens[1]))).json()
    async with api_client(redis_url, prefix) as other:  # another API process on the same Redis
        await play(other, referee, game, tokens, seed=2, max_commands=3)
        want = (await other.get(f"/games/{game}")).json()["version"]

    page = (await client.get(f"/games/{game}/page", headers=bearer(tokens[1]))).json()

    assert page["game"]["version"] == page["view"]["version"] == want > before["game"]["version"]
    assert page == {"kind": page["kind"], **await _reads(client, game, tokens[1])}


def test_two_live_processes_answer_a_page_only_to_its_token_and_never_after_it_was_reissued(redis_url, prefix):
    """Over HTTP against two running API processes: a page's tag names its viewer (another seat's tag
    gets that seat's own page, never a 304), and a token re-issued through one process stops working
    at once in the other, even with the tag of its last page (no 304 from what a process remembers)."""
    with live_api(redis_url, prefix) as one, live_api(redis_url, prefix) as two:
        created = httpx.post(f"{one}/games", json={"seats": [{"type": "human", "holder": "creator"}] * 2}).json()
        game, admin, tokens = created["game"], created["admin_token"], [s["token"] for s in created["seats"]]
        pages = [httpx.get(f"{two}/games/{game}/page", headers=bearer(t)) for t in tokens]
        tags = [p.headers["etag"] for p in pages]
        again = httpx.get(f"{two}/games/{game}/page", headers={**bearer(tokens[1]), "If-None-Match": tags[1]})
        crossed = httpx.get(f"{two}/games/{game}/page", headers={**bearer(tokens[1]), "If-None-Match": tags[0]})
        reissued = httpx.post(f"{one}/games/{game}/seats/1/token", headers=bearer(admin))
        revoked = httpx.get(f"{two}/games/{game}/page", headers={**bearer(tokens[1]), "If-None-Match": tags[1]})
        kept = httpx.get(f"{two}/games/{game}/page", headers=bearer(tokens[0]))

    assert [p.json()["view"]["seat"] for p in pages] == [0, 1] and tags[0] != tags[1]
    assert again.status_code == 304
    assert crossed.status_code == 200 and crossed.json()["view"]["seat"] == 1
    assert reissued.status_code == 201, reissued.text
    assert_problem(revoked, 403, "wrong_token")
    assert kept.status_code == 200 and kept.json()["view"]["seat"] == 0
