"""Pergamon's read models: the board (its decider's views), the VP breakdown and timeline, and its
part of the lobby summary. With secret VP, VP reach a view only where the seat may see them."""

from __future__ import annotations

from domain.pergamon import PERGAMON

from ..board import BoardProjection
from ..summary import SummaryProjection
from .score import ScoreProjection
from .summary import SUMMARY_RULES

# Bump a projection's `version` when its views change shape or content: projectors rebuild its models.
PERGAMON_PROJECTIONS = (BoardProjection(PERGAMON), ScoreProjection(),
                        SummaryProjection(kind="pergamon", rules=SUMMARY_RULES))

__all__ = ["PERGAMON_PROJECTIONS", "SUMMARY_RULES", "ScoreProjection"]
