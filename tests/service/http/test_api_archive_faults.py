"""Archived games whose files are damaged, and keyed creates of archived games (issue 23, section 5):
an unreadable archive is a 503 for that game alone, the ended lobby leaves it out and says so, and
a retried create answers as before without listing the archived game as running again."""

from __future__ import annotations

import gzip
import secrets
import zlib

import pytest

from service.store.streams import EventStore
from service.write.keyed import CREATED

from ..api_helpers import (
    PARTITIONS,
    api_client,
    archiver,
    assert_problem,
    bearer,
    logged,
    new_game,
    play,
    referee_service,
)

SEATS = [{"type": "human", "holder": "creator"}, {"type": "human", "holder": "creator"}]


def damage(path) -> None:
    """Flip the bits of the first deflate block's type to 3 (reserved): zlib refuses the stream."""
    body = bytearray(path.read_bytes())
    body[10] |= 0b110  # (byte 10 follows gzip's 10-byte header; bits 1-2 are the block type)
    path.write_bytes(bytes(body))
    with pytest.raises(zlib.error):  # not an OSError: what made these reads 500s
        gzip.decompress(bytes(body))


async def test_a_damaged_gzip_archive_is_a_503_for_that_game_alone_and_the_ended_lobby_leaves_it_out_and_says_so(
    redis, redis_url, prefix, tmp_path
):
    async with (
        api_client(redis_url, prefix, archive_dir=str(tmp_path)) as client,
        referee_service(redis_url, prefix) as referee,
    ):
        intact, _, tokens = await new_game(client)
        await play(client, referee, intact, tokens)
        end = (await client.get(f"/games/{intact}")).json()["version"]
        copy = await client.post(f"/games/{intact}/fork", json={"at": end, "seats": [{"type": "human"}] * 2})
        damaged = copy.json()["game"]  # an exact copy: finished too
        await client.get("/games")  # the lobby moves it to the ended games
        # (a copy does not say it finished, as the command that ended a game does: archived as idle)
        assert len(await archiver(redis, prefix, tmp_path, abandoned_s=0).sweep()) == 2
        damage(tmp_path / damaged[:2] / f"{damaged}.ndjson.gz")

    async with api_client(redis_url, prefix, archive_dir=str(tmp_path)) as fresh:  # nothing cached
        with logged("service.http.games") as records:
            lobby = await fresh.get("/games", params={"status": "finished"})

        assert lobby.status_code == 200, lobby.text
        assert [g["game"] for g in lobby.json()["games"]] == [intact]
        said = [r.getMessage() for r in records if damaged in r.getMessage() and "lobby" in r.getMessage()]
        assert len(said) == 1, said
        assert "pantheon_archive_unreadable_total 1" in (await fresh.get("/metrics")).text
        for route in ("", "/view", "/view?at=3", "/score", "/events", "/stream", "/audit", "/export", "/rejected"):
            answer = await fresh.get(f"/games/{damaged}{route}")
            assert_problem(answer, 503, "archive_unavailable")
            assert answer.headers["retry-after"] == "30"
        assert (await fresh.get(f"/games/{intact}")).json()["finished"]
        assert (await fresh.get(f"/games/{intact}/audit")).json()["ok"]


async def create(client, key: str):
    return await client.post("/games", json={"seats": SEATS}, headers={"Idempotency-Key": key})


async def test_a_retried_create_of_an_archived_game_answers_as_before_and_does_not_list_it_again(
    redis, redis_url, prefix, tmp_path
):
    async with api_client(redis_url, prefix, archive_dir=str(tmp_path)) as client:
        key = secrets.token_urlsafe(16)
        first = await create(client, key)
        assert first.status_code == 201, first.text
        game = first.json()["game"]
        assert [d.game for d in await archiver(redis, prefix, tmp_path, abandoned_s=0).sweep()] == [game]
        assert game not in [g["game"] for g in (await client.get("/games")).json()["games"]]

        again = await create(client, key)

        assert again.status_code == 201, again.text
        assert again.json() == first.json()
        assert game not in [g["game"] for g in (await client.get("/games")).json()["games"]]
        assert await redis.zscore(f"{prefix}:lobby", game) is None
        token = first.json()["seats"][0]["token"]
        assert_problem(
            await client.post(f"/games/{game}/commands", json={"type": "pass"}, headers=bearer(token)), 422, "game_over"
        )


async def test_a_create_whose_key_expired_after_its_game_was_archived_is_a_new_game_and_leaves_the_archived_one(
    redis, redis_url, prefix, tmp_path
):
    async with api_client(redis_url, prefix, archive_dir=str(tmp_path)) as client:
        key = secrets.token_urlsafe(16)
        game = (await create(client, key)).json()["game"]
        assert [d.game for d in await archiver(redis, prefix, tmp_path, abandoned_s=0).sweep()] == [game]
        archived = (await client.get(f"/games/{game}")).json()
        record = EventStore(redis, prefix=prefix, partitions=PARTITIONS).keys(game).idempotency_key(CREATED)
        assert await redis.delete(record) == 1  # the key's record expires (PANTHEON_IDEMPOTENCY_TTL_S)

        later = await create(client, key)

        assert later.status_code == 201, later.text
        assert later.json()["game"] != game  # a new request: a new game, as when its game is still in Redis
        assert (await client.get(f"/games/{game}")).json() == archived
        assert not await redis.exists(EventStore(redis, prefix=prefix, partitions=PARTITIONS).keys(game).meta)
