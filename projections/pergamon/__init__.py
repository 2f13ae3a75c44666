"""Pergamon's read models: the board (its decider's views), the VP breakdown and timeline, and its
part of the lobby summary. With secret VP, VP reach a view only where the seat may see them."""

from __future__ import annotations

from domain.pergamon import PERGAMON

from ..base import ReadModels
from ..board import BoardProjection
from ..summary import SummaryProjection
from .score import PergamonScore, ScoreProjection
from .summary import SUMMARY_RULES

READ_MODELS = ReadModels(
    kind="pergamon",
    projections=(BoardProjection(PERGAMON), ScoreProjection(), SummaryProjection(kind="pergamon", rules=SUMMARY_RULES)),
    score=PergamonScore,
)

__all__ = ["READ_MODELS", "SUMMARY_RULES", "ScoreProjection"]
