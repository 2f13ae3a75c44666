"""The card game's expert: the kernel's ISMCTS (domain.ismcts) with the two things its strong bot
(bots/strong.py) judges by, each chosen by a parameter so that a recorded search without them runs
again as it ran: `evaluation` (a rollout's end and the root's candidates judged by strong's
evaluation, e.g. "queue", instead of greedy's) and `reach` ("turn": a playout ends at the seat's
next turn, as strong's do, instead of at the round's end; about a third of the commands, and the
playout's players, every one of them greedy, are what costs)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.ismcts import ExpertBot as KernelExpertBot

from .strong import EVALUATIONS, next_turn


class ExpertBot(KernelExpertBot):
    """ISMCTS over the seat's knowledge, its leaves judged and ended as strong's rollouts are."""

    def _ends(self, start: Any) -> Callable[[Any], bool]:
        return next_turn(start) if self.params.get("reach") == "turn" else super()._ends(start)

    def _value(self, state: Any, seat: int) -> float:
        evaluate = EVALUATIONS.get(self.params.get("evaluation", ""))
        return super()._value(state, seat) if evaluate is None else evaluate(state, seat)


__all__ = ["ExpertBot"]
