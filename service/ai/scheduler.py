"""Scheduling AI turns: when a game awaits an AI seat, a job goes to an RQ queue at once (the fast
path, after each accepted command); the sweeper (service.ai.sweeper) finds, from the games
themselves, any due turn that no job is running or waiting for, and enqueues it again."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import msgspec
from rq import Queue

from service.config import default
from service.store.connection import TIMEOUT_S, queue_url
from service.store.records import SeatPlayer
from service.store.streams import EventStore
from service.store.turns import AiTurns
from service.store.turns import lease_key as lease_key  # a lease is named by it (the worker, tests)

log = logging.getLogger(__name__)


def queue_name(prefix: str) -> str:
    """The RQ queue of a deployment's AI turns (its key prefix in the name keeps deployments apart)."""
    return f"{prefix}-ai"


# The job an AI turn runs, named (not imported) so the scheduler need not import the worker;
# RQ imports it in the worker process.
TURN_JOB = "service.ai.worker.play_ai_turn"
JOB_TIMEOUT_S = 120
FAILURE_TTL_S = 7 * 24 * 3600  # failed AI jobs stay in RQ's failed registry a week (RQ's default: a year)
# A running AI job holds a lease this long (renewed while it runs); a turn whose job neither waits
# in the queue nor runs under a live lease is enqueued again by the sweeper (a duplicate would be
# harmless: the same idempotency key). PANTHEON_AI_LEASE_S's default: each role passes its settings'.
LEASE_S: float = default("ai_lease_s")


def turn_key(game: str, version: int, seat: int) -> str:
    """The idempotency key of one AI turn (every job of the turn uses it)."""
    return f"ai-{game}-{version}-{seat}"


def ai_level(meta: dict[bytes, bytes] | dict[str, bytes], seat: int) -> str | None:
    """The AI level playing `seat`: from creation, or handed over later; None for a person."""
    meta = {k.decode() if isinstance(k, bytes) else k: v for k, v in meta.items()}
    handed = meta.get(f"ai:{seat}")
    if handed:
        return handed.decode()
    seats = msgspec.json.decode(meta.get("seats", b"[]"))
    spec = seats[seat] if 0 <= seat < len(seats) else {}
    if spec.get("type") != "ai":
        return None
    return spec.get("level") or "random"


@dataclass(frozen=True)
class Turn:
    """The job last enqueued for a game's AI turn, as kept in the turns hash (one field per game)."""

    version: int
    seat: int
    attempt: int
    job_id: str
    enqueued_at: float = 0.0  # the Redis clock, in seconds
    suspect_since: float = 0.0  # when the sweeper first found the job neither waiting nor running

    def encode(self) -> str:
        return (
            f"{self.version}|{self.seat}|{self.attempt}|{self.job_id}|{self.enqueued_at:.3f}|{self.suspect_since:.3f}"
        )

    @classmethod
    def decode(cls, value: bytes) -> Turn:
        parts = value.decode().split("|")  # earlier versions kept only the first four fields
        version, seat, attempt, job_id = parts[:4]
        extra = [float(p) for p in parts[4:6]]
        return cls(int(version), int(seat), int(attempt), job_id, *extra)

    def is_for(self, version: int, seat: int) -> bool:
        return (self.version, self.seat) == (version, seat)


class Scheduler:
    """Enqueues AI turns on RQ (sync Redis, as RQ needs), bounded in time like every other client.
    The queue lives on `queue` (PANTHEON_QUEUE_URL; None: REDIS_URL unless that is a Redis
    Cluster, which RQ cannot use); the turns, leases and sweeper state on the store. `lease_s`,
    `timeout_s`, `detect_s`: PANTHEON_AI_LEASE_S, PANTHEON_REDIS_TIMEOUT_S, PANTHEON_REDIS_DETECT_S."""

    def __init__(
        self,
        redis_url: str,
        prefix: str,
        partitions: int,
        *,
        lease_s: float = LEASE_S,
        queue: str | None = None,
        timeout_s: float = TIMEOUT_S,
        detect_s: float | None = None,
    ) -> None:
        self.redis_url, self.prefix, self.partitions, self.lease_s = redis_url, prefix, partitions, lease_s
        self.queue_url = queue_url(redis_url, queue, detect_s)
        self.turns = AiTurns(redis_url, self.queue_url, prefix, partitions, timeout_s=timeout_s, detect_s=detect_s)
        self.queue = Queue(queue_name(prefix), connection=self.turns.queue_connection())

    def job_id(self, game: str, version: int, seat: int, attempt: int) -> str:
        return f"{self.prefix}-{turn_key(game, version, seat)}" + (f"-r{attempt}" if attempt else "")

    def enqueue(self, game: str, version: int, seat: int, attempt: int = 0) -> str:
        """Record the turn's job and put it on the queue; its job id."""
        job_id = self.job_id(game, version, seat, attempt)
        now = self.now()
        self.turns.record(game, Turn(version, seat, attempt, job_id, now).encode())
        # No RQ retry: a failed job's retry would wait in RQ's scheduled registry, which only an RQ
        # scheduler serves; the sweeper enqueues a failed turn again instead.
        self.queue.enqueue(
            TURN_JOB,
            self.redis_url,
            self.prefix,
            self.partitions,
            game,
            version,
            seat,
            **({} if self.queue_url == self.redis_url else {"queue_url": self.queue_url}),
            job_id=job_id,
            job_timeout=JOB_TIMEOUT_S,
            failure_ttl=FAILURE_TTL_S,
        )
        return job_id

    def now(self) -> float:
        """The Redis clock in seconds: one clock for every process, whatever machine it runs on."""
        return self.turns.now()

    def close(self) -> None:
        self.turns.close()


class TurnNotifier:
    """The write path's hook after each accepted command (`GameService.on_awaiting`): enqueue the AI
    turn at once if an AI plays the awaited seat. It never fails the command: the command is stored,
    and a turn not enqueued here is found by the sweeper."""

    def __init__(self, scheduler: Scheduler, store: EventStore) -> None:
        self.scheduler, self.store = scheduler, store

    async def __call__(self, game: str, version: int, seat: int, player: SeatPlayer | None = None) -> None:
        try:
            seats, handed = player or await self.store.records.seat_player(game, seat)
            if ai_level({"seats": seats or b"[]", **({f"ai:{seat}": handed} if handed else {})}, seat) is None:
                return
            # RQ's client is synchronous: off the event loop, so a slow Redis never stalls it
            await asyncio.to_thread(self.scheduler.enqueue, game, version, seat)
        except Exception as error:  # noqa: BLE001 - whatever failed, the sweeper enqueues the turn
            log.warning(
                "AI turn of game %s at version %d (seat %d) not enqueued now (%r); the sweeper will",
                game,
                version,
                seat,
                error,
            )

    def close(self) -> None:
        self.scheduler.close()
