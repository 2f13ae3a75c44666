"""Forks of a running game (domain.forks): a new game whose first state is what one viewer knows
of the parent's (bots/knowledge.py), the hands and sealed commitment it may not see re-dealt from
the fork's own seed (§22: from the forker's knowledge only)."""

from __future__ import annotations

import msgspec

from domain.forks import Forks, Shuffler
from domain.kernel import DomainError, Rng

from .bots.knowledge import PantheonCardsKnowledge, determinize, seat_knowledge
from .commands import Command
from .events import Event
from .state import State, clone


class PantheonCardsFork(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type", tag="fork"
):
    """Start a fork from what `knowledge.seat` (None: a spectator) knows of the parent's state."""

    knowledge: PantheonCardsKnowledge


class PantheonCardsForked(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="forked"):
    """The fork's first state: the viewer's knowledge of the parent with the hidden cards re-dealt."""

    seat: int | None
    state: State


AnyCommand = Command | PantheonCardsFork  # what `decide` accepts (forks are made by the platform)
AnyEvent = Event | PantheonCardsForked


def deal(knowledge: PantheonCardsKnowledge, rng: Rng) -> State:
    """A state consistent with the knowledge, the hidden cards dealt with the fork's RNG."""
    if knowledge.state.finished:
        raise DomainError("game_over", "A finished game is forked from its log, not from its state.")
    return determinize(knowledge, Shuffler(rng))


FORKS = Forks(command=PantheonCardsFork, event=PantheonCardsForked, knowledge=seat_knowledge, deal=deal, start=clone)
