"""Turn clocks in the write path, over a real Redis: times recorded on the Redis clock (checked by the
append), a time-out refused before the deadline and at a version a move took first, a forfeit that
ends the game with the seat last, and an outage given back."""

from __future__ import annotations

import asyncio
import random

import msgspec
import pytest

from domain import clock, games
from domain.clock import ClockChoice, PerMove
from service.errors import Code
from service.http.problems import status_of
from service.store.codec import wrap_platform
from service.store.streams import ClockOff
from service.write import SeatSpec, ServiceError

SECOND = PerMove(seconds=1)


async def clocked(service, then="forfeit", kind="pantheon"):
    """A two-person game with a 1 s clock per move for each seat; both seats' tokens."""
    service.clock_min_s = 1
    choice = ClockChoice(seats=[SECOND, SECOND], on_time_out=then)
    created = await service.create(kind, {}, [SeatSpec(), SeatSpec()], clock=choice, claim=[0, 1])
    return created.game


async def play_one(service, game, kind="pantheon"):
    """The awaited seat plays a random legal command; the version after it."""
    version, state = await service.state_at(game)
    decider = games.get(kind)
    seat = decider.decider.awaited(state).seat
    command = decider.random_command(state, seat, random.Random(version))
    done = await service.submit(game, seat, msgspec.to_builtins(command), expected_version=version)
    return done.version


async def test_every_recorded_time_is_the_redis_clock(service, store):
    game = await clocked(service)
    await play_one(service, game)
    now = await store.redis_now_ms()
    for envelope in await store.read(game):
        assert now - 5_000 < envelope.recorded_at <= now


async def test_an_append_stamped_off_the_redis_clock_is_refused_and_the_store_learns_the_clock(service, store):
    game = await clocked(service)
    version, last_hash = await store.head(game)
    now = await store.redis_now_ms()
    from domain.kernel import ClockPaused

    ahead = wrap_platform(game, version, last_hash, ClockPaused(from_ms=0, to_ms=0), recorded_at=now + 60_000)
    with pytest.raises(ClockOff):
        await store.append(game, version, [ahead], awaiting=0, stamp=now + 60_000)
    assert (await store.head(game))[0] == version  # nothing appended
    store.clock_offset_ms = 3_600_000  # a process whose clock is an hour behind learns Redis' from the refusal
    await play_one(service, game)
    assert abs(store.now_ms() - await store.redis_now_ms()) < 2_000


async def test_the_clocks_start_with_the_first_move_and_a_time_out_before_the_deadline_is_refused(service, store):
    game = await clocked(service)
    assert clock.deadline((await service.clocks_of(game)).clocks) is None
    version = await play_one(service, game)
    state = await service.clocks_of(game)
    deadline = clock.deadline(state.clocks)
    envelopes = await store.read(game)
    assert deadline == envelopes[-1].recorded_at + 1_000
    with pytest.raises(ServiceError) as refused:
        await service.time_out(game, state.clocks.seat, version, deadline - 1)
    assert refused.value.code == "time_left" and status_of(refused.value) == 422
    assert (await store.head(game))[0] == version


async def test_a_late_move_appended_first_wins_over_the_time_out(service):
    game = await clocked(service)
    version = await play_one(service, game)
    seat = (await service.clocks_of(game)).clocks.seat
    await asyncio.sleep(1.1)  # the seat's time is up, and the keeper decided at `version`...
    observed = await service.store.redis_now_ms()
    await play_one(service, game)  # ...but the seat's late move was appended first
    with pytest.raises(ServiceError) as refused:
        await service.time_out(game, seat, version, observed)
    assert refused.value.code == Code.VERSION_CONFLICT
    _, state = await service.state_at(game)
    assert not games.get("pantheon").decider.is_terminal(state)


async def test_a_forfeit_ends_the_game_with_the_seat_ranked_last(service, store):
    game = await clocked(service, "forfeit")
    version = await play_one(service, game)
    seat = (await service.clocks_of(game)).clocks.seat
    _, before = await service.state_at(game)
    late = msgspec.to_builtins(games.get("pantheon").random_command(before, seat, random.Random(1)))
    await asyncio.sleep(1.05)
    done = await service.time_out(game, seat, version, await store.redis_now_ms())
    assert done.version == version + 1 and done.awaiting is None
    _, state = await service.state_at(game)
    decider = games.get("pantheon").decider
    assert decider.is_terminal(state) and decider.outcome(state).winners == [1 - seat]
    assert "finished" in await store.records.meta(game)
    assert await store.awaiting.awaited(game) is None
    with pytest.raises(ServiceError) as over:  # the seat's move, too late: the game is over
        await service.submit(game, seat, late)
    assert status_of(over.value) == 422, over.value.message


async def test_after_a_greedy_time_out_the_seat_is_still_awaited_and_no_clock_runs(service, store):
    game = await clocked(service, "greedy")
    version = await play_one(service, game)
    seat = (await service.clocks_of(game)).clocks.seat
    await asyncio.sleep(1.05)
    done = await service.time_out(game, seat, version, await store.redis_now_ms())
    assert done.awaiting == {"seat": seat}
    state = await service.clocks_of(game)
    assert state.clocks.timed_out and clock.deadline(state.clocks) is None
    assert (await store.awaiting.awaited(game))[:2] == (version + 1, seat)


async def test_an_outage_is_given_back_to_the_running_clock(service, store):
    game = await clocked(service)
    await play_one(service, game)
    before = clock.deadline((await service.clocks_of(game)).clocks)
    start = (await service.clocks_of(game)).clocks.since
    await service.pause(game, start - 5_000, start + 700)  # only the part inside the turn counts
    assert clock.deadline((await service.clocks_of(game)).clocks) == before + 700


async def test_a_clock_that_does_not_fit_is_refused_and_nothing_is_made(service):
    service.clock_min_s = 30
    for choice in (
        ClockChoice(seats=[PerMove(seconds=10), None]),
        ClockChoice(seats=[PerMove(seconds=60)]),
    ):
        with pytest.raises(ServiceError) as bad:
            await service.create("pantheon", {}, [SeatSpec(), SeatSpec()], clock=choice)
        assert bad.value.code == Code.BAD_CLOCK and status_of(bad.value) == 422
    assert await service.lobby(10) == []
