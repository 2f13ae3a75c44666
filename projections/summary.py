"""The game summary for the lobby: options, epoch, nation, status, scores, winners, who is awaited."""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from domain.pantheon import events as ev


class SummaryModel(msgspec.Struct, kw_only=True):
    version: int = 0
    options: dict = msgspec.field(default_factory=dict)
    epoch: int = 0
    nation: str = ""
    status: str = "setup"  # setup until the first action is awaited, then playing, then finished
    scores: list[int] = msgspec.field(default_factory=list)
    winners: list[int] = msgspec.field(default_factory=list)
    awaiting: dict | None = None


def _created(m: SummaryModel, e: ev.GameCreated) -> None:
    m.options = msgspec.to_builtins(e.options)
    m.scores = [0] * e.options.players


def _nation(m: SummaryModel, e: ev.NationRevealed) -> None:
    m.epoch, m.nation = e.epoch, e.nation


def _points(m: SummaryModel, e: ev.GodGained | ev.TurnPhaseEnded) -> None:
    m.scores[e.seat] += e.points


def _scored(m: SummaryModel, e: ev.Scored) -> None:
    m.scores = [score + row.total for score, row in zip(m.scores, e.rows)]


def _agenda(m: SummaryModel, e: ev.AgendaSet) -> None:
    first = e.tasks[0] if e.tasks and m.status != "finished" else None
    m.awaiting = None if first is None else {"seat": first.seat, "decision": first.kind}
    if m.status == "setup" and first is not None and first.kind == "action":
        m.status = "playing"


def _ended(m: SummaryModel, e: ev.GameEnded) -> None:
    m.status, m.winners, m.awaiting = "finished", list(e.winners), None


_HANDLERS = {ev.GameCreated: _created, ev.NationRevealed: _nation, ev.GodGained: _points,
             ev.TurnPhaseEnded: _points, ev.Scored: _scored, ev.AgendaSet: _agenda, ev.GameEnded: _ended}


@dataclass(frozen=True)
class SummaryProjection:
    kind: str = "pantheon"
    name: str = "summary"
    version: int = 1

    def initial(self) -> SummaryModel:
        return SummaryModel()

    def apply(self, model: SummaryModel, version: int, event: object) -> SummaryModel:
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(model, event)
        model.version = version
        return model

    def seats(self, model: SummaryModel) -> list[int]:
        return []

    def view(self, model: SummaryModel, seat: int | None = None) -> dict:
        return {"kind": self.kind, "version": model.version, "options": dict(model.options),
                "players": len(model.scores), "epoch": model.epoch, "nation": model.nation or None,
                "status": model.status, "scores": list(model.scores), "winners": list(model.winners),
                "awaiting": None if model.awaiting is None else dict(model.awaiting)}
