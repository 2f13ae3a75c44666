"""A seat's re-issue is a platform event in the game's log, and goes wherever the log goes: the
feed and the stream of every viewer, replay, the read models, the audit, export and import,
forks, the archive; the AI turn it interrupts is played at the new version."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from service.ai.worker import play_turn
from service.audit.archiver import Archiver
from service.audit.cold import Archive
from service.audit.export import read_export
from service.audit.lineage import import_game
from service.cli.audit import audit_file
from service.read.models import rm_key
from service.read.projector import Projector
from service.store.connection import connect, connect_sync
from service.store.streams import EventStore
from service.write import GameService

from ..api_helpers import (
    PARTITIONS,
    api_client,
    assert_problem,
    bearer,
    new_game,
    play,
    referee_service,
    sse_events,
    version_of,
)


async def _reissued_game(redis_url: str, prefix: str, archive: str) -> dict:
    """A 2-player game with seat 1 re-issued after event `at` (and claimed again with the invite
    code), played to its end with a projector running."""
    redis = connect(redis_url)
    store = EventStore(redis, prefix=prefix, partitions=PARTITIONS)
    projector, stop = Projector(store, block_ms=50), asyncio.Event()
    running = asyncio.create_task(projector.run(stop))
    try:
        async with (
            api_client(redis_url, prefix, archive_dir=archive) as client,
            referee_service(redis_url, prefix) as referee,
        ):
            game, admin, tokens = await new_game(client)
            await play(client, referee, game, tokens, seed=21, max_commands=8)
            at = await version_of(client, game)
            code = (await client.post(f"/games/{game}/seats/1/token", headers=bearer(admin))).json()["code"]
            tokens[1] = (await client.post(f"/games/{game}/seats/1/claim", json={"invite": code})).json()["token"]
            await play(client, referee, game, tokens, seed=22)
            final = await version_of(client, game)
            for _ in range(200):
                if int(await redis.hget(rm_key(store, game, "board"), "v") or 0) == final:
                    break
                await asyncio.sleep(0.02)
            models = {name: int(await redis.hget(rm_key(store, game, name), "v") or 0) for name in ("board", "score")}
        return {
            "game": game,
            "admin": admin,
            "tokens": tokens,
            "at": at,
            "final": final,
            "prefix": prefix,
            "archive": archive,
            "models": models,
            "failures": projector.stats.failures,
        }
    finally:
        stop.set()
        await running
        await redis.aclose()


@pytest.fixture(scope="module")
def reissued(redis_url, tmp_path_factory):
    prefix = f"test-{uuid.uuid4().hex[:10]}"
    yield asyncio.run(_reissued_game(redis_url, prefix, str(tmp_path_factory.mktemp("archive"))))
    client = connect_sync(redis_url)
    keys = list(client.scan_iter(match=f"*{prefix}*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
async def app(redis_url, reissued):
    """A client of an app on the game's keys, reading the archive the game may have moved to."""
    async with api_client(redis_url, reissued["prefix"], archive_dir=reissued["archive"]) as client:
        yield client


async def test_every_seat_the_admin_and_spectators_read_the_reissue_in_the_feed_and_the_stream(app, reissued):
    game, at, tokens = reissued["game"], reissued["at"], reissued["tokens"]
    for token in (None, reissued["admin"], *tokens):
        headers = bearer(token) if token else {}
        [event] = (await app.get(f"/games/{game}/events", params={"after": at, "limit": 1}, headers=headers)).json()[
            "events"
        ]
        assert (event["version"], event["type"], event["payload"], event["seat"], event["command"]) == (
            at + 1,
            "seat_reissued",
            {"type": "seat_reissued", "seat": 1},
            None,
            None,
        )
        streamed = sse_events((await app.get(f"/games/{game}/stream", params={"after": at}, headers=headers)).text)
        assert streamed[0] == (at + 1, event)
        assert [v for v, _ in streamed] == list(range(at + 1, reissued["final"] + 1))


async def test_a_replay_at_the_reissue_shows_the_game_as_it_was_just_before(app, reissued):
    game, at = reissued["game"], reissued["at"]
    for token in (None, reissued["tokens"][0]):
        headers = bearer(token) if token else {}
        before, after = [
            (await app.get(f"/games/{game}/view", params={"at": v}, headers=headers)).json() for v in (at, at + 1)
        ]
        assert (before["version"], after["version"]) == (at, at + 1) and after["view"] == before["view"]
    scores = [(await app.get(f"/games/{game}/score", params={"at": v})).json() for v in (at, at + 1)]
    assert scores[1]["view"]["seats"] == scores[0]["view"]["seats"]


async def test_the_read_models_fold_past_the_reissue_to_the_last_event(app, reissued):
    assert reissued["failures"] == 0
    assert reissued["models"] == {"board": reissued["final"], "score": reissued["final"]}
    assert (await app.get(f"/games/{reissued['game']}/score")).json()["version"] == reissued["final"]


async def test_the_audit_checks_the_reissue_as_a_platform_event_and_the_game_passes(app, reissued):
    report = (await app.get(f"/games/{reissued['game']}/audit")).json()

    assert report["ok"] and report["first_failure"] is None and report["events"] == reissued["final"]
    check = next(c for c in report["checks"] if c["name"] == "platform_events")
    assert check["ok"] is True and check["detail"].startswith("1 platform events")
    line = report["story_events"][reissued["at"]]  # the event after `at`: the re-issue, caused by no command
    assert (line["version"], line["seat"], line["command"]) == (reissued["at"] + 1, None, None)
    assert line["text"] == "Player B's seat was handed to a new player (its old token no longer works)."


