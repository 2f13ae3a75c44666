"""Hot and cold games: the archiver moves finished and abandoned games out of Redis into the
archive, and every read of an archived game answers as it did before, from the archive."""

from __future__ import annotations

import asyncio
import contextlib
import io
import time

from service.audit.archive import export_game
from service.config import Settings
from service.store.streams import EventStore

from ..api_helpers import (
    PARTITIONS,
    YEAR_S,
    api_client,
    archiver,
    assert_problem,
    bearer,
    new_game,
    play,
    referee_service,
    sse_events,
)


async def keys_of(redis, prefix: str, game: str) -> list[bytes]:
    """Every Redis key of this test that names the game, but for the append receipts and idempotency
    keys, which expire on their own (a minute; PANTHEON_IDEMPOTENCY_TTL_S), and the rate limits'
    counters (which name its seats)."""
    return [
        k
        async for k in redis.scan_iter(match=f"*{prefix}*{game}*", count=1000)
        if b":limits:" not in k and b":receipt:" not in k and b":idem:" not in k
    ]


async def answers(client, game: str, token: str) -> dict[str, tuple[int, bytes]]:
    """Every read route of the game (as a spectator and as seat 0): status and body."""
    routes = [
        f"/games/{game}",
        f"/games/{game}/view",
        f"/games/{game}/view?at=5",
        f"/games/{game}/score",
        f"/games/{game}/score?at=7",
        f"/games/{game}/events",
        f"/games/{game}/events?after=10&limit=5",
        f"/games/{game}/stream",
        f"/games/{game}/audit",
        f"/games/{game}/export",
        f"/games/{game}/rejected",
        f"/games/{game}/view?at=99999",
        f"/games/{game}/view?min_version=3",
        "/games?status=finished",
    ]
    out = {}
    for route in routes:
        for who, headers in (("spectator", {}), ("seat 0", bearer(token))):
            answer = await client.get(route, headers=headers)
            body = answer.content
            if route.endswith("/stream"):
                body = repr(sse_events(answer.text)).encode()
            elif answer.status_code >= 400:  # a problem: the same but for its request's id
                body = repr({k: v for k, v in answer.json().items() if k != "request_id"}).encode()
            out[f"{who} {route}"] = (answer.status_code, body, answer.headers.get("etag"))
    return out


async def test_every_read_of_a_finished_game_answers_the_same_once_archived_and_redis_keeps_none_of_its_keys(
    redis, redis_url, prefix, tmp_path
):
    async with (
        api_client(redis_url, prefix, archive_dir=str(tmp_path)) as client,
        referee_service(redis_url, prefix) as referee,
    ):
        game, _, tokens = await new_game(client)
        await play(client, referee, game, tokens)
        late = await client.post(f"/games/{game}/commands", json={"type": "pass"}, headers=bearer(tokens[0]))
        assert late.status_code == 422  # refused, and kept in the refused-commands log
        before = await answers(client, game, tokens[0])
        assert before[f"spectator /games/{game}/export"][0] == 200
        assert len((await client.get(f"/games/{game}/rejected")).json()) == 1

        done = await archiver(redis, prefix, tmp_path).sweep()

        assert [(d.game, d.reason) for d in done] == [(game, "finished")]
        assert await keys_of(redis, prefix, game) == []
        assert await redis.zscore(f"{prefix}:lobby:ended", game) is not None
        after = await answers(client, game, tokens[0])
        assert after == before
        async with api_client(redis_url, prefix, archive_dir=str(tmp_path)) as fresh:  # another API process
            assert await answers(fresh, game, tokens[0]) == before
        # `pantheon export GAME` reads the archive too, and writes the same bytes
        out = io.BytesIO()
        settings = Settings(redis_url=redis_url, prefix=prefix, partitions=PARTITIONS, archive_dir=str(tmp_path))
        await asyncio.to_thread(export_game, game, out, settings)
        assert out.getvalue() == before[f"spectator /games/{game}/export"][1]


