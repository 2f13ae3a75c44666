"""Pantheon, the card game (Timothy Brown, Signal Fire Studios 2012) as a pure decider: read
components (and data/), commands, events, state, rules, legal, evolve, flow, decide, views,
options, labels and choices in that order. The rules it enforces: shared/spec/pantheon-cards-rules.md
(rulings R1-R44) and RULINGS.md (the engine's own choices). It shares nothing with domain/pantheon/
(the Hans im Glück board game) but the platform."""

from __future__ import annotations

from domain.forks import forkable
from domain.kernel import Awaiting, Decider
from domain.plugin import Game

from . import decide as _decide
from . import evolve as _evolve
from . import views as _views
from .bots import PANTHEON_CARDS_BOTS
from .choices import choices
from .commands import Command, PantheonCardsOptions
from .components import EDITIONS
from .contract import CONTRACT
from .events import Event
from .fork import FORKS, AnyCommand, AnyEvent
from .invariants import check_invariants
from .names import cards_glossary
from .narrate import narrate
from .options import legal_options
from .random_play import random_command, random_options
from .rules import scores as _scores
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
    """Every seat's score (§19.2): public at any time, computable from the columns (§22)."""
    return list(_scores(state))


PANTHEON_CARDS = Decider(
    kind="pantheon_cards",
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
    bots=PANTHEON_CARDS_BOTS,
    narrate=narrate,
    fork_command=RULES.fork_command,
    choices=choices,
    scores=scores,
)
Options = PantheonCardsOptions

# What the registry (domain.games) hosts.
GAME = Game(
    decider=PANTHEON_CARDS,
    engine="pantheon-cards-engine/2",  # 2: the AI knowledge keeps the hand trace (other view hashes)
    players=(3, 4, 5, 6),
    random_options=random_options,
    random_command=random_command,
    invariants=check_invariants,
    render_board=render_board,
    editions=EDITIONS,
    contract=CONTRACT,
    glossary=cards_glossary,
)

__all__ = ["GAME", "PANTHEON_CARDS", "Command", "Event", "Options", "PantheonCardsOptions", "State"]
