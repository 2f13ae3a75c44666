"""`pantheon archiver`, the role: it moves games that are due out of Redis into the archive
directory while it runs, says it is alive (`pantheon alive archiver`), and stops on SIGTERM."""

import signal
import subprocess
import sys

import pytest

from service.write import SeatSpec

from .test_alive import ROOT, alive, eventually


async def test_the_archiver_role_archives_a_due_game_says_it_is_alive_and_stops_on_sigterm(
    env, service, store, tmp_path
):
    game = (await service.create("pantheon", {}, [SeatSpec()] * 2)).game
    role_env = dict(
        env, PANTHEON_ARCHIVE_DIR=str(tmp_path), PANTHEON_ARCHIVE_ABANDONED_S="0", PANTHEON_ARCHIVE_EVERY_S="0.2"
    )
    assert not alive(role_env, "archiver")
    archiver = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "archiver"],
        cwd=ROOT,
        env=role_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert eventually(lambda: (tmp_path / game[:2] / f"{game}.ndjson.gz").exists())
        assert eventually(lambda: alive(role_env, "archiver"))
        assert not await store.redis.exists(store.keys(game).meta)
    finally:
        archiver.send_signal(signal.SIGTERM)
        assert archiver.wait(timeout=30) == 0
    assert not alive(role_env, "archiver")


@pytest.mark.alone  # its window is a fraction of a second: beside other tests it closes unseen
async def test_an_archiver_killed_mid_sweep_leaves_every_game_whole_in_redis_or_in_the_archive(
    env, service, store, tmp_path
):
    from service.audit.archiver import Archiver
    from service.audit.cold import Archive
    from service.store.streams import EventStore

    made = [(await service.create("pantheon", {}, [SeatSpec()] * 2)).game for _ in range(30)]
    expected = {game: await store.read(game) for game in made}
    role_env = dict(env, PANTHEON_ARCHIVE_DIR=str(tmp_path), PANTHEON_ARCHIVE_ABANDONED_S="0")
    archiver = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "archiver"],
        cwd=ROOT,
        env=role_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert eventually(lambda: any(tmp_path.rglob("*.ndjson.gz")), timeout=30)
    finally:
        archiver.kill()  # SIGKILL, mid-sweep
        archiver.wait(timeout=30)
    archive = Archive(tmp_path)
    reader = EventStore(store.redis, prefix=store.prefix, partitions=store.partitions, cold=archive)
    in_redis = [g for g in made if await store.redis.exists(store.keys(g).meta)]
    assert len(made) - len(in_redis) > 0, "some games were archived before the kill"  # (15-23 of 30 were not)
    for game in made:
        assert await reader.read(game) == expected[game], game  # whole, from Redis or from the archive
        assert (await reader.records.meta(game))["kind"] == b"pantheon"
    # The killed archiver's claims lapse (after 5 minutes): as if they had, another archiver finishes.
    for game in in_redis:
        await store.redis.delete(store.keys(game).archiving)
    done = await Archiver(reader, archive, finished_s=0, abandoned_s=0).sweep()
    assert sorted(d.game for d in done) == sorted(in_redis)
    for game in made:
        assert not await store.redis.exists(store.keys(game).meta)
        assert await reader.read(game) == expected[game]
