"""Bots for Pantheon: each decides from one seat's Knowledge, the legal options and its own RNG."""

from __future__ import annotations

import random
from typing import Protocol

from domain.kernel import Bots

from ..commands import Command
from .knowledge import Knowledge, determinize, seat_knowledge, view_hash
from .players import GreedyBot, RandomBot, StrongBot


class Bot(Protocol):
    """A player: `choose` returns a legal command for `seat` from what the seat knows."""

    name: str
    params: dict
    budget: str  # how much search one decision gets, in words (recorded with every AI command)

    def choose(self, knowledge: Knowledge, seat: int, rnd: random.Random) -> Command: ...


BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "strong": StrongBot}


def make_bot(name: str, **params) -> Bot:
    """A bot by registry name, its default parameters updated with `params`."""
    bot = BOTS[name]()
    bot.params = {**bot.params, **params}
    return bot


PANTHEON_BOTS = Bots(knowledge=seat_knowledge, view_hash=view_hash, make=make_bot, names=tuple(BOTS))

__all__ = ["BOTS", "PANTHEON_BOTS", "Bot", "Knowledge", "determinize", "make_bot", "seat_knowledge", "view_hash"]
