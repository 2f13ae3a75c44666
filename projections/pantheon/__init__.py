"""Pantheon's read models: the board (its decider's views), the score breakdown and timeline, and
its part of the lobby summary."""

from __future__ import annotations

from domain.pantheon import PANTHEON

from ..base import ReadModels
from ..board import BoardProjection
from ..summary import SummaryProjection
from .score import PantheonScore, ScoreProjection
from .summary import SUMMARY_RULES

READ_MODELS = ReadModels(
    kind="pantheon",
    projections=(BoardProjection(PANTHEON), ScoreProjection(), SummaryProjection(kind="pantheon", rules=SUMMARY_RULES)),
    score=PantheonScore,
)

__all__ = ["READ_MODELS", "SUMMARY_RULES", "ScoreProjection"]
