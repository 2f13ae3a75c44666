"""Pantheon card-game bots (domain.bots): random, greedy (every candidate one command ahead on a
few deals of the hidden cards) and strong (bots/strong.py: every candidate one command ahead on
more deals, the best few played out by greedy players to the seat's next turn on every deal, with
the same chance for every candidate on one deal, judged by its own evaluation: evaluate.queueing). A bot sees only a seat's PantheonCardsKnowledge (§22): the hands and
sealed commitments it may not see are dealt afresh by `determinize` with the bot's own chance."""

from __future__ import annotations

import random
from typing import Any

from domain.bots import Bot, Search, bot_factories
from domain.bots import make_bot as _make_bot
from domain.kernel import Bots

from ..decide import apply
from ..random_play import random_command
from ..state import State, clone
from .candidates import candidates
from .evaluate import evaluate
from .expert import ExpertBot
from .knowledge import PantheonCardsKnowledge, determinize, seat_knowledge, view_hash
from .strong import StrongBot


def _mover(state: State) -> int | None:
    return None if state.finished or state.decision is None else state.awaiting


def _determinize(knowledge: PantheonCardsKnowledge, rnd: random.Random) -> State:
    return determinize(knowledge, rnd)


def _candidates(state: State, seat: int, rnd: random.Random, samples: int) -> list[Any]:
    return candidates(state, seat, rnd, samples)


SEARCH = Search(
    determinize=_determinize,
    candidates=_candidates,
    evaluate=evaluate,
    apply=apply,
    clone=clone,
    random_command=random_command,
    mover=_mover,
    horizon=lambda state: state.turn // max(1, state.players),  # a round of turns at most
    params={
        "random": {},
        "greedy": {"determinizations": 2, "samples": 0},
        "strong": {
            "width": 3,
            "worlds": 4,
            "plies": 14,
            "samples": 0,
            "policy": "greedy",
            "evaluation": "queue",
            "split_draws": True,
        },
        "expert": {
            "iterations": 1000,
            "exploration": 0.3,
            "plies": 14,
            "policy": "greedy",
            "samples": 0,
            "scale": 10.0,
            "width": 3,
            "judged": 4,
            "prior": 3,
            "depth": 1,
            "baseline": True,
            "choice": "mean",
            "evaluation": "queue",
            "reach": "turn",
        },
    },
    budgets={
        "random": "one uniformly random legal command",
        "greedy": "every candidate (at most 25) one command ahead on {determinizations} deals of the hidden cards",
        "strong": (
            "every candidate one command ahead on {worlds} deals of the hidden cards (a deck draw both as a god "
            "and as another card), then the best {width} x {worlds} deals: {rollouts} {policy} playouts of up to "
            "{plies} commands (to the seat's next turn), judged by the {evaluation} evaluation"
        ),
        "expert": (
            "{iterations} ISMCTS iterations over strong's {width} best candidates (on {judged} deals), each a world "
            "dealt from the seat's knowledge, UCB1 (c={exploration}) over the candidates available in it, one node "
            "added and a {policy} playout of up to {plies} commands (to the seat's next turn, judged by the "
            "{evaluation} evaluation); the best mean reward"
        ),
    },
)
BOTS = bot_factories(SEARCH, {"expert": ExpertBot})  # by name, weakest first
BOTS["strong"] = lambda: StrongBot(SEARCH, "strong", dict(SEARCH.params["strong"]))  # the game's own (bots/strong.py)


def make_bot(name: str, **params: Any) -> Bot:
    """A bot by name, its default parameters updated with `params`."""
    return _make_bot(BOTS, name, **params)


PANTHEON_CARDS_BOTS = Bots(knowledge=seat_knowledge, view_hash=view_hash, make=make_bot, names=tuple(BOTS))

__all__ = ["BOTS", "PANTHEON_CARDS_BOTS", "SEARCH", "PantheonCardsKnowledge", "make_bot", "seat_knowledge", "view_hash"]
