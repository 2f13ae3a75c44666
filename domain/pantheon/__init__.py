"""Pantheon (Hans im Glück, 2011) as a pure decider: read vocabulary, commands, events, state,
rules, decide, evolve, options, choices and views in that order."""

from __future__ import annotations

from domain.forks import forkable
from domain.kernel import Awaiting, Decider
from domain.plugin import Game

from . import decide as _decide
from . import evolve as _evolve
from . import views as _views
from .board import load_board
from .bots import PANTHEON_BOTS
from .choices import choices
from .commands import Command, Options
from .components import EDITIONS
from .contract import CONTRACT
from .events import Event
from .invariants import check_invariants
from .names import pantheon_glossary
from .narrate import narrate
from .options import legal_options
from .random_play import random_command, random_options
from .redeal import FORKS, AnyCommand, AnyEvent
from .state import State
from .svg import render_svg
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
    if state is None or state.finished or not state.agenda:
        return None
    task = state.agenda[0]
    return Awaiting(task.seat, task.kind)


def is_terminal(state: State | None) -> bool:
    return state is not None and state.finished


PANTHEON = Decider(
    kind="pantheon",
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
    bots=PANTHEON_BOTS,
    narrate=narrate,
    fork_command=RULES.fork_command,
    choices=choices,
    scores=lambda state, revealed: [seat.score for seat in state.seats],  # scores are public
)


def render_board(edition: str) -> str:
    """An edition's empty map as SVG."""
    return render_svg(load_board(edition))


# What the registry (domain.games) hosts.
GAME = Game(
    decider=PANTHEON,
    engine="pantheon-engine/2",  # 2: the AI knowledge keeps every public fact (its view hashes differ)
    players=(2, 3, 4),
    random_options=random_options,
    random_command=random_command,
    invariants=check_invariants,
    render_board=render_board,
    editions=EDITIONS,
    contract=CONTRACT,
    glossary=pantheon_glossary,
)

__all__ = ["GAME", "PANTHEON", "Command", "Event", "Options", "State"]
