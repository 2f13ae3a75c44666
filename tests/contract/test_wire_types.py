"""The declared types are what the server sends: every answer of whole games played over HTTP (a game
with a seat re-issued, and a fork of it while running) decodes strictly into the type its operation declares, with no field
the type does not describe, so the OpenAPI document cannot drift from the answers."""

from __future__ import annotations

import random
import re

import jsonschema_rs
import msgspec
import pytest

from service.http import audit, models
from service.http.openapi_export import document

from ..service.api_helpers import (
    api_client,
    bearer,
    new_game,
    next_command,
    referee_service,
)
from .strict_types import check

GAME = models.GameDetail
SEEN: set[str] = set()
DOCUMENT = document()


def conforms(template: str, method: str, status: int, body: bytes) -> None:
    """The answer also conforms to the OpenAPI document's JSON Schema of that operation and status
    (what generators read, as Litestar renders the types)."""
    schema = DOCUMENT["paths"][template][method]["responses"][str(status)]["content"]["application/json"]["schema"]
    validator = jsonschema_rs.Draft202012Validator({**schema, "components": DOCUMENT["components"]})
    errors = list(validator.iter_errors(msgspec.json.decode(body)))
    assert not errors, (template, [f"{list(e.instance_path)}: {e.message[:300]}" for e in errors[:3]])


async def _read(client, path: str, tp, token: str | None = None, **params):
    answer = await client.get(path, params=params or None, headers=bearer(token) if token else {})
    assert answer.status_code == 200, (path, answer.text)
    template = re.sub(r"^/games/[^/]+", "/games/{game_id}", path)
    conforms(template, "get", 200, answer.content)
    SEEN.add(template)
    return check(answer.content, tp)


async def _reads(client, game: str, tokens: list[str], admin: str) -> None:
    """Every read of a game, as a spectator and as each seat, against its declared type."""
    await _read(client, f"/games/{game}", GAME)
    await _read(client, f"/games/{game}/view", models.ViewAnswer)
    await _read(client, f"/games/{game}/score", models.ScoreAnswer)
    await _read(client, f"/games/{game}/audit", audit.AuditReport)
    await _read(client, f"/games/{game}/rejected", list[models.Rejected])
    await _read(client, f"/games/{game}/events", models.Events, limit=50)
    for token in tokens:
        await _read(client, f"/games/{game}/view", models.ViewAnswer, token)
        await _read(client, f"/games/{game}/options/blocks", models.OptionBlocks, token)
        choices = await _read(client, f"/games/{game}/options", models.Choices, token)
        for choice in choices.choices[:3]:
            if choice.next is not None:
                await _read(client, f"/games/{game}/options", models.Choices, token, after=choice.next)


async def _everything(client, game: str, tokens: list[str]) -> None:
    for token in (None, *tokens):
        await _read(client, f"/games/{game}/events", models.Events, token)


GAMES = {
    "pantheon": {},
    "pergamon": {"kind": "pergamon", "options": {"vp_visibility": "secret", "variant_sorting": True}},
}


@pytest.mark.parametrize(("kind", "seed"), [("pantheon", 1), ("pantheon", 2), ("pergamon", 3)])
async def test_every_answer_of_a_whole_game_and_a_fork_decodes_strictly_into_its_declared_type(
    redis_url, prefix, kind, seed
):
    async with api_client(redis_url, prefix) as client, referee_service(redis_url, prefix) as referee:
        created = await client.post(
            "/games", json={**GAMES[kind], "seats": [{"type": "human", "holder": "creator"}] * 2}
        )
        check(created.content, models.GameCreatedResponse)
        conforms("/games", "post", 201, created.content)
        game = created.json()["game"]
        tokens, admin = [s["token"] for s in created.json()["seats"]], created.json()["admin_token"]
        rnd, played, forked = random.Random(seed), 0, None
        await client.post(f"/games/{game}/commands", json={"type": "pass"}, headers=bearer(tokens[1]))  # refused or not
        while (step := await next_command(client, referee, game, rnd)) is not None:
            seat, command, version = step
            check(msgspec_json(command), models.CONTRACTS[kind].command)  # what the helpers send is a wire command
            answer = await client.post(f"/games/{game}/commands", json=command, headers=bearer(tokens[seat]))
            assert answer.status_code == 201, answer.text
            check(answer.content, models.CommandAccepted)
            conforms("/games/{game_id}/commands", "post", 201, answer.content)
            played += 1
            if played == 20:  # seat 1 re-issued: its events hold a platform event (every game's `SeatReissued`)
                reissued = await client.post(f"/games/{game}/seats/1/token", headers=bearer(admin))
                assert reissued.status_code == 201, reissued.text
                invite = check(reissued.content, models.Invite)
                conforms("/games/{game_id}/seats/{seat}/token", "post", 201, reissued.content)
                claimed = await client.post(f"/games/{game}/seats/1/claim", json={"invite": invite.code})
                tokens[1] = check(claimed.content, models.SeatClaimed).token
            if played % 40 == 0:
                await _reads(client, game, tokens, admin)
            if played == 60:
                fork = await client.post(
                    f"/games/{game}/fork",
                    json={"at": answer.json()["version"], "seats": [{"type": "human", "holder": "creator"}] * 2},
                    headers=bearer(tokens[0]),
                )
                assert fork.status_code == 201, fork.text
                forked = check(fork.content, models.GameCreatedResponse)
        await _reads(client, game, tokens, admin)
        await _everything(client, game, tokens)
        await _reads(client, forked.game, [s.token for s in forked.seats], forked.admin_token)
        await _everything(client, forked.game, [s.token for s in forked.seats])
        await new_game(client)  # one game in the lobby of games that have not ended
        for status in (None, "finished"):
            lobby = await _read(client, "/games", models.Lobby, **({"status": status} if status else {}))
            assert lobby.games
    assert {"/games", "/games/{game_id}"} | {
        f"/games/{{game_id}}/{name}"
        for name in ("events", "view", "score", "audit", "rejected", "options", "options/blocks")
    } <= SEEN


def test_the_check_refuses_an_undescribed_field_a_missing_one_and_a_wrong_type():
    good = {
        "kind": "pantheon",
        "version": 3,
        "view": {"version": 3, "epoch": 1, "finished": False, "winners": [], "seats": [], "timeline": []},
    }
    check(msgspec.json.encode(good), models.ScoreAnswer)
    for bad in (
        {**good, "extra": 1},
        {**good, "view": {**good["view"], "extra": 1}},
        {k: v for k, v in good.items() if k != "version"},
        {**good, "version": "3"},
        {**good, "kind": "chess"},
    ):
        with pytest.raises(msgspec.ValidationError):
            check(msgspec.json.encode(bad), models.ScoreAnswer)
    conforms("/games/{game_id}/score", "get", 200, msgspec.json.encode(good))
    with pytest.raises(AssertionError):
        conforms("/games/{game_id}/score", "get", 200, msgspec.json.encode({**good, "version": "3"}))


def msgspec_json(value) -> bytes:
    return msgspec.json.encode(value)
