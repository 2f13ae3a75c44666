"""Forks of a running game. The state holds no secret and no pre-drawn chance (rules §10, §11),
so a fork is the state as the viewer knows it, played on with the fork's own seed: later tiles,
backs and values are drawn afresh; backs already drawn are kept and their values drawn anew."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import DomainError, Rng

from . import decide as _decide
from . import evolve as _evolve
from .bots.knowledge import PergamonKnowledge, seat_knowledge
from .commands import Command
from .events import Event
from .state import State, clone
from .views import redact as _redact


class PergamonFork(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type",
                   tag="fork"):
    """Start a fork from what `knowledge.seat` (None: a spectator) knows of the parent's state."""

    knowledge: PergamonKnowledge


class PergamonForked(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="forked"):
    """The fork's first state: the viewer's knowledge of the parent (R26: with secret VP, the VP
    the viewer could not see start at 0)."""

    seat: int | None
    state: State


AnyCommand = Command | PergamonFork  # what `decide` accepts (forks are made by the platform)
AnyEvent = Event | PergamonForked


def fork_command(state: State, viewer: int | None) -> PergamonFork:
    """The command that starts a fork of `state` as `viewer` sees it."""
    return PergamonFork(knowledge=seat_knowledge(state, viewer))


def decide(state: State | None, command: Any, rng: Rng) -> list:
    if isinstance(command, PergamonFork):
        if state is not None:
            raise DomainError("game_exists", "A fork is started before its first event.")
        known = command.knowledge.state
        if known.finished:
            raise DomainError("game_over", "A finished game is forked from its log, not from its state.")
        return [PergamonForked(seat=command.knowledge.seat, state=known)]
    return _decide.decide(state, command, rng)


def apply(state: State | None, command: Any, rng: Rng):
    if isinstance(command, PergamonFork):
        events = decide(state, command, rng)
        return clone(events[0].state), events
    return _decide.apply(state, command, rng)


def evolve(state: State | None, event: Any) -> State:
    if isinstance(event, PergamonForked):
        return clone(event.state)
    return _evolve.evolve(state, event)


def evolve_all(state: State | None, events) -> State | None:
    for event in events:
        state = evolve(state, event)
    return state


def redact(event: Any, viewer: int | None) -> Any:
    if isinstance(event, PergamonForked):
        return msgspec.structs.replace(event, state=seat_knowledge(event.state, viewer).state)
    return _redact(event, viewer)