async def test_an_archived_game_refuses_writes_as_a_finished_game_does_and_writes_nothing_to_redis(
    redis, redis_url, prefix, tmp_path
):
    async with (
        api_client(redis_url, prefix, archive_dir=str(tmp_path)) as client,
        referee_service(redis_url, prefix) as referee,
    ):
        game, admin, tokens = await new_game(client)
        await play(client, referee, game, tokens)
        assert [d.game for d in await archiver(redis, prefix, tmp_path).sweep()] == [game]

        refused = await client.post(f"/games/{game}/commands", json={"type": "pass"}, headers=bearer(tokens[0]))
        assert_problem(refused, 422, "game_over")
        again = await client.post(f"/games/{game}/seats/0/token", headers=bearer(admin))
        assert_problem(again, 422, "game_over")
        handed = await client.post(f"/games/{game}/seats/1/ai", json={"level": "random"}, headers=bearer(admin))
        assert_problem(handed, 422, "game_over")
        assert await keys_of(redis, prefix, game) == []
        assert len((await client.get(f"/games/{game}/rejected")).json()) == 0


async def test_an_archived_game_forks_at_any_version_like_before(redis, redis_url, prefix, tmp_path):
    async with (
        api_client(redis_url, prefix, archive_dir=str(tmp_path)) as client,
        referee_service(redis_url, prefix) as referee,
    ):
        game, _, tokens = await new_game(client)
        await play(client, referee, game, tokens, max_commands=6)
        at = (await client.get(f"/games/{game}")).json()["version"]  # where a command's events end
        await play(client, referee, game, tokens, seed=2)
        view_then = (await client.get(f"/games/{game}/view", params={"at": at})).json()["view"]
        await archiver(redis, prefix, tmp_path).sweep()

        fork = await client.post(f"/games/{game}/fork", json={"at": at, "seats": [{"type": "human"}] * 2})

        assert fork.status_code == 201, fork.text
        child = fork.json()["game"]
        assert (await client.get(f"/games/{child}/view")).json()["view"] == view_then
        lineage = (await client.get(f"/games/{child}")).json()["lineage"]
        assert lineage["parent"] == game and lineage["prefix_hash"]


async def test_an_abandoned_game_is_archived_and_a_live_one_never_is(redis, redis_url, prefix, tmp_path):
    async with (
        api_client(redis_url, prefix, archive_dir=str(tmp_path)) as client,
        referee_service(redis_url, prefix) as referee,
    ):
        left, _, left_tokens = await new_game(client)
        await play(client, referee, left, left_tokens, max_commands=3)
        never, _, _ = await new_game(client)
        detail = (await client.get(f"/games/{left}")).json()
        await asyncio.sleep(1.1)
        live, _, live_tokens = await new_game(client)
        await play(client, referee, live, live_tokens, max_commands=3)

        done = await archiver(redis, prefix, tmp_path, finished_s=YEAR_S, abandoned_s=1).sweep()

        assert sorted((d.game, d.reason) for d in done) == sorted([(left, "abandoned"), (never, "abandoned")])
        assert await keys_of(redis, prefix, left) == []
        assert (await client.get(f"/games/{left}")).json() == detail
        stream = await asyncio.wait_for(client.get(f"/games/{left}/stream"), 10)  # ends: no more events come
        assert [v for v, _ in sse_events(stream.text)] == list(range(1, detail["version"] + 1))
        assert (await client.get(f"/games/{live}")).json()["version"] > 0
        listed = [g["game"] for g in (await client.get("/games")).json()["games"]]
        assert live in listed and left not in listed and never not in listed
        refused = await client.post(
            f"/games/{left}/commands", json={"type": "pass"}, headers=bearer(left_tokens[detail["awaiting"]["seat"]])
        )
        assert_problem(refused, 422, "game_over")
        assert await archiver(redis, prefix, tmp_path, finished_s=0, abandoned_s=1).sweep() == []  # live moved


