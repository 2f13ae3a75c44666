"""Prometheus metrics of one API process, in the text exposition format (no client library), and
the projection lag, which every API process reads from Redis on each scrape."""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import cast

from litestar.types import HTTPScope, Message, Scope

from service.read.lag import FeedLag
from service.write import ServiceError

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


def _labels(**labels: str) -> str:
    def escape(v: str) -> str:
        return v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")

    return "{" + ",".join(f'{k}="{escape(v)}"' for k, v in labels.items()) + "}"


@dataclass
class Histogram:
    buckets: tuple[float, ...] = BUCKETS
    counts: list[int] = field(default_factory=lambda: [0] * len(BUCKETS))
    total: float = 0.0
    n: int = 0

    def observe(self, seconds: float) -> None:
        self.total += seconds
        self.n += 1
        for i, bound in enumerate(self.buckets):
            if seconds <= bound:
                self.counts[i] += 1

    def lines(self, name: str) -> Iterator[str]:
        for bound, count in zip(self.buckets, self.counts):
            yield f'{name}_bucket{{le="{bound}"}} {count}'
        yield f'{name}_bucket{{le="+Inf"}} {self.n}'
        yield f"{name}_sum {self.total}"
        yield f"{name}_count {self.n}"


@dataclass
class Metrics:
    """Counters and a latency histogram; the app records requests, the command handler commands."""

    requests: Counter = field(default_factory=Counter)  # (method, route, status) -> n
    commands: Counter = field(default_factory=Counter)  # (result, code) -> n
    command_seconds: Histogram = field(default_factory=Histogram)
    archive_unreadable: int = 0  # reads of an archived game whose files could not be read

    async def before_send(self, message: Message, scope: Scope) -> None:
        """Count each response by method, route template and status (a Litestar before_send hook)."""
        if message["type"] == "http.response.start" and scope["type"] == "http":
            route = scope.get("path_template") or "unmatched"
            method = cast("HTTPScope", scope)["method"]  # scope["type"] == "http" does not narrow the union for mypy
            self.requests[(method, route, str(message["status"]))] += 1

    @contextmanager
    def command(self) -> Iterator[None]:
        """Time one command and count it as accepted or rejected (by the refusal's code)."""
        start = time.perf_counter()
        try:
            yield
        except ServiceError as error:
            self.commands[("rejected", error.code)] += 1
            raise
        else:
            self.commands[("accepted", "")] += 1
        finally:
            self.command_seconds.observe(time.perf_counter() - start)

    def exposition(
        self,
        lag: Sequence[FeedLag] | None = None,
        ai: dict[str, float] | None = None,
        streams: tuple[int, int] | None = None,
        archiver: dict[str, float] | None = None,
    ) -> str:
        """The metrics as text; the projection lag's gauges when `lag` is given and the AI sweeper's
        and the archivers' figures when `ai` and `archiver` are (they are not when Redis did not
        answer: absent, not 0); `streams`: event streams open in this process and the games its
        stream reader follows."""
        out = [
            "# HELP pantheon_http_requests_total HTTP responses by method, route and status.",
            "# TYPE pantheon_http_requests_total counter",
        ]
        for (method, route, status), n in sorted(self.requests.items()):
            out.append(f"pantheon_http_requests_total{_labels(method=method, route=route, status=status)} {n}")
        out += [
            "# HELP pantheon_commands_total Commands submitted, by result and refusal code.",
            "# TYPE pantheon_commands_total counter",
        ]
        for (result, code), n in sorted(self.commands.items()):
            out.append(f"pantheon_commands_total{_labels(result=result, code=code)} {n}")
        out += [
            "# HELP pantheon_command_seconds Time to decide and append a command.",
            "# TYPE pantheon_command_seconds histogram",
            *self.command_seconds.lines("pantheon_command_seconds"),
            "# HELP pantheon_archive_unreadable_total Reads of an archived game whose files could not be read "
            "(answered 503 archive_unavailable, or the game left out of a lobby page); each is logged.",
            "# TYPE pantheon_archive_unreadable_total counter",
            f"pantheon_archive_unreadable_total {self.archive_unreadable}",
        ]
        out += _gc_lines()
        if streams is not None:
            out += _stream_lines(*streams)
        if lag is not None:
            out += _lag_lines(lag)
        if ai is not None:
            out += _ai_lines(ai)
        if archiver is not None:
            out += _archiver_lines(archiver)
        return "\n".join(out) + "\n"


def _stream_lines(open_streams: int, games: int) -> list[str]:
    return [
        "# HELP pantheon_streams_open Event streams (Server-Sent Events) open in this process.",
        "# TYPE pantheon_streams_open gauge",
        f"pantheon_streams_open {open_streams}",
        "# HELP pantheon_stream_games Games this process's stream reader follows (one XREAD for all).",
        "# TYPE pantheon_stream_games gauge",
        f"pantheon_stream_games {games}",
    ]


