"""A bot's time budget turned into a number of iterations (the domain has no clock, and the audit
must be able to run a decision again): before a budgeted bot (one whose parameters hold
`iterations`, the expert) decides, searches of 16 and then (unless the budget is tiny) 100
iterations on the same knowledge are timed by the CPU this thread uses, and the bot gets as many
iterations as the rest of the budget buys at that pace (a little less: later iterations cost
more). The count goes into the bot's parameters, so the provenance records it and the audit
re-runs the same search; the timing runs are thrown away."""

from __future__ import annotations

import random
import time
from typing import Any

CALIBRATION = 100  # iterations timed on the position before the search (about 4% of the default budget);
# fewer mislead: Pergamon's first 24 only add the root's children, at half the cost of later ones
GROWTH = 1.2  # an iteration costs more as the tree deepens: 10-20% more at 1,600 than at 100
FLOOR = 16  # iterations at least, however slow the machine
# a pace no game's iteration reaches (Pergamon's, the fastest, take 0.12-0.27 ms): a probe that ends
# at once (one candidate) must not buy a million iterations for a search that may have more
FASTEST_S = 1e-4


def budgeted(bots, level: str, knowledge: Any, seat: int, seconds: float) -> Any:
    """The bot for `level`, with `iterations` set to what `seconds` of CPU buy on this position
    (bots without an iteration budget as they are)."""
    bot = bots.make(level)
    if "iterations" not in bot.params:
        return bot
    spent, per_iteration = _pace(bots, level, knowledge, seat, FLOOR)
    if seconds > 20 * CALIBRATION * per_iteration:  # a budget worth a closer look (a tiny one is not)
        more, per_iteration = _pace(bots, level, knowledge, seat, CALIBRATION)
        spent += more
    left = max(0.0, seconds - spent)
    return bots.make(level, iterations=max(FLOOR, int(left / (per_iteration * GROWTH))))


def _pace(bots, level: str, knowledge: Any, seat: int, iterations: int) -> tuple[float, float]:
    """The CPU seconds a search of `iterations` took on this position, and per iteration."""
    probe = bots.make(level, iterations=iterations)
    started = time.thread_time()
    probe.choose(knowledge, seat, random.Random(f"calibrate:{seat}"))
    spent = time.thread_time() - started
    return spent, max(FASTEST_S, spent / iterations)


__all__ = ["budgeted"]
