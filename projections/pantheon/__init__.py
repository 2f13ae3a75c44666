"""Pantheon's read models: the board (its decider's views), the score breakdown and timeline, and
its part of the lobby summary."""

from __future__ import annotations

from domain.pantheon import PANTHEON

from ..board import BoardProjection
from ..summary import SummaryProjection
from .score import ScoreProjection
from .summary import SUMMARY_RULES

# Bump a projection's `version` when its views change shape or content: projectors rebuild its models.
PANTHEON_PROJECTIONS = (BoardProjection(PANTHEON), ScoreProjection(),
                        SummaryProjection(kind="pantheon", rules=SUMMARY_RULES))

__all__ = ["PANTHEON_PROJECTIONS", "SUMMARY_RULES", "ScoreProjection"]
