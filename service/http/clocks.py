"""A game's turn clocks as its status shows them (GET /games/{id}): the clocks chosen at creation,
shown to anyone before they claim a seat, and each clocked seat's time left now."""

from __future__ import annotations

from msgspec import Struct

from domain import clock
from domain.clock import ClockChoice
from service.write import GameService


class SeatClockNow(Struct, frozen=True, kw_only=True):
    """A clocked seat's time left at `now_ms`; `running`: its turn is being timed now."""

    seat: int
    remaining_ms: int
    running: bool


class ClockStatus(Struct, frozen=True, kw_only=True):
    """The game's turn clocks: as chosen at creation (`choice`), each clocked seat's time left at
    `now_ms` (the server's clock, ms), and when the running turn's time is up (`deadline_ms`, on the
    same clock; null: no clock runs). A client counts down from `remaining_ms`. `forfeited`: the seat
    whose time ran out in a game that then ended (`on_time_out: forfeit`): ranked last."""

    choice: ClockChoice
    seats: list[SeatClockNow]
    now_ms: int
    deadline_ms: int | None
    forfeited: int | None = None


async def clock_status(service: GameService, game: str) -> ClockStatus | None:
    """The game's clocks now (None: it has none)."""
    now = await service.clocks_of(game)
    if now is None:
        return None
    at = service.store.now_ms()
    left = clock.remaining(now.clocks, at)
    deadline = clock.deadline(now.clocks)
    seats = [
        SeatClockNow(seat=seat, remaining_ms=ms, running=deadline is not None and seat == now.clocks.seat)
        for seat, ms in enumerate(left)
        if ms is not None
    ]
    return ClockStatus(
        choice=now.clocks.choice, seats=seats, now_ms=at, deadline_ms=deadline, forfeited=now.clocks.forfeited
    )
