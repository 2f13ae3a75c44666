"""The score projection: each seat's total, where every point came from, and the scores over time
(its view typed: the API sends it as it is)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.pantheon import events as ev
from domain.pantheon.redeal import Redealt


# The score view, as the API sends it.
class PantheonScoring(msgspec.Struct, frozen=True, kw_only=True):
    epoch: int
    half_gods: int
    columns: int
    pietalte: int
    total: int


class PantheonSeatScore(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's total and where it came from."""

    seat: int
    total: int
    gods: int
    gods_by_epoch: list[int]
    gods_by_source: dict[str, int]
    phase_end: int
    half_gods: int
    columns: int
    pietalte: int
    scorings: list[PantheonScoring]
    carried_over: int


class PantheonScoreTime(msgspec.Struct, frozen=True, kw_only=True):
    """Every seat's score from `version` on."""

    version: int
    scores: list[int]


class PantheonScore(msgspec.Struct, frozen=True, kw_only=True):
    """Totals, breakdowns and the timeline of the scores."""

    version: int
    epoch: int
    finished: bool
    winners: list[int]
    seats: list[PantheonSeatScore]
    timeline: list[PantheonScoreTime]


class SeatScore(msgspec.Struct, kw_only=True):
    """One seat's points by source; `gods_by_epoch[i]` holds the gods tiles' points of epoch i + 1."""

    total: int = 0
    gods_by_epoch: list[int] = msgspec.field(default_factory=list)
    gods_by_source: dict[str, int] = msgspec.field(default_factory=dict)
    phase_end: int = 0
    scorings: list[PantheonScoring] = msgspec.field(default_factory=list)
    carried_over: int = 0  # a fork of a running game starts with its parent's scores, without their history


class ScoreModel(msgspec.Struct, kw_only=True):
    version: int = 0
    epoch: int = 0
    seats: list[SeatScore] = msgspec.field(default_factory=list)
    # (version, every seat's score) each time a score changed, from version 1
    timeline: list[tuple[int, list[int]]] = msgspec.field(default_factory=list)
    winners: list[int] = msgspec.field(default_factory=list)
    finished: bool = False


def _created(m: ScoreModel, e: ev.GameCreated) -> None:
    m.seats = [SeatScore() for _ in range(e.options.players)]


def _nation(m: ScoreModel, e: ev.NationRevealed) -> None:
    m.epoch = e.epoch
    for seat in m.seats:
        seat.gods_by_epoch += [0] * (e.epoch - len(seat.gods_by_epoch))


def _god(m: ScoreModel, e: ev.GodGained) -> None:
    seat = m.seats[e.seat]
    epoch = max(m.epoch, 1)
    seat.gods_by_epoch += [0] * (epoch - len(seat.gods_by_epoch))
    seat.gods_by_epoch[epoch - 1] += e.points
    seat.gods_by_source[e.source] = seat.gods_by_source.get(e.source, 0) + e.points
    seat.total += e.points


def _phase_end(m: ScoreModel, e: ev.TurnPhaseEnded) -> None:
    m.seats[e.seat].phase_end += e.points
    m.seats[e.seat].total += e.points


def _scored(m: ScoreModel, e: ev.Scored) -> None:
    for seat, row in zip(m.seats, e.rows):
        seat.scorings.append(
            PantheonScoring(
                epoch=e.epoch, half_gods=row.half_gods, columns=row.columns, pietalte=row.pietalte, total=row.total
            )
        )
        seat.total += row.total


def _ended(m: ScoreModel, e: ev.GameEnded) -> None:
    m.winners, m.finished = list(e.winners), True


def _redealt(m: ScoreModel, e: Redealt) -> None:
    m.epoch = e.state.epoch
    m.seats = [
        SeatScore(total=seat.score, carried_over=seat.score, gods_by_epoch=[0] * e.state.epoch)
        for seat in e.state.seats
    ]


_HANDLERS: dict[type, Callable[[ScoreModel, Any], None]] = {
    ev.GameCreated: _created,
    ev.NationRevealed: _nation,
    ev.GodGained: _god,
    ev.TurnPhaseEnded: _phase_end,
    ev.Scored: _scored,
    ev.GameEnded: _ended,
    Redealt: _redealt,
}


def _seat_view(i: int, s: SeatScore) -> PantheonSeatScore:
    return PantheonSeatScore(
        seat=i,
        total=s.total,
        gods=sum(s.gods_by_epoch),
        gods_by_epoch=list(s.gods_by_epoch),
        gods_by_source=dict(sorted(s.gods_by_source.items())),
        phase_end=s.phase_end,
        half_gods=sum(r.half_gods for r in s.scorings),
        columns=sum(r.columns for r in s.scorings),
        pietalte=sum(r.pietalte for r in s.scorings),
        scorings=list(s.scorings),
        carried_over=s.carried_over,
    )


@dataclass(frozen=True)
class ScoreProjection:
    name: str = "score"
    version: int = 2  # 2: carried_over (forks of running games)

    def initial(self) -> ScoreModel:
        return ScoreModel()

    def apply(self, model: ScoreModel, version: int, event: object) -> ScoreModel:
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(model, event)
            scores = [s.total for s in model.seats]
            if not model.timeline or model.timeline[-1][1] != scores:
                model.timeline.append((version, scores))
        model.version = version
        return model

    def seats(self, model: ScoreModel) -> list[int]:
        return []

    def view(self, model: ScoreModel, seat: int | None = None) -> PantheonScore:
        """Totals and breakdowns; `timeline` lists the scores at each version where one changed
        and at the last version: the scores after event v are those of the last entry at or before v."""
        timeline = [PantheonScoreTime(version=v, scores=list(s)) for v, s in model.timeline]
        if timeline and timeline[-1].version < model.version:
            timeline.append(PantheonScoreTime(version=model.version, scores=list(model.timeline[-1][1])))
        return PantheonScore(
            version=model.version,
            epoch=model.epoch,
            finished=model.finished,
            winners=list(model.winners),
            seats=[_seat_view(i, s) for i, s in enumerate(model.seats)],
            timeline=timeline,
        )
