"""Read models as pure folds over events. Shared here: the projection protocol and the fold of all
of a game's projections (`base`), the board projection over any game's views (`board`) and the
lobby summary (`summary`). A game's own read models live in `projections/<game>/`; the registry
`domain.games` says which projections each game has."""

from __future__ import annotations

from .base import GameFold, Projection, fold_game, public_field, seat_field
from .board import BoardProjection
from .summary import SummaryModel, SummaryProjection, SummaryRules

__all__ = [
    "BoardProjection",
    "GameFold",
    "Projection",
    "SummaryModel",
    "SummaryProjection",
    "SummaryRules",
    "fold_game",
    "public_field",
    "seat_field",
]
