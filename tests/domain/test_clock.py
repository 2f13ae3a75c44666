"""Turn clocks from a game's log (domain.clock): deadlines, time-outs accepted only when due, the
race of a late move and a time-out, and a forfeit that ends any game with the seat ranked last."""

from __future__ import annotations

import dataclasses
import random

import pytest

from domain import clock, games
from domain.clock import ClockChoice, Fischer, Logged, PerMove, TimeOut
from domain.kernel import ClockPaused, DomainError, TimedOut, fold, logged_event_type
from domain.rng import SeededRng

# A toy two-seat game in the kernel's terms: each command is one event, the turn passes on.
from tests.domain.test_kernel import TOY, Added

PER_MOVE = ClockChoice(seats=[PerMove(seconds=60), None], on_time_out="greedy")
FISCHER = ClockChoice(seats=[Fischer(bank_s=60, increment_s=5), Fischer(bank_s=60)], on_time_out="forfeit")


# the toy game ends on a forfeit by its own hook (its state is a dict, not a game's Struct)
GAME = dataclasses.replace(TOY, forfeit=lambda state, seat: {**state, "turn": None})


def given(choice: ClockChoice, *log: tuple[int, object]) -> clock.Clocks:
    """The clocks after a log of (recorded ms, event), each event an append of its own; the first
    is the game's creation (here a toy event, for the toy game has no create command)."""
    entries = [Logged(at, True, event) for at, event in log]
    clocks, _ = clock.follow(GAME, clock.start(choice), GAME.initial_state(), entries)
    return clocks


def move(seat: int) -> Added:
    return Added(seat=seat, amount=1, roll=0)


def test_the_clocks_start_with_the_first_command_after_creation():
    clocks = given(PER_MOVE, (1_000, move(0)))
    assert clock.deadline(clocks) is None  # created, awaiting seat 1: no command yet
    clocks = given(PER_MOVE, (1_000, move(0)), (5_000, move(1)))
    assert (clocks.seat, clock.deadline(clocks)) == (0, 5_000 + 60_000)


def test_a_seat_without_a_clock_has_no_deadline():
    clocks = given(PER_MOVE, (0, move(0)), (1_000, move(1)), (2_000, move(0)))
    assert clocks.seat == 1 and clock.deadline(clocks) is None
    assert clock.remaining(clocks, 3_000) == [60_000, None]


def test_a_fischer_bank_loses_the_time_used_and_gains_the_increment():
    # seat 0 moves at 11 s after its turn began at 1 s: 10 s used, 5 s added
    clocks = given(FISCHER, (0, move(0)), (1_000, move(1)), (11_000, move(0)))
    assert clocks.banks == (60_000 - 10_000 + 5_000, 60_000)
    assert (clocks.seat, clock.deadline(clocks)) == (1, 11_000 + 60_000)
    clocks = given(FISCHER, (0, move(0)), (1_000, move(1)), (11_000, move(0)), (12_000, move(1)))
    assert clock.deadline(clocks) == 12_000 + 55_000
    assert clock.remaining(clocks, 22_000) == [45_000, 59_000]


def test_time_the_server_could_not_serve_is_given_back():
    log = [(0, move(0)), (1_000, move(1)), (30_000, ClockPaused(from_ms=10_000, to_ms=30_000))]
    assert clock.deadline(given(PER_MOVE, *log)) == 1_000 + 20_000 + 60_000
    # an outage before the turn began gives nothing back
    log = [(0, move(0)), (40_000, move(1)), (41_000, ClockPaused(from_ms=10_000, to_ms=30_000))]
    assert clock.deadline(given(PER_MOVE, *log)) == 40_000 + 60_000


def test_a_time_out_before_the_deadline_is_refused():
    clocks = given(PER_MOVE, (0, move(0)), (1_000, move(1)))
    with pytest.raises(DomainError) as refused:
        clock.time_out(clocks, TimeOut(seat=0, observed_ms=60_999))
    assert refused.value.code == "time_left"
    with pytest.raises(DomainError) as refused:
        clock.time_out(clocks, TimeOut(seat=1, observed_ms=99_000))  # not seat 1's turn
    assert refused.value.code == "no_clock_running"
    assert clock.time_out(clocks, TimeOut(seat=0, observed_ms=61_000)) == TimedOut(
        seat=0, observed_ms=61_000, deadline_ms=61_000, then="greedy"
    )


