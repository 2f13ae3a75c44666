"""The HTTP API end to end on a real Redis: playing, tokens, refusals and problem details."""

from __future__ import annotations

import hashlib
import random

from service.http.app import create_app

from ..api_helpers import (
    api_client,
    app_settings,
    assert_problem,
    bearer,
    new_game,
    next_command,
    play,
    serve,
    version_of,
)


async def test_a_two_player_game_played_over_http_ends_with_an_outcome_and_reveals_its_seed(client, referee):
    game, _, tokens = await new_game(client)
    created = (await client.get(f"/games/{game}")).json()
    assert created["status"] == "playing" and created["seed"] is None and created["outcome"] is None

    played = await play(client, referee, game, tokens)

    final = (await client.get(f"/games/{game}")).json()
    assert played > 50
    assert final["finished"] and final["status"] == "finished" and final["awaiting"] is None
    assert len(final["outcome"]["scores"]) == 2 and final["outcome"]["winners"]
    assert max(final["outcome"]["scores"]) == final["outcome"]["scores"][final["outcome"]["winners"][0]]
    assert hashlib.sha256(bytes.fromhex(final["seed"])).hexdigest() == final["commitment"]
    events = (await client.get(f"/games/{game}/events")).json()["events"]
    assert [e["version"] for e in events] == list(range(1, final["version"] + 1))
    assert "game_ended" in [e["type"] for e in events]


async def test_a_command_names_no_seat_the_token_says_it_and_the_game_does_not_change(client, referee):
    game, _, tokens = await new_game(client)
    seat, command, version = await next_command(client, referee, game, random.Random(2))

    for named in (seat, 1 - seat):
        answer = await client.post(
            f"/games/{game}/commands", json={**command, "seat": named}, headers=bearer(tokens[seat])
        )
        body = assert_problem(answer, 400, "seat_in_command")
        assert "without `seat`" in body["detail"]
    assert await version_of(client, game) == version


async def test_a_seat_cannot_act_out_of_turn_and_the_game_does_not_change(client, referee):
    game, _, tokens = await new_game(client)
    seat, command, version = await next_command(client, referee, game, random.Random(3))
    other = 1 - seat

    answer = await client.post(f"/games/{game}/commands", json=command, headers=bearer(tokens[other]))

    body = assert_problem(answer, 422, "not_your_turn")
    assert (
        body["detail"] == f"The game awaits Player {'AB'[seat]}, not Player {'AB'[other]}."
    )  # as the screen names them
    assert await version_of(client, game) == version


async def test_a_command_the_rules_refuse_gives_the_domains_code_and_sentence_and_changes_nothing(client, referee):
    game, _, tokens = await new_game(client)
    seat, _, version = await next_command(client, referee, game, random.Random(4))

    answer = await client.post(f"/games/{game}/commands", json={"type": "use_traitera"}, headers=bearer(tokens[seat]))

    body = assert_problem(answer, 422, "wrong_command")
    assert "use_traitera" in body["detail"]
    assert await version_of(client, game) == version


async def test_create_game_sent_as_a_command_is_refused_with_400(client):
    game, _, tokens = await new_game(client)
    version = await version_of(client, game)

    answer = await client.post(f"/games/{game}/commands", json={"type": "create_game"}, headers=bearer(tokens[0]))

    assert_problem(answer, 400, "not_a_seat_command")
    assert await version_of(client, game) == version


async def test_commands_need_a_seat_token_of_this_game(client, referee):
    game, admin, tokens = await new_game(client)
    other_game, _, other_tokens = await new_game(client)
    seat, command, version = await next_command(client, referee, game, random.Random(5))
    url = f"/games/{game}/commands"

    missing = await client.post(url, json=command)
    assert_problem(missing, 401, "missing_token")
    assert missing.headers["www-authenticate"] == "Bearer"
    assert_problem(await client.post(url, json=command, headers={"Authorization": "Basic abc"}), 401, "missing_token")
    assert_problem(await client.post(url, json=command, headers=bearer("not-a-token")), 403, "wrong_token")
    assert_problem(await client.post(url, json=command, headers=bearer(admin)), 403, "wrong_token")
    assert_problem(await client.post(url, json=command, headers=bearer(other_tokens[seat])), 403, "wrong_token")
    assert await version_of(client, game) == version
    assert (await client.post(url, json=command, headers=bearer(tokens[seat]))).status_code == 201


async def test_a_retried_idempotency_key_returns_the_same_response_and_appends_nothing(client, referee):
    game, _, tokens = await new_game(client)
    seat, command, version = await next_command(client, referee, game, random.Random(6))
    headers = {**bearer(tokens[seat]), "Idempotency-Key": "move-1"}

    first = await client.post(f"/games/{game}/commands", json=command, headers=headers)
    after_first = await version_of(client, game)
    retried = await client.post(f"/games/{game}/commands", json=command, headers=headers)

    assert first.status_code == retried.status_code == 201
    assert first.json() == retried.json()
    assert {k: first.json()[k] for k in ("version", "first")} == {"version": after_first, "first": version + 1}
    assert first.json()["awaiting"] == (await client.get(f"/games/{game}")).json()["awaiting"]
    assert await version_of(client, game) == after_first


async def test_an_expected_version_that_is_not_current_is_a_409_with_the_current_version(client, referee):
    game, _, tokens = await new_game(client)
    seat, command, version = await next_command(client, referee, game, random.Random(7))

    answer = await client.post(
        f"/games/{game}/commands", json=command, headers=bearer(tokens[seat]), params={"expected_version": version - 1}
    )

    assert assert_problem(answer, 409, "version_conflict")["current_version"] == version
    assert await version_of(client, game) == version


