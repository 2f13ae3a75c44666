"""Pantheon (the card game)'s part of the lobby summary: the turn and the stage as details, the
awaited seat and decision, every seat's score (public at any time, §22) and the winners. A score
and the awaited decision come from the columns and the flow, not from one event each, so the
model is the game's state folded by its own evolve beside the shared summary model."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from domain.kernel import evolve
from domain.pantheon_cards import PANTHEON_CARDS, State
from domain.pantheon_cards.rules import scores
from domain.pantheon_cards.state import SETUP

from ..summary import SummaryModel, SummaryRules
from ..summary import SummaryProjection as _Shared


def _details() -> dict[str, Any]:
    return {"turn": 0, "stage": SETUP}


class CardsSummaryModel:
    """The state as the game's evolve leaves it (updated in place: it belongs to this fold) and the
    shared summary model drawn from it."""

    __slots__ = ("state", "summary")

    def __init__(self, summary: SummaryModel) -> None:
        self.state: State | None = None
        self.summary = summary


def _draw(m: SummaryModel, state: State) -> None:
    if not m.options:
        m.options = msgspec.to_builtins(state.options)
    m.scores = scores(state)
    m.details["turn"], m.details["stage"] = state.turn, state.stage
    awaited = PANTHEON_CARDS.awaited(state)
    m.awaiting = None if awaited is None else {"seat": awaited.seat, "decision": awaited.decision}
    m.status = "finished" if state.finished else "setup" if state.stage == SETUP else "playing"
    m.winners = list(state.winners)


@dataclass(frozen=True)
class SummaryProjection:
    kind: str = "pantheon_cards"
    name: str = "summary"
    version: int = 1
    follows_platform: bool = True  # a forfeit (a platform event) ends the game: the lobby says so

    @property
    def _shared(self) -> _Shared:  # the view every game's summary shares
        return _Shared(kind=self.kind, rules=SummaryRules(details=_details))

    def initial(self) -> CardsSummaryModel:
        return CardsSummaryModel(self._shared.initial())

    def apply(self, model: CardsSummaryModel, version: int, event: Any) -> CardsSummaryModel:
        model.state = evolve(
            PANTHEON_CARDS, model.state, event
        )  # the kernel's: passes over the platform's but a forfeit
        _draw(model.summary, model.state)
        model.summary.version = version
        return model

    def seats(self, model: CardsSummaryModel) -> list[int]:
        return []

    def view(self, model: CardsSummaryModel, seat: int | None = None) -> dict[str, Any]:
        return self._shared.view(model.summary)
