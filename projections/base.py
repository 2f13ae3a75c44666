"""The projection protocol, a game's read models as it registers them, and all projections of one
game folded together, version by version."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from domain.kernel import is_platform


class Projection(Protocol):
    """A read model as a fold: `apply` one event at a time, then render views of the model.

    `version` is the projection's own schema version: changing it rebuilds its stored models."""

    @property
    def name(self) -> str:
        """The read model's name (its key in Redis, `board`, `score`, `summary`)."""
        ...

    @property
    def version(self) -> int:
        """The projection's own schema version."""
        ...

    def initial(self) -> Any:
        """The model before the first event."""
        ...

    def apply(self, model: Any, version: int, event: Any) -> Any:
        """The model after `event`, the game's event number `version` (may update in place)."""
        ...

    def seats(self, model: Any) -> list[int]:
        """The seats that have a view of their own ([] when every viewer sees the same)."""
        ...

    def view(self, model: Any, seat: int | None = None) -> Any:
        """The view the API sends as it is (a msgspec Struct, or JSON-ready builtins): the public
        one, or `seat`'s own."""
        ...


@dataclass(frozen=True, slots=True)
class ReadModels:
    """What a game package of `projections/` exports to be registered (`projections.registry`): its
    read models, and the type of its score view on the wire (named after the game)."""

    kind: str  # the game's kind, as its domain package registers it
    projections: tuple[Projection, ...]  # bump a projection's `version` when its views change: models rebuild
    score: type  # the score projection's view (a msgspec Struct)


def public_field() -> str:
    return "public"


def seat_field(seat: int) -> str:
    return f"seat:{seat}"


class GameFold:
    """Every projection of one game folded to the same version; applies events without gaps."""

    __slots__ = ("projections", "models", "version")

    def __init__(self, projections: Sequence[Projection]) -> None:
        self.projections = tuple(projections)
        self.models = [p.initial() for p in self.projections]
        self.version = 0

    def apply(self, version: int, event: Any) -> None:
        """Fold event number `version` (a platform event reaches only the projections that follow
        them, `follows_platform`: a forfeit ends the game; the others keep their model); refuses a
        gap or an event applied twice."""
        if version != self.version + 1:
            raise ValueError(f"event {version} cannot follow version {self.version}")
        platform = is_platform(event)
        self.models = [
            m if platform and not getattr(p, "follows_platform", False) else p.apply(m, version, event)
            for p, m in zip(self.projections, self.models)
        ]
        self.version = version

    def apply_all(self, events: Iterable[tuple[int, Any]]) -> None:
        for version, event in events:
            self.apply(version, event)

    def view(self, name: str, seat: int | None = None) -> Any:
        for p, m in zip(self.projections, self.models):
            if p.name == name:
                return p.view(m, seat)
        raise KeyError(name)

    def views(self, names: Iterable[str] | None = None) -> dict[str, dict[str, Any]]:
        """name -> {"public": view, "seat:N": view, …} for the projections named (all by default)."""
        wanted = None if names is None else set(names)
        out = {}
        for p, m in zip(self.projections, self.models):
            if wanted is None or p.name in wanted:
                fields = {public_field(): p.view(m)}
                fields.update({seat_field(s): p.view(m, s) for s in p.seats(m)})
                out[p.name] = fields
        return out


def fold_game(projections: Sequence[Projection], events: Iterable[Any]) -> GameFold:
    """All projections folded over a game's events from its first (version 1)."""
    folded = GameFold(projections)
    folded.apply_all(enumerate(events, start=1))
    return folded
