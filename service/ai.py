"""AI turns: when a game awaits an AI seat, a job goes to an RQ queue; a worker decides from that
seat's knowledge only and submits through the same path as a person, with an idempotency key
derived from (game, version, seat), so duplicated, retried or crashed jobs apply at most once.
A sweeper re-enqueues turns whose job was lost, and hands seats idle too long to an AI."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import time

import msgspec
import redis
from rq import Queue, Retry, get_current_job
from rq.job import Job, JobStatus

from .store import EventStore

log = logging.getLogger(__name__)


def queue_name(prefix: str) -> str:
    """The RQ queue of a deployment's AI turns (its key prefix in the name keeps deployments apart)."""
    return f"{prefix}-ai"

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
        self.queue.enqueue(play_ai_turn, self.redis_url, self.prefix, self.partitions, game, version, seat,
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


class _Runtime:
    """What a worker process keeps from one AI turn to the next, per deployment: an event loop, a
    Redis client and a GameService whose cached folds are caught up with the stream on each turn
    instead of being rebuilt from the first event."""

    def __init__(self, redis_url: str, prefix: str, partitions: int) -> None:
        from redis.asyncio import Redis

        from .games import GameService

        self.loop = asyncio.new_event_loop()
        self.client = Redis.from_url(redis_url)
        self.service = GameService(EventStore(self.client, prefix=prefix, partitions=partitions),
                                   on_awaiting=Scheduler(redis_url, prefix, partitions))
        self.prefix = prefix

    def close(self) -> None:
        try:
            self.loop.run_until_complete(self.client.aclose())
        finally:
            self.loop.close()
            self.service.on_awaiting.redis.close()


_RUNTIMES: dict[tuple[str, str, int], _Runtime] = {}


def play_ai_turn(redis_url: str, prefix: str, partitions: int, game: str, version: int, seat: int) -> dict:
    """The RQ job: play the AI seat's turn if the game still awaits it at `version`. Its result says
    what happened ("played", "duplicate", "stale" or "not_ai"), how long the bot thought and when the events
    were stored (for the overhead benchmark)."""
    key = (redis_url, prefix, partitions)
    runtime = _RUNTIMES.get(key)
    if runtime is None:
        runtime = _RUNTIMES[key] = _Runtime(redis_url, prefix, partitions)
    try:
        return runtime.loop.run_until_complete(_play(runtime, game, version, seat))
    except BaseException:
        # A job timeout interrupts the loop wherever it is: start the next turn from scratch.
        _RUNTIMES.pop(key, None)
        try:
            runtime.close()
        except Exception:
            pass
        raise


def provenance_of(bots, bot, knowledge, rng_seed: str) -> dict[str, str]:
    """What an AI command records about its decision: enough for an auditor to rebuild the seat's
    knowledge, compare its hash and run the same bot with the same parameters and RNG again."""
    return {"bot": bot.name, "params": json.dumps(bot.params, sort_keys=True), "budget": bot.budget,
            "view": bots.view_hash(knowledge), "rng": rng_seed}


async def _play(runtime: _Runtime, game: str, version: int, seat: int) -> dict:
    job = get_current_job()
    if job is not None:
        await runtime.client.set(lease_key(runtime.prefix, job.id), 1, ex=max(1, int(LEASE_S)))
    return await play_turn(runtime.service, game, version, seat)


async def play_turn(service, game: str, version: int, seat: int) -> dict:
    """Decide the AI seat's turn from its knowledge only and submit it like a person would, with
    its provenance; nothing if the game no longer awaits this seat at `version`."""
    from .games import DECIDERS, ServiceError

    current, state = await service.state_at(game)
    decider = DECIDERS[await service.kind(game)]
    awaited = decider.awaited(state)
    if current != version or awaited is None or awaited.seat != seat:
        return {"outcome": "stale"}
    level = ai_level(await service.meta(game), seat)
    if level is None:  # taken back by its person since the turn was enqueued
        return {"outcome": "not_ai"}
    bots = decider.bots
    knowledge = bots.knowledge(state, seat)  # the bot sees only what its seat may see
    key, failed = turn_key(game, version, seat), None
    # A bot that fails, or chooses a command the rules refuse, must not stall the game: the random
    # bot plays that turn instead, and the provenance says so (an audit re-runs the random bot).
    for bot in (bots.make(level), bots.make("random")):
        started = time.perf_counter()
        try:
            command = bot.choose(knowledge, seat, random.Random(key))
        except Exception as error:
            failed = _failure(game, version, seat, bot.name, repr(error))
            continue
        think = time.perf_counter() - started
        provenance = provenance_of(bots, bot, knowledge, key) | ({"fallback": failed} if failed else {})
        try:  # decided at `version`: if the game moved on meanwhile, this turn is over
            done = await service.submit(game, seat, msgspec.to_builtins(command), expected_version=version,
                                        idempotency_key=key, provenance=provenance)
        except ServiceError as error:
            if error.code == "version_conflict":
                return {"outcome": "stale"}
            if error.status != 422:
                raise
            failed = _failure(game, version, seat, bot.name, f"{error.code}: {error.message}")
            continue
        return {"outcome": "duplicate" if done.duplicate else "played", "think_s": think, "stored_at": time.time()}
    raise RuntimeError(f"no bot could play seat {seat} of game {game} at version {version}: {failed}")


def _failure(game: str, version: int, seat: int, bot: str, reason: str) -> str:
    log.error("AI %s failed at game %s version %d seat %d: %s", bot, game, version, seat, reason)
    return f"{bot}: {reason}"