async def test_malformed_json_and_malformed_commands_are_400_problems(client):
    game, _, tokens = await new_game(client)
    url, headers = f"/games/{game}/commands", bearer(tokens[0])

    assert_problem(await client.post(url, content=b"{not json", headers=headers), 400, "malformed_request")
    assert_problem(await client.post(url, json={"type": "fly"}, headers=headers), 400, "malformed_request")
    unknown = await client.post(url, json={"type": "pass", "extra": 1}, headers=headers)
    assert "extra" in assert_problem(unknown, 400, "malformed_request")["detail"]
    assert_problem(await client.post("/games", json={"seats": [{"type": "human"}]}), 400, "malformed_request")
    assert_problem(await client.get(f"/games/{game}/events", params={"after": -1}), 400, "malformed_request")


async def test_unknown_games_seats_versions_and_addresses_are_404_problems(client):
    game, _, _ = await new_game(client)

    assert_problem(await client.get("/games/0123456789abcdef"), 404, "unknown_game")
    assert_problem(await client.get("/games/0123456789abcdef/events"), 404, "unknown_game")
    assert_problem(await client.post(f"/games/{game}/seats/7/claim"), 404, "unknown_seat")
    assert_problem(await client.get(f"/games/{game}/view", params={"at": 10_000}), 404, "unknown_version")
    assert_problem(await client.get("/no/such/thing"), 404, "not_found")


async def test_an_oversized_body_is_a_413_problem_and_changes_nothing(redis_url, prefix):
    async with api_client(redis_url, prefix, max_body_bytes=1024) as client:
        game, _, tokens = await new_game(client)
        version = await version_of(client, game)
        big = {"type": "pass", "seat": 0, "padding": "x" * 2000}

        answer = await client.post(f"/games/{game}/commands", json=big, headers=bearer(tokens[0]))

        assert_problem(answer, 413, "request_body_too_large")
        assert await version_of(client, game) == version


async def test_a_method_an_address_does_not_take_is_a_405_problem_with_allow(client):
    answer = await client.delete("/games")

    assert_problem(answer, 405, "method_not_allowed")
    assert set(answer.headers["allow"].replace(" ", "").split(",")) >= {"GET", "POST"}


async def test_options_lists_every_method_an_address_takes(client):
    answer = await client.options("/games")

    assert answer.status_code == 204 and answer.headers["allow"] == "GET, HEAD, OPTIONS, POST"


async def test_an_unexpected_failure_is_a_500_problem_that_reveals_no_internals(redis_url, prefix):
    app = create_app(app_settings(redis_url, prefix))
    async with serve(app) as client:
        game, _, _ = await new_game(client)

        async def broken(*args, **kwargs):
            raise RuntimeError("secret internals at /srv/pantheon")

        app.state.service.store.head = broken
        answer = await client.get(f"/games/{game}/view")

    assert_problem(answer, 500, "internal_error")
    assert "secret" not in answer.text and "RuntimeError" not in answer.text


async def test_a_seat_is_claimed_once_and_ai_seats_not_at_all(client):
    created = await client.post("/games", json={"seats": [{"type": "human"}, {"type": "ai", "level": "greedy"}]})
    game = created.json()["game"]

    first = await client.post(f"/games/{game}/seats/0/claim")
    assert first.status_code == 201 and first.json()["seat"] == 0 and first.json()["token"]
    assert_problem(await client.post(f"/games/{game}/seats/0/claim"), 409, "seat_taken")
    assert_problem(await client.post(f"/games/{game}/seats/1/claim"), 409, "seat_not_human")


async def test_the_lobby_lists_new_games_newest_first_with_their_open_seats(client):
    first = (await client.post("/games", json={"seats": [{"type": "human"}, {"type": "human"}]})).json()["game"]
    second = (
        await client.post("/games", json={"seats": [{"type": "human"}, {"type": "ai"}, {"type": "human"}]})
    ).json()["game"]
    await client.post(f"/games/{second}/seats/0/claim")

    lobby = (await client.get("/games")).json()["games"]

    assert [g["game"] for g in lobby] == [second, first]
    assert lobby[0]["players"] == 3 and lobby[0]["open_seats"] == [2] and lobby[0]["status"] == "open"
    assert lobby[1]["open_seats"] == [0, 1] and lobby[1]["kind"] == "pantheon"
    assert [g["game"] for g in (await client.get("/games", params={"limit": 1})).json()["games"]] == [second]


async def test_a_game_says_which_seat_it_awaits_and_only_that_seat_gets_its_options(client, referee):
    game, _, tokens = await new_game(client)
    detail = (await client.get(f"/games/{game}")).json()
    seat = detail["awaiting"]["seat"]

    mine = (await client.get(f"/games/{game}/options/blocks", headers=bearer(tokens[seat]))).json()
    theirs = (await client.get(f"/games/{game}/options/blocks", headers=bearer(tokens[1 - seat]))).json()

    assert mine["options"]["awaited"] and mine["options"]["decision"] == detail["awaiting"]["decision"]
    assert mine["seat"] == seat and mine["version"] == detail["version"]
    assert theirs["options"] == {"awaited": False, "decision": None}
    assert_problem(await client.get(f"/games/{game}/options/blocks"), 401, "missing_token")
    choices = (await client.get(f"/games/{game}/options", headers=bearer(tokens[seat]))).json()
    assert choices["decision"] == detail["awaiting"]["decision"] and choices["choices"]
    none = (await client.get(f"/games/{game}/options", headers=bearer(tokens[1 - seat]))).json()
    assert none["decision"] is None and none["choices"] == []
    assert_problem(await client.get(f"/games/{game}/options"), 401, "missing_token")
