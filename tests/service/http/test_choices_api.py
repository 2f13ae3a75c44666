"""Choices over HTTP: a client that knows no rules plays whole games by following choices, every
leaf is accepted as it is, and bad or stale tokens get clear errors and change nothing."""

import random

from service.http.choices import next_token

from ..api_helpers import assert_problem, bearer, new_game


async def choose(client, game: str, token: str, rnd: random.Random) -> dict:
    """Follow random choices from the root to a complete command."""
    answer = (await client.get(f"/games/{game}/options", headers=bearer(token))).json()
    while True:
        choice = rnd.choice(answer["choices"])
        assert choice["label"] and (choice["command"] is None) != (choice["next"] is None), choice
        if choice["command"] is not None:
            return choice["command"]
        answer = (
            await client.get(f"/games/{game}/options", params={"after": choice["next"]}, headers=bearer(token))
        ).json()
        assert answer["choices"], "a choice with a next token must lead somewhere"


async def test_a_client_that_knows_no_rules_plays_a_whole_game_by_its_choices(client):
    game, _, tokens = await new_game(client, seats=("human", "human"))
    rnd, commands = random.Random(7), 0
    while not (detail := (await client.get(f"/games/{game}")).json())["finished"]:
        seat = detail["awaiting"]["seat"]
        command = await choose(client, game, tokens[seat], rnd)
        sent = await client.post(
            f"/games/{game}/commands",
            json=command,
            headers={**bearer(tokens[seat]), "Idempotency-Key": f"choice-move-{commands:05d}"},
        )
        assert sent.status_code == 201, (command, sent.text)
        commands += 1
    audit = (await client.get(f"/games/{game}/audit")).json()
    assert audit["ok"] and commands > 50
    assert (await client.get(f"/games/{game}/rejected")).json() == []  # no leaf was ever refused


async def test_a_stale_or_forged_choice_token_is_refused_clearly_and_changes_nothing(client):
    game, _, tokens = await new_game(client, seats=("human", "human"))
    detail = (await client.get(f"/games/{game}")).json()
    seat, version = detail["awaiting"]["seat"], detail["version"]
    me = bearer(tokens[seat])
    root = (await client.get(f"/games/{game}/options", headers=me)).json()
    assert root["version"] == version and root["decision"] == detail["awaiting"]["decision"]
    assert (await client.get(f"/games/{game}/options", params={"after": "not-a-token"}, headers=me)).status_code == 400
    assert_problem(
        await client.get(f"/games/{game}/options", params={"after": f"{version}.zz"}, headers=me),
        400,
        "malformed_choice_token",
    )
    assert_problem(
        await client.get(f"/games/{game}/options", params={"after": next_token(version, ("nonsense",))}, headers=me),
        400,
        "unknown_choice",
    )
    stale = assert_problem(
        await client.get(f"/games/{game}/options", params={"after": next_token(version - 1, ())}, headers=me),
        409,
        "version_conflict",
    )
    assert stale["current_version"] == version
    assert_problem(await client.get(f"/games/{game}/options"), 401, "missing_token")
    assert (await client.get(f"/games/{game}")).json()["version"] == version
