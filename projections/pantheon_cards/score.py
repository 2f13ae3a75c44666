"""The score projection: each seat's score (§19.2: its gods in play, doubled when they all share a
pantheon), the gods it comes from, the Battle of Pantheons' tied seats, and the scores over time.
A score is computed from the columns, so the model is the game's state folded by its own evolve
(the events name cards, not points). Its view is typed: the API sends it as it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from domain.pantheon_cards import PANTHEON_CARDS, State
from domain.pantheon_cards.rules import card, gods_in_play, scores


# The score view, as the API sends it.
class PantheonCardsSeatScore(msgspec.Struct, frozen=True, kw_only=True):
    """A seat's score and the gods in play it counts (`doubled`: they all share one pantheon)."""

    seat: int
    total: int
    gods: list[str]
    pantheons: list[str]
    doubled: bool


class PantheonCardsScorePoint(msgspec.Struct, frozen=True, kw_only=True):
    """Every seat's score from `version` on."""

    version: int
    scores: list[int]


class PantheonCardsScore(msgspec.Struct, frozen=True, kw_only=True):
    """Scores by seat, the Battle of Pantheons' tied seats and turns once it began, the winners
    (several: a draw), and the scores after every event that changed one."""

    version: int
    finished: bool
    winners: list[int]
    draw: bool
    tied: list[int]
    battle_turns: int
    seats: list[PantheonCardsSeatScore]
    timeline: list[PantheonCardsScorePoint]


class ScoreModel:
    """The state as the game's evolve leaves it (updated in place: it belongs to this fold) and the
    timeline; a plain class, as the state is the decider's own mutable object."""

    __slots__ = ("state", "timeline", "version")

    def __init__(self) -> None:
        self.state: State | None = None
        self.timeline: list[tuple[int, list[int]]] = []
        self.version = 0


def _seat_view(state: State, seat: int, total: int) -> PantheonCardsSeatScore:
    gods = gods_in_play(state, seat)
    pantheons = sorted({card(state, g).pantheon for g in gods})
    return PantheonCardsSeatScore(
        seat=seat, total=total, gods=list(gods), pantheons=pantheons, doubled=bool(gods) and len(pantheons) == 1
    )


@dataclass(frozen=True)
class ScoreProjection:
    name: str = "score"
    version: int = 1

    def initial(self) -> ScoreModel:
        return ScoreModel()

    def apply(self, model: ScoreModel, version: int, event: Any) -> ScoreModel:
        model.state = PANTHEON_CARDS.evolve(model.state, event)
        now = scores(model.state)
        if not model.timeline or model.timeline[-1][1] != now:
            model.timeline.append((version, now))
        model.version = version
        return model

    def seats(self, model: ScoreModel) -> list[int]:
        return []  # every score is public (§22)

    def view(self, model: ScoreModel, seat: int | None = None) -> PantheonCardsScore:
        state = model.state
        if state is None:
            return PantheonCardsScore(
                version=0, finished=False, winners=[], draw=False, tied=[], battle_turns=0, seats=[], timeline=[]
            )
        totals = scores(state)
        timeline = [PantheonCardsScorePoint(version=v, scores=list(s)) for v, s in model.timeline]
        if timeline and timeline[-1].version < model.version:
            timeline.append(PantheonCardsScorePoint(version=model.version, scores=list(totals)))
        return PantheonCardsScore(
            version=model.version,
            finished=state.finished,
            winners=list(state.winners),
            draw=state.draw,
            tied=list(state.tied),
            battle_turns=state.battle_turns,
            seats=[_seat_view(state, s, totals[s]) for s in range(state.players)],
            timeline=timeline,
        )
