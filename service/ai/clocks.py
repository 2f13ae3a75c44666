"""The clock keeper: a seat whose turn clock has run out is timed out, in the log.

It runs beside the AI sweeper (in the same period, under the same one-at-a-time lock, in every
`pantheon worker` and so under `pantheon serve`). For every running game with clocks that awaits a
person, it folds the clocks from the log (`domain.clock`); once the Redis clock is past the running
turn's deadline it submits `time_out` at the version it read, with the time it saw (the write path
decides it on the log and appends it only at that version, so a move appended first wins). What
follows is the creator's choice: the game ended (forfeit), or the greedy AI's job for the turn,
enqueued here and again while the turn stays unplayed.

Time the server could not serve is given back: the keeper records the Redis clock at each look; a
gap longer than OUTAGE_S (Redis unreachable, every worker down) is appended to each game whose clock
was running as a `clock_paused` event, which the clocks fold (the turn's deadline moves by the part
of the gap inside it)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from domain import clock
from service.config import Settings
from service.errors import ServiceError
from service.store.connection import connect
from service.store.streams import EventStore
from service.write import GameService

from .scheduler import Scheduler, ai_level

log = logging.getLogger(__name__)

OUTAGE_S = 10.0  # a gap this long between two looks of the keepers is given back to the running clocks
RETRY_S = 10.0  # a timed-out turn the greedy AI has not played this long after is enqueued again
TIMED_OUT_LEVEL = "greedy"  # never a stronger one: nobody lets a clock run out to get a stronger player


@dataclass
class KeeperReport:
    timed_out: int = 0  # seats timed out by this look
    paused: int = 0  # games given back an outage
    requeued: int = 0  # timed-out turns whose greedy move was enqueued again
    refused: list[str] = field(default_factory=list)  # time-outs the write path refused (a move came first)


class ClockKeeper:
    """Times out the seats whose clocks have run out; `look` once per sweep period."""

    def __init__(self, settings: Settings, redis_url: str, scheduler: Scheduler, *, outage_s: float = OUTAGE_S) -> None:
        self.scheduler, self.outage_ms = scheduler, int(outage_s * 1000)
        self.loop = asyncio.new_event_loop()
        self.store = EventStore(
            connect(redis_url, timeout_s=settings.redis_timeout_s, pool_size=4, detect_s=settings.redis_detect_s),
            prefix=settings.prefix,
            partitions=settings.partitions,
            wait_replicas=settings.wait_replicas,
            wait_timeout_ms=settings.wait_timeout_ms,
        )
        self.service = GameService(self.store)
        self._enqueued: dict[tuple[str, int], int] = {}  # (game, version) -> when its greedy job was enqueued (ms)

    def look(self) -> KeeperReport:
        """One look at every running game (from the sweeper's thread)."""
        return self.loop.run_until_complete(self._look())

    def close(self) -> None:
        try:
            self.loop.run_until_complete(self.store.aclose())
        finally:
            self.loop.close()

    async def _look(self) -> KeeperReport:
        report, now = KeeperReport(), await self.store.redis_now_ms()
        last = await self.store.awaiting.beat(now)
        outage = (last, now) if last is not None and now - last > self.outage_ms else None
        if outage:
            log.warning(
                "no clock keeper looked for %.1f s: that time is given back to running clocks", (now - outage[0]) / 1000
            )
        for partition in range(self.store.partitions):
            for game, value in (await self.store.awaiting.entries(partition)).items():
                version, seat, _ = value.decode().split("|")
                try:
                    await self._game(game.decode(), int(version), int(seat), now, outage, report)
                except ServiceError as error:  # gone, archived, moved on meanwhile: the next look sees it
                    report.refused.append(f"{game.decode()}: {error.code}")
        self._enqueued = {k: at for k, at in self._enqueued.items() if now - at < 10 * RETRY_S * 1000}
        return report

    async def _game(
        self, game: str, version: int, seat: int, now: int, outage: tuple[int, int] | None, report: KeeperReport
    ) -> None:
        if "clock" not in await self.service.fixed(game):
            return
        if ai_level(await self.service.meta(game), seat) is not None:  # played by the AI: no clock
            return
        state = await self.service.clocks_of(game)
        if state is None or state.version != version or state.clocks.seat != seat:
            return  # moved on since the awaiting hash was read: the next look
        paused = await self.service.pause(game, *outage) if outage and clock.deadline(state.clocks) else None
        if paused is not None:
            report.paused += 1
            version, state = paused, await self.service.clocks_of(game)
            assert state is not None
        if state.clocks.timed_out:
            self._greedy(game, version, seat, now, report)
            return
        end = clock.deadline(state.clocks)
        if end is None or now < end:
            return
        done = await self.service.time_out(game, seat, version, now)
        report.timed_out += 1
        log.info("seat %d of game %s timed out at version %d (%d ms past its deadline)", seat, game, version, now - end)
        if done.awaiting is not None:
            self._greedy(game, done.version, seat, now, report)

    def _greedy(self, game: str, version: int, seat: int, now: int, report: KeeperReport) -> None:
        """Enqueue the greedy AI's move of a timed-out turn (again, if it has waited RETRY_S)."""
        at = self._enqueued.get((game, version))
        if at is not None and now - at < RETRY_S * 1000:
            return
        attempt = 0 if at is None else 1 + (now // int(RETRY_S * 1000)) % 1000  # a new job id each retry
        self.scheduler.enqueue(game, version, seat, attempt)
        self._enqueued[(game, version)] = now
        report.requeued += at is not None


async def timed_out_level(service: GameService, game: str, version: int, seat: int) -> str | None:
    """The AI level that plays a person's turn whose clock ran out (greedy, or the game's level just
    below strong), if the game awaits `seat` at `version` in such a turn; None otherwise."""
    state = await service.clocks_of(game)
    if state is None or state.version != version or state.clocks.seat != seat or not state.clocks.timed_out:
        return None
    names = (await service.decider(game)).bots.names  # type: ignore[union-attr]
    return TIMED_OUT_LEVEL if TIMED_OUT_LEVEL in names else names[min(1, len(names) - 1)]
