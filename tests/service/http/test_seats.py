"""Seats belong to whom they are meant for: the creator's seats are theirs in the same call,
seats for friends are held behind invite codes, and the admin replaces a lost token with a new
invite code, never with a token of its own, in the game's log for every seat to see."""

from __future__ import annotations

import pytest

from service.errors import ServiceError

from ..api_helpers import assert_problem, bearer, version_of


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
    created = await _create(
        client, [{"type": "human", "holder": "creator"}, {"type": "human", "holder": "invite"}, {"type": "human"}]
    )
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


async def test_the_admin_token_never_gets_a_seat_token_a_reissue_is_an_invite_every_seat_sees(client):
    """Issue 23 §4: the creator holds seat 0 and the admin token, a friend claims seat 1 by invite."""
    created = await _create(client, [{"type": "human", "holder": "creator"}, {"type": "human", "holder": "invite"}])
    game, admin, mine, [invite] = (
        created["game"],
        created["admin_token"],
        created["seats"][0]["token"],
        created["invites"],
    )
    friend = (await client.post(f"/games/{game}/seats/1/claim", json={"invite": invite["code"]})).json()["token"]
    before = await version_of(client, game)

    answer = await client.post(f"/games/{game}/seats/1/token", headers=bearer(admin))

    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert set(body) == {"seat", "code"} and body["seat"] == 1  # an invite code, no token
    for secret in (body["code"], admin):  # nothing the admin holds reads or acts as seat 1
        view = await client.get(f"/games/{game}/view", headers=bearer(secret))
        assert view.status_code in (200, 403) and (view.status_code == 403 or view.json()["seat"] is None)
        assert "you" not in (view.json().get("view") or {})
        assert_problem(await client.get(f"/games/{game}/options", headers=bearer(secret)), 403, "wrong_token")
    assert_problem(await client.get(f"/games/{game}/view", headers=bearer(friend)), 403, "wrong_token")
    assert await version_of(client, game) == before + 1  # recorded in the game's log ...
    for token in (mine, None, admin):  # ... where every seat, spectator and the admin sees it
        events = (
            await client.get(f"/games/{game}/events", params={"after": before}, headers=bearer(token) if token else {})
        ).json()["events"]
        assert [(e["version"], e["type"], e["payload"], e["seat"], e["command"]) for e in events] == [
            (before + 1, "seat_reissued", {"type": "seat_reissued", "seat": 1}, None, None)
        ]
    detail = (await client.get(f"/games/{game}")).json()
    assert detail["seats"][1]["claimed"] is False and detail["seats"][1]["reserved"] is True
    assert_problem(
        await client.post(f"/games/{game}/seats/1/claim", json={"invite": invite["code"]}), 403, "wrong_invite"
    )  # the first invite was used up
    claimed = await client.post(f"/games/{game}/seats/1/claim", json={"invite": body["code"]})
    assert claimed.status_code == 201, claimed.text
    new = claimed.json()["token"]
    assert new not in (friend, body["code"])
    seat_view = (await client.get(f"/games/{game}/view", headers=bearer(new))).json()
    assert seat_view["seat"] == 1 and seat_view["view"]["you"]["seat"] == 1
    assert_problem(
        await client.post(f"/games/{game}/seats/1/claim", json={"invite": body["code"]}), 409, "seat_taken"
    )  # the code works once


async def test_a_reissue_is_refused_with_a_problem_that_changes_nothing(client):
    created = await _create(client, [{"type": "human", "holder": "creator"}, {"type": "human", "holder": "creator"}])
    game, admin, seat_token = created["game"], created["admin_token"], created["seats"][1]["token"]
    url = f"/games/{game}/seats/0/token"
    before = (await client.get(f"/games/{game}")).json()

    assert_problem(await client.post(url), 401, "missing_token")
    assert_problem(await client.post(url, headers=bearer(seat_token)), 403, "wrong_token")
    assert_problem(await client.post(f"/games/{game}/seats/2/token", headers=bearer(admin)), 404, "unknown_seat")
    assert (await client.get(f"/games/{game}")).json() == before
    assert (await client.get(f"/games/{game}/view", headers=bearer(created["seats"][0]["token"]))).status_code == 200
    open_game = await _create(client, [{"type": "human"}, {"type": "ai"}])
    open_url = f"/games/{open_game['game']}/seats/0/token"
    assert_problem(await client.post(open_url, headers=bearer(open_game["admin_token"])), 409, "seat_not_claimed")
    ai_url = f"/games/{open_game['game']}/seats/1/token"
    assert_problem(await client.post(ai_url, headers=bearer(open_game["admin_token"])), 409, "seat_not_human")
    assert await version_of(client, open_game["game"]) == open_game["version"]


@pytest.mark.parametrize(
    "seats",
    [
        [{"type": "human", "holder": "someone"}, {"type": "human"}],
        [{"type": "ai", "holder": "creator"}, {"type": "human"}],
    ],
)
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


async def test_seat_problems_name_the_seat_as_the_screen_does_and_say_what_to_do(client, referee):
    created = await _create(
        client, [{"type": "human", "holder": "creator"}, {"type": "human"}, {"type": "ai", "level": "random"}]
    )
    game = created["game"]
    assert (await client.post(f"/games/{game}/seats/1/claim")).status_code == 201

    taken = assert_problem(await client.post(f"/games/{game}/seats/1/claim"), 409, "seat_taken")
    assert taken["detail"] == (
        "Player B's seat (seat 1) has already been claimed. If it is yours and this browser lost its token, "
        "ask the game's creator to re-issue the seat and open the new invite link."
    )
    ai = assert_problem(await client.post(f"/games/{game}/seats/2/claim"), 409, "seat_not_human")
    assert ai["detail"].startswith("Player C's seat (seat 2) is played by an AI")
    unknown = assert_problem(await client.post(f"/games/{game}/seats/7/claim"), 404, "unknown_seat")
    assert unknown["detail"] == "This game has seats 0 to 2 (Player A to Player C)."
    with pytest.raises(ServiceError) as wrong:  # (HTTP refuses any seat in a command: only the write path checks)
        await referee.submit(game, 0, {"type": "pass", "seat": 1})
    assert wrong.value.code == "wrong_seat"
    assert wrong.value.message.startswith(
        "Your token is for Player A's seat (seat 0); the command names Player B's seat"
    )
