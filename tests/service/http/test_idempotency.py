"""Idempotency that cannot lie: a key belongs to one game and one seat, remembers the request it
answered, forgets refusals, expires, and cannot be taken by a client from an AI turn."""

from __future__ import annotations

import asyncio
import random

from domain.kernel import fold
from domain.pantheon.random_play import random_command
from domain.rng import game_rng
from service.ai.scheduler import turn_key
from service.ai.worker import play_turn
from service.store.connection import connect

from ..api_helpers import (
    api_client,
    assert_problem,
    bearer,
    new_game,
    next_command,
    version_of,
    wire,
)


async def _send(client, game, token, command, key=None):
    headers = {**bearer(token), **({"Idempotency-Key": key} if key else {})}
    return await client.post(f"/games/{game}/commands", json=command, headers=headers)


async def _until_another_seat(client, referee, game, tokens, seat, rnd) -> tuple[int, dict, int]:
    """Play (without keys) until a seat other than `seat` is awaited; its seat, command and version."""
    while True:
        other, command, version = await next_command(client, referee, game, rnd)
        if other != seat:
            return other, command, version
        assert (await _send(client, game, tokens[other], command)).status_code == 201


async def test_another_seats_command_under_the_same_key_is_applied_not_answered_with_the_first(client, referee):
    game, _, tokens = await new_game(client)
    rnd = random.Random(1)
    seat, command, _ = await next_command(client, referee, game, rnd)
    assert (await _send(client, game, tokens[seat], command, "turn")).status_code == 201
    other, command, version = await _until_another_seat(client, referee, game, tokens, seat, rnd)

    answer = await _send(client, game, tokens[other], command, "turn")

    assert answer.status_code == 201, answer.text
    assert (
        answer.json()["first"] == version + 1 and await version_of(client, game) == answer.json()["version"] > version
    )


async def test_the_same_key_with_another_command_is_refused_and_changes_nothing(client, referee):
    game, _, tokens = await new_game(client)
    seat, command, _ = await next_command(client, referee, game, random.Random(2))
    first = await _send(client, game, tokens[seat], command, "k-1")
    assert first.status_code == 201
    version = await version_of(client, game)
    another = {"type": "pass"} if command["type"] != "pass" else {"type": "draw_card"}

    answer = await _send(client, game, tokens[seat], another, "k-1")

    assert_problem(answer, 422, "idempotency_key_reused")
    assert await version_of(client, game) == version
    retried = await _send(client, game, tokens[seat], command, "k-1")  # the first request again: its answer
    assert retried.status_code == 201 and retried.json() == first.json()


async def test_a_refused_command_is_not_remembered_so_a_retry_is_decided_afresh(client, referee):
    game, _, tokens = await new_game(client)
    seat, command, version = await next_command(client, referee, game, random.Random(3))
    refused = await _send(client, game, tokens[1 - seat], command, "again")
    assert refused.status_code == 422 and refused.json()["code"] == "not_your_turn"

    # the same seat, the same key, the same body, now that... still not its turn: refused afresh
    assert (await _send(client, game, tokens[1 - seat], command, "again")).status_code == 422
    # and the awaited seat's command under that key is its own, decided now
    accepted = await _send(client, game, tokens[seat], command, "again")
    assert accepted.status_code == 201 and accepted.json()["first"] == version + 1


async def test_remembered_keys_expire(redis_url, prefix, referee):
    async with api_client(redis_url, prefix, idempotency_ttl_s=60) as client:
        game, _, tokens = await new_game(client)
        seat, command, _ = await next_command(client, referee, game, random.Random(4))
        assert (await _send(client, game, tokens[seat], command, "expiring")).status_code == 201
    redis = connect(redis_url)
    try:
        keys = [k async for k in redis.scan_iter(match=f"*{prefix}*idem*")]
        ttls = [await redis.ttl(k) for k in keys]
        assert ttls and all(0 < ttl <= 60 for ttl in ttls)
    finally:
        await redis.aclose()


async def test_a_client_cannot_take_the_key_of_an_ai_turn(client, referee):
    """The person foresees the AI's next turn key and sends it with their own move: the AI's turn
    must still be played (today the AI got the person's answer and the game stalled)."""
    created = await client.post("/games", json={"seats": [{"type": "human"}, {"type": "ai", "level": "random"}]})
    game = created.json()["game"]
    token = (await client.post(f"/games/{game}/seats/0/claim")).json()["token"]
    seed = bytes.fromhex((await referee.meta(game))["seed"].decode())  # the referee may know it
    decider, rnd = await referee.decider(game), random.Random(5)
    while True:
        detail = (await client.get(f"/games/{game}")).json()
        seat, version = detail["awaiting"]["seat"], detail["version"]
        if seat == 1:  # the AI's turn: no worker runs here, so play it as the worker would
            assert (await play_turn(referee, game, version, 1))["outcome"] == "played"
            continue
        _, state = await referee.state_at(game, at=version)  # a fresh fold: ours to evolve
        command = random_command(state, 0, rnd)
        events = decider.decide(state, command, game_rng(seed, game, version))
        after = fold(decider, events, state)
        if decider.awaited(after).seat == 1:
            break
        assert (await _send(client, game, token, wire(command))).status_code == 201
    ai_version = version + len(events)

    stolen = await _send(client, game, token, wire(command), turn_key(game, ai_version, 1))
    assert stolen.status_code == 201 and stolen.json()["version"] == ai_version

    assert (await play_turn(referee, game, ai_version, 1))["outcome"] == "played"
    assert await version_of(client, game) > ai_version


async def test_a_burst_of_the_same_request_with_one_key_gets_the_first_answer_everywhere(redis_url, prefix, referee):
    """32 copies sent at once, half to each of two API processes: one is applied, all get its answer."""
    async with api_client(redis_url, prefix) as one, api_client(redis_url, prefix) as two:
        game, _, tokens = await new_game(one)
        for burst in range(3):
            seat, command, version = await next_command(one, referee, game, random.Random(burst))
            key, headers = f"burst-{burst}", bearer(tokens[seat])
            answers = await asyncio.gather(
                *(
                    (one if i % 2 else two).post(
                        f"/games/{game}/commands",
                        json=command,
                        headers={**headers, "Idempotency-Key": key},
                        params={"expected_version": version} if i % 4 < 2 else None,
                    )
                    for i in range(32)
                )
            )
            assert {a.status_code for a in answers} == {201}, {a.status_code: a.text for a in answers}
            assert len({a.text for a in answers}) == 1 and answers[0].json()["first"] == version + 1
            events = await referee.store.read(game)
            assert len([e for e in events if e.idempotency_key == key and e.cause]) == 1
