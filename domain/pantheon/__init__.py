"""Pantheon (Hans im Glück, 2011) as a pure decider: read vocabulary, commands, events, state,
rules, decide, evolve, options, choices and views in that order."""

from __future__ import annotations

from domain.kernel import Awaiting, Decider

from .bots import PANTHEON_BOTS
from .choices import choices
from .commands import Command, Options
from .decide import apply
from .events import Event
from .options import legal_options
from .redeal import AnyCommand, AnyEvent, decide, evolve, evolve_all, redact, redeal_command
from .state import State
from .views import public_view, seat_view


def initial_state() -> State | None:
    """Before `create_game` there is no state."""
    return None


def awaited(state: State | None) -> Awaiting | None:
    if state is None or state.finished or not state.agenda:
        return None
    task = state.agenda[0]
    return Awaiting(task.seat, task.kind)


def is_terminal(state: State | None) -> bool:
    return state is not None and state.finished


def outcome(state: State) -> dict | None:
    if not is_terminal(state):
        return None
    return {"winners": list(state.winners), "scores": [seat.score for seat in state.seats],
            "half_gods": [len(seat.half_gods) for seat in state.seats]}


PANTHEON = Decider(
    kind="pantheon", initial_state=initial_state, decide=decide, evolve=evolve, awaited=awaited,
    legal_options=legal_options, public_view=public_view, seat_view=seat_view, redact=redact,
    is_terminal=is_terminal, outcome=outcome, command_type=AnyCommand, event_type=AnyEvent,
    apply=apply, evolve_all=evolve_all, bots=PANTHEON_BOTS, fork_command=redeal_command, choices=choices,
    scores=lambda state, revealed: [seat.score for seat in state.seats],  # scores are public
)

__all__ = ["PANTHEON", "Command", "Event", "Options", "State"]
