"""The read-model registry: every game's read models, by kind, as its package of `projections/`
exports them (`READ_MODELS`). The domain's registry (`domain.games`) knows nothing of these; the
shell puts the two together by kind, and never names a game. Adding a game's read models is a
package `projections/<game>/` and one entry in `_READ_MODELS` below."""

from __future__ import annotations

from projections import pantheon, pantheon_cards, pergamon

from .base import Projection, ReadModels

_READ_MODELS: tuple[ReadModels, ...] = (pantheon.READ_MODELS, pergamon.READ_MODELS, pantheon_cards.READ_MODELS)
READ_MODELS: dict[str, ReadModels] = {models.kind: models for models in _READ_MODELS}


def read_models(kind: str) -> ReadModels:
    """The read models of a game kind (KeyError for a kind without any)."""
    return READ_MODELS[kind]


def projections_for(kind: str) -> tuple[Projection, ...]:
    """The projections of a game kind (KeyError for a kind without any)."""
    return READ_MODELS[kind].projections


def score_view(kind: str) -> type:
    """The type of a game kind's score view on the wire."""
    return READ_MODELS[kind].score
