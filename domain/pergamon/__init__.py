"""Pergamon (Dorra & zur Linde, eggertspiele 2011) as a pure decider: read vocabulary,
components, commands, events, state, rules, chance, evolve, flow, decide, views, options and
choices in that order. The rules it enforces: shared/spec/pergamon-rules.md and RULINGS.md."""

from __future__ import annotations

from domain.forks import forkable
from domain.kernel import Awaiting, Decider
from domain.plugin import Game

from . import decide as _decide
from . import evolve as _evolve
from . import views as _views
from .bots import PERGAMON_BOTS
from .choices import choices
from .commands import Command, PergamonOptions
from .components import EDITIONS
from .contract import CONTRACT
from .events import Event
from .fork import FORKS, AnyCommand, AnyEvent
from .invariants import check_invariants
from .names import pergamon_glossary
from .narrate import narrate
from .options import legal_options
from .random_play import random_command, random_options
from .state import State
from .svg import render_board
from .views import outcome, public_view, seat_view

# decide, evolve, apply and redact, taking the platform's forks of running games too
RULES = forkable(
    FORKS,
    decide=_decide.decide,
    evolve=_evolve.evolve,
    evolve_all=_evolve.evolve_all,
    apply=_decide.apply,
    redact=_views.redact,
)


def initial_state() -> State | None:
    """Before `create_game` there is no state."""
    return None


def awaited(state: State | None) -> Awaiting | None:
    if state is None or state.finished or state.decision is None:
        return None
    return Awaiting(state.awaiting, state.decision)


def is_terminal(state: State | None) -> bool:
    return state is not None and state.finished


def scores(state: State, revealed: bool) -> list[int | None]:
    """Every seat's VP as a spectator may see them (None while secret, R26), or all once `revealed`."""
    shown = revealed or state.finished or state.options.vp_visibility == "open"
    return [seat.vp if shown else None for seat in state.seats]


PERGAMON = Decider(
    kind="pergamon",
    initial_state=initial_state,
    decide=RULES.decide,
    evolve=RULES.evolve,
    awaited=awaited,
    legal_options=legal_options,
    public_view=public_view,
    seat_view=seat_view,
    redact=RULES.redact,
    is_terminal=is_terminal,
    outcome=outcome,
    command_type=AnyCommand,
    event_type=AnyEvent,
    apply=RULES.apply,
    evolve_all=RULES.evolve_all,
    bots=PERGAMON_BOTS,
    narrate=narrate,
    fork_command=RULES.fork_command,
    choices=choices,
    scores=scores,
)
Options = PergamonOptions

# What the registry (domain.games) hosts.
GAME = Game(
    decider=PERGAMON,
    engine="pergamon-engine/1",
    players=(2, 3, 4),
    random_options=random_options,
    random_command=random_command,
    invariants=check_invariants,
    render_board=render_board,
    editions=EDITIONS,
    contract=CONTRACT,
    glossary=pergamon_glossary,
)

__all__ = ["GAME", "PERGAMON", "Command", "Event", "Options", "PergamonOptions", "State"]
