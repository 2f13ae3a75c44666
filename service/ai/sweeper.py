"""The AI sweeper: every AI turn a game awaits gets played, whatever failed on the way.

The games say which turns are due, not the queue: each append records, in the same atomic step,
whom the game now awaits (the store's awaiting hashes). Every few seconds one sweeper (of all the
workers' sweepers, one at a time) reads them, and for every awaited AI seat makes sure a job is
waiting in the queue or running under a live lease; otherwise it enqueues the turn again, with a
log line and a count per reason in Redis (the API's /metrics shows them). It also hands human seats
idle past their game's `idle_seconds` to the AI."""

from __future__ import annotations

import dataclasses
import logging
from collections import Counter
from dataclasses import dataclass, field

from rq.exceptions import NoSuchJobError
from rq.job import Job

from service.store.streams import EventStore
from service.store.turns import read_status

from .scheduler import Scheduler, Turn, ai_level

log = logging.getLogger(__name__)

GRACE_S = 2.0  # a due turn the fast path enqueues within milliseconds; older without a job: enqueue it
SUSPECT_S = 1.0  # a job seen neither waiting nor running stays so this long before it counts as lost
IDLE_LEVEL = "greedy"  # who takes over a seat idle too long
FORGET_TURN_S = 120.0  # a turn record of a game no longer awaiting an AI is dropped once this old


@dataclass
class SweepReport:
    due: int = 0  # AI turns due now
    oldest_s: float = 0.0  # how long the longest-waiting of them has waited
    handed: int = 0  # idle seats handed to the AI
    requeued: Counter = field(default_factory=Counter)  # reason -> turns enqueued again


@dataclass(frozen=True)
class _Due:
    game: str
    version: int
    seat: int
    since: float  # seconds, Redis clock
    handed: bool = False  # handed to the AI by this sweep (idle too long)


