"""`pantheon export`, `import` and `audit --game` against the server's Redis."""

import asyncio
import json
import random

import msgspec
import pytest

from domain.pantheon.random_play import random_command
from service.cli.commands import main
from service.store.connection import connect, connect_sync
from service.store.streams import EventStore
from service.write import GameService, SeatSpec


async def finished_game(redis_url, prefix):
    client = connect(redis_url)
    service = GameService(EventStore(client, prefix=prefix, partitions=16))
    game, rnd = (await service.create("pantheon", {}, [SeatSpec()] * 2)).game, random.Random(21)
    while not (state := (await service.state_at(game))[1]).finished:
        seat = state.agenda[0].seat
        await service.submit(game, seat, msgspec.to_builtins(random_command(state, seat, rnd)))
    await client.aclose()
    return game


def test_export_audit_and_import_of_a_server_game(redis_url, prefix, monkeypatch, capsysbinary, tmp_path):
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("PANTHEON_PREFIX", prefix)
    game = asyncio.run(finished_game(redis_url, prefix))

    assert main(["export", game]) == 0
    exported = tmp_path / "game.jsonl"
    exported.write_bytes(capsysbinary.readouterr().out)
    assert main(["audit", str(exported), "--quiet"]) == 0
    assert json.loads(capsysbinary.readouterr().out.splitlines()[-1])["ok"] is True
    assert main(["audit", "--game", game, "--quiet"]) == 0
    capsysbinary.readouterr()

    with pytest.raises(SystemExit, match="game_exists"):
        main(["import", str(exported)])
    monkeypatch.setenv("PANTHEON_PREFIX", prefix + "-other")
    try:
        assert main(["import", str(exported)]) == 0
        assert json.loads(capsysbinary.readouterr().out.splitlines()[-1]) == {"imported": game}
        assert main(["audit", "--game", game, "--quiet"]) == 0
    finally:
        client = connect_sync(redis_url)
        keys = list(client.scan_iter(match=f"*{prefix}-other*"))
        if keys:
            client.delete(*keys)
        client.close()
