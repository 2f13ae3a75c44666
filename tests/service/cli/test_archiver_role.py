"""`pantheon archiver`, the role: it moves games that are due out of Redis into the archive
directory while it runs, says it is alive (`pantheon alive archiver`), and stops on SIGTERM."""

import signal
import subprocess
import sys

from service.write import SeatSpec

from .test_alive import ROOT, alive, eventually


async def test_the_archiver_role_archives_a_due_game_says_it_is_alive_and_stops_on_sigterm(env, service, store,
                                                                                          tmp_path):
    game = (await service.create("pantheon", {}, [SeatSpec()] * 2)).game
    role_env = dict(env, PANTHEON_ARCHIVE_DIR=str(tmp_path), PANTHEON_ARCHIVE_ABANDONED_S="0",
                    PANTHEON_ARCHIVE_EVERY_S="0.2")
    assert not alive(role_env, "archiver")
    archiver = subprocess.Popen([sys.executable, "-m", "service.cli", "archiver"], cwd=ROOT, env=role_env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert eventually(lambda: (tmp_path / game[:2] / f"{game}.ndjson.gz").exists())
        assert eventually(lambda: alive(role_env, "archiver"))
        assert not await store.redis.exists(store.keys(game).meta)
    finally:
        archiver.send_signal(signal.SIGTERM)
        assert archiver.wait(timeout=30) == 0
    assert not alive(role_env, "archiver")
