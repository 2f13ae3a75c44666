"""Read models as pure folds over events: the board and seat views, the score view, the lobby summary."""

from __future__ import annotations

from domain.pantheon import PANTHEON

from .base import GameFold, Projection, fold_game, public_field, seat_field
from .board import BoardProjection
from .score import ScoreProjection
from .summary import SummaryProjection

# Every game kind's projections; bump a projection's `version` when its views change shape or
# content, and the projectors rebuild its stored models.
PROJECTIONS: dict[str, tuple[Projection, ...]] = {
    "pantheon": (BoardProjection(PANTHEON), ScoreProjection(), SummaryProjection(kind="pantheon")),
}


def projections_for(kind: str) -> tuple[Projection, ...]:
    """The projections of a game kind (KeyError for an unknown kind)."""
    return PROJECTIONS[kind]


__all__ = ["PROJECTIONS", "BoardProjection", "GameFold", "Projection", "ScoreProjection", "SummaryProjection",
           "fold_game", "projections_for", "public_field", "seat_field"]
