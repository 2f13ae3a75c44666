"""The AI turn as an RQ job: decide from the seat's knowledge only and submit through the same path
as a person, with an idempotency key derived from (game, version, seat), so duplicated, retried or
crashed jobs apply at most once."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import threading
import time
from contextlib import contextmanager, suppress

import msgspec
from rq import get_current_job

from service.config import Settings, default
from service.errors import Code, Refused, ServiceError
from service.store.connection import connect
from service.store.streams import EventStore
from service.write import GameService

from .budget import budgeted
from .clocks import timed_out_level
from .scheduler import Scheduler, TurnNotifier, ai_level, turn_key

log = logging.getLogger(__name__)
# Besides the rules' refusals (`Refused`), the codes that refuse a bot's command as it stands (the
# game archived meanwhile, the turn's key used for another command, a kind no longer hosted): the
# next bot tries; any other error ends the turn.
BOT_REFUSALS = frozenset({Code.GAME_OVER, Code.IDEMPOTENCY_KEY_REUSED, Code.UNKNOWN_KIND})


class _Runtime:
    """What a worker process keeps from one AI turn to the next, per deployment: an event loop, a
    Redis client and a GameService whose cached folds are caught up with the stream on each turn
    instead of being rebuilt from the first event."""

    def __init__(
        self, settings: Settings, redis_url: str, prefix: str, partitions: int, queue_url: str | None = None
    ) -> None:
        self.loop = asyncio.new_event_loop()
        self.scheduler = Scheduler(
            redis_url,
            prefix,
            partitions,
            lease_s=settings.ai_lease_s,
            queue=queue_url or settings.queue_url,
            timeout_s=settings.redis_timeout_s,
            detect_s=settings.redis_detect_s,
        )
        self.store = EventStore(
            connect(
                redis_url,
                timeout_s=settings.redis_timeout_s,
                pool_size=settings.redis_pool,
                detect_s=settings.redis_detect_s,
            ),
            prefix=prefix,
            partitions=partitions,
            wait_replicas=settings.wait_replicas,
            wait_timeout_ms=settings.wait_timeout_ms,
        )
        self.service = GameService(self.store, on_awaiting=TurnNotifier(self.scheduler, self.store))
        self.prefix, self.lease_s, self.expert_s = prefix, settings.ai_lease_s, settings.ai_expert_s

    def close(self) -> None:
        try:
            self.loop.run_until_complete(self.store.aclose())
        finally:
            self.loop.close()
            self.scheduler.close()


_RUNTIMES: dict[tuple[str, str, int], _Runtime] = {}
_settings: Settings | None = None  # the worker process's, given at its start (`use`)


def use(settings: Settings) -> None:
    """The settings this worker process's AI turns run with (`pantheon worker` gives its own at start;
    RQ calls `play_ai_turn` by name, so they cannot come as an argument)."""
    global _settings
    _settings = settings


def play_ai_turn(
    redis_url: str, prefix: str, partitions: int, game: str, version: int, seat: int, queue_url: str | None = None
) -> dict:
    """The RQ job: play the AI seat's turn if the game still awaits it at `version`. Its result says
    what happened ("played", "duplicate", "stale" or "not_ai"), how long the bot thought and when the events
    were stored (for the overhead benchmark)."""
    key = (redis_url, prefix, partitions)
    runtime = _RUNTIMES.get(key)
    if runtime is None:
        # a turn played outside `pantheon worker` (a test, a script): the settings of the environment
        settings = _settings or Settings()
        runtime = _RUNTIMES[key] = _Runtime(settings, redis_url, prefix, partitions, queue_url)
    try:
        with _lease(runtime):
            return runtime.loop.run_until_complete(play_turn(runtime.service, game, version, seat, runtime.expert_s))
    except BaseException:
        # A job timeout interrupts the loop wherever it is: start the next turn from scratch.
        _RUNTIMES.pop(key, None)
        with suppress(Exception):
            runtime.close()
        raise


def provenance_of(bots, bot, knowledge, rng_seed: str) -> dict[str, str]:
    """What an AI command records about its decision: enough for an auditor to rebuild the seat's
    knowledge, compare its hash and run the same bot with the same parameters and RNG again."""
    return {
        "bot": bot.name,
        "params": json.dumps(bot.params, sort_keys=True),
        "budget": bot.budget,
        "view": bots.view_hash(knowledge),
        "rng": rng_seed,
    }


@contextmanager
def _lease(runtime: _Runtime):
    """Hold the running job's lease, renewed every third of its period from a thread (a bot thinks
    without yielding to the event loop), so the sweeper leaves the turn alone while it runs; a
    worker that dies stops renewing, and the turn is enqueued again once the lease has lapsed."""
    job = get_current_job()
    if job is None:  # called directly, outside RQ
        yield
        return
    turns, ttl_ms = runtime.scheduler.turns, max(100, int(runtime.lease_s * 1000))
    turns.hold_lease(job.id, ttl_ms)
    done = threading.Event()

    def renew() -> None:
        while not done.wait(runtime.lease_s / 3):
            with suppress(Exception):  # Redis away: the lease lapses and the sweeper takes over
                turns.hold_lease(job.id, ttl_ms)

    renewer = threading.Thread(target=renew, daemon=True, name="ai-lease")
    renewer.start()
    try:
        yield
    finally:
        done.set()
        with suppress(Exception):  # it lapses by itself
            turns.drop_lease(job.id)


async def play_turn(service, game: str, version: int, seat: int, expert_s: float | None = None) -> dict:
    """Decide the AI seat's turn from its knowledge only and submit it like a person would, with
    its provenance; nothing if the game no longer awaits this seat at `version`. A bot with an
    iteration budget (the expert) gets what `expert_s` seconds of CPU buy (budget.py)."""

    current, state = await service.state_at(game)
    decider = await service.decider(game)
    awaited = decider.awaited(state)
    if current != version or awaited is None or awaited.seat != seat:
        return {"outcome": "stale"}
    level = ai_level(await service.meta(game), seat) or await timed_out_level(service, game, version, seat)
    if level is None:  # taken back by its person since the turn was enqueued (or a person's turn)
        return {"outcome": "not_ai"}
    bots = decider.bots
    knowledge = bots.knowledge(state, seat)  # the bot sees only what its seat may see
    key, failed = turn_key(game, version, seat), None
    # A bot that fails, or chooses a command the rules refuse, must not stall the game: the random
    # bot plays that turn instead, and the provenance says so (an audit re-runs the random bot).
    seconds = default("ai_expert_s") if expert_s is None else expert_s
    for name in (level, "random"):
        started = time.perf_counter()
        try:  # the budget's timing run is the bot's own search: a failure there falls back too
            bot = budgeted(bots, name, knowledge, seat, seconds)
            command = bot.choose(knowledge, seat, random.Random(key))
        except Exception as error:
            failed = _failure(game, version, seat, name, repr(error))
            continue
        think = time.perf_counter() - started
        provenance = provenance_of(bots, bot, knowledge, key) | ({"fallback": failed} if failed else {})
        try:  # decided at `version`: if the game moved on meanwhile, this turn is over
            done = await service.submit(
                game,
                seat,
                msgspec.to_builtins(command),
                expected_version=version,
                idempotency_key=key,
                provenance=provenance,
                ai=True,
            )
        except ServiceError as error:
            if error.code == Code.VERSION_CONFLICT:
                return {"outcome": "stale"}
            if not isinstance(error, Refused) and error.code not in BOT_REFUSALS:
                raise
            failed = _failure(game, version, seat, bot.name, f"{error.code}: {error.message}")
            continue
        return {"outcome": "duplicate" if done.duplicate else "played", "think_s": think, "stored_at": time.time()}
    raise RuntimeError(f"no bot could play seat {seat} of game {game} at version {version}: {failed}")


def _failure(game: str, version: int, seat: int, bot: str, reason: str) -> str:
    log.error("AI %s failed at game %s version %d seat %d: %s", bot, game, version, seat, reason)
    return f"{bot}: {reason}"
