"""The board projection of any game: its state folded by its own evolve, shown through its leak-tested
public and seat views."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.kernel import Decider, evolve


@dataclass(frozen=True)
class BoardProjection:
    """The game's public view and each seat's view, as its decider renders them (for Pantheon: the
    map, pieces, temple, loot, gods, displays, pile sizes, every seat's public state, who is awaited)."""

    decider: Decider
    name: str = "board"
    version: int = 1
    follows_platform: bool = True  # a forfeit (a platform event) ends the game: the views say so

    def initial(self) -> Any:
        return self.decider.initial_state()

    def apply(self, model: Any, version: int, event: Any) -> Any:
        # evolve updates the state in place: the model belongs to this fold alone; the kernel's passes
        # over the platform's events but a forfeit
        return evolve(self.decider, model, event)

    def seats(self, model: Any) -> list[int]:
        return [] if model is None else list(range(model.players))  # every game's state counts its players

    def view(self, model: Any, seat: int | None = None) -> Any:
        if model is None:
            return {}
        if seat is None:
            return self.decider.public_view(model)
        return self.decider.seat_view(model, seat)