class Sweeper:
    """Derives due AI turns from the games and enqueues any that no job is waiting for or running."""

    def __init__(self, scheduler: Scheduler, every_s: float = 2.0) -> None:
        self.scheduler, self.every_s = scheduler, every_s
        self.turns, self.prefix = scheduler.turns, scheduler.prefix

    def sweep_if_due(self) -> SweepReport | None:
        """Sweep unless another process swept in this period (one sweeper at a time is enough)."""
        period_ms = max(50, int(self.every_s * 800))
        if not self.turns.take_sweep(period_ms):
            return None
        return self.sweep()

    def sweep(self) -> SweepReport:
        report, now = SweepReport(), self.scheduler.now()
        due_games: set[str] = set()
        for partition in range(self.scheduler.partitions):
            for turn in self._awaited_ai_turns(partition, now, report):
                due_games.add(turn.game)
                report.due += 1
                report.oldest_s = max(report.oldest_s, now - turn.since)
                self._ensure_job(turn, now, report)
        self._forget_old_turns(due_games, now)
        self.turns.record_sweep({"due": report.due, "oldest_due_s": f"{report.oldest_s:.3f}", "swept_at": f"{now:.3f}"})
        return report

    # --- which turns are due ------------------------------------------------------------------
    def _awaited_ai_turns(self, partition: int, now: float, report: SweepReport) -> list[_Due]:
        entries = self.turns.awaiting(partition)
        if not entries:
            return []
        awaited = [_parse(game, value) for game, value in entries.items()]
        due = []
        facts = self.turns.seat_facts([(turn.game, turn.seat) for turn in awaited])
        for turn, (version, finished, seats, idle, handed) in zip(awaited, facts):
            if version is None or finished is not None:  # ended (or gone) since: no longer awaits anyone
                self.turns.stop_awaiting(partition, turn.game)
                continue
            if int(version) != turn.version:  # appended between the two reads: the next sweep sees it
                continue
            meta = {"seats": seats or b"[]", **({f"ai:{turn.seat}": handed} if handed else {})}
            if ai_level(meta, turn.seat) is None:
                if not (idle and now - turn.since > float(idle)):
                    continue
                self._hand_over(turn, float(idle))
                report.handed += 1
                turn = dataclasses.replace(turn, handed=True)
            due.append(turn)
        return due

    def _hand_over(self, turn: _Due, idle: float) -> None:
        self.turns.hand_to_ai(turn.game, turn.seat, IDLE_LEVEL)
        log.warning(
            "seat %d of game %s idle for over %.0f s: handed to the %s AI", turn.seat, turn.game, idle, IDLE_LEVEL
        )

    # --- is a job on it -----------------------------------------------------------------------
    def _ensure_job(self, turn: _Due, now: float, report: SweepReport) -> None:
        raw = self.turns.current(turn.game)
        job = Turn.decode(raw) if raw else None
        if job is None or not job.is_for(turn.version, turn.seat):
            if turn.handed or now - turn.since >= GRACE_S:
                self._requeue(turn, 1, "idle_hand_over" if turn.handed else "never_enqueued", report)
            return
        if self._alive(job.job_id):
            if job.suspect_since:
                self._record(turn.game, job, 0.0)
            return
        if not job.suspect_since:
            self._record(turn.game, job, now)
            return
        if now - job.suspect_since >= SUSPECT_S and now - job.enqueued_at >= self._backoff(job.attempt):
            self._requeue(turn, job.attempt + 1, self._why_lost(job.job_id), report)

    def _alive(self, job_id: str) -> bool:
        """Waiting in the queue, or running under a live lease."""
        return self.turns.lease_held(job_id) or self.turns.waits_in_queue(self.scheduler.queue.key, job_id)

    def _why_lost(self, job_id: str) -> str:
        """In words, for the log and the metric: what became of the turn's last job."""
        try:
            status = Job.fetch(job_id, connection=self.turns.queue_connection()).get_status(refresh=True)
        except NoSuchJobError:
            return "job_gone"
        reasons = {
            "failed": "job_failed",
            "started": "worker_died",
            "queued": "job_stuck_off_queue",
            "scheduled": "job_parked",
            "deferred": "job_parked",
            "finished": "job_finished_turn_still_due",
            "stopped": "job_stopped",
            "canceled": "job_canceled",
        }
        return reasons.get(str(getattr(status, "value", status)), f"job_{status}")

    def _backoff(self, attempt: int) -> float:
        """A turn whose jobs keep failing is tried again after 1, 2, 4 … s, at most a lease period."""
        return min(2.0**attempt, self.scheduler.lease_s)

    def _record(self, game: str, job: Turn, suspect_since: float) -> None:
        self.turns.record(
            game, Turn(job.version, job.seat, job.attempt, job.job_id, job.enqueued_at, suspect_since).encode()
        )

    def _requeue(self, turn: _Due, attempt: int, reason: str, report: SweepReport) -> None:
        self.scheduler.enqueue(turn.game, turn.version, turn.seat, attempt)
        self.turns.count_requeued(reason)
        report.requeued[reason] += 1
        log.warning(
            "AI turn of game %s at version %d (seat %d) enqueued again (attempt %d): %s",
            turn.game,
            turn.version,
            turn.seat,
            attempt,
            reason,
        )

    def _forget_old_turns(self, due_games: set[str], now: float) -> None:
        """Drop the turn records of games that await no AI any more: at once once a game has ended,
        after a while while a person plays (a record younger than that may belong to a turn that
        became due after this sweep read the awaiting hashes)."""
        idle = [(game, Turn.decode(raw)) for game, raw in self.turns.recorded() if game.decode() not in due_games]
        if not idle:
            return
        ended = self.turns.have_ended([game.decode() for game, _ in idle])
        self.turns.forget([game for (game, turn), e in zip(idle, ended) if e or now - turn.enqueued_at > FORGET_TURN_S])

    def migrate_legacy(self) -> int:
        """Carry over whom running games await from the hash earlier versions kept (their next
        append records it in the store); drop the keys earlier versions grew per turn."""
        return self.turns.migrate_legacy()


def _parse(game: bytes, value: bytes) -> _Due:
    version, seat, since_ms = value.decode().split("|")
    return _Due(game.decode(), int(version), int(seat), int(since_ms) / 1000)


async def ai_status(store: EventStore) -> dict[str, float]:
    """The last sweep's figures and the counts of turns enqueued again ("requeued:<reason>"), for
    /metrics (read from Redis: the sweepers run in the workers)."""
    return await read_status(store)
