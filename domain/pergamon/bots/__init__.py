"""Bots for Pergamon: each decides from one seat's knowledge, the legal options and its own RNG."""

from __future__ import annotations

from domain.kernel import Bots

from .knowledge import seat_knowledge, view_hash
from .players import BOTS, make_bot

PERGAMON_BOTS = Bots(knowledge=seat_knowledge, view_hash=view_hash, make=make_bot, names=tuple(BOTS))

__all__ = ["BOTS", "PERGAMON_BOTS", "make_bot", "seat_knowledge", "view_hash"]
