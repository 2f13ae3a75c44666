"""Nothing a game keeps grows without a bound: the refused-command log is capped in count and
entry size, and an ended game leaves the default lobby listing."""

from __future__ import annotations

import contextlib
import random

import msgspec

from domain.pantheon.random_play import random_command
from service.write import SeatSpec, ServiceError, submit


async def test_the_refused_command_log_keeps_the_newest_entries_each_of_bounded_size(service, monkeypatch):
    monkeypatch.setattr(submit, "REJECTED_KEPT", 20)
    game = (await service.create("pantheon", {}, [SeatSpec()] * 2)).game
    _, state = await service.state_at(game)
    other = 1 - state.agenda[0].seat
    for i in range(30):
        with contextlib.suppress(ServiceError):
            await service.submit(game, other, {"type": "draw_card", "seat": other, "slot": i % 4})
    huge = {
        "type": "move",
        "seat": other,
        "cards": 1,
        "placements": [{"piece": "foot", "hex": [0, 0], "jump": False}] * 800,
    }
    with contextlib.suppress(ServiceError):
        await service.submit(game, other, huge)

    entries = await service.rejected(game)
    assert len(entries) == 20
    assert entries[-1]["command"] == {"type": "move", "truncated": entries[-1]["command"]["truncated"]}
    assert entries[-1]["command"]["truncated"] > submit.REJECTED_COMMAND_BYTES
    assert entries[-2]["command"]["slot"] == 29 % 4  # the newest are kept
    assert len(msgspec.json.encode(entries)) < 20 * 1000


async def test_an_ended_game_moves_from_the_lobby_to_the_ended_games(service):
    games = [(await service.create("pantheon", {}, [SeatSpec()] * 2)).game for _ in range(2)]
    rnd = random.Random(1)
    while True:
        _, state = await service.state_at(games[0])
        if state.finished:
            break
        seat = state.agenda[0].seat
        await service.submit(games[0], seat, msgspec.to_builtins(random_command(state, seat, rnd)))
    assert await service.lobby(10) == [games[1]]
    assert await service.lobby(10, ended=True) == [games[0]]
