"""Forks of running games in the archive (issue 23, section 2): a fork dealt from a running game is
archived, exported, imported and audited like any game, for every game the server hosts; and a
sweep that meets a game it cannot archive skips it, says so (a log line, a metric) and archives
every other game."""

from __future__ import annotations

import asyncio
import dataclasses

import msgspec
import pytest

from domain import games
from service.audit.archive import export_game, import_file
from service.cli.audit import audit_file
from service.config import Settings
from service.store.codec import PACK, Envelope, seal
from service.store.streams import EventStore

from ..api_helpers import PARTITIONS, api_client, archiver, bearer, logged, new_game, play, referee_service

SEALED = {
    "commitment": None,
    "hash_chain": True,
    "replay": True,
    "commands_redecided": None,
    "ai_views": True,
    "platform_events": True,
    "clocks": True,
    "final_scores": None,
}  # the audit of a running fork: its seed stays sealed while it and its parent run


def checks_of(report: dict) -> dict[str, bool | None]:
    return {c["name"]: c["ok"] for c in report["checks"]}


@pytest.mark.parametrize("kind", games.kinds())
async def test_a_fork_of_a_running_game_is_archived_exported_imported_and_audited(
    kind, redis, redis_url, prefix, tmp_path
):
    async with (
        api_client(redis_url, prefix, archive_dir=str(tmp_path / "archive")) as client,
        referee_service(redis_url, prefix) as referee,
    ):
        game, _, tokens = await new_game(client, kind=kind)
        await play(client, referee, game, tokens, max_commands=12)
        at = (await client.get(f"/games/{game}")).json()["version"]
        forked = await client.post(
            f"/games/{game}/fork",
            headers=bearer(tokens[0]),
            json={"at": at, "seats": [{"type": "human", "holder": "creator"}] * len(tokens)},
        )
        assert forked.status_code == 201, forked.text
        child, child_tokens = forked.json()["game"], [s["token"] for s in forked.json()["seats"]]
        assert (await client.get(f"/games/{child}")).json()["lineage"]["redealt"] is True
        await play(client, referee, child, child_tokens, seed=2, max_commands=4)
        in_redis = (await client.get(f"/games/{child}/audit")).json()

        done = await archiver(redis, prefix, tmp_path / "archive", abandoned_s=0).sweep()  # both left running

        assert sorted(d.game for d in done) == sorted([game, child])
        archived = (await client.get(f"/games/{child}/audit")).json()
        assert checks_of(archived) == SEALED and archived == in_redis
        events = (await client.get(f"/games/{child}/events")).json()
    settings = Settings(
        redis_url=redis_url, prefix=prefix, partitions=PARTITIONS, archive_dir=str(tmp_path / "archive")
    )
    path = tmp_path / f"{child}.ndjson"
    with path.open("wb") as out:  # `pantheon export` (from the archive)
        await asyncio.to_thread(export_game, child, out, settings)
    report = audit_file(str(path))  # `pantheon audit FILE`
    assert {c.name: c.ok for c in report.checks} == {"file": True, **SEALED}, [c.detail for c in report.checks]
    elsewhere = dataclasses.replace(settings, prefix=f"{prefix}-imported", archive_dir=str(tmp_path / "elsewhere"))
    assert await asyncio.to_thread(import_file, str(path), elsewhere) == child  # `pantheon import FILE`
    async with api_client(redis_url, elsewhere.prefix) as there:
        assert checks_of((await there.get(f"/games/{child}/audit")).json()) == SEALED
        assert (await there.get(f"/games/{child}/events")).json() == events


async def unreadable_game(store: EventStore, game: str) -> None:
    """A game whose first event this server cannot read (a type it does not know: written by a newer
    version, or damaged), stored as the store stores any game."""
    envelope = seal(
        Envelope(
            game=game,
            version=1,
            type="from_the_future",
            schema=9,
            recorded_at=1,
            payload=msgspec.Raw(PACK.encode({"type": "from_the_future"})),
            command="create_game",
            cause=PACK.encode({"type": "create_game", "options": {"players": 2}}),
        )
    )
    await store.append(
        game, 0, [envelope], meta={"kind": games.DEFAULT_KIND, "created_at": 1, "seats": b"[]", "commitment": "0" * 64}
    )


async def test_a_sweep_skips_a_game_it_cannot_archive_logs_it_counts_it_and_archives_every_other(
    redis, redis_url, prefix, tmp_path
):
    async with api_client(redis_url, prefix, archive_dir=str(tmp_path)) as client:
        first, _, _ = await new_game(client)
        last, _, _ = await new_game(client)
        broken = "0" * 16  # sorts before every other game: the sweep meets it first
        keeper = archiver(redis, prefix, tmp_path, abandoned_s=0)
        await unreadable_game(keeper.store, broken)

        with logged("service.audit.archiver") as records:
            done = await keeper.sweep()

        assert sorted(d.game for d in done) == sorted([first, last])
        assert [s.game for s in keeper.skipped] == [broken]
        assert await redis.exists(keeper.store.keys(broken).meta) and not await redis.exists(
            keeper.store.keys(broken).archiving
        )
        assert not (tmp_path / broken[:2] / f"{broken}.ndjson.gz").exists()
        lines = [r.getMessage() for r in records if broken in r.getMessage()]
        assert len(lines) == 1 and "cannot be archived" in lines[0], lines
        metrics = (await client.get("/metrics")).text
        assert 'pantheon_archive_games_skipped_total{reason="unreadable"} 1' in metrics
        assert "pantheon_archive_games_skipped 1" in metrics

        assert await keeper.sweep() == [] and [s.game for s in keeper.skipped] == [broken]  # tried again, skipped again
        assert 'pantheon_archive_games_skipped_total{reason="unreadable"} 2' in (await client.get("/metrics")).text
