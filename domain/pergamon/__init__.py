"""Pergamon (Dorra & zur Linde, eggertspiele 2011) as a pure decider: read vocabulary,
components, commands, events, state, rules, chance, evolve, flow, decide, views, options and
choices in that order. The rules it enforces: shared/spec/pergamon-rules.md and RULINGS.md."""

from __future__ import annotations

from domain.kernel import Awaiting, Decider

from .commands import Command, PergamonOptions
from .events import Event
from .fork import AnyCommand, AnyEvent, apply, decide, evolve, evolve_all, fork_command, redact
from .state import State
from .views import public_view, seat_view


def initial_state() -> State | None:
    """Before `create_game` there is no state."""
    return None


def awaited(state: State | None) -> Awaiting | None:
    if state is None or state.finished or state.decision is None:
        return None
    return Awaiting(state.awaiting, state.decision)


def is_terminal(state: State | None) -> bool:
    return state is not None and state.finished


def outcome(state: State | None) -> dict | None:
    """The winners, every seat's VP (`scores`) and place (R21), once the game is over."""
    if not is_terminal(state):
        return None
    return {"winners": list(state.winners), "scores": [seat.vp for seat in state.seats], "places": list(state.places)}


def scores(state: State, revealed: bool) -> list[int | None]:
    """Every seat's VP as a spectator may see them (None while secret, R26), or all once `revealed`."""
    shown = revealed or state.finished or state.options.vp_visibility == "open"
    return [seat.vp if shown else None for seat in state.seats]


def _decider() -> Decider:
    from .bots import PERGAMON_BOTS
    from .choices import choices
    from .options import legal_options
    return Decider(
        kind="pergamon", initial_state=initial_state, decide=decide, evolve=evolve, awaited=awaited,
        legal_options=legal_options, public_view=public_view, seat_view=seat_view, redact=redact,
        is_terminal=is_terminal, outcome=outcome, command_type=AnyCommand, event_type=AnyEvent,
        apply=apply, evolve_all=evolve_all, bots=PERGAMON_BOTS, fork_command=fork_command, choices=choices,
        scores=scores,
    )


PERGAMON = _decider()
Options = PergamonOptions

__all__ = ["PERGAMON", "Command", "Event", "Options", "PergamonOptions", "State"]
