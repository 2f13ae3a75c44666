"""Forks of a running game: a state consistent with what one viewer has seen, dealt afresh.

`Redeal` carries the viewer's knowledge (their own hand and half gods as they are, everything
public, and the rest as pooled counts); deciding it with the fork's own RNG deals the unseen cards
into the other hands and the draw pile, the unseen half gods into the other seats and the stacks,
and records the whole dealt state in `Redealt`, the fork's first event. The audit decides the
`Redeal` again from the fork's revealed seed and so checks the deal."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import DomainError, Rng

from . import decide as _decide
from . import evolve as _evolve
from .bots.knowledge import Knowledge, determinize, seat_knowledge
from .commands import Command
from .events import Event
from .state import State, clone
from .views import redact as _redact


class Redeal(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type", tag="redeal"):
    """Start a fork from what `knowledge.seat` (None: a spectator) knows of the parent's state."""

    knowledge: Knowledge


class Redealt(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="redealt"):
    """The fork's first state: the viewer's knowledge with everything they have not seen dealt."""

    seat: int | None  # whose knowledge it was dealt from
    state: State


AnyCommand = Command | Redeal  # what `decide` accepts (forks are made by the platform, not by seats)
AnyEvent = Event | Redealt


def redeal_command(state: State, viewer: int | None) -> Redeal:
    """The command that starts a fork of `state` as `viewer` sees it."""
    return Redeal(knowledge=seat_knowledge(state, viewer))


class _Shuffler:
    """`random.Random.shuffle`'s interface over the game's RNG (Fisher-Yates with randbelow), so a
    deal depends only on the seed, not on Python's random module."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.rng.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]


def decide(state: State | None, command: Any, rng: Rng) -> list:
    if isinstance(command, Redeal):
        if state is not None:
            raise DomainError("game_exists", "A fork is dealt before its first event.")
        return [Redealt(seat=command.knowledge.seat, state=determinize(command.knowledge, _Shuffler(rng)))]
    return _decide.decide(state, command, rng)


def evolve(state: State | None, event: Any) -> State:
    if isinstance(event, Redealt):
        return clone(event.state)
    return _evolve.evolve(state, event)


def evolve_all(state: State | None, events) -> State:
    iterator = iter(events)
    if state is None:
        first = next(iterator, None)
        if first is None:
            return None
        state = evolve(None, first)
    return _evolve.evolve_all(state, iterator)


def redact(event: Any, viewer: int | None) -> Any:
    if isinstance(event, Redealt):
        return msgspec.structs.replace(event, state=seat_knowledge(event.state, viewer).state)
    return _redact(event, viewer)
