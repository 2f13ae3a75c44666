"""The bots, game-agnostic: random, greedy (every candidate one command ahead) and strong
(determinized Monte Carlo: the greedy-best candidates, each played out on several dealt states).

A bot sees only a seat's knowledge; it deals the secrets itself (the game's `determinize`, with
the bot's own random.Random) to look ahead. A game says what the bots need of it in a `Search`;
`bot_factories` makes its bots, `make_bot` one by name. Parameters keep the game's own names (they
are recorded with every AI command and the audit makes the bot again from them)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from domain.kernel import DomainError, Rng

REFUSED = -1e9  # the worth of a command the game refuses there


class Bot(Protocol):
    """A player: `choose` returns a legal command for `seat` from what the seat knows."""

    name: str
    params: dict[str, Any]

    @property
    def budget(self) -> str:
        """How much search one decision gets, in words (recorded with every AI command)."""
        ...

    def choose(self, knowledge: Any, seat: int, rnd: random.Random) -> Any: ...


@dataclass(frozen=True, slots=True)
class Search:
    """What the bots need of a game's rules, and their parameters in the game's own names."""

    determinize: Callable[[Any, random.Random], Any]  # a full state consistent with a seat's knowledge
    candidates: Callable[[Any, int, random.Random, int], list[Any]]  # commands worth comparing (n: random ones added)
    evaluate: Callable[[Any, int], float]  # a state's worth for a seat
    apply: Callable[[Any, Any, Rng], tuple[Any, list[Any]]]  # decide and evolve, in place
    clone: Callable[[Any], Any]
    random_command: Callable[[Any, int, random.Random], Any]
    mover: Callable[[Any], int | None]  # the seat awaited (None: nobody, or the game is over)
    horizon: Callable[[Any], int]  # rollouts stop where this changes (an epoch, a round)
    params: Mapping[str, dict[str, Any]]  # each bot's default parameters, by bot name (weakest first)
    budgets: Mapping[str, str]  # each bot's budget in words: a format string over its parameters and `rollouts`
    aliases: Mapping[str, str] = field(default_factory=dict)  # the game's name of a kernel parameter, where other


class PlayoutRng:
    """The engine's Rng protocol over a bot's own random.Random (chance inside look-ahead)."""

    __slots__ = ("_rnd",)

    def __init__(self, rnd: random.Random) -> None:
        self._rnd = rnd

    def randbelow(self, n: int) -> int:
        return self._rnd.randrange(n)


@dataclass
class _Player:
    search: Search = field(repr=False)
    name: str
    params: dict[str, Any]

    @property
    def budget(self) -> str:
        rollouts = self.params.get("width", 0) * self.params.get("worlds", 0)
        return self.search.budgets[self.name].format(**self.params, rollouts=rollouts)

    def _param(self, name: str, default: Any = None) -> Any:
        return self.params.get(self.search.aliases.get(name, name), default)

    def _after(self, state: Any, command: Any, rnd: random.Random) -> Any:
        """A copy of the state after the command (None if the command is refused there)."""
        try:
            return self.search.apply(self.search.clone(state), command, PlayoutRng(rnd))[0]
        except DomainError:
            return None

    def _score(self, state: Any, seat: int) -> float:
        return REFUSED if state is None else self.search.evaluate(state, seat)

    def _greedy(self, worlds: list[Any], seat: int, rnd: random.Random, samples: int) -> Any:
        """The candidate whose states one command ahead, over these dealt states, are worth most.
        (Sums, not means: the same order, and no rounding can tie two different sums.)"""
        options = self.search.candidates(worlds[0], seat, rnd, samples)
        if len(options) == 1:
            return options[0]
        return max(options, key=lambda c: sum(self._score(self._after(w, c, rnd), seat) for w in worlds))


class RandomBot(_Player):
    """Uniformly random legal commands."""

    def choose(self, knowledge: Any, seat: int, rnd: random.Random) -> Any:
        return self.search.random_command(self.search.determinize(knowledge, rnd), seat, rnd)


class GreedyBot(_Player):
    """Tries each candidate on `determinizations` dealt states; keeps the best mean evaluation."""

    def choose(self, knowledge: Any, seat: int, rnd: random.Random) -> Any:
        worlds = [self.search.determinize(knowledge, rnd) for _ in range(self._param("determinizations"))]
        return self._greedy(worlds, seat, rnd, self._param("samples", 0))


class StrongBot(_Player):
    """Determinized Monte Carlo: the greedy-best `width` candidates, each tried on `worlds` dealt
    states with `plies`-deep rollouts (greedy or random policy); the best mean evaluation wins.
    The budget is width x worlds rollouts of `plies` commands (no clock: the domain has none)."""

    def choose(self, knowledge: Any, seat: int, rnd: random.Random) -> Any:
        worlds = [self.search.determinize(knowledge, rnd) for _ in range(self._param("worlds"))]
        options = self.search.candidates(worlds[0], seat, rnd, self._param("samples", 0))
        if len(options) == 1:
            return options[0]
        first = worlds[0]
        ranked = sorted(options, key=lambda c: -self._score(self._after(first, c, rnd), seat))[: self._param("width")]
        return max(ranked, key=lambda c: sum(self._playout(w, c, seat, rnd) for w in worlds))

    def _playout(self, world: Any, command: Any, seat: int, rnd: random.Random) -> float:
        state = self._after(world, command, rnd)
        return REFUSED if state is None else self._rollout(state, seat, rnd)

    def _rollout(self, state: Any, seat: int, rnd: random.Random) -> float:
        """Play up to `plies` commands in place (until `_ends` says so), every seat with the greedy
        or the random policy; the rollout's value for `seat` (`_rollout_value`)."""
        search, rng, greedy = self.search, PlayoutRng(rnd), self._param("policy", "greedy") == "greedy"
        ended = self._ends(state)
        for _ in range(self._param("plies")):
            mover = search.mover(state)
            if mover is None or ended(state):
                break
            try:
                command = self._greedy([state], mover, rnd, 1) if greedy else search.random_command(state, mover, rnd)
                state = search.apply(state, command, rng)[0]
            except DomainError:
                break
        return self._rollout_value(state, seat)

    def _ends(self, start: Any) -> Callable[[Any], bool]:
        """Whether a rollout from `start` has gone far enough: once it passes the search's horizon."""
        horizon = self.search.horizon(start)
        return lambda state: self.search.horizon(state) != horizon

    def _rollout_value(self, state: Any, seat: int) -> float:
        return self.search.evaluate(state, seat)


_KINDS: dict[str, Callable[[Search, str, dict[str, Any]], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "strong": StrongBot,
}


def bot_factories(
    search: Search, kinds: Mapping[str, Callable[[Search, str, dict[str, Any]], Bot]] | None = None
) -> dict[str, Callable[[], Bot]]:
    """Each bot of the game by name (weakest first), made with its default parameters; `kinds` adds
    bot classes by name beyond the kernel's (the expert: domain.ismcts, which imports this module)."""
    every = {**_KINDS, **(kinds or {})}

    def factory(name: str) -> Callable[[], Bot]:
        return lambda: every[name](search, name, dict(search.params[name]))

    return {name: factory(name) for name in search.params}


def make_bot(factories: Mapping[str, Callable[[], Bot]], name: str, **params: Any) -> Bot:
    """A bot by name, its default parameters updated with `params`."""
    bot = factories[name]()
    bot.params = {**bot.params, **params}
    return bot
