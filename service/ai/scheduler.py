"""Scheduling AI turns: when a game awaits an AI seat, a job goes to an RQ queue; a sweeper
re-enqueues turns whose job was lost, and hands seats idle too long to an AI."""

from __future__ import annotations

import os
import time

import msgspec
import redis
from rq import Queue, Retry
from rq.job import Job, JobStatus

from service.store.streams import EventStore


def queue_name(prefix: str) -> str:
    """The RQ queue of a deployment's AI turns (its key prefix in the name keeps deployments apart)."""
    return f"{prefix}-ai"


# The job an AI turn runs, named (not imported) so the scheduler need not import the worker;
# RQ imports it in the worker process.
TURN_JOB = "service.ai.worker.play_ai_turn"
JOB_TIMEOUT_S = 120
FAILURE_TTL_S = 7 * 24 * 3600  # failed AI jobs stay in RQ's failed registry a week (RQ's default: a year)
# A running AI job holds a lease this long; a started job without a live lease counts as lost
# (its worker died) and the turn is enqueued again (a duplicate would be harmless: same key).
LEASE_S = float(os.environ.get("PANTHEON_AI_LEASE_S", "30"))


def turn_key(game: str, version: int, seat: int) -> str:
    """The idempotency key (and job id) of one AI turn."""
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


class Scheduler:
    """Enqueues AI turns (sync Redis for RQ); also remembers who is awaited since when."""

    def __init__(self, redis_url: str, prefix: str, partitions: int) -> None:
        self.redis_url, self.prefix, self.partitions = redis_url, prefix, partitions
        self.redis = redis.Redis.from_url(redis_url)
        self.queue = Queue(queue_name(prefix), connection=self.redis)
        self._keys = EventStore(self.redis, prefix, partitions)  # only for its key layout

    @property
    def awaiting_key(self) -> str:
        """game -> "version|seat|since": the seat each running game awaits, and since when."""
        return f"{self.prefix}:ai:awaiting"

    @property
    def turns_key(self) -> str:
        """game -> "version|seat|attempt|job id": the job of the game's current AI turn (one field
        per running game, so it does not grow with the number of turns played)."""
        return f"{self.prefix}:ai:turns"

    def meta_key(self, game: str) -> str:
        return self._keys.keys(game).meta

    def __call__(self, game: str, version: int, seat: int) -> None:
        # Called on every accepted command (from the API's event loop): one round trip.
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(self.awaiting_key, game, f"{version}|{seat}|{time.time():.3f}")
        pipe.hgetall(self.meta_key(game))
        _, meta = pipe.execute()
        if ai_level(meta, seat) is not None:
            self.enqueue(game, version, seat)

    def enqueue(self, game: str, version: int, seat: int, attempt: int = 0) -> None:
        job_id = f"{self.prefix}-{turn_key(game, version, seat)}" + (f"-r{attempt}" if attempt else "")
        if Job.exists(job_id, connection=self.redis):
            return
        self.redis.hset(self.turns_key, game, f"{version}|{seat}|{attempt}|{job_id}")
        self.queue.enqueue(TURN_JOB, self.redis_url, self.prefix, self.partitions, game, version, seat,
                           job_id=job_id, job_timeout=JOB_TIMEOUT_S, retry=Retry(max=3, interval=[1, 2, 5]),
                           failure_ttl=FAILURE_TTL_S)

    def drop_legacy_keys(self) -> None:
        """Forget the per-turn hashes of earlier versions (they grew with every AI turn played)."""
        self.redis.delete(f"{self.prefix}:ai:jobs", f"{self.prefix}:ai:attempts")

    def sweep(self) -> int:
        """Re-enqueue AI turns whose job is gone, failed or held by a dead worker; hand human seats
        idle past the game's `idle_seconds` to the AI. The number of turns enqueued."""
        enqueued = 0
        for game, value in self.redis.hgetall(self.awaiting_key).items():
            game = game.decode()
            version, seat, since = value.decode().split("|")
            meta = self.redis.hgetall(self.meta_key(game))
            if int(meta.get(b"version", b"0")) != int(version) or b"finished" in meta:
                self.redis.hdel(self.awaiting_key, game)
                self.redis.hdel(self.turns_key, game)
                continue
            level = ai_level(meta, int(seat))
            idle = _idle_limit(meta)
            if level is None and idle is not None and time.time() - float(since) > idle:
                self.redis.hset(self.meta_key(game), f"ai:{seat}", "greedy")
                level = "greedy"
            if level is not None:
                enqueued += self._retry_if_lost(game, int(version), int(seat))
        return enqueued

    def _retry_if_lost(self, game: str, version: int, seat: int) -> int:
        """Enqueue the turn again (a new attempt) if its job is lost; 1 if it was."""
        recorded = self.redis.hget(self.turns_key, game)
        attempt, job_id = 1, None  # a retry never reuses the first job's id (it may still exist, finished)
        if recorded is not None:
            v, s, n, job = recorded.decode().split("|", 3)
            if (int(v), int(s)) == (version, seat):
                attempt, job_id = int(n) + 1, job
        if job_id is not None and not self._lost(job_id):
            return 0
        self.enqueue(game, version, seat, attempt)
        return 1

    def _lost(self, job_id: str) -> bool:
        try:
            status = Job.fetch(job_id, connection=self.redis).get_status(refresh=True)
        except Exception:  # rq's NoSuchJobError: the job is gone
            return True
        if status in (JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.DEFERRED):
            return False
        if status == JobStatus.STARTED:
            return not self.redis.exists(lease_key(self.prefix, job_id))
        return True  # finished, failed, stopped or canceled, and the game still waits


def lease_key(prefix: str, job_id: str) -> str:
    return f"{prefix}:ai:lease:{job_id}"


def _idle_limit(meta: dict[bytes, bytes]) -> float | None:
    value = meta.get(b"idle_seconds")
    return float(value) if value else None
