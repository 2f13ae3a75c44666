"""Idempotency-Keys whose answers hold secrets (creating a game, forking one, claiming a seat): a
client whose reply was lost retries with its key and gets the same game or the same token; nobody
else does, a short key is refused, and neither the key nor a token is ever stored in clear."""

from __future__ import annotations

import asyncio
import dataclasses
import secrets

import pytest
from redis.asyncio import Redis

from service.config import Settings
from service.store.connection import connect

from ..api_helpers import (
    RELAXED,
    api_client,
    assert_problem,
    bearer,
    new_game,
    play,
    version_of,
)

SEATS = [{"type": "human", "holder": "creator"}, {"type": "human", "holder": "invite"}, {"type": "human"}]


def a_key() -> str:
    return secrets.token_urlsafe(16)  # 22 random characters


def keyed(key: str) -> dict[str, str]:
    return {"Idempotency-Key": key}


async def _claim(client, game, seat, key=None, invite=None):
    return await client.post(
        f"/games/{game}/seats/{seat}/claim",
        headers=keyed(key) if key else None,
        json={"invite": invite} if invite else None,
    )


async def _lobby(client) -> list[str]:
    return [g["game"] for g in (await client.get("/games", params={"limit": 200})).json()["games"]]


async def _games_stored(redis_url: str, prefix: str) -> int:
    redis = connect(redis_url)
    try:
        return len([k async for k in redis.scan_iter(match=f"*{prefix}*:meta")])
    finally:
        await redis.aclose()


async def test_a_lost_claim_reply_is_recovered_with_the_same_key_and_no_other(client, referee):
    created = await client.post("/games", json={"seats": [{"type": "human"}, {"type": "human"}]})
    game, key = created.json()["game"], a_key()
    lost = await _claim(client, game, 0, key)  # the reply never reaches the client
    assert lost.status_code == 201

    retried = await _claim(client, game, 0, key)

    assert retried.status_code == 201 and retried.json() == lost.json()
    token = retried.json()["token"]
    assert (await client.get(f"/games/{game}/options", headers=bearer(token))).json()["seat"] == 0
    assert_problem(await _claim(client, game, 0, a_key()), 409, "seat_taken")  # another caller, another key
    assert_problem(await _claim(client, game, 0), 409, "seat_taken")
    other = (await _claim(client, game, 1)).json()["token"]
    assert await play(client, referee, game, [token, other], max_commands=6) == 6  # it plays its seat


async def test_a_short_key_is_refused_with_a_sentence_and_changes_nothing(client):
    game = (await client.post("/games", json={"seats": [{"type": "human"}, {"type": "human"}]})).json()["game"]
    before = await _lobby(client)

    claim = await _claim(client, game, 0, "short-key-15chr")
    create = await client.post("/games", json={"seats": SEATS}, headers=keyed("0123456789abcde"))

    for answer in (claim, create):
        body = assert_problem(answer, 400, "idempotency_key_too_short")
        assert "16" in body["detail"] and "random" in body["detail"]
    assert (await client.get(f"/games/{game}")).json()["open_seats"] == [0, 1]
    assert await _lobby(client) == before


async def test_an_invited_seat_claimed_with_a_key_is_recovered_with_the_same_key_and_code(client):
    created = (await client.post("/games", json={"seats": SEATS})).json()
    game, code, key = created["game"], created["invites"][0]["code"], a_key()
    first = await _claim(client, game, 1, key, invite=code)
    assert first.status_code == 201

    assert (await _claim(client, game, 1, key, invite=code)).json() == first.json()
    assert_problem(await _claim(client, game, 1, key), 422, "idempotency_key_reused")  # the same key, another body
    assert_problem(await _claim(client, game, 1, a_key(), invite=code), 409, "seat_taken")


async def test_a_retried_create_returns_the_same_game_and_creates_nothing(client, redis_url, prefix, referee):
    key = a_key()
    first = await client.post("/games", json={"seats": SEATS, "idle_seconds": 600}, headers=keyed(key))
    assert first.status_code == 201, first.text

    again = await client.post("/games", json={"seats": SEATS, "idle_seconds": 600}, headers=keyed(key))

    assert again.status_code == 201 and again.json() == first.json()
    answer = first.json()
    assert answer["seats"][0]["seat"] == 0 and answer["invites"][0]["seat"] == 1
    assert await _lobby(client) == [answer["game"]] and await _games_stored(redis_url, prefix) == 1
    game = answer["game"]
    assert (await client.get(f"/games/{game}/options", headers=bearer(answer["seats"][0]["token"]))).json()["seat"] == 0
    assert (await _claim(client, game, 1, invite=answer["invites"][0]["code"])).status_code == 201
    tokens = [answer["seats"][0]["token"], (await _claim(client, game, 2)).json()["token"]]
    reissued = (await client.post(f"/games/{game}/seats/1/token", headers=bearer(answer["admin_token"]))).json()
    tokens.insert(1, (await _claim(client, game, 1, invite=reissued["code"])).json()["token"])  # a new invite works too
    assert await play(client, referee, game, tokens, max_commands=5) == 5

    replayed = await client.post("/games", json={"seats": SEATS, "idle_seconds": 600}, headers=keyed(key))

    assert replayed.json() == answer  # the version at creation, the stored commitment
    assert await _games_stored(redis_url, prefix) == 1


