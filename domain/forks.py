"""Forks of a running game, game-agnostic: a new game whose first state is what one viewer knows
of the parent's, everything they have not seen dealt afresh from the fork's own seed.

A game says how (`Forks`): its fork command (carrying the viewer's knowledge), the fork's first
event (carrying the dealt state), what a viewer knows of a state, and how a state is dealt from
that knowledge. `forkable` wraps the game's decide, evolve, apply and redact so that they take
the fork's command and event too; the audit decides the command again from the fork's revealed
seed and so checks the deal."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from domain.kernel import DomainError, Rng


@dataclass(frozen=True, slots=True)
class Forks:
    """How a game forks a running game (the types are its own: their tags are in its logs)."""

    command: type[Any]  # the fork command: a Struct with `knowledge`, what `knowledge.seat` (None: a spectator) knows
    event: type[Any]  # the fork's first event: a Struct with `seat` (whose knowledge) and `state` (the dealt state)
    knowledge: Callable[[Any, int | None], Any]  # what a viewer knows of a state (a Struct with `seat` and `state`)
    deal: Callable[[Any, Rng], Any]  # a full state consistent with the knowledge, drawn with the fork's RNG
    start: Callable[[Any], Any]  # the state a fork's event starts (a copy the fold may update in place)


class Shuffles(Protocol):
    """What a deal needs of a source of chance: a bot's random.Random, or the game's RNG (Shuffler)."""

    def shuffle(self, items: list[Any]) -> None: ...

    def randrange(self, stop: int, /) -> int: ...


class Shuffler:
    """`random.Random.shuffle`'s interface over the game's RNG (Fisher-Yates with randbelow), so a
    deal depends only on the seed, not on Python's random module."""

    __slots__ = ("rng",)

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.rng.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def randrange(self, stop: int, /) -> int:
        """A uniform integer in [0, stop)."""
        return self.rng.randbelow(stop)


@dataclass(frozen=True, slots=True)
class Forkable:
    """A game's rules taking forks too: what its Decider is built from."""

    decide: Callable[[Any, Any, Rng], list[Any]]
    evolve: Callable[[Any, Any], Any]
    evolve_all: Callable[[Any, Iterable[Any]], Any]
    apply: Callable[[Any, Any, Rng], tuple[Any, list[Any]]]
    redact: Callable[[Any, int | None], Any]
    fork_command: Callable[[Any, int | None], Any]  # the command that starts a fork of a state as a viewer sees it


def forkable(
    forks: Forks,
    *,
    decide: Callable[[Any, Any, Rng], list[Any]],
    evolve: Callable[[Any, Any], Any],
    evolve_all: Callable[[Any, Iterable[Any]], Any],
    apply: Callable[[Any, Any, Rng], tuple[Any, list[Any]]],
    redact: Callable[[Any, int | None], Any],
) -> Forkable:
    """The game's decide, evolve, evolve_all (from a created game on), apply and redact, taking the
    fork's command and event as well (closures, not methods: evolve is on the replay's hot path)."""
    command, event_type, start = forks.command, forks.event, forks.start

    def decide_(state: Any, c: Any, rng: Rng) -> list[Any]:
        if isinstance(c, command):
            if state is not None:
                raise DomainError("game_exists", "A fork is dealt before its first event.")
            return [event_type(seat=c.knowledge.seat, state=forks.deal(c.knowledge, rng))]
        return decide(state, c, rng)

    def evolve_(state: Any, event: Any) -> Any:
        return start(event.state) if isinstance(event, event_type) else evolve(state, event)

    def evolve_all_(state: Any, events: Iterable[Any]) -> Any:
        iterator = iter(events)
        if state is None:  # the first event creates the state: the game's creation or a fork
            first = next(iterator, None)
            if first is None:
                return None
            state = evolve_(None, first)
        return evolve_all(state, iterator)

    def apply_(state: Any, c: Any, rng: Rng) -> tuple[Any, list[Any]]:
        if isinstance(c, command):
            events = decide_(state, c, rng)
            return evolve_(state, events[0]), events
        return apply(state, c, rng)

    def redact_(event: Any, viewer: int | None) -> Any:
        if isinstance(event, event_type):
            return msgspec.structs.replace(event, state=forks.knowledge(event.state, viewer).state)
        return redact(event, viewer)

    def fork_command(state: Any, viewer: int | None) -> Any:
        return command(knowledge=forks.knowledge(state, viewer))

    return Forkable(
        decide=decide_, evolve=evolve_, evolve_all=evolve_all_, apply=apply_, redact=redact_, fork_command=fork_command
    )
