"""Forks of a running game (domain.forks): a state consistent with what one viewer has seen, dealt
afresh.

`Redeal` carries the viewer's knowledge (their own hand and half gods as they are, everything
public, and the rest as pooled counts); deciding it with the fork's own RNG deals the unseen cards
into the other hands and the draw pile, the unseen half gods into the other seats and the stacks,
and records the whole dealt state in `Redealt`, the fork's first event."""

from __future__ import annotations

import msgspec

from domain.forks import Forks, Shuffler
from domain.kernel import Rng

from .bots.knowledge import Knowledge, determinize, seat_knowledge
from .commands import Command
from .events import Event
from .state import State, clone


class Redeal(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type", tag="redeal"):
    """Start a fork from what `knowledge.seat` (None: a spectator) knows of the parent's state."""

    knowledge: Knowledge


class Redealt(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="redealt"):
    """The fork's first state: the viewer's knowledge with everything they have not seen dealt."""

    seat: int | None  # whose knowledge it was dealt from
    state: State


AnyCommand = Command | Redeal  # what `decide` accepts (forks are made by the platform, not by seats)
AnyEvent = Event | Redealt


def deal(knowledge: Knowledge, rng: Rng) -> State:
    """Everything the viewer has not seen, dealt with the fork's RNG."""
    return determinize(knowledge, Shuffler(rng))


def start(state: State) -> State:
    """The fork's first state, a copy the fold owns."""
    state = clone(state)
    for seat in state.seats:  # a fork dealt while routes were sets recorded them in a set's order
        seat.route.sort()
    return state


FORKS = Forks(command=Redeal, event=Redealt, knowledge=seat_knowledge, deal=deal, start=start)