async def test_the_same_create_key_with_another_body_is_refused_and_creates_nothing(client, redis_url, prefix):
    key = a_key()
    assert (await client.post("/games", json={"seats": SEATS}, headers=keyed(key))).status_code == 201

    other = await client.post("/games", json={"seats": SEATS[:2]}, headers=keyed(key))

    assert_problem(other, 422, "idempotency_key_reused")
    assert len(await _lobby(client)) == 1 and await _games_stored(redis_url, prefix) == 1


async def test_a_burst_of_one_create_to_two_processes_creates_one_game_and_answers_it_everywhere(redis_url, prefix):
    key = a_key()
    async with api_client(redis_url, prefix) as one, api_client(redis_url, prefix) as two:
        answers = await asyncio.gather(
            *((one if i % 2 else two).post("/games", json={"seats": SEATS}, headers=keyed(key)) for i in range(16))
        )

        assert {a.status_code for a in answers} == {201}, {a.status_code: a.text for a in answers}
        assert len({a.text for a in answers}) == 1
        assert await _lobby(one) == [answers[0].json()["game"]]
    assert await _games_stored(redis_url, prefix) == 1


async def test_a_create_retry_lists_a_game_whose_listing_a_crash_lost(client, referee):
    key = a_key()
    game = (await client.post("/games", json={"seats": SEATS}, headers=keyed(key))).json()["game"]
    await referee.store.redis.zrem(
        referee.store.lobby.running_key, game
    )  # as if the process died right after the append

    assert (await client.post("/games", json={"seats": SEATS}, headers=keyed(key))).json()["game"] == game

    assert await _lobby(client) == [game]


async def test_a_fork_with_a_key_is_retried_to_the_same_fork_by_the_same_caller_only(client):
    game, admin, tokens = await new_game(client)
    body, key = {"at": await version_of(client, game), "seats": [{"type": "human"}, {"type": "human"}]}, a_key()
    first = await client.post(f"/games/{game}/fork", json=body, headers={**keyed(key), **bearer(tokens[0])})
    assert first.status_code == 201, first.text

    again = await client.post(f"/games/{game}/fork", json=body, headers={**keyed(key), **bearer(tokens[0])})

    assert again.status_code == 201 and again.json() == first.json()
    child = first.json()
    assert (
        await client.get(f"/games/{child['game']}/options", headers=bearer(child["seats"][1]["token"]))
    ).status_code == 200
    assert_problem(
        await client.post(f"/games/{game}/fork", json=body, headers={**keyed(key), **bearer(admin)}),
        422,
        "idempotency_key_reused",
    )  # another caller sees something else: another request
    assert (
        await client.post(f"/games/{game}/fork", json=body, headers={**keyed(a_key()), **bearer(tokens[0])})
    ).json()["game"] != child["game"]


async def test_a_replayed_key_is_not_counted_as_a_new_game(redis_url, prefix):
    limited = dataclasses.replace(RELAXED, create="2/minute")
    async with api_client(redis_url, prefix, quotas=limited) as client:
        key = a_key()
        answers = [await client.post("/games", json={"seats": SEATS}, headers=keyed(key)) for _ in range(4)]
        assert {a.status_code for a in answers} == {201} and len({a.text for a in answers}) == 1
        assert (await client.post("/games", json={"seats": SEATS})).status_code == 201
        assert_problem(await client.post("/games", json={"seats": SEATS}, headers=keyed(a_key())), 429, "rate_limited")


async def _everything_stored(redis: Redis, prefix: str) -> list[bytes]:
    """Every key under the prefix, and every value in it (strings, hashes, sets, sorted sets, lists,
    streams: every field and entry) as raw bytes."""
    blobs = []
    async for key in redis.scan_iter(match=f"*{prefix}*", count=1000):
        blobs.append(key)
        kind = (await redis.type(key)).decode()
        if kind == "string":
            blobs.append(await redis.get(key))
        elif kind == "hash":
            blobs += [x for pair in (await redis.hgetall(key)).items() for x in pair]
        elif kind == "set":
            blobs += list(await redis.smembers(key))
        elif kind == "zset":
            blobs += [m for m, _ in await redis.zrange(key, 0, -1, withscores=True)]
        elif kind == "list":
            blobs += await redis.lrange(key, 0, -1)
        elif kind == "stream":
            blobs += [x for _, fields in await redis.xrange(key) for pair in fields.items() for x in pair]
        else:
            raise AssertionError(f"{key!r} is a {kind}: read it too")
    return blobs


