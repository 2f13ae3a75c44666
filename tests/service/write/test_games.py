"""The game service: one write path for people and AI, over a real Redis."""

import asyncio
import random

import msgspec
import pytest

from domain.pantheon.random_play import random_command
from service.http.problems import status_of
from service.write import SeatSpec, ServiceError


async def new_game(service, players=2):
    created = await service.create("pantheon", {}, [SeatSpec() for _ in range(players)])
    tokens = [await service.claim(created.game, seat) for seat in range(players)]
    return created, tokens


async def test_fifty_concurrent_commands_at_one_expected_version_apply_once(service):
    created, _ = await new_game(service)
    version, state = await service.state_at(created.game)
    seat = state.agenda[0].seat
    command = random_command(state, seat, random.Random(1))
    raw = msgspec.to_builtins(command)

    async def attempt():
        try:
            await service.submit(created.game, seat, raw, expected_version=version)
            return "applied"
        except ServiceError as error:
            assert status_of(error) == 409 and error.extra["current_version"] > version
            return "conflict"

    results = await asyncio.gather(*(attempt() for _ in range(50)))
    assert results.count("applied") == 1 and results.count("conflict") == 49


async def test_a_rejected_command_appends_nothing_and_names_the_rule(service):
    created, _ = await new_game(service)
    version, state = await service.state_at(created.game)
    other = 1 - state.agenda[0].seat
    with pytest.raises(ServiceError) as refused:
        await service.submit(created.game, other, {"type": "pass", "seat": other})
    assert status_of(refused.value) == 422 and refused.value.code == "not_your_turn"
    assert (await service.state_at(created.game))[0] == version


async def test_a_seat_can_be_claimed_once_and_ai_seats_not_at_all(service):
    created = await service.create("pantheon", {}, [SeatSpec(), SeatSpec(type="ai", level="random")])
    token = await service.claim(created.game, 0)
    assert await service.seat_of(created.game, token) == 0
    for seat, code in ((0, "seat_taken"), (1, "seat_not_human"), (5, "unknown_seat")):
        with pytest.raises(ServiceError) as refused:
            await service.claim(created.game, seat)
        assert refused.value.code == code


async def test_an_ai_level_no_bot_has_is_refused_and_changes_nothing(service):
    with pytest.raises(ServiceError) as refused:
        await service.create("pantheon", {}, [SeatSpec(), SeatSpec(type="ai", level="genius")])
    assert status_of(refused.value) == 422 and refused.value.code == "unknown_level"
    assert "expert, greedy, random, strong" in refused.value.message
    assert await service.lobby(10) == []
    created, _ = await new_game(service)
    with pytest.raises(ServiceError) as refused:
        await service.hand_to_ai(created.game, 0, "genius")
    assert refused.value.code == "unknown_level"
    assert "ai:0" not in await service.meta(created.game)


async def test_a_game_played_through_the_service_to_its_end_replays_to_the_same_state(service):
    created, _ = await new_game(service)
    rnd = random.Random(7)
    while True:
        version, state = await service.state_at(created.game)
        if state.finished:
            break
        seat = state.agenda[0].seat
        command = random_command(state, seat, rnd)
        await service.submit(created.game, seat, msgspec.to_builtins(command), idempotency_key=f"k{version}")
    replayed_version, replayed = await service.state_at(created.game, at=version)
    assert replayed == state and replayed_version == version
