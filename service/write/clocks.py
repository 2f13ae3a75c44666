"""Turn clocks in the write path: a new game's clocks checked, each clocked game's clocks folded from
its log (`domain.clock`, over the times its appends recorded on the Redis clock), and the clock
keeper's `time_out`, decided on the log and appended at the version it was decided at, so a move
appended first wins (the time-out then finds another version and is dropped)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import msgspec

from domain import clock as clocks_
from domain.clock import ClockChoice, Clocks, Logged, TimeOut
from domain.kernel import ClockPaused, DomainError, evolve
from service.errors import Code, Refused, ServiceError
from service.store.codec import JSON, wrap_platform
from service.store.errors import RedisError
from service.store.streams import ClockOff, VersionConflict

from .errors import store_failure
from .folds import decode_event
from .meta import SeatSpec, game_of
from .service import Games
from .submit import Submitted

CLOCKS_KEPT = 1024  # clocked games whose clocks a process keeps folded


def check_clock(clock: ClockChoice | None, seats: list[SeatSpec], min_s: int) -> dict[str, str]:
    """A new game's metadata for its clocks ({} without); 422 `bad_clock` for a choice that does not
    fit its seats or is shorter than `min_s`."""
    if clock is None:
        return {}
    problem = clocks_.problem(clock, [s.type == "human" for s in seats], min_s)
    if problem:
        raise ServiceError(Code.BAD_CLOCK, problem)
    return {"clock": JSON.encode(clock).decode()}


def choice_of(fixed: dict[str, bytes]) -> ClockChoice | None:
    """The game's clocks as chosen at its creation (None: it has none)."""
    raw = fixed.get("clock")
    return None if raw is None else msgspec.json.decode(raw, type=ClockChoice)


@dataclass(frozen=True)
class GameClock:
    """A clocked game's clocks and state at `version` (its last hash `last_hash`)."""

    version: int
    last_hash: str
    clocks: Clocks
    state: Any


async def clocks_of(games: Games, game: str) -> GameClock | None:
    """The game's clocks now, folded from its log (None: the game has no clocks); kept per process
    and caught up with the log's new appends (folded again when the log no longer holds the last
    event it had read: a failover lost it)."""
    fixed = await games.fixed(game)
    choice = choice_of(fixed)
    if choice is None:
        return None
    decider = game_of(fixed["kind"].decode()).decider
    cached: GameClock | None = games.clocks.pop(game, None)
    envelopes = await games.store.read(game, max(cached.version - 1, 0)) if cached else []
    if cached and envelopes and envelopes[0].version == cached.version and envelopes[0].hash == cached.last_hash:
        envelopes = envelopes[1:]
    else:
        cached, envelopes = None, await games.store.read(game)
    base = cached or GameClock(0, "", clocks_.start(choice), decider.initial_state())
    logged = [
        Logged(e.recorded_at, e.cause is not None or e.command is None, decode_event(decider, e)) for e in envelopes
    ]
    clocks, state = clocks_.follow(decider, base.clocks, base.state, logged)
    last = envelopes[-1] if envelopes else None
    now = GameClock(last.version, last.hash, clocks, state) if last else base
    games.clocks[game] = now
    while len(games.clocks) > CLOCKS_KEPT:
        games.clocks.popitem(last=False)
    return now


async def time_out(games: Games, game: str, seat: int, version: int, observed_ms: int) -> Submitted:
    """The clock keeper's time-out of `seat`, which it saw due at `observed_ms` (the Redis clock) at
    `version`: decided on the log (refused unless the seat's turn runs and its deadline has passed)
    and appended only at `version` (409 `version_conflict` if a move came first)."""
    command = TimeOut(seat=seat, observed_ms=observed_ms)
    async with games.folds.lock(game):
        clock = await clocks_of(games, game)
        if clock is None:
            raise ServiceError(Code.NOT_A_SEAT_COMMAND, "This game has no clocks.")
        if clock.version != version:
            raise ServiceError(Code.VERSION_CONFLICT, f"The game moved on to version {clock.version}.")
        try:
            event = clocks_.time_out(clock.clocks, command)
        except DomainError as error:
            raise Refused.by_rule(error) from None
        decider = await games.decider(game)
        ended = decider.is_terminal(evolve(decider, clock.state, event))
        # a platform event (the event holds the seat and the time seen), recorded at the time seen
        envelopes = [wrap_platform(game, version, clock.last_hash, event, recorded_at=observed_ms)]
        appended = await _append(games, game, version, envelopes, ended=ended, awaiting=None if ended else seat)
    if ended:
        with contextlib.suppress(RedisError):
            await games.delist_ended(game)
    return Submitted(version=appended, first=version + 1, awaiting=None if ended else {"seat": seat})


async def pause(games: Games, game: str, from_ms: int, to_ms: int) -> int | None:
    """Give the running turn of a clocked game back the time the server could not serve (a
    `clock_paused` event); the new version, or None when the game has no running clock."""
    async with games.folds.lock(game):
        clock = await clocks_of(games, game)
        if clock is None or clocks_.deadline(clock.clocks) is None:
            return None
        event = ClockPaused(from_ms=from_ms, to_ms=to_ms)
        stamp = games.store.now_ms()
        envelope = wrap_platform(game, clock.version, clock.last_hash, event, recorded_at=stamp)
        awaited = clock.clocks.seat
        return await _append(games, game, clock.version, [envelope], ended=False, awaiting=awaited, stamp=stamp)


async def _append(
    games: Games,
    game: str,
    version: int,
    envelopes: list,
    *,
    ended: bool,
    awaiting: int | None,
    stamp: int | None = None,
) -> int:
    try:
        appended = await games.store.append(
            game,
            version,
            envelopes,
            meta={"finished": 1} if ended else None,
            awaiting=awaiting,
            stamp=envelopes[0].recorded_at if stamp is None else stamp,
        )
    except VersionConflict as conflict:
        raise ServiceError(Code.VERSION_CONFLICT, f"The game moved on to version {conflict.current}.") from None
    except ClockOff:
        raise ServiceError(Code.VERSION_CONFLICT, "The time seen is off the Redis clock; look again.") from None
    except RedisError as error:
        raise store_failure(error, writing=True) from None
    finally:
        games.folds.forget(game)  # the cached state knows no platform event's effect: fold it again
    return appended.version
