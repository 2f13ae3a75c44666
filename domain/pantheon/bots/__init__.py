"""Pantheon's bots (domain.bots): random, greedy (one step look-ahead) and strong (determinized
Monte Carlo search), each deciding from one seat's Knowledge, the legal options and its own RNG."""

from __future__ import annotations

from typing import Any

from domain.bots import Bot, Search, bot_factories
from domain.bots import make_bot as _make_bot
from domain.ismcts import ExpertBot
from domain.kernel import Bots

from ..decide import apply
from ..random_play import random_command
from ..state import State, clone
from .candidates import candidates
from .evaluate import evaluate
from .knowledge import Knowledge, determinize, seat_knowledge, view_hash


def _mover(state: State) -> int | None:
    return None if state.finished or not state.agenda else state.agenda[0].seat


SEARCH = Search(
    determinize=determinize,
    candidates=candidates,
    evaluate=evaluate,
    apply=apply,
    clone=clone,
    random_command=random_command,
    mover=_mover,
    horizon=lambda state: state.epoch,  # rollouts play to the end of the epoch at most
    params={
        "random": {},
        "greedy": {"determinizations": 2, "samples": 4},
        "strong": {"width": 6, "worlds": 8, "plies": 8, "samples": 4, "policy": "greedy"},
        "expert": {
            "iterations": 1000,
            "exploration": 0.3,
            "plies": 8,
            "policy": "greedy",
            "samples": 4,
            "scale": 10.0,
            "width": 6,
            "prior": 3,
            "depth": 1,
            "baseline": True,
            "choice": "mean",
        },
    },
    budgets={
        "random": "one uniformly random legal command",
        "greedy": "every candidate one command ahead on {determinizations} dealt states",
        "strong": "{width} candidates x {worlds} dealt states: {rollouts} rollouts of {plies} {policy} commands",
        "expert": (
            "{iterations} ISMCTS iterations over strong's {width} best candidates, each a world dealt from the seat's "
            "knowledge, UCB1 (c={exploration}) over the candidates available in it, one node added and a {policy} "
            "playout of up to {plies} commands; the best mean reward"
        ),
    },
)
BOTS = bot_factories(SEARCH, {"expert": ExpertBot})  # by name, weakest first


def make_bot(name: str, **params: Any) -> Bot:
    """A bot by name, its default parameters updated with `params`."""
    return _make_bot(BOTS, name, **params)


PANTHEON_BOTS = Bots(knowledge=seat_knowledge, view_hash=view_hash, make=make_bot, names=tuple(BOTS))

__all__ = ["BOTS", "PANTHEON_BOTS", "SEARCH", "Knowledge", "determinize", "make_bot", "seat_knowledge", "view_hash"]