def test_a_late_move_appended_first_wins_the_race_with_the_time_out():
    """The keeper saw seat 0's time up at 70 s and decided its time-out at the version it read; seat
    0's move was appended first (at 69.5 s, late but first): decided again on the log, the time-out
    is refused, and the seat's next turn has its whole time."""
    before = given(PER_MOVE, (0, move(0)), (1_000, move(1)))
    assert clock.time_out(before, TimeOut(seat=0, observed_ms=70_000)).deadline_ms == 61_000
    after = given(PER_MOVE, (0, move(0)), (1_000, move(1)), (69_500, move(0)), (70_500, move(1)))
    assert clock.deadline(after) == 70_500 + 60_000
    with pytest.raises(DomainError):
        clock.time_out(after, TimeOut(seat=0, observed_ms=70_000))


def test_after_a_greedy_time_out_no_clock_runs_until_the_turn_ends():
    log = [(0, move(0)), (1_000, move(1))]
    timed = TimedOut(seat=0, observed_ms=61_000, deadline_ms=61_000, then="greedy")
    clocks = given(PER_MOVE, *log, (61_000, timed))
    assert clocks.timed_out and clock.deadline(clocks) is None
    clocks = given(PER_MOVE, *log, (61_000, timed), (61_200, move(0)), (62_000, move(1)))
    assert clock.deadline(clocks) == 62_000 + 60_000  # its next turn: a whole minute again


def test_a_forfeit_stops_every_clock_and_names_the_seat():
    log = [
        (0, move(0)),
        (1_000, move(1)),
        (61_000, TimedOut(seat=0, observed_ms=61_000, deadline_ms=61_000, then="forfeit")),
    ]
    clocks = given(PER_MOVE, *log)
    assert clocks.forfeited == 0 and clocks.seat is None and clock.deadline(clocks) is None


def test_a_fischer_bank_starts_again_full_after_a_time_out():
    log = [
        (0, move(0)),
        (1_000, move(1)),
        (61_000, TimedOut(seat=0, observed_ms=61_000, deadline_ms=61_000, then="greedy")),
    ]
    clocks = given(FISCHER, *log, (61_300, move(0)))
    assert clocks.banks[0] == 60_000


def test_a_clock_choice_is_checked_against_the_seats_and_the_minimum():
    humans = [True, False]
    assert clock.problem(PER_MOVE, humans, 30) is None
    assert "one clock per seat" in clock.problem(ClockChoice(seats=[None]), humans, 30)
    assert "AI" in clock.problem(ClockChoice(seats=[None, PerMove(seconds=60)]), humans, 30)
    assert "30 s" in clock.problem(ClockChoice(seats=[PerMove(seconds=29), None]), humans, 30)
    assert "30 s" in clock.problem(ClockChoice(seats=[Fischer(bank_s=10), None]), humans, 30)
    assert "increment" in clock.problem(ClockChoice(seats=[Fischer(bank_s=30, increment_s=-1), None]), humans, 30)
    assert clock.problem(ClockChoice(seats=[PerMove(seconds=2), None]), humans, 1) is None


@pytest.mark.parametrize("kind", list(games.GAMES))
def test_a_forfeit_ends_every_game_with_the_seat_ranked_last(kind):
    game = games.get(kind)
    decider, rnd = game.decider, random.Random(7)
    command = game.create_command(game.random_options(game.players[0], rnd))
    events = decider.decide(None, command, SeededRng(b"clock", b"g"))
    state = fold(decider, events)
    for i in range(6):  # a few commands in
        awaited = decider.awaited(state)
        more = decider.decide(
            state, game.random_command(state, awaited.seat, rnd), SeededRng(b"clock", f"{i}".encode())
        )
        events += more
        state = fold(decider, more, state)
    seat = decider.awaited(state).seat
    forfeit = TimedOut(seat=seat, observed_ms=1, deadline_ms=1, then="forfeit")
    ended = fold(decider, [*events, forfeit])
    assert decider.is_terminal(ended) and decider.awaited(ended) is None
    outcome = decider.outcome(ended)
    assert outcome.winners and seat not in outcome.winners
    if hasattr(outcome, "places"):
        assert outcome.places[seat] == game.players[0]
    assert TimedOut in logged_event_type(decider).__args__