def _lag_lines(lag: Sequence[FeedLag]) -> list[str]:
    out = [
        "# HELP pantheon_projection_lag_seconds Age of the oldest feed entry not projected yet (delivered and "
        "not acknowledged, or not delivered), by feed partition; 0 when the projectors have caught up.",
        "# TYPE pantheon_projection_lag_seconds gauge",
    ]
    out += [f"pantheon_projection_lag_seconds{_labels(partition=str(f.partition))} {f.seconds}" for f in lag]
    out += [
        "# HELP pantheon_projection_pending Feed entries delivered to a projector and not acknowledged yet.",
        "# TYPE pantheon_projection_pending gauge",
    ]
    out += [f"pantheon_projection_pending{_labels(partition=str(f.partition))} {f.pending}" for f in lag]
    out += [
        "# HELP pantheon_projection_consumers Consumers in the projectors' group (dead ones until removed).",
        "# TYPE pantheon_projection_consumers gauge",
    ]
    out += [f"pantheon_projection_consumers{_labels(partition=str(f.partition))} {f.consumers}" for f in lag]
    return out


def _ai_lines(ai: dict[str, float]) -> list[str]:
    """The AI sweeper's figures, as the last sweep (by any worker) left them in Redis."""
    out = [
        "# HELP pantheon_ai_turns_requeued_total AI turns the sweeper enqueued again, by what became of "
        "their job (job_failed, worker_died, job_gone, never_enqueued, …).",
        "# TYPE pantheon_ai_turns_requeued_total counter",
    ]
    out += [
        f"pantheon_ai_turns_requeued_total{_labels(reason=k.split(':', 1)[1])} {int(v)}"
        for k, v in sorted(ai.items())
        if k.startswith("requeued:")
    ]
    if "swept_at" in ai:
        out += [
            "# HELP pantheon_ai_turns_due AI turns the games awaited at the last sweep.",
            "# TYPE pantheon_ai_turns_due gauge",
            f"pantheon_ai_turns_due {int(ai.get('due', 0))}",
            "# HELP pantheon_ai_turn_oldest_due_seconds How long the longest-waiting due AI turn had waited "
            "at the last sweep.",
            "# TYPE pantheon_ai_turn_oldest_due_seconds gauge",
            f"pantheon_ai_turn_oldest_due_seconds {ai.get('oldest_due_s', 0.0)}",
            "# HELP pantheon_ai_last_sweep_timestamp_seconds When the AI sweeper last ran (Redis clock).",
            "# TYPE pantheon_ai_last_sweep_timestamp_seconds gauge",
            f"pantheon_ai_last_sweep_timestamp_seconds {ai['swept_at']}",
        ]
    return out


def _archiver_lines(status: dict[str, float]) -> list[str]:
    """The archivers' figures, as their sweeps left them in Redis."""
    out = [
        "# HELP pantheon_archive_games_skipped_total Games an archiver sweep could not archive and left in "
        "Redis, by reason (unreadable: its events or files; mismatch: its files did not read back; error); "
        "each is logged with its error.",
        "# TYPE pantheon_archive_games_skipped_total counter",
    ]
    out += [
        f"pantheon_archive_games_skipped_total{_labels(reason=k.split(':', 1)[1])} {int(v)}"
        for k, v in sorted(status.items())
        if k.startswith("skipped:")
    ]
    if "swept_at" in status:
        out += [
            "# HELP pantheon_archive_games_skipped Games the last archiver sweep could not archive (they stay "
            "in Redis, tried again every sweep).",
            "# TYPE pantheon_archive_games_skipped gauge",
            f"pantheon_archive_games_skipped {int(status.get('skipped', 0))}",
            "# HELP pantheon_archive_last_sweep_timestamp_seconds When an archiver last finished a sweep.",
            "# TYPE pantheon_archive_last_sweep_timestamp_seconds gauge",
            f"pantheon_archive_last_sweep_timestamp_seconds {status['swept_at']}",
        ]
    return out


def _gc_lines() -> list[str]:
    """The cyclic garbage collector of this process: collections per generation and the objects it no
    longer scans (frozen when serving began: service/tuning.py), to see whether it stalls requests."""
    lines = [
        "# HELP python_gc_collections_total Collections of the cyclic garbage collector, by generation.",
        "# TYPE python_gc_collections_total counter",
    ]
    lines += [
        f"python_gc_collections_total{_labels(generation=str(g))} {stats['collections']}"
        for g, stats in enumerate(gc.get_stats())
    ]
    return lines + [
        "# HELP pantheon_gc_frozen_objects Objects loaded before serving that the collector never scans.",
        "# TYPE pantheon_gc_frozen_objects gauge",
        f"pantheon_gc_frozen_objects {gc.get_freeze_count()}",
    ]
