"""The bots: random, greedy (one command ahead, to the seat's next decision) and strong
(determinized Monte Carlo: the greedy-best candidates, each played out to the end of the round
by greedy players on several draws of the future chance).

A bot sees only a seat's PergamonKnowledge (`seat_knowledge`); Pergamon's state holds no pre-drawn
chance, so a "determinization" is the bot's own draws of future tiles and card values, made with
its own random.Random inside the look-ahead."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from domain.kernel import DomainError

from ..decide import apply
from ..random_play import random_command
from ..state import State, clone
from .candidates import candidates
from .evaluate import evaluate
from .knowledge import PergamonKnowledge


class PlayoutRng:
    """The engine's Rng protocol over a bot's own random.Random (chance inside look-ahead)."""

    __slots__ = ("_rnd",)

    def __init__(self, rnd: random.Random) -> None:
        self._rnd = rnd

    def randbelow(self, n: int) -> int:
        return self._rnd.randrange(n)


def after(state: State, command, rnd: random.Random) -> State | None:
    """A copy of the state after the command (None if the command is refused there)."""
    try:
        return apply(clone(state), command, PlayoutRng(rnd))[0]
    except DomainError:
        return None


def _score(state: State | None, seat: int) -> float:
    return -1e9 if state is None else evaluate(state, seat)


def greedy_command(state: State, seat: int, rnd: random.Random, samples: int = 1):
    """The candidate with the best mean evaluation one command ahead (`samples` chance draws)."""
    options = candidates(state, seat, rnd)
    if len(options) == 1:
        return options[0]
    return max(options, key=lambda c: sum(_score(after(state, c, rnd), seat) for _ in range(samples)))


def rollout(state: State, seat: int, rnd: random.Random, plies: int) -> float:
    """Greedy play by every seat, in place, for `plies` commands or to the end of the round."""
    rng, start = PlayoutRng(rnd), state.round
    for _ in range(plies):
        if state.finished or state.round != start or state.decision is None:
            break
        mover = state.awaiting
        state = apply(state, greedy_command(state, mover, rnd), rng)[0]
    return evaluate(state, seat)


@dataclass
class RandomBot:
    """Uniformly random legal commands."""

    name: str = "random"
    params: dict = field(default_factory=dict)

    def choose(self, knowledge: PergamonKnowledge, seat: int, rnd: random.Random):
        return random_command(knowledge.state, seat, rnd)

    @property
    def budget(self) -> str:
        return "one uniformly random legal command"


@dataclass
class GreedyBot:
    """Every candidate one command ahead, on `samples` draws of any chance it reveals."""

    name: str = "greedy"
    params: dict = field(default_factory=lambda: {"samples": 2})

    def choose(self, knowledge: PergamonKnowledge, seat: int, rnd: random.Random):
        return greedy_command(knowledge.state, seat, rnd, self.params["samples"])

    @property
    def budget(self) -> str:
        return f"every candidate one command ahead on {self.params['samples']} draws of chance"


@dataclass
class StrongBot:
    """The `width` greedy-best candidates, each played out `worlds` times (the bot's own draws
    of future chance) by greedy players for up to `plies` commands, at most to the round's end."""

    name: str = "strong"
    params: dict = field(default_factory=lambda: {"width": 4, "worlds": 3, "plies": 24})

    def choose(self, knowledge: PergamonKnowledge, seat: int, rnd: random.Random):
        p, state = self.params, knowledge.state
        options = candidates(state, seat, rnd)
        if len(options) == 1:
            return options[0]
        ranked = sorted(options, key=lambda c: -_score(after(state, c, rnd), seat))[:p["width"]]
        return max(ranked, key=lambda c: sum(self._playout(state, c, seat, rnd) for _ in range(p["worlds"])))

    def _playout(self, state: State, command, seat: int, rnd: random.Random) -> float:
        world = after(state, command, rnd)
        return -1e9 if world is None else rollout(world, seat, rnd, self.params["plies"])

    @property
    def budget(self) -> str:
        p = self.params
        return (f"{p['width']} candidates x {p['worlds']} draws of chance: {p['width'] * p['worlds']} greedy "
                f"playouts of up to {p['plies']} commands (to the round's end)")


BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "strong": StrongBot}


def make_bot(name: str, **params):
    """A bot by registry name, its default parameters updated with `params`."""
    bot = BOTS[name]()
    bot.params = {**bot.params, **params}
    return bot
