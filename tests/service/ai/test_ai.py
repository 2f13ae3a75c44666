"""AI turns through RQ: real worker processes, real Redis, the same command path as people."""

import asyncio
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from domain import games
from domain.pantheon import PANTHEON
from service.ai.scheduler import Scheduler, TurnNotifier, turn_key
from service.ai.sweeper import Sweeper
from service.ai.worker import play_ai_turn
from service.audit.archive import load_export
from service.audit.checks import audit as audit_report
from service.store.connection import connect, connect_sync
from service.store.streams import EventStore
from service.write import GameService, SeatSpec

from ..api_helpers import QUEUE_URL, api_client, bearer, new_game

PARTITIONS = 4


def worker(redis_url: str, prefix: str, **env: str) -> subprocess.Popen:
    environment = dict(
        os.environ, REDIS_URL=redis_url, PANTHEON_PREFIX=prefix, PANTHEON_FEED_PARTITIONS=str(PARTITIONS), **env
    )
    return subprocess.Popen(
        [sys.executable, "-m", "service.cli", "worker"],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def create(redis_url: str, prefix: str, seats: list[SeatSpec], schedule: bool = True) -> str:
    client = connect(redis_url)
    store = EventStore(client, prefix=prefix, partitions=PARTITIONS)
    notifier = TurnNotifier(Scheduler(redis_url, prefix, PARTITIONS, queue=QUEUE_URL), store) if schedule else None
    service = GameService(store, on_awaiting=notifier)
    game = (await service.create("pantheon", {}, seats)).game
    await client.aclose()
    return game


async def state_of(redis_url: str, prefix: str, game: str):
    client = connect(redis_url)
    service = GameService(EventStore(client, prefix=prefix, partitions=PARTITIONS))
    try:
        return await service.state_at(game), await service.store.read(game)
    finally:
        await client.aclose()


def header_of(redis_url: str, prefix: str, game: str):
    async def load():
        client = connect(redis_url)
        try:
            return (await load_export(EventStore(client, prefix=prefix, partitions=PARTITIONS), game))[0]
        finally:
            await client.aclose()

    return asyncio.run(load())


def stop(workers: list[subprocess.Popen]) -> None:
    for w in workers:
        w.send_signal(signal.SIGTERM)
    for w in workers:
        w.wait(timeout=30)


def wait_for(condition, timeout: float, every: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(every)
    raise AssertionError("timed out")


def test_the_same_ai_turn_run_twice_applies_once(redis_url, prefix):
    game = asyncio.run(create(redis_url, prefix, [SeatSpec(type="ai", level="random")] * 2, schedule=False))
    (version, state), _ = asyncio.run(state_of(redis_url, prefix, game))
    seat = state.agenda[0].seat
    first = play_ai_turn(redis_url, prefix, PARTITIONS, game, version, seat)
    second = play_ai_turn(redis_url, prefix, PARTITIONS, game, version, seat)
    (after, _), envelopes = asyncio.run(state_of(redis_url, prefix, game))
    assert first["outcome"] == "played" and second["outcome"] in ("stale", "duplicate")
    batch = [e for e in envelopes if e.idempotency_key == turn_key(game, version, seat)]
    assert batch and batch[0].version == version + 1 and after == batch[-1].version
    assert batch[0].provenance["bot"] == "random" and len(batch[0].provenance["view"]) == 64
    assert batch[0].provenance["rng"] == turn_key(game, version, seat) and batch[0].provenance["budget"]


def _all_ai_game(redis_url: str, prefix: str, body: dict, **env: str) -> tuple[dict, dict]:
    """A game created with `body` (AI seats only), played to its end by two real workers (with
    these environment variables): its status and its audit."""

    async def play() -> tuple[dict, dict]:
        async with api_client(redis_url, prefix) as client:
            created = await client.post("/games", json=body)
            assert created.status_code == 201, created.text
            game = created.json()["game"]
            deadline = time.monotonic() + 600
            while not (detail := (await client.get(f"/games/{game}")).json())["finished"]:
                assert time.monotonic() < deadline, "the AI game did not finish"
                await asyncio.sleep(0.2)
            return detail, (await client.get(f"/games/{game}/audit")).json()

    workers = [worker(redis_url, prefix, **env), worker(redis_url, prefix, **env)]
    try:
        return asyncio.run(play())
    finally:
        stop(workers)


def test_a_four_seat_all_ai_game_is_played_to_its_end_through_the_api_and_the_workers(redis_url, prefix):
    seats = [{"type": "ai", "level": level} for level in ("random", "greedy", "random", "greedy")]
    detail, audit = _all_ai_game(redis_url, prefix, {"seats": seats})
    assert detail["status"] == "finished" and detail["outcome"]["winners"]
    assert audit["ok"], audit  # the seed, the chain, every command re-decided, AI views, the scores
    assert {c["name"]: c["ok"] for c in audit["checks"]}["ai_views"] is True
    (_, state), envelopes = asyncio.run(state_of(redis_url, prefix, detail["game"]))
    keys = [e.idempotency_key for e in envelopes if e.cause is not None and e.seat is not None]
    assert len(keys) == len(set(keys))  # every AI turn applied exactly once
    assert all(e.provenance for e in envelopes if e.cause is not None and e.seat is not None)
    scheduler = Scheduler(redis_url, prefix, PARTITIONS, queue=QUEUE_URL)
    Sweeper(scheduler).sweep()  # what the workers' sweepers do: a finished game leaves no AI bookkeeping
    assert scheduler.turns.redis.hlen(scheduler.turns.turns_key) == 0
    assert not any(scheduler.turns.redis.hlen(scheduler.turns.layout.awaiting_key(p)) for p in range(PARTITIONS))
    # what the auditor's `pantheon audit --bots` does: every decision made again, identically
    rerun = audit_report(header_of(redis_url, prefix, detail["game"]), envelopes, PANTHEON, rerun_bots=True)
    assert rerun.ok and {c.name: c.ok for c in rerun.checks}["ai_decisions"] is True


def test_the_admin_hands_a_seat_to_the_ai_which_plays_it_from_then_on(redis_url, prefix):
    async def hand_over() -> tuple[str, int, int]:
        async with api_client(redis_url, prefix) as client:
            created = (await client.post("/games", json={"seats": [{"type": "human"}] * 2})).json()
            game, admin = created["game"], created["admin_token"]
            detail = (await client.get(f"/games/{game}")).json()
            seat, version = detail["awaiting"]["seat"], detail["version"]
            url = f"/games/{game}/seats/{seat}/ai"
            assert (await client.post(url, json={"level": "random"})).status_code == 401
            refused = await client.post(url, json={"level": "random"}, headers={"Authorization": "Bearer nope"})
            assert refused.status_code == 403 and refused.json()["code"] == "wrong_token"
            bad = await client.post(url, json={"level": "genius"}, headers={"Authorization": f"Bearer {admin}"})
            assert bad.status_code == 400
            assert (await client.get(f"/games/{game}")).json()["seats"][seat]["type"] == "human"  # nothing changed
            handed = await client.post(url, json={"level": "random"}, headers={"Authorization": f"Bearer {admin}"})
            assert handed.status_code == 200 and handed.json() == {"seat": seat, "level": "random"}
            seats = (await client.get(f"/games/{game}")).json()["seats"]
            assert seats[seat] == {
                "seat": seat,
                "type": "ai",
                "level": "random",
                "claimed": True,
                "reserved": False,
                "name": None,
            }
            assert seats[1 - seat]["type"] == "human"
            return game, seat, version

    workers = [worker(redis_url, prefix)]
    try:
        game, seat, version = asyncio.run(hand_over())
        wait_for(lambda: asyncio.run(state_of(redis_url, prefix, game))[0][0] > version, timeout=60)
    finally:
        stop(workers)
    (_, state), envelopes = asyncio.run(state_of(redis_url, prefix, game))
    played = [e for e in envelopes if e.cause is not None and e.seat == seat]
    assert played and all(e.provenance["bot"] == "random" for e in played)
    # The other seat is still a person's: the AI never plays it.
    assert all(e.seat == seat for e in envelopes if e.provenance)


def test_a_person_takes_back_a_seat_handed_to_the_ai_and_the_queued_ai_turn_then_does_nothing(redis_url, prefix):
    async def take_back() -> tuple[str, int, int, float]:
        async with api_client(redis_url, prefix) as client:
            game, admin, tokens = await new_game(client, seats=("human", "human"))
            detail = (await client.get(f"/games/{game}")).json()
            seat, version = detail["awaiting"]["seat"], detail["version"]
            url = f"/games/{game}/seats/{seat}/ai"
            assert (await client.post(url, json={"level": "random"}, headers=bearer(admin))).status_code == 200
            assert (await client.delete(url)).status_code == 401
            refused = await client.delete(url, headers=bearer(tokens[1 - seat]))  # the other seat's token
            assert refused.status_code == 403 and refused.json()["code"] == "wrong_token"
            assert (await client.get(f"/games/{game}")).json()["seats"][seat]["type"] == "ai"  # nothing changed
            asked = time.time()
            back = await client.delete(url, headers=bearer(tokens[seat]))
            assert back.status_code == 200, back.text
            assert back.json() == {
                "seat": seat,
                "type": "human",
                "level": None,
                "claimed": True,
                "reserved": False,
                "name": None,
            }
            again = await client.delete(url, headers=bearer(admin))
            assert again.status_code == 409 and again.json()["code"] == "not_handed_over"
            ai_game, ai_admin, _ = await new_game(client, seats=("human", "ai"))
            from_creation = await client.delete(f"/games/{ai_game}/seats/1/ai", headers=bearer(ai_admin))
            assert from_creation.status_code == 409 and from_creation.json()["code"] == "not_handed_over"
            return game, seat, version, asked

    game, seat, version, asked = asyncio.run(take_back())
    scheduler = Scheduler(redis_url, prefix, PARTITIONS, queue=QUEUE_URL)
    key = scheduler.turns.layout.awaiting_key(scheduler.turns.layout.partition(game))
    since = int(scheduler.turns.redis.hget(key, game).decode().split("|")[2]) / 1000
    assert since >= asked - 0.05  # the idle clock starts afresh: no instant idle hand-over back
    # the AI job queued while the AI held the seat runs now and leaves the turn to the person
    assert play_ai_turn(redis_url, prefix, PARTITIONS, game, version, seat) == {"outcome": "not_ai"}
    (current, _), _ = asyncio.run(state_of(redis_url, prefix, game))
    assert current == version


def test_a_seat_idle_past_the_games_limit_is_handed_to_the_ai_so_the_game_goes_on(redis_url, prefix):
    async def create_idle() -> str:
        client = connect(redis_url)
        store = EventStore(client, prefix=prefix, partitions=PARTITIONS)
        service = GameService(
            store, on_awaiting=TurnNotifier(Scheduler(redis_url, prefix, PARTITIONS, queue=QUEUE_URL), store)
        )
        try:  # the API's limit is at least 10 s; the service takes 1 s to keep the test short
            return (await service.create("pantheon", {}, [SeatSpec(type="human")] * 2, idle_seconds=1)).game
        finally:
            await client.aclose()

    game = asyncio.run(create_idle())
    (version, state), _ = asyncio.run(state_of(redis_url, prefix, game))
    seat = state.agenda[0].seat
    workers = [worker(redis_url, prefix)]
    try:
        wait_for(lambda: asyncio.run(state_of(redis_url, prefix, game))[0][0] > version, timeout=60)
    finally:
        stop(workers)
    _, envelopes = asyncio.run(state_of(redis_url, prefix, game))
    turn = [e for e in envelopes if e.version == version + 1][0]
    assert turn.seat == seat and turn.provenance["bot"] == "greedy"
    meta = connect_sync(redis_url).hgetall(
        Scheduler(redis_url, prefix, PARTITIONS, queue=QUEUE_URL).turns.meta_key(game)
    )
    assert meta[f"ai:{seat}".encode()] == b"greedy"
    assert meta[b"rev"] == b"1"  # a metadata revision: HTTP ETags of the game change (no event is appended)


def test_a_worker_killed_mid_turn_leaves_the_turn_to_be_played_after_all(redis_url, prefix):
    scheduler = Scheduler(redis_url, prefix, PARTITIONS, queue=QUEUE_URL)
    client = connect_sync(scheduler.queue_url)  # RQ's jobs are on the queue's Redis
    for _ in range(12):  # the kill must land while the strong bot thinks: retry if the turn was too quick
        game = asyncio.run(create(redis_url, prefix, [SeatSpec(type="ai", level="strong")] * 2, schedule=False))
        (version, state), _ = asyncio.run(state_of(redis_url, prefix, game))
        seat = state.agenda[0].seat
        doomed = worker(redis_url, prefix, PANTHEON_AI_LEASE_S="1")
        scheduler.enqueue(game, version, seat)
        job_key = f"rq:job:{prefix}-{turn_key(game, version, seat)}"
        # polled often: on a busy machine a quick first decision is over between two slow polls
        wait_for(lambda: client.hget(job_key, "status") in (b"started", b"finished"), timeout=60, every=0.005)  # noqa: B023 - called within this iteration
        doomed.send_signal(signal.SIGKILL)
        doomed.wait()
        if asyncio.run(state_of(redis_url, prefix, game))[0][0] == version:
            break
    else:
        pytest.fail("every turn finished before the worker could be killed")
    heir = worker(redis_url, prefix, PANTHEON_AI_LEASE_S="1")
    try:
        wait_for(lambda: asyncio.run(state_of(redis_url, prefix, game))[0][0] > version, timeout=90)
    finally:
        heir.send_signal(signal.SIGTERM)
        heir.wait(timeout=30)
    _, envelopes = asyncio.run(state_of(redis_url, prefix, game))
    assert len([e for e in envelopes if e.idempotency_key == turn_key(game, version, seat) and e.cause]) == 1
    client.close()


def test_a_pergamon_game_of_ai_seats_at_every_level_is_played_to_its_end_by_the_workers(redis_url, prefix):
    seats = [{"type": "ai", "level": level} for level in ("random", "greedy", "strong")]
    detail, audit = _all_ai_game(
        redis_url, prefix, {"kind": "pergamon", "seats": seats, "options": {"vp_visibility": "secret"}}
    )
    assert detail["kind"] == "pergamon" and detail["outcome"]["winners"] and len(detail["outcome"]["places"]) == 3
    assert [s["level"] for s in detail["seats"]] == ["random", "greedy", "strong"]
    assert audit["ok"], audit  # every AI command re-decided, and decided from exactly its seat's knowledge
    assert {c["name"]: c["ok"] for c in audit["checks"]}["ai_views"] is True
    (_, state), envelopes = asyncio.run(state_of(redis_url, prefix, detail["game"]))
    bots = {e.provenance["bot"] for e in envelopes if e.provenance}
    assert bots == {"random", "greedy", "strong"}
    scheduler = Scheduler(redis_url, prefix, PARTITIONS, queue=QUEUE_URL)
    Sweeper(scheduler).sweep()
    assert scheduler.turns.redis.hlen(scheduler.turns.turns_key) == 0


def test_a_short_card_game_of_three_ai_seats_at_every_level_is_played_to_its_end_by_the_workers(redis_url, prefix):
    levels = ("random", "greedy", "strong")
    seats = [{"type": "ai", "level": level} for level in levels]
    body = {"kind": "pantheon_cards", "seats": seats, "options": {"game_length": "short"}}
    detail, audit = _all_ai_game(redis_url, prefix, body)
    assert detail["kind"] == "pantheon_cards" and detail["outcome"]["winners"] and len(detail["outcome"]["scores"]) == 3
    assert [s["level"] for s in detail["seats"]] == list(levels)
    assert audit["ok"], audit  # every AI command re-decided, and decided from exactly its seat's knowledge
    assert {c["name"]: c["ok"] for c in audit["checks"]}["ai_views"] is True
    (_, state), envelopes = asyncio.run(state_of(redis_url, prefix, detail["game"]))
    assert state.finished and {e.provenance["bot"] for e in envelopes if e.provenance} == set(levels)
    keys = [e.idempotency_key for e in envelopes if e.cause is not None and e.seat is not None]
    assert len(keys) == len(set(keys))  # every AI turn applied exactly once
    rerun = audit_report(
        header_of(redis_url, prefix, detail["game"]), envelopes, games.get("pantheon_cards").decider, rerun_bots=True
    )
    assert rerun.ok and {c.name: c.ok for c in rerun.checks}["ai_decisions"] is True
    scheduler = Scheduler(redis_url, prefix, PARTITIONS, queue=QUEUE_URL)
    Sweeper(scheduler).sweep()
    assert scheduler.turns.redis.hlen(scheduler.turns.turns_key) == 0


def test_an_expert_seat_plays_a_game_to_its_end_through_the_api_on_its_time_budget(redis_url, prefix):
    seats = [{"type": "ai", "level": level} for level in ("expert", "greedy")]
    detail, audit = _all_ai_game(redis_url, prefix, {"kind": "pergamon", "seats": seats}, PANTHEON_AI_EXPERT_S="0.01")
    assert detail["finished"] and [s["level"] for s in detail["seats"]] == ["expert", "greedy"]
    assert audit["ok"] and {c["name"]: c["ok"] for c in audit["checks"]}["ai_views"] is True, audit
    _, envelopes = asyncio.run(state_of(redis_url, prefix, detail["game"]))
    expert = [e.provenance for e in envelopes if e.provenance and e.provenance["bot"] == "expert"]
    assert len(expert) > 10 and all("fallback" not in p for p in expert)
    iterations = [json.loads(p["params"])["iterations"] for p in expert]  # the time budget, as iterations
    assert min(iterations) >= 16 and all(p["budget"].startswith(f"{n} ISMCTS") for p, n in zip(expert, iterations))
    rerun = audit_report(
        header_of(redis_url, prefix, detail["game"]), envelopes, games.get("pergamon").decider, rerun_bots=True
    )
    assert {c.name: c.ok for c in rerun.checks}["ai_decisions"] is True  # the recorded budget chooses the same again