async def test_two_archivers_at_once_archive_each_game_once(redis, redis_url, prefix, tmp_path):
    async with (
        api_client(redis_url, prefix, archive_dir=str(tmp_path)) as client,
        referee_service(redis_url, prefix) as referee,
    ):
        made = []
        for seed in range(3):
            game, _, tokens = await new_game(client)
            await play(client, referee, game, tokens, seed=seed)
            made.append(game)
        one, two = archiver(redis, prefix, tmp_path), archiver(redis, prefix, tmp_path)

        first, second = await asyncio.gather(one.sweep(), two.sweep())

        archived = [d.game for d in first + second]
        assert sorted(archived) == sorted(made)
        for game in made:
            assert (await client.get(f"/games/{game}/audit")).json()["ok"]


async def test_a_crash_after_the_files_are_written_leaves_the_game_in_redis_and_the_next_sweep_finishes(
    redis, redis_url, prefix, tmp_path
):
    async with (
        api_client(redis_url, prefix, archive_dir=str(tmp_path)) as client,
        referee_service(redis_url, prefix) as referee,
    ):
        game, _, tokens = await new_game(client)
        await play(client, referee, game, tokens)
        before = await answers(client, game, tokens[0])
        first = archiver(redis, prefix, tmp_path)

        async def crash(*_, **__):
            raise SystemExit("killed before deleting")  # the process dies after writing and verifying

        first._delete = crash
        with contextlib.suppress(SystemExit):
            await first.move(game)
        assert (tmp_path / game[:2] / f"{game}.ndjson.gz").exists()
        assert await redis.exists(EventStore(redis, prefix=prefix, partitions=PARTITIONS).keys(game).meta)
        assert await answers(client, game, tokens[0]) == before

        assert [d.game for d in await archiver(redis, prefix, tmp_path).sweep()] == [game]
        assert await answers(client, game, tokens[0]) == before


async def test_a_game_not_yet_due_stays_in_redis(redis, redis_url, prefix, tmp_path):
    async with (
        api_client(redis_url, prefix, archive_dir=str(tmp_path)) as client,
        referee_service(redis_url, prefix) as referee,
    ):
        game, _, tokens = await new_game(client)
        await play(client, referee, game, tokens)
        keeper = archiver(redis, prefix, tmp_path, finished_s=3600)
        assert await keeper.sweep() == []
        assert await keeper.due(game, time.time() + 3601) is not None
        assert not list(tmp_path.iterdir())


async def test_a_damaged_archive_file_is_a_503_problem_not_a_500(redis, redis_url, prefix, tmp_path):
    async with (
        api_client(redis_url, prefix, archive_dir=str(tmp_path)) as client,
        referee_service(redis_url, prefix) as referee,
    ):
        game, _, tokens = await new_game(client)
        await play(client, referee, game, tokens, max_commands=4)
        await archiver(redis, prefix, tmp_path, abandoned_s=0).sweep()
        (tmp_path / game[:2] / f"{game}.ndjson.gz").write_bytes(b"not gzip")
    async with api_client(redis_url, prefix, archive_dir=str(tmp_path)) as fresh:  # nothing cached
        for route in (f"/games/{game}", f"/games/{game}/view", f"/games/{game}/events"):
            answer = await fresh.get(route)
            assert_problem(answer, 503, "archive_unavailable")
            assert answer.headers["retry-after"] == "30"


async def test_a_game_that_moves_after_it_was_found_due_is_not_archived(redis, redis_url, prefix, tmp_path):
    async with (
        api_client(redis_url, prefix, archive_dir=str(tmp_path)) as client,
        referee_service(redis_url, prefix) as referee,
    ):
        game, _, tokens = await new_game(client)
        keeper = archiver(redis, prefix, tmp_path, abandoned_s=0)
        due = await keeper.due(game)
        assert due is not None and due.reason == "abandoned"

        await play(client, referee, game, tokens, max_commands=1)  # a player comes back meanwhile

        assert not await keeper.move(game, ended=False, version=due.version)
        assert (await client.get(f"/games/{game}")).json()["version"] > due.version
        assert await keys_of(redis, prefix, game) != []
        assert not list(tmp_path.iterdir())
        assert game in [g["game"] for g in (await client.get("/games")).json()["games"]]
