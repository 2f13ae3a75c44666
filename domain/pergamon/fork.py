"""Forks of a running game (domain.forks). The state holds no secret and no pre-drawn chance (rules
§10, §11), so a fork is the state as the viewer knows it, played on with the fork's own seed: later
tiles, backs and values are drawn afresh; backs already drawn are kept and their values drawn anew."""

from __future__ import annotations

import msgspec

from domain.forks import Forks
from domain.kernel import DomainError, Rng

from .bots.knowledge import PergamonKnowledge, seat_knowledge
from .commands import Command
from .events import Event
from .state import State, clone


class PergamonFork(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type", tag="fork"):
    """Start a fork from what `knowledge.seat` (None: a spectator) knows of the parent's state."""

    knowledge: PergamonKnowledge


class PergamonForked(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="forked"):
    """The fork's first state: the viewer's knowledge of the parent (R26: with secret VP, the VP
    the viewer could not see start at 0)."""

    seat: int | None
    state: State


AnyCommand = Command | PergamonFork  # what `decide` accepts (forks are made by the platform)
AnyEvent = Event | PergamonForked


def deal(knowledge: PergamonKnowledge, rng: Rng) -> State:
    """The state as the viewer knows it: nothing is dealt (the fork's seed draws what comes next)."""
    if knowledge.state.finished:
        raise DomainError("game_over", "A finished game is forked from its log, not from its state.")
    return knowledge.state


FORKS = Forks(command=PergamonFork, event=PergamonForked, knowledge=seat_knowledge, deal=deal, start=clone)
