"""A bot's time budget turned into a number of iterations (the domain has no clock, and the audit
must be able to run a decision again): before a budgeted bot (one whose parameters hold
`iterations`, the expert) decides, a few iterations on the same knowledge are timed by the CPU
this thread uses, and the bot gets as many iterations as the rest of the budget buys at that pace.
The count goes into the bot's parameters, so the provenance records it and the audit re-runs the
same search; the timing run is thrown away."""

from __future__ import annotations

import random
import time
from typing import Any

CALIBRATION = 24  # iterations timed on the position before the search (a few % of a default budget)
FLOOR = 16  # iterations at least, however slow the machine


def budgeted(bots, level: str, knowledge: Any, seat: int, seconds: float) -> Any:
    """The bot for `level`, with `iterations` set to what `seconds` of CPU buy on this position
    (bots without an iteration budget as they are)."""
    bot = bots.make(level)
    if "iterations" not in bot.params:
        return bot
    probe = bots.make(level, iterations=CALIBRATION)
    started = time.thread_time()
    probe.choose(knowledge, seat, random.Random(f"calibrate:{seat}"))
    per_iteration = max(1e-6, (time.thread_time() - started) / CALIBRATION)
    left = max(0.0, seconds - per_iteration * CALIBRATION)
    return bots.make(level, iterations=max(FLOOR, int(left / per_iteration)))


__all__ = ["budgeted"]
