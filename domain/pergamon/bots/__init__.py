"""Pergamon's bots (domain.bots): random, greedy (one command ahead, to the seat's next decision) and
strong (the greedy-best candidates, each played out to the end of the round by greedy players on
several draws of the future chance).

A bot sees only a seat's PergamonKnowledge (`seat_knowledge`); Pergamon's state holds no pre-drawn
chance, so a "determinization" is the known state itself, and the bot's own draws of future tiles
and card values are made with its own random.Random inside the look-ahead."""

from __future__ import annotations

import random
from typing import Any

from domain.bots import Bot, Search, bot_factories
from domain.bots import make_bot as _make_bot
from domain.ismcts import ExpertBot
from domain.kernel import Bots

from ..commands import Command
from ..decide import apply
from ..random_play import random_command
from ..state import State, clone
from .candidates import candidates
from .evaluate import evaluate
from .knowledge import PergamonKnowledge, seat_knowledge, view_hash


def _mover(state: State) -> int | None:
    return None if state.finished or state.decision is None else state.awaiting


def _candidates(state: State, seat: int, rnd: random.Random, samples: int) -> list[Command]:
    return candidates(state, seat, rnd)  # every command worth comparing: no random ones added


SEARCH = Search(
    determinize=lambda knowledge, rnd: knowledge.state,  # chance is drawn inside the look-ahead
    candidates=_candidates,
    evaluate=evaluate,
    apply=apply,
    clone=clone,
    random_command=random_command,
    mover=_mover,
    horizon=lambda state: state.round,  # playouts go to the end of the round at most
    params={
        "random": {},
        "greedy": {"samples": 2},
        "strong": {"width": 4, "worlds": 3, "plies": 24},
        "expert": {
            "iterations": 1000,
            "exploration": 0.3,
            "plies": 24,
            "policy": "greedy",
            "samples": 0,
            "scale": 10.0,
            "width": 4,
            "prior": 3,
            "depth": 1,
            "baseline": True,
            "choice": "mean",
        },
    },
    budgets={
        "random": "one uniformly random legal command",
        "greedy": "every candidate one command ahead on {samples} draws of chance",
        "strong": (
            "{width} candidates x {worlds} draws of chance: {rollouts} greedy playouts of up to {plies} commands "
            "(to the round's end)"
        ),
        "expert": (
            "{iterations} ISMCTS iterations over strong's {width} best candidates, each a world dealt from the seat's "
            "knowledge, UCB1 (c={exploration}) over the candidates available in it, one node added and a {policy} "
            "playout of up to {plies} commands (to the round's end); the best mean reward"
        ),
    },
    # the greedy bot's draws of chance were recorded as `samples` (the audit makes bots from records)
    aliases={"determinizations": "samples"},
)
BOTS = bot_factories(SEARCH, {"expert": ExpertBot})  # by name, weakest first


def make_bot(name: str, **params: Any) -> Bot:
    """A bot by name, its default parameters updated with `params`."""
    return _make_bot(BOTS, name, **params)


PERGAMON_BOTS = Bots(knowledge=seat_knowledge, view_hash=view_hash, make=make_bot, names=tuple(BOTS))

__all__ = ["BOTS", "PERGAMON_BOTS", "PergamonKnowledge", "SEARCH", "make_bot", "seat_knowledge", "view_hash"]
