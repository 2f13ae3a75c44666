"""Rematch: one new game per ended game, for each of its seats, with the same kind, options and
seats, a new seed, the same admin, and every human seat reserved for the token that held it."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from service.store.connection import connect_sync

from ..api_helpers import (
    api_client,
    archiver,
    assert_problem,
    bearer,
    new_game,
    play,
    referee_service,
)


async def _ended_game(redis_url: str, prefix: str) -> dict:
    async with api_client(redis_url, prefix) as client, referee_service(redis_url, prefix) as referee:
        game, admin, tokens = await new_game(client, seats=("human",) * 3)
        await play(client, referee, game, tokens, seed=5)
        return {"game": game, "version": (await client.get(f"/games/{game}")).json()["version"], "prefix": prefix}


@pytest.fixture(scope="module")
def played(redis_url):
    """One 3-player game played to its end; each test forks it at its end for an ended game of its own."""
    prefix = f"test-{uuid.uuid4().hex[:10]}"
    yield asyncio.run(_ended_game(redis_url, prefix))
    client = connect_sync(redis_url)
    keys = list(client.scan_iter(match=f"*{prefix}*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
async def client(redis_url, played):
    async with api_client(redis_url, played["prefix"]) as client:
        yield client


async def ended(client, played, seats: list[dict]) -> tuple[str, str, dict[int, str]]:
    """An ended game with these seats (a fork of the played game at its end: ended from the start),
    every human seat claimed: (game, admin token, seat tokens by seat)."""
    fork = await client.post(f"/games/{played['game']}/fork", json={"at": played["version"], "seats": seats})
    assert fork.status_code == 201, fork.text
    answer = fork.json()
    tokens = {s["seat"]: s["token"] for s in answer["seats"]}
    for invite in answer["invites"]:
        claim = await client.post(
            f"/games/{answer['game']}/seats/{invite['seat']}/claim", json={"invite": invite["code"]}
        )
        tokens[invite["seat"]] = claim.json()["token"]
    assert (await client.get(f"/games/{answer['game']}")).json()["finished"]
    return answer["game"], answer["admin_token"], tokens


def rematch(client, game: str, token: str | None):
    return client.post(f"/games/{game}/rematch", headers=bearer(token) if token else {})


HUMAN, INVITED, GREEDY = (
    {"type": "human", "holder": "creator"},
    {"type": "human", "holder": "invite"},
    {"type": "ai", "level": "greedy"},
)


async def test_a_rematch_has_the_ended_games_kind_options_and_seats_with_a_new_seed_and_the_caller_in_their_seat(
    client, played
):
    game, _, tokens = await ended(client, played, [HUMAN, INVITED, GREEDY])
    before = (await client.get(f"/games/{game}")).json()

    answer = await rematch(client, game, tokens[1])

    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert (
        body["seat"] == 1 and body["kind"] == before["kind"] and answer.headers["location"] == f"/games/{body['game']}"
    )
    new = (await client.get(f"/games/{body['game']}")).json()
    assert new["options"] == before["options"] and not new["finished"] and new["version"] >= 1
    assert new["commitment"] != before["commitment"]  # a seed of its own: the first seat drawn afresh
    assert [(s["type"], s["level"]) for s in new["seats"]] == [("human", None), ("human", None), ("ai", "greedy")]
    assert [(s["claimed"], s["reserved"]) for s in new["seats"]] == [(False, True), (True, False), (True, False)]
    assert new["open_seats"] == []
    view = await client.get(f"/games/{body['game']}/view", headers=bearer(body["token"]))
    assert view.status_code == 200 and view.json()["seat"] == 1


async def test_two_seats_pressing_rematch_at_once_in_two_api_processes_get_one_game_each_in_their_own_seat(
    client, played, redis_url
):
    game, _, tokens = await ended(client, played, [HUMAN, INVITED, INVITED])
    async with api_client(redis_url, played["prefix"]) as other:
        answers = await asyncio.gather(
            rematch(client, game, tokens[0]),
            rematch(other, game, tokens[1]),
            rematch(client, game, tokens[2]),
            rematch(other, game, tokens[0]),
        )
    assert [a.status_code for a in answers] == [201] * 4, [a.text for a in answers]
    bodies = [a.json() for a in answers]
    assert len({b["game"] for b in bodies}) == 1
    assert [b["seat"] for b in bodies] == [0, 1, 2, 0]
    assert bodies[0]["token"] == bodies[3]["token"]  # pressing again answers the same token
    assert len({b["token"] for b in bodies}) == 3
    new = bodies[0]["game"]
    rematches = [g for g in (await client.get("/games", params={"limit": 200})).json()["games"] if g["game"] == new]
    assert len(rematches) == 1 and rematches[0]["open_seats"] == []
    for seat in (0, 1, 2):
        mine = next(b["token"] for b in bodies if b["seat"] == seat)
        assert (await client.get(f"/games/{new}/view", headers=bearer(mine))).json()["seat"] == seat
    again = await rematch(client, game, tokens[1])
    assert again.json() == bodies[1]  # later presses too: one rematch per ended game


async def test_a_reserved_seat_of_the_rematch_is_claimed_with_its_old_token_and_with_nothing_else(client, played):
    game, _, tokens = await ended(client, played, [HUMAN, INVITED, GREEDY])
    new = (await rematch(client, game, tokens[0])).json()["game"]

    for stranger in (tokens[0], "not-a-token", None):
        body = {"invite": stranger} if stranger else None
        assert_problem(await client.post(f"/games/{new}/seats/1/claim", json=body), 403, "wrong_invite")
    claimed = await client.post(f"/games/{new}/seats/1/claim", json={"invite": tokens[1]})
    assert claimed.status_code == 201, claimed.text
    assert (await client.get(f"/games/{new}/view", headers=bearer(claimed.json()["token"]))).json()["seat"] == 1
    assert_problem(await client.post(f"/games/{new}/seats/1/claim", json={"invite": tokens[1]}), 409, "seat_taken")


async def test_the_ended_games_admin_token_is_the_rematchs_admin_and_no_seats_token_is(client, played):
    game, admin, tokens = await ended(client, played, [HUMAN, INVITED, GREEDY])
    new = (await rematch(client, game, tokens[1])).json()

    by_seat = await client.post(
        f"/games/{new['game']}/seats/0/ai", json={"level": "random"}, headers=bearer(new["token"])
    )
    assert_problem(by_seat, 403, "wrong_token")
    by_admin = await client.post(f"/games/{new['game']}/seats/0/ai", json={"level": "random"}, headers=bearer(admin))
    assert by_admin.status_code == 200, by_admin.text


async def test_a_rematch_is_refused_for_a_running_game_an_unknown_game_and_callers_without_a_seat_token(client, played):
    running, admin, tokens = await new_game(client)
    answer = assert_problem(await rematch(client, running, tokens[0]), 409, "game_in_progress")
    assert "once it has ended" in answer["detail"]
    game, admin, tokens = await ended(client, played, [HUMAN, INVITED, GREEDY])
    assert_problem(await rematch(client, "0123456789abcdef", tokens[0]), 404, "unknown_game")
    assert_problem(await rematch(client, game, None), 401, "missing_token")
    assert_problem(await rematch(client, game, admin), 403, "wrong_token")
    assert_problem(await rematch(client, game, "some-other-token"), 403, "wrong_token")
    assert_problem(await rematch(client, running, tokens[0]), 403, "wrong_token")  # a token of another game


async def test_an_archived_ended_game_has_its_rematch_too(redis, redis_url, prefix, tmp_path):
    async with (
        api_client(redis_url, prefix, archive_dir=str(tmp_path)) as client,
        referee_service(redis_url, prefix) as referee,
    ):
        game, _, tokens = await new_game(client)
        await play(client, referee, game, tokens, seed=3)
        assert [d.game for d in await archiver(redis, prefix, tmp_path).sweep()] == [game]

        first, second = await rematch(client, game, tokens[0]), await rematch(client, game, tokens[1])

        assert first.status_code == second.status_code == 201, first.text
        assert first.json()["game"] == second.json()["game"] != game
        new = (await client.get(f"/games/{first.json()['game']}")).json()
        assert not new["finished"] and [s["claimed"] for s in new["seats"]] == [True, True]
