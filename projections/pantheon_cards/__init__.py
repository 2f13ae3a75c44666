"""Pantheon (the card game)'s read models: the board (its decider's views), the scores (gods in
play, doubled for one pantheon, §19.2) and their timeline, and its part of the lobby summary. Every
score is public at any time (§22), so no view differs by seat but the board's."""

from __future__ import annotations

from domain.pantheon_cards import PANTHEON_CARDS

from ..base import ReadModels
from ..board import BoardProjection
from .score import PantheonCardsScore, ScoreProjection
from .summary import SummaryProjection

READ_MODELS = ReadModels(
    kind="pantheon_cards",
    projections=(BoardProjection(PANTHEON_CARDS), ScoreProjection(), SummaryProjection()),
    score=PantheonCardsScore,
)

__all__ = ["READ_MODELS", "ScoreProjection", "SummaryProjection"]
