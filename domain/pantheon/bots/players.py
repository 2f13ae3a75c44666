"""The bots: random, greedy (one-step look-ahead) and strong (determinized Monte Carlo search).

A bot sees only a seat's Knowledge; it deals the secrets itself (`determinize`) to look ahead."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from domain.kernel import DomainError

from ..commands import Command
from ..decide import apply
from ..random_play import random_command
from ..state import State, clone
from .candidates import candidates
from .evaluate import evaluate
from .knowledge import Knowledge, determinize


class PlayoutRng:
    """The engine's Rng protocol over a bot's own random.Random (chance inside look-ahead)."""

    __slots__ = ("_rnd",)

    def __init__(self, rnd: random.Random) -> None:
        self._rnd = rnd

    def randbelow(self, n: int) -> int:
        return self._rnd.randrange(n)


def after(state: State, command: Command, rnd: random.Random) -> State | None:
    """A copy of the state after the command (None if the command is refused there)."""
    try:
        return apply(clone(state), command, PlayoutRng(rnd))[0]
    except DomainError:
        return None


@dataclass
class RandomBot:
    """Uniformly random legal commands."""

    name: str = "random"
    params: dict = field(default_factory=dict)

    def choose(self, knowledge: Knowledge, seat: int, rnd: random.Random) -> Command:
        return random_command(determinize(knowledge, rnd), seat, rnd)

    @property
    def budget(self) -> str:
        return "one uniformly random legal command"


@dataclass
class GreedyBot:
    """Tries each candidate on `determinizations` dealt states; keeps the best mean evaluation."""

    name: str = "greedy"
    params: dict = field(default_factory=lambda: {"determinizations": 2, "samples": 4})

    def choose(self, knowledge: Knowledge, seat: int, rnd: random.Random) -> Command:
        worlds = [determinize(knowledge, rnd) for _ in range(self.params["determinizations"])]
        return greedy_command(worlds, seat, rnd, self.params["samples"])

    @property
    def budget(self) -> str:
        return f"every candidate one command ahead on {self.params['determinizations']} dealt states"


def greedy_command(worlds: list[State], seat: int, rnd: random.Random, samples: int) -> Command:
    """The candidate with the best mean evaluation one command ahead over these dealt states."""
    options = candidates(worlds[0], seat, rnd, samples)
    if len(options) == 1:
        return options[0]
    return max(options, key=lambda c: _mean(worlds, lambda w: _score(after(w, c, rnd), seat)))


def _score(state: State | None, seat: int) -> float:
    return -1e9 if state is None else evaluate(state, seat)


def _mean(worlds: list[State], value: Callable[[State], float]) -> float:
    return sum(value(w) for w in worlds) / len(worlds)


def rollout(state: State, seat: int, rnd: random.Random, plies: int, greedy: bool) -> float:
    """Play `plies` commands (or to the end of the epoch) in place, every seat with the random
    or the greedy policy (on the dealt state it already has); the evaluation for `seat`."""
    rng, epoch = PlayoutRng(rnd), state.epoch
    for _ in range(plies):
        if state.finished or state.epoch != epoch or not state.agenda:
            break
        mover = state.agenda[0].seat
        try:
            command = greedy_command([state], mover, rnd, 1) if greedy else random_command(state, mover, rnd)
            state = apply(state, command, rng)[0]
        except DomainError:
            break
    return evaluate(state, seat)


@dataclass
class StrongBot:
    """Determinized Monte Carlo: the greedy-best `width` candidates, each tried on `worlds` dealt
    states with `plies`-deep rollouts (greedy or random policy); the best mean evaluation wins.
    The budget is width x worlds rollouts of `plies` commands (no clock: the domain has none)."""

    name: str = "strong"
    params: dict = field(default_factory=lambda: {"width": 6, "worlds": 8, "plies": 8, "samples": 4, "policy": "greedy"})

    def choose(self, knowledge: Knowledge, seat: int, rnd: random.Random) -> Command:
        p = self.params
        worlds = [determinize(knowledge, rnd) for _ in range(p["worlds"])]
        options = candidates(worlds[0], seat, rnd, p["samples"])
        if len(options) == 1:
            return options[0]
        first = worlds[0]
        ranked = sorted(options, key=lambda c: -_score(after(first, c, rnd), seat))[:p["width"]]
        return max(ranked, key=lambda c: _mean(worlds, lambda w: _playout(w, c, seat, rnd, p)))

    @property
    def budget(self) -> str:
        p = self.params
        return (f"{p['width']} candidates x {p['worlds']} dealt states: {p['width'] * p['worlds']} rollouts "
                f"of {p['plies']} {p['policy']} commands")


def _playout(world: State, command: Command, seat: int, rnd: random.Random, p: dict) -> float:
    state = after(world, command, rnd)
    return -1e9 if state is None else rollout(state, seat, rnd, p["plies"], p["policy"] == "greedy")
