"""Every awaited AI turn is played, whatever fails: real `pantheon worker` processes on a private
redis-server, real faults (a process gone between the append and the scheduling, a job stranded
between queues, a job that fails while Redis pauses its writes, Redis killed and started again), and
each turn played within 2 lease periods of the fault's end. Projectors outlive Redis restarts too."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import msgspec
import pytest

from domain.pantheon.random_play import random_command
from service.ai.scheduler import Scheduler, TurnNotifier, lease_key, queue_name
from service.audit.archive import load_export
from service.audit.checks import audit
from service.store.connection import connect
from service.store.streams import EventStore
from service.write import GameService, SeatSpec

from ..api_helpers import api_client
from ..private_redis import needs_redis_server, private_server
from ..projector_helpers import (
    new_games,
    play,
    rebuilt_snapshot,
    snapshot,
    wait_caught_up,
)

pytestmark = needs_redis_server

ROOT = Path(__file__).resolve().parents[3]
PARTITIONS = 4
LEASE_S = 3.0
BOUND_S = 2 * LEASE_S  # the bound: a turn is played within 2 lease periods of a fault's end
WORKER_ENV = {"PANTHEON_AI_LEASE_S": str(LEASE_S), "PANTHEON_AI_SWEEP_S": "0.5"}


@contextmanager
def workers(url: str, prefix: str, count: int = 1, **env: str) -> Iterator[list[subprocess.Popen]]:
    """`pantheon worker` processes; their logs are printed if the test fails."""
    logs = [tempfile.TemporaryFile() for _ in range(count)]  # noqa: SIM115 - open as long as the process writes or is read at once
    environment = dict(
        os.environ, REDIS_URL=url, PANTHEON_PREFIX=prefix, PANTHEON_FEED_PARTITIONS=str(PARTITIONS), **WORKER_ENV, **env
    )
    started = [
        subprocess.Popen(
            [sys.executable, "-m", "service.cli", "worker"],
            cwd=ROOT,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        for log in logs
    ]
    try:
        yield started
    except BaseException:
        for log in logs:
            log.seek(0)
            print(log.read().decode(errors="replace")[-4000:])
        raise
    finally:
        for process in started:
            if process.poll() is None:
                process.send_signal(signal.SIGCONT)
                process.kill()
            process.wait()
        for log in logs:
            log.close()


class Table:
    """A game service on the test's Redis as the API has it (it enqueues AI turns at once), or
    without scheduling (`notify=False`: what a process that died right after an append leaves)."""

    def __init__(self, url: str, prefix: str, notify: bool = True) -> None:
        self.client = connect(url, timeout_s=1)
        self.scheduler = Scheduler(url, prefix, PARTITIONS)
        store = EventStore(self.client, prefix=prefix, partitions=PARTITIONS)
        self.service = GameService(store, on_awaiting=TurnNotifier(self.scheduler, store) if notify else None)

    async def close(self) -> None:
        await self.client.aclose()
        self.scheduler.close()

    async def new_game(self, level: str = "random") -> str:
        """Seat 0 a person, seat 1 the AI."""
        return (await self.service.create("pantheon", {}, [SeatSpec(), SeatSpec(type="ai", level=level)])).game

    async def awaited(self, game: str) -> tuple[int, int | None]:
        version, state = await self.service.state_at(game)
        awaited = (await self.service.decider(game)).awaited(state)
        return version, None if awaited is None else awaited.seat

    async def person_plays_until_the_ai_is_awaited(
        self, game: str, rnd: random.Random, *, keys: str = "move"
    ) -> tuple[int, dict, str]:
        """Seat 0's random commands (after waiting for the AI's turns) until the AI is awaited: the
        version then, and the last command with its key."""
        last = None
        while True:
            version, seat = await self.wait_for(game, lambda v, s: s != 1, timeout=60)
            if seat is None:
                raise AssertionError("the game ended before the AI was awaited")
            if last is not None and seat == 1:
                return version, *last
            _, state = await self.service.state_at(game)
            command, key = msgspec.to_builtins(random_command(state, 0, rnd)), f"{keys}-{version}"
            await self.service.submit(game, 0, command, idempotency_key=key)
            last = (command, key)
            version, seat = await self.awaited(game)
            if seat == 1:
                return version, *last

    async def wait_for(self, game: str, condition, timeout: float) -> tuple[int, int | None]:
        deadline = time.monotonic() + timeout
        while True:
            version, seat = await self.awaited(game)
            if condition(version, seat):
                return version, seat
            assert time.monotonic() < deadline, f"timed out at version {version}, seat {seat} awaited"
            await asyncio.sleep(0.05)

    async def ai_played_within(self, game: str, version: int, bound: float) -> float:
        """Seconds until the game moved past `version`; fails past `bound` (waits longer, to say
        how long it took when it does come)."""
        started = time.monotonic()
        await self.wait_for(game, lambda v, s: v > version, timeout=max(30.0, 3 * bound))
        took = time.monotonic() - started
        print(f"AI turn played {took:.2f} s after the fault (bound {bound:.1f} s)")
        assert took <= bound, f"the AI turn took {took:.1f} s after the fault, over the bound of {bound:.1f} s"
        return took

    async def audits_clean(self, game: str) -> None:
        header, envelopes = await load_export(self.service.store, game)
        report = audit(header, envelopes, await self.service.decider(game))
        assert all(c.ok is not False for c in report.checks), report.checks
        ai_keys = [e.idempotency_key for e in envelopes if e.cause is not None and e.seat == 1]
        assert len(ai_keys) == len(set(ai_keys))  # every AI turn applied once


@asynccontextmanager
async def table(url: str, prefix: str, notify: bool = True) -> AsyncIterator[Table]:
    t = Table(url, prefix, notify)
    try:
        yield t
    finally:
        await t.close()


async def test_a_turn_whose_scheduling_died_with_its_process_is_played_though_the_retry_finds_the_command_done():
    # The person's command is stored by a process that dies before it enqueues the AI's turn; the
    # client retries with the same key and gets the first answer (nothing is appended, so nothing
    # was scheduled there either). Before: the game waited for ever.
    with private_server() as server, workers(server.url, "died"):
        async with table(server.url, "died") as api, table(server.url, "died", notify=False) as dying:
            rnd = random.Random(1)
            game = await api.new_game()
            for _ in range(3):
                version, command, key = await dying.person_plays_until_the_ai_is_awaited(game, rnd)
                retried = await api.service.submit(game, 0, command, idempotency_key=key)
                assert retried.duplicate and retried.version == version
                await api.ai_played_within(game, version, BOUND_S)
            await api.audits_clean(game)
        async with api_client(server.url, "died") as client:  # each time a log line, and a count on /metrics
            metrics = (await client.get("/metrics")).text
        found = re.search(r'^pantheon_ai_turns_requeued_total\{reason="never_enqueued"\} (\d+)$', metrics, re.M)
        assert found and int(found.group(1)) >= 3, metrics
        assert re.search(r"^pantheon_ai_last_sweep_timestamp_seconds \d", metrics, re.M)


async def test_a_job_stranded_between_rqs_queues_by_a_worker_that_died_there_is_enqueued_again():
    # RQ moves a job from the queue to an intermediate list as a worker takes it; a worker killed
    # at that moment leaves it there, marked queued. Before: the sweeper counted it alive for ever.
    with private_server() as server:
        async with table(server.url, "strand") as api:
            game = await api.new_game()
            version, seat = await api.awaited(game)  # no worker runs: the AI may be awaited from the start
            if seat != 1:
                version, _, _ = await api.person_plays_until_the_ai_is_awaited(game, random.Random(2))
            admin = server.admin()
            queue = f"rq:queue:{queue_name('strand')}"
            assert admin.lmove(queue, f"{queue}:intermediate", "LEFT", "RIGHT") is not None
            with workers(server.url, "strand"):
                await api.ai_played_within(game, version, BOUND_S + 2)  # + the worker's start-up
            await api.audits_clean(game)


async def test_a_job_that_fails_while_redis_pauses_writes_is_played_by_a_later_job():
    # The strong bot thinks, Redis pauses writes meanwhile, the job's append times out and the job
    # fails. Before: RQ parked its retry in the scheduled registry, which no RQ scheduler serves,
    # and the sweeper counted it alive for ever.
    with private_server() as server, workers(server.url, "raise", PANTHEON_REDIS_TIMEOUT_S="0.4"):
        async with table(server.url, "raise") as api:
            admin, rnd = server.admin(), random.Random(3)
            for _ in range(10):  # the pause must land while the bot thinks: again if the turn was quicker
                game = await api.new_game(level="strong")
                version, _, _ = await api.person_plays_until_the_ai_is_awaited(game, rnd)
                job = api.scheduler.job_id(game, version, 1, 0)
                while not admin.exists(lease_key("raise", job)) and (await api.awaited(game))[0] == version:
                    await asyncio.sleep(0.002)
                admin.execute_command("CLIENT", "PAUSE", 1500, "WRITE")
                await asyncio.sleep(1.6)  # the pause ends
                if (await api.awaited(game))[0] == version:
                    break
            else:
                pytest.fail("every AI turn was stored before Redis paused")
            await api.ai_played_within(game, version, BOUND_S)
            await api.audits_clean(game)


async def test_after_redis_is_killed_and_started_again_workers_play_the_next_turns():
    # Before: the first AI turn after the restart failed on a dead connection and its retry was
    # parked; a worker whose RQ loop gave up was gone for good.
    with private_server() as server, workers(server.url, "restart") as started:
        rnd = random.Random(4)
        async with table(server.url, "restart") as api:
            game = await api.new_game()
            for _ in range(2):  # the worker holds connections from earlier turns
                version, _, _ = await api.person_plays_until_the_ai_is_awaited(game, rnd)
                await api.ai_played_within(game, version, BOUND_S)
        for down_s in (0.0, 4.0):  # at once, then after RQ's loop has failed a few times
            server.kill()
            time.sleep(down_s)
            server.start()
            async with table(server.url, "restart") as api:
                version, _, _ = await api.person_plays_until_the_ai_is_awaited(game, rnd)
                await api.ai_played_within(game, version, BOUND_S)
        assert all(p.poll() is None for p in started)
        async with table(server.url, "restart") as api:
            await api.audits_clean(game)


async def test_a_projector_outlives_redis_being_killed_and_started_again():
    with private_server() as server:
        environment = dict(
            os.environ, REDIS_URL=server.url, PANTHEON_PREFIX="proj", PANTHEON_FEED_PARTITIONS=str(PARTITIONS)
        )
        projector = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "projector", "--block-ms", "100"],
            cwd=ROOT,
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            for round_, down_s in enumerate((0.0, 3.0)):
                server.kill()
                time.sleep(down_s)
                server.start()
                async with table(server.url, "proj", notify=False) as api:
                    store = api.service.store
                    games = await new_games(api.service, 2)
                    await play(api.service, games, 10, random.Random(round_))
                    await wait_caught_up(store, games, timeout=20)
                    assert await snapshot(store, games) == await rebuilt_snapshot(store, games)
            assert projector.poll() is None
        finally:
            projector.kill()
            projector.wait()
