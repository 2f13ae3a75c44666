"""The lobby summary, the same shape for every game: options, players, status, scores, winners,
who is awaited, and a few facts of the game's own (`details`, e.g. Pantheon's epoch and nation).

The game says how its events change the summary (`SummaryRules`); the model and the view are shared,
so the lobby reads every game alike."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.kernel import forfeit_ranking, forfeits, is_platform


class SummaryModel(msgspec.Struct, kw_only=True):
    version: int = 0
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    details: dict[str, Any] = msgspec.field(default_factory=dict)  # the game's own facts, shown beside players
    status: str = "setup"  # setup until the first turn is awaited, then playing, then finished
    scores: list[int] = msgspec.field(default_factory=list)
    winners: list[int] = msgspec.field(default_factory=list)
    awaiting: dict[str, Any] | None = None


@dataclass(frozen=True)
class SummaryRules:
    """A game's part of the summary: its details before the first event, and for each of its event
    types a function that updates the model (an event type without one changes nothing)."""

    details: Callable[[], dict[str, Any]]
    handlers: Mapping[type, Callable[[SummaryModel, Any], None]] = field(default_factory=dict)


@dataclass(frozen=True)
class SummaryProjection:
    kind: str
    rules: SummaryRules
    name: str = "summary"
    version: int = 1
    follows_platform: bool = True  # a forfeit (a platform event) ends the game: the lobby says so

    def initial(self) -> SummaryModel:
        return SummaryModel(details=self.rules.details())

    def apply(self, model: SummaryModel, version: int, event: Any) -> SummaryModel:
        if forfeits(event):  # ranked by the scores the summary holds, as the game ranks them (kernel)
            model.status, model.awaiting = "finished", None
            model.winners = forfeit_ranking(model.scores, event.seat)[0] if model.scores else []
        elif not is_platform(event) and (handler := self.rules.handlers.get(type(event))) is not None:
            handler(model, event)
        model.version = version
        return model

    def seats(self, model: SummaryModel) -> list[int]:
        return []

    def view(self, model: SummaryModel, seat: int | None = None) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "version": model.version,
            "options": dict(model.options),
            "players": len(model.scores),
            **model.details,
            "status": model.status,
            "scores": list(model.scores),
            "winners": list(model.winners),
            "awaiting": None if model.awaiting is None else dict(model.awaiting),
        }
