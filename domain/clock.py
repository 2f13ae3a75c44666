"""Turn clocks, derived from a game's log: the clock each human seat was given at creation, and a
fold over the log's recorded times (the Redis clock, one for every process) that says whose turn
runs, since when, how much of each Fischer bank is left and when the running turn's time is up.

A turn is the span in which the game awaits one seat: it begins with the append after which the
game awaits that seat and ends with the first append after which it awaits another. The clocks
start with the game's first command after its creation (seats are still being claimed before it).
`time_out` is the clock keeper's command: it is accepted only at or past the deadline the log
gives, so a move appended first (the version check) and a time-out never both count."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Literal

import msgspec

from domain.kernel import ClockPaused, Decider, DomainError, PlatformEvent, TimedOut, evolve

MAX_S = 30 * 24 * 3600  # the longest bank, time per move or increment a clock may have


class Fischer(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type", tag="fischer"):
    """A bank of `bank_s` seconds for the whole game, `increment_s` added after each of the seat's turns."""

    bank_s: int
    increment_s: int = 0


class PerMove(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type", tag="per_move"):
    """`seconds` for each turn of the seat, whatever was left of the one before."""

    seconds: int


SeatClock = Fischer | PerMove
OnTimeOut = Literal["greedy", "forfeit"]


class ClockChoice(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The clocks of a game: one per seat (null for a seat with none; AI seats have none), and what
    happens when one runs out: `greedy` (the greedy AI plays that turn for the seat) or `forfeit` (the
    game ends, the seat ranked last)."""

    seats: list[SeatClock | None]
    on_time_out: OnTimeOut = "greedy"


class TimeOut(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="time_out"):
    """The clock keeper's command (no client may send it): `seat`'s time is up, as the keeper saw the
    Redis clock at `observed_ms`."""

    seat: int
    observed_ms: int


def problem(choice: ClockChoice, humans: list[bool], min_s: int) -> str | None:
    """What is wrong with a clock choice for seats that are human or not (a sentence), or None."""
    if len(choice.seats) != len(humans):
        return f"Give one clock per seat ({len(humans)}), null for a seat without one."
    for seat, (clock, human) in enumerate(zip(choice.seats, humans)):
        if clock is None:
            continue
        if not human:
            return f"Seat {seat} is played by the AI, which has no clock: give it null."
        least = clock.bank_s if isinstance(clock, Fischer) else clock.seconds
        if not min_s <= least <= MAX_S:
            what = "A Fischer bank" if isinstance(clock, Fischer) else "The time per move"
            return f"{what} must be {min_s} s to {MAX_S} s (30 days); seat {seat} has {least} s."
        if isinstance(clock, Fischer) and not 0 <= clock.increment_s <= MAX_S:
            return f"An increment must be 0 to {MAX_S} s; seat {seat} has {clock.increment_s} s."
    return None


@dataclass(frozen=True, slots=True)
class Clocks:
    """Every seat's clock at some point of the log."""

    choice: ClockChoice
    banks: tuple[int, ...]  # ms left in each seat's Fischer bank (0 for the others)
    seat: int | None = None  # whose turn runs (None: none yet, or the game has ended)
    since: int = 0  # when that turn began (ms, Redis clock)
    given_back: int = 0  # ms of that turn the server could not serve (ClockPaused)
    timed_out: bool = False  # that turn's time ran out: the greedy AI plays it
    started: bool = False  # the game's first command after its creation was recorded
    batches: int = 0  # the appends folded so far (the first is the game's creation)
    forfeited: int | None = None  # the seat whose time ran out in a game that then ended (forfeit)

    def clock(self, seat: int) -> SeatClock | None:
        return self.choice.seats[seat] if 0 <= seat < len(self.choice.seats) else None


def start(choice: ClockChoice) -> Clocks:
    """The clocks before the game's first command: full banks, no turn running."""
    banks = tuple(c.bank_s * 1000 if isinstance(c, Fischer) else 0 for c in choice.seats)
    return Clocks(choice=choice, banks=banks)


def advance(clocks: Clocks, at: int, awaited: int | None, *, created: bool = False) -> Clocks:
    """After a command's events recorded at `at`, the game awaits `awaited` (None: it has ended).
    `created`: the game's creation (the clocks start with the command after it)."""
    if created:
        return replace(clocks, batches=clocks.batches + 1)
    if clocks.started and awaited == clocks.seat and awaited is not None:
        return clocks  # the same seat's turn goes on
    banks = _ended_turn(clocks, at) if clocks.started else clocks.banks
    return replace(
        clocks,
        banks=banks,
        seat=awaited,
        since=at,
        given_back=0,
        timed_out=False,
        started=True,
        batches=clocks.batches + 1,
    )


def _ended_turn(clocks: Clocks, at: int) -> tuple[int, ...]:
    """The banks once the running turn ended at `at`: the Fischer seat's bank less the time used,
    plus its increment (after a time-out, the bank starts again full)."""
    seat = clocks.seat
    clock = None if seat is None else clocks.clock(seat)
    if seat is None or not isinstance(clock, Fischer):
        return clocks.banks
    if clocks.timed_out:
        left = clock.bank_s * 1000
    else:
        left = max(0, clocks.banks[seat] - _used(clocks, at)) + clock.increment_s * 1000
    return clocks.banks[:seat] + (left,) + clocks.banks[seat + 1 :]


def _used(clocks: Clocks, at: int) -> int:
    return max(0, at - clocks.since - clocks.given_back)


def paused(clocks: Clocks, event: ClockPaused) -> Clocks:
    """The server could not serve from `from_ms` to `to_ms`: the running turn gets that time back."""
    overlap = min(event.to_ms, 2**62) - max(event.from_ms, clocks.since)
    return replace(clocks, given_back=clocks.given_back + max(0, overlap)) if clocks.seat is not None else clocks


def deadline(clocks: Clocks) -> int | None:
    """When the running turn's time is up (ms, Redis clock); None: no clock runs."""
    seat = clocks.seat
    clock = None if seat is None else clocks.clock(seat)
    if seat is None or clock is None or not clocks.started or clocks.timed_out:
        return None
    allowed = clocks.banks[seat] if isinstance(clock, Fischer) else clock.seconds * 1000
    return clocks.since + clocks.given_back + allowed


def remaining(clocks: Clocks, now: int) -> list[int | None]:
    """Each seat's time left at `now` (ms; None: the seat has no clock): the running turn's counts
    down, a waiting Fischer seat has its bank, a waiting per-move seat its time per move."""
    left: list[int | None] = []
    for seat, clock in enumerate(clocks.choice.seats):
        if clock is None:
            left.append(None)
        elif seat == clocks.seat and clocks.started:
            end = deadline(clocks)
            left.append(0 if end is None else max(0, end - now))
        else:
            left.append(clocks.banks[seat] if isinstance(clock, Fischer) else clock.seconds * 1000)
    return left


def time_out(clocks: Clocks, command: TimeOut) -> TimedOut:
    """The event of an accepted time-out; DomainError unless `command.seat`'s turn runs and the time
    it names is at or past the turn's deadline."""
    end = deadline(clocks)
    if clocks.seat != command.seat or end is None:
        raise DomainError("no_clock_running", f"No clock runs for seat {command.seat} now.")
    if command.observed_ms < end:
        raise DomainError(
            "time_left", f"Seat {command.seat} still has {end - command.observed_ms} ms; its time is up at {end}."
        )
    return TimedOut(seat=command.seat, observed_ms=command.observed_ms, deadline_ms=end, then=clocks.choice.on_time_out)


def timed_out(clocks: Clocks, event: TimedOut) -> Clocks:
    """After a time-out: the greedy AI plays the rest of the turn (no clock runs), or the game ended."""
    if event.then == "forfeit":
        return replace(clocks, seat=None, timed_out=False, forfeited=event.seat)
    return replace(clocks, timed_out=True)


@dataclass(frozen=True, slots=True)
class Logged:
    """One event of a game's log as the clocks read it: its recorded time (ms, Redis clock), whether
    it is the first of its append (a command's events are appended together), and the event."""

    at: int
    first: bool
    event: Any


def follow(decider: Decider, clocks: Clocks, state: Any, log: Iterable[Logged]) -> tuple[Clocks, Any]:
    """The clocks and the game's state after these events of its log (continuing from `clocks` and
    `state`, the clocks and state after the log's earlier appends; `start(choice)` and None at first).
    The log must end with a whole append (an append is atomic, so any read of the log does)."""
    pending: int | None = None  # the recorded time of the append being read

    def close(clocks: Clocks) -> Clocks:
        if pending is None:
            return clocks
        awaited = decider.awaited(state)
        return advance(clocks, pending, None if awaited is None else awaited.seat, created=clocks.batches == 0)

    for logged in log:
        event = logged.event
        if logged.first or isinstance(event, PlatformEvent):
            clocks, pending = close(clocks), None
        if isinstance(event, PlatformEvent):
            if isinstance(event, TimedOut):
                clocks = timed_out(clocks, event)
            elif isinstance(event, ClockPaused):
                clocks = paused(clocks, event)
            state = evolve(decider, state, event)
            continue
        state, pending = decider.evolve(state, event), logged.at
    return close(clocks), state
