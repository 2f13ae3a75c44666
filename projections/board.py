"""The board projection: the state folded by the game's own evolve, shown through its leak-tested views."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.kernel import Decider


@dataclass(frozen=True)
class BoardProjection:
    """Public view (map, pieces, temple, loot and gods on the board, display, half-god display,
    pile sizes, special money, every seat's public state, who is awaited) and seat views."""

    decider: Decider
    name: str = "board"
    version: int = 1

    def initial(self) -> Any:
        return self.decider.initial_state()

    def apply(self, model: Any, version: int, event: Any) -> Any:
        # evolve updates the state in place: the model belongs to this fold alone
        return self.decider.evolve(model, event)

    def seats(self, model: Any) -> list[int]:
        return [] if model is None else list(range(len(model.seats)))

    def view(self, model: Any, seat: int | None = None) -> dict:
        if model is None:
            return {}
        if seat is None:
            return self.decider.public_view(model)
        return self.decider.seat_view(model, seat)
