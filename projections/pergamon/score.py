"""The score projection: each seat's VP by source (exhibits, museum markers per evaluation,
awards, final bonus) and the totals over time. With secret VP a seat sees only its own until the
game ends, and spectators see none (rules §10, R26). Its view is typed: the API sends it as it is."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.contract import UNSET, Maybe
from domain.pergamon import events as ev
from domain.pergamon.components import load_components
from domain.pergamon.fork import PergamonForked


# The score view, as the API sends it.
class PergamonSeatScore(msgspec.Struct, frozen=True, kw_only=True):
    """A seat's VP and where they came from (markers by round, awards by object type); only `seat`
    and a null `total` while the game keeps this seat's VP secret from the viewer."""

    seat: int
    total: int | None
    exhibits: Maybe[int] = UNSET
    markers: Maybe[dict[str, int]] = UNSET
    awards: Maybe[dict[str, int]] = UNSET
    final_bonus: Maybe[int] = UNSET
    carried_over: Maybe[int] = UNSET  # a fork of a running game starts with its parent's VP


class PergamonScorePoint(msgspec.Struct, frozen=True, kw_only=True):
    version: int
    scores: list[int | None]


class PergamonScore(msgspec.Struct, frozen=True, kw_only=True):
    """VP by seat and source, and the totals after every event that changed one."""

    version: int
    finished: bool
    winners: list[int]
    secret: bool
    seats: list[PergamonSeatScore]
    timeline: list[PergamonScorePoint]


class SeatVP(msgspec.Struct, kw_only=True):
    total: int = 0
    exhibits: int = 0
    markers: dict[str, int] = msgspec.field(default_factory=dict)  # round -> VP from markers
    awards: dict[str, int] = msgspec.field(default_factory=dict)  # object type -> VP
    final_bonus: int = 0
    carried_over: int = 0  # a fork of a running game starts with its parent's VP, without their history


class ScoreModel(msgspec.Struct, kw_only=True):
    version: int = 0
    secret: bool = False
    edition: str = "house-1"
    seats: list[SeatVP] = msgspec.field(default_factory=list)
    timeline: list[tuple[int, list[int]]] = msgspec.field(default_factory=list)
    winners: list[int] = msgspec.field(default_factory=list)
    finished: bool = False


def _created(m: ScoreModel, e: ev.PergamonGameCreated) -> None:
    m.seats = [SeatVP() for _ in range(e.options.players)]
    m.secret, m.edition = e.options.vp_visibility == "secret", e.options.edition


def _constant(m: ScoreModel, name: str) -> int:
    return load_components(m.edition).constants[name]


def _exhibited(m: ScoreModel, e: ev.Exhibited) -> None:
    vp = _constant(m, "exhibit_vp")
    m.seats[e.seat].exhibits += vp
    m.seats[e.seat].total += vp


def _scored(m: ScoreModel, e: ev.MarkersScored) -> None:
    for seat, points in zip(m.seats, e.points):
        seat.markers[str(e.round)] = points or 0
        seat.total += points or 0


def _award(m: ScoreModel, e: ev.AwardGiven) -> None:
    vp = _constant(m, "award_vp")
    for s in e.winners:
        m.seats[s].awards[e.object_type] = m.seats[s].awards.get(e.object_type, 0) + vp
        m.seats[s].total += vp


def _bonus(m: ScoreModel, e: ev.FinalBonusGiven) -> None:
    points = load_components(m.edition).calendar[12].final_bonus
    for b in e.bonuses:
        vp = points[sum(1 for other in e.bonuses if other.date > b.date)]
        m.seats[b.seat].final_bonus += vp
        m.seats[b.seat].total += vp


def _ended(m: ScoreModel, e: ev.PergamonGameEnded) -> None:
    m.winners, m.finished = list(e.winners), True


def _forked(m: ScoreModel, e: PergamonForked) -> None:
    m.secret, m.edition = e.state.options.vp_visibility == "secret", e.state.options.edition
    m.seats = [SeatVP(total=s.vp, carried_over=s.vp) for s in e.state.seats]


_HANDLERS: dict[type, Callable[[ScoreModel, Any], None]] = {
    ev.PergamonGameCreated: _created,
    ev.Exhibited: _exhibited,
    ev.MarkersScored: _scored,
    ev.AwardGiven: _award,
    ev.FinalBonusGiven: _bonus,
    ev.PergamonGameEnded: _ended,
    PergamonForked: _forked,
}


def _seat_view(i: int, s: SeatVP) -> PergamonSeatScore:
    return PergamonSeatScore(
        seat=i,
        total=s.total,
        exhibits=s.exhibits,
        markers=dict(s.markers),
        awards=dict(s.awards),
        final_bonus=s.final_bonus,
        carried_over=s.carried_over,
    )


@dataclass(frozen=True)
class ScoreProjection:
    name: str = "score"
    version: int = 2  # 2: a secret score's changes no longer show in the timeline

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
        """With secret VP each seat has a view of its own until the end."""
        return list(range(len(model.seats))) if model.secret and not model.finished else []

    def view(self, model: ScoreModel, seat: int | None = None) -> PergamonScore:
        """Totals, breakdowns and the timeline (the scores at each version where one changed)."""
        visible = [not model.secret or model.finished or i == seat for i in range(len(model.seats))]
        timeline: list[PergamonScorePoint] = []
        for (
            v,
            totals,
        ) in model.timeline:  # only where a score the viewer sees changed: when a hidden one did is hidden too
            shown = [x if ok else None for x, ok in zip(totals, visible)]
            if not timeline or timeline[-1].scores != shown:
                timeline.append(PergamonScorePoint(version=v, scores=shown))
        if timeline and timeline[-1].version < model.version:
            timeline.append(PergamonScorePoint(version=model.version, scores=list(timeline[-1].scores)))
        return PergamonScore(
            version=model.version,
            finished=model.finished,
            winners=list(model.winners),
            secret=model.secret and not model.finished,
            seats=[
                _seat_view(i, s) if ok else PergamonSeatScore(seat=i, total=None)
                for i, (s, ok) in enumerate(zip(model.seats, visible))
            ],
            timeline=timeline,
        )