async def test_neither_a_key_nor_a_token_nor_an_invite_code_is_stored_in_clear(client, redis_url, prefix, referee):
    keys, secrets_sent = [a_key() for _ in range(4)], []
    created = (await client.post("/games", json={"seats": SEATS}, headers=keyed(keys[0]))).json()
    assert (await client.post("/games", json={"seats": SEATS}, headers=keyed(keys[0]))).json() == created
    game = created["game"]
    claimed = [
        await _claim(client, game, 1, keys[1], invite=created["invites"][0]["code"]),
        await _claim(client, game, 1, keys[1], invite=created["invites"][0]["code"]),
        await _claim(client, game, 2, keys[2]),
        await _claim(client, game, 2, keys[2]),
    ]
    assert all(c.status_code == 201 for c in claimed) and claimed[0].json() == claimed[1].json()
    fork_body = {"at": await version_of(client, game), "seats": [{"type": "human"}] * 3}
    forked = await client.post(
        f"/games/{game}/fork", json=fork_body, headers={**keyed(keys[3]), **bearer(created["admin_token"])}
    )
    assert forked.status_code == 201
    secrets_sent += [created["admin_token"], forked.json()["admin_token"], created["invites"][0]["code"]]
    secrets_sent += [s["token"] for s in created["seats"] + forked.json()["seats"]] + [
        c.json()["token"] for c in claimed
    ]
    redis = referee.store.redis

    stored = await _everything_stored(redis, prefix)

    assert len(stored) > 50 and await redis.exists(f"{prefix}:secret")
    for secret in keys + secrets_sent:
        assert not [blob for blob in stored if secret.encode() in blob], secret
    for envelope in await referee.store.read(game) + await referee.store.read(forked.json()["game"]):
        assert envelope.idempotency_key is None


async def test_two_processes_without_a_configured_secret_share_the_one_in_redis(redis_url, prefix):
    key, create_key = a_key(), a_key()
    async with api_client(redis_url, prefix) as one, api_client(redis_url, prefix) as two:
        created = await one.post("/games", json={"seats": SEATS}, headers=keyed(create_key))
        game = created.json()["game"]
        lost = await _claim(one, game, 2, key)

        again = await _claim(two, game, 2, key)  # the retry reaches the other process

        assert again.status_code == 201 and again.json() == lost.json()
        assert (await two.get(f"/games/{game}/options", headers=bearer(again.json()["token"]))).json()["seat"] == 2
        assert (await two.post("/games", json={"seats": SEATS}, headers=keyed(create_key))).json() == created.json()
    async with api_client(redis_url, prefix) as three:  # and one started later, after both have gone
        assert (await _claim(three, game, 2, key)).json() == lost.json()


async def test_a_configured_secret_is_used_instead_of_one_in_redis(redis_url, prefix, monkeypatch):
    key, secret = a_key(), secrets.token_urlsafe(32)
    async with api_client(redis_url, prefix, secret=secret) as one:
        game = (await one.post("/games", json={"seats": [{"type": "human"}, {"type": "human"}]})).json()["game"]
        lost = await _claim(one, game, 0, key)
    async with api_client(redis_url, prefix, secret=secret) as two:
        assert (await _claim(two, game, 0, key)).json() == lost.json()
    async with api_client(redis_url, prefix) as other:  # another secret: the key means nothing there
        assert_problem(await _claim(other, game, 0, key), 409, "seat_taken")
    with pytest.raises(ValueError, match="PANTHEON_SECRET"):
        api_client(redis_url, prefix, secret="too short")
    monkeypatch.setenv("PANTHEON_SECRET", secret)
    assert Settings().secret == secret and secret not in repr(Settings())


async def test_a_key_is_forgotten_after_its_time_and_a_retry_is_then_a_new_request(redis_url, prefix):
    async with api_client(redis_url, prefix, idempotency_ttl_s=60) as client:
        claim_key, create_key = a_key(), a_key()
        game = (await client.post("/games", json={"seats": SEATS}, headers=keyed(create_key))).json()["game"]
        assert (await _claim(client, game, 2, claim_key)).status_code == 201
        redis = connect(redis_url)
        try:
            records = [k async for k in redis.scan_iter(match=f"*{prefix}*idem*")]
            assert len(records) == 2 and all(0 < ttl <= 60 for ttl in [await redis.ttl(k) for k in records])
            await redis.delete(*records)  # as if 60 s had passed
        finally:
            await redis.aclose()

        assert_problem(await _claim(client, game, 2, claim_key), 409, "seat_taken")
        again = await client.post("/games", json={"seats": SEATS}, headers=keyed(create_key))
        assert again.status_code == 201 and again.json()["game"] != game
        assert sorted(await _lobby(client)) == sorted([game, again.json()["game"]])
