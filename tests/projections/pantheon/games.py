"""Random finished games for the projection tests (the same seed gives the same games)."""

from __future__ import annotations

import functools

from service.cli.simulate import run


@functools.cache
def random_games(count: int = 6, seed: str = "projections") -> tuple[tuple, ...]:
    """The events of `count` random games with 2, 3 and 4 players in turn."""
    _, records = run(count, "mixed", seed, check=False)
    return tuple(tuple(record.events) for record in records)
