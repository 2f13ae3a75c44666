"""Seats belong to whom they are meant for: the creator's seats are theirs in the same call,
seats for friends are held behind invite codes, and the admin can replace a lost token."""

from __future__ import annotations

import pytest

from ..api_helpers import assert_problem, bearer


async def _create(client, seats) -> dict:
    created = await client.post("/games", json={"seats": seats})
    assert created.status_code == 201, created.text
    return created.json()


async def test_the_creators_seat_is_theirs_in_the_same_call_so_nobody_can_take_it_in_between(client):
    created = await _create(client, [{"type": "human", "holder": "creator"}, {"type": "human"}])
    game = created["game"]

    stranger = await client.post(f"/games/{game}/seats/0/claim")

    assert_problem(stranger, 409, "seat_taken")
    [mine] = created["seats"]
    assert mine["seat"] == 0
    assert (await client.get(f"/games/{game}/options", headers=bearer(mine["token"]))).json()["seat"] == 0
    detail = (await client.get(f"/games/{game}")).json()
    assert detail["open_seats"] == [1] and detail["seats"][0]["claimed"]


async def test_a_seat_for_a_friend_is_claimed_only_with_its_invite_code_once(client):
    created = await _create(client, [{"type": "human", "holder": "creator"}, {"type": "human", "holder": "invite"},
                                     {"type": "human"}])
    game, [invite] = created["game"], created["invites"]
    assert invite["seat"] == 1 and len(invite["code"]) >= 20
    url = f"/games/{game}/seats/1/claim"

    assert_problem(await client.post(url), 403, "wrong_invite")
    assert_problem(await client.post(url, json={"invite": "guess"}), 403, "wrong_invite")
    assert_problem(await client.post(url, json={}), 403, "wrong_invite")
    lobby = {g["game"]: g for g in (await client.get("/games")).json()["games"]}
    assert lobby[game]["open_seats"] == [2]  # the reserved seat is not open to strangers
    assert (await client.get(f"/games/{game}")).json()["seats"][1]["reserved"] is True
    friend = await client.post(url, json={"invite": invite["code"]})
    assert friend.status_code == 201 and friend.json()["seat"] == 1
    assert_problem(await client.post(url, json={"invite": invite["code"]}), 409, "seat_taken")
    assert (await client.post(f"/games/{game}/seats/2/claim")).status_code == 201  # an open seat needs no code


async def test_the_admin_replaces_a_lost_token_and_the_old_one_stops_working(client):
    created = await _create(client, [{"type": "human", "holder": "creator"}, {"type": "human", "holder": "creator"}])
    game, admin, old = created["game"], created["admin_token"], created["seats"][0]["token"]
    url = f"/games/{game}/seats/0/token"

    assert_problem(await client.post(url), 401, "missing_token")
    assert_problem(await client.post(url, headers=bearer(created["seats"][1]["token"])), 403, "wrong_token")
    answer = await client.post(url, headers=bearer(admin))

    assert answer.status_code == 201 and answer.json()["seat"] == 0
    new = answer.json()["token"]
    assert new != old
    assert (await client.get(f"/games/{game}/options", headers=bearer(new))).status_code == 200
    assert_problem(await client.get(f"/games/{game}/options", headers=bearer(old)), 403, "wrong_token")
    open_game = await _create(client, [{"type": "human"}, {"type": "human"}])
    reissue = await client.post(f"/games/{open_game['game']}/seats/0/token", headers=bearer(open_game["admin_token"]))
    assert_problem(reissue, 409, "seat_not_claimed")


@pytest.mark.parametrize("seats", [
    [{"type": "human", "holder": "someone"}, {"type": "human"}],
    [{"type": "ai", "holder": "creator"}, {"type": "human"}],
])
async def test_an_unknown_holder_or_an_ai_seat_with_a_holder_is_refused(client, seats):
    before = len((await client.get("/games")).json()["games"])
    answer = await client.post("/games", json={"seats": seats})
    assert answer.status_code in (400, 422) and answer.headers["content-type"].startswith("application/problem+json")
    assert len((await client.get("/games")).json()["games"]) == before


async def test_tokens_and_invite_codes_never_travel_in_a_url(client):
    document = (await client.get("/schema/openapi.json")).json()
    for path, item in document["paths"].items():
        assert "token" not in path.replace("/token", "") and "invite" not in path, path
        for operation in item.values():
            for parameter in operation.get("parameters", []) if isinstance(operation, dict) else []:
                if parameter["in"] in ("query", "path"):
                    assert not {"token", "invite", "code"} & set(parameter["name"].lower().split("_")), parameter
