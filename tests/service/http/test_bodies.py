"""Request bodies are decoded once, strictly, into the type the route documents: what a body may
hold and in which order its faults are answered (before the caller's token is looked at)."""

from __future__ import annotations

import random

import msgspec

from ..api_helpers import assert_problem, bearer, new_game, next_command, version_of

JSON = {"Content-Type": "application/json"}


def _with_decimal_points(value):
    """Every integer of a JSON value written as a decimal (60 -> 60.0); booleans stay booleans."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, list):
        return [_with_decimal_points(v) for v in value]
    if isinstance(value, dict):
        return {k: _with_decimal_points(v) for k, v in value.items()}
    return value


async def test_integers_written_with_a_decimal_point_are_taken_in_every_body(client, referee):
    seats = [{"type": "human", "holder": "creator"}, {"type": "human", "holder": "creator"}]
    created = await client.post("/games", json={"seats": seats, "idle_seconds": 60.0})
    assert created.status_code == 201, created.text
    game, tokens = created.json()["game"], [s["token"] for s in created.json()["seats"]]
    rnd, with_numbers = random.Random(3), 0
    for _ in range(40):
        seat, command, version = await next_command(client, referee, game, rnd)
        answer = await client.post(
            f"/games/{game}/commands",
            json=_with_decimal_points(command),
            headers=bearer(tokens[seat]),
            params={"expected_version": version},
        )
        assert answer.status_code == 201, (command, answer.text)
        with_numbers += msgspec.json.encode(_with_decimal_points(command)) != msgspec.json.encode(command)
    assert with_numbers >= 5
    version = await version_of(client, game)
    fork = await client.post(
        f"/games/{game}/fork",
        json={"at": float(version), "seats": [{"type": "human"}, {"type": "ai"}]},
        headers=bearer(tokens[0]),
    )
    assert fork.status_code == 201, fork.text


async def test_what_is_wrong_with_a_command_is_said_before_who_sends_it_is_checked(client):
    game, admin, tokens = await new_game(client)
    url, version = f"/games/{game}/commands", await version_of(client, game)
    for body, code in (
        (b'{"type": "pass", "seat": 0}', "seat_in_command"),
        (b'{"type": "create_game"}', "not_a_seat_command"),
        (b"{not json", "malformed_request"),
        (b"[1, 2]", "malformed_request"),
    ):
        for headers in ({}, bearer(admin), bearer(tokens[0])):
            assert_problem(await client.post(url, content=body, headers={**JSON, **headers}), 400, code)
    another_games = {"type": "excavate", "gallery": 1}  # Pergamon's: which game a command is for, a seat says
    assert_problem(await client.post(url, json=another_games), 401, "missing_token")
    assert_problem(await client.post(url, json=another_games, headers=bearer(admin)), 403, "wrong_token")
    assert_problem(await client.post(url, json=another_games, headers=bearer(tokens[0])), 422, "wrong_kind")
    assert_problem(
        await client.post(url, json={"type": "pass", "x": 1}, headers=bearer(tokens[0])), 400, "malformed_request"
    )
    cards = {"type": "draw_card", "source": "deck"}  # the card game's draw_card: a tag both games have
    assert_problem(await client.post(url, json=cards, headers=bearer(tokens[0])), 422, "wrong_kind")
    assert await version_of(client, game) == version


async def test_a_seat_is_claimed_with_no_body_with_null_or_with_an_object(client):
    created = (await client.post("/games", json={"seats": [{"type": "human"}] * 3})).json()
    claims = [
        await client.post(f"/games/{created['game']}/seats/0/claim"),
        await client.post(f"/games/{created['game']}/seats/1/claim", content=b"null", headers=JSON),
        await client.post(f"/games/{created['game']}/seats/2/claim", json={}),
    ]
    assert [c.status_code for c in claims] == [201, 201, 201], [c.text for c in claims]


async def test_a_body_left_out_where_one_is_needed_is_a_400_that_says_so(client):
    game, admin, tokens = await new_game(client)
    for url, headers in (
        ("/games", {}),
        (f"/games/{game}/commands", bearer(tokens[0])),
        (f"/games/{game}/fork", bearer(tokens[0])),
        (f"/games/{game}/seats/1/ai", bearer(admin)),
    ):
        detail = assert_problem(await client.post(url, headers=headers), 400, "malformed_request")["detail"]
        assert "a JSON body is required" in detail, (url, detail)