async def test_the_export_audits_clean_alone_and_imports_as_an_archive_that_does_too(
    app, reissued, redis_url, tmp_path
):
    exported = await app.get(f"/games/{reissued['game']}/export")
    (tmp_path / "game.jsonl").write_bytes(exported.content)

    assert audit_file(str(tmp_path / "game.jsonl")).ok
    header, envelopes = read_export(exported.content.splitlines())
    assert envelopes[reissued["at"]].type == "seat_reissued"
    redis, elsewhere = connect(redis_url), f"{reissued['prefix']}-copy"
    try:
        assert await import_game(GameService(EventStore(redis, prefix=elsewhere, partitions=4)), header, envelopes)
        async with api_client(redis_url, elsewhere) as copy:
            assert (await copy.get(f"/games/{reissued['game']}/audit")).json()["ok"]
            assert (await copy.get(f"/games/{reissued['game']}/export")).content == exported.content
    finally:
        keys = [k async for k in redis.scan_iter(match=f"*{elsewhere}*")]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()


async def test_a_finished_game_forks_right_before_or_after_its_reissue(app, reissued):
    game, at = reissued["game"], reissued["at"]
    for version in (at, at + 1):  # a platform event is a step of its own: no command's events are split
        # seat 1 is an AI's in the fork: the copied re-issue names the parent's seat, which was a person's
        forked = await app.post(
            f"/games/{game}/fork", json={"at": version, "seats": [{"type": "human"}, {"type": "ai"}]}
        )
        assert forked.status_code == 201, forked.text
        child = forked.json()["game"]
        assert (await app.get(f"/games/{child}/view")).json()["view"] == (
            await app.get(f"/games/{game}/view", params={"at": version})
        ).json()["view"]
        assert (await app.get(f"/games/{child}/audit")).json()["first_failure"] is None


async def test_a_finished_game_takes_no_reissue(app, reissued):
    game = reissued["game"]
    assert_problem(await app.post(f"/games/{game}/seats/0/token", headers=bearer(reissued["admin"])), 422, "game_over")
    assert await version_of(app, game) == reissued["final"]
    assert (await app.get(f"/games/{game}/view", headers=bearer(reissued["tokens"][0]))).status_code == 200


async def test_the_archived_game_shows_its_reissue_from_the_archive(app, reissued, redis_url):
    game, at = reissued["game"], reissued["at"]
    before = [(await app.get(route)).json() for route in (f"/games/{game}/events", f"/games/{game}/audit")]
    redis = connect(redis_url)
    try:
        archive = Archive(reissued["archive"])
        store = EventStore(redis, prefix=reissued["prefix"], partitions=PARTITIONS, cold=archive)
        await Archiver(store, archive, finished_s=0, abandoned_s=10**9).sweep()
        assert not await redis.exists(store.keys(game).events)
    finally:
        await redis.aclose()
    after = [(await app.get(route)).json() for route in (f"/games/{game}/events", f"/games/{game}/audit")]
    assert after == before and after[0]["events"][at]["type"] == "seat_reissued"


# --- games of their own ---------------------------------------------------------------------


async def test_a_reserved_seat_is_reissued_too_and_its_first_code_stops_working(client):
    created = (
        await client.post(
            "/games", json={"seats": [{"type": "human", "holder": "creator"}, {"type": "human", "holder": "invite"}]}
        )
    ).json()
    game, [first] = created["game"], created["invites"]

    answers = [
        await client.post(f"/games/{game}/seats/1/token", headers=bearer(created["admin_token"])) for _ in range(2)
    ]  # the first answer lost: the admin asks again

    assert [a.status_code for a in answers] == [201, 201]
    assert await version_of(client, game) == created["version"] + 2
    for code in (first["code"], answers[0].json()["code"]):
        assert_problem(await client.post(f"/games/{game}/seats/1/claim", json={"invite": code}), 403, "wrong_invite")
    claimed = await client.post(f"/games/{game}/seats/1/claim", json={"invite": answers[1].json()["code"]})
    assert claimed.status_code == 201


async def test_a_reissue_while_the_ai_is_awaited_moves_its_turn_to_the_new_version_and_the_ai_plays_it(client, referee):
    game, admin, [token] = await new_game(client, seats=("human", "ai"))
    for _ in range(50):  # the human plays until the game awaits the AI (no worker runs here)
        if (await client.get(f"/games/{game}")).json()["awaiting"]["seat"] == 1:
            break
        await play(client, referee, game, [token, None], seed=5, max_commands=1)
    version, seat, since = await referee.store.awaiting.awaited(game)
    assert seat == 1

    assert (await client.post(f"/games/{game}/seats/0/token", headers=bearer(admin))).status_code == 201

    assert await referee.store.awaiting.awaited(game) == (version + 1, 1, since)  # the same turn, its clock running on
    assert (await play_turn(referee, game, version, 1))["outcome"] == "stale"
    assert (await play_turn(referee, game, version + 1, 1))["outcome"] == "played"
    assert await version_of(client, game) > version + 1
