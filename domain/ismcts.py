"""The expert bot: single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling,
Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012), game-agnostic.

One tree of the decisions that follow the seat's information set, searched for `iterations`
iterations. Each iteration deals a world from the seat's knowledge (the game's `determinize`: the
secrets the seat has not seen, consistent with every public fact), walks down the tree choosing
by UCB1 among the children *available in that world* (a child's `avail` counts the iterations
that could have chosen it, and replaces the parent's visits in the bound), adds one node, plays
out up to `plies` commands (random or greedy players) to the game's horizon, and backs each
seat's reward up the path: a node keeps the reward of the seat that chose the command into it.

Every choice is a candidate command (the game's `candidates`); the root's are made once (the seat
knows its own options; a candidate the rules refuse in a world is not available there). A reward
is a seat's evaluation squashed to (0, 1) by a logistic of width `scale` (a won game near 1, a
lost one near 0). The budget is a number of iterations, never a clock: the same knowledge, seed
and parameters give the same command (the service turns a time budget into iterations and
records them).

The games' experts see at least what their strong bot sees and spend their budget on more of it:
the root's candidates are strong's (`width`: the best one command ahead), each starting at that
worth (`prior`), the playouts are strong's greedy rollouts to its horizon (`policy`, `plies`), the
tree stops below the root (`depth` 1: an opponent's reply expanded at random in each world told
less than a greedy one played out), a reward is the gain over the dealt world's own worth
(`baseline`: the deal's luck, which strong cancels by trying every candidate on the same worlds,
taken out) and the command is the best mean, not the most visited (`choice`: with rewards of
similar size UCB1 spreads its visits nearly evenly). The defaults here are the first expert's, so
that a search recorded with its parameters runs again as it ran."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.bots import PlayoutRng, Search
from domain.kernel import DomainError

_KEY = msgspec.msgpack.Encoder()

DEFAULTS: dict[str, Any] = {
    "iterations": 1000,  # the budget: one world dealt, one node added and one playout each
    "exploration": 0.3,  # UCB1's constant (rewards are in 0..1; commands differ by ~0.1-0.3 of reward)
    "plies": 8,  # playout length at most (commands after the tree), within the horizon
    "policy": "random",  # the playout players: "random" or "greedy" (one command ahead)
    "samples": 4,  # random legal commands added to the root's candidates
    "scale": 2.5,  # the evaluation (points) that makes a reward of 0.73 (logistic width): the median
    # spread of the candidates' worth one command ahead is 1.5-4 points in the three games
    "prior": 0,  # virtual visits each root candidate starts with, at its worth one command ahead
    "width": 0,  # root candidates kept: the best `width` one command ahead (strong's); 0: all of them
    "judged": 1,  # dealt worlds the root's candidates are judged on one command ahead (for `width`, `prior`)
    "choice": "visits",  # the command chosen: the root's most visited child, or "mean": its best mean reward
    "baseline": False,  # a reward is the gain over the dealt world's worth (the deal's luck taken out)
    "depth": 0,  # the tree's depth at most (below it, the playout decides); 0: no limit
}


class _Node:
    """A decision in the tree: the command into it (by its key), who chose it, its statistics."""

    __slots__ = ("avail", "children", "command", "reward", "seat", "visits")

    def __init__(self, command: Any = None, seat: int = -1) -> None:
        self.command, self.seat = command, seat
        self.children: dict[bytes, _Node] = {}
        self.visits, self.avail, self.reward = 0, 1, 0.0

    def ucb(self, exploration: float) -> float:
        return self.reward / self.visits + exploration * math.sqrt(math.log(self.avail) / self.visits)


@dataclass
class ExpertBot:
    """SO-ISMCTS over the seat's knowledge with an iteration budget (see the module docstring)."""

    search: Search = field(repr=False)
    name: str
    params: dict[str, Any]

    @property
    def budget(self) -> str:
        return self.search.budgets[self.name].format(**{**DEFAULTS, **self.params})

    def _param(self, name: str) -> Any:
        return self.params.get(name, DEFAULTS[name])

    def choose(self, knowledge: Any, seat: int, rnd: random.Random) -> Any:
        search = self.search
        first = search.clone(search.determinize(knowledge, rnd))
        options = search.candidates(first, seat, rnd, self._param("samples"))
        if len(options) == 1:
            return options[0]
        root = _Node(seat=seat)
        moves = self._seed(root, [(_KEY.encode(c), c) for c in options], knowledge, first, seat, rnd)
        for _ in range(max(1, int(self._param("iterations")))):
            self._iterate(root, moves, search.clone(search.determinize(knowledge, rnd)), rnd)
        if not root.children:  # every candidate refused in every world: the first is the best guess
            return options[0]
        if self._param("choice") == "mean":  # the best mean reward (visits spread evenly say little)
            return max(root.children.values(), key=lambda n: (n.reward / n.visits, n.visits)).command
        return max(root.children.values(), key=lambda n: (n.visits, n.reward)).command  # the most visited

    def _seed(
        self, root: _Node, moves: list[tuple[bytes, Any]], knowledge: Any, first: Any, seat: int, rnd: random.Random
    ) -> list[tuple[bytes, Any]]:
        """The root's candidates the search compares. With `width`, the best `width` by their mean
        worth one command ahead on `judged` dealt worlds (the first, and more dealt for this: the
        ones strong plays out); with `prior` (progressive bias), each starts with that many virtual
        visits at that worth, so the search spends its iterations on the commands greedy would
        consider first and corrects it where the look-ahead disagrees."""
        prior, width = int(self._param("prior")), int(self._param("width"))
        if prior <= 0 and width <= 0:
            return moves
        rng, search = PlayoutRng(rnd), self.search
        worlds = [first] + [search.clone(search.determinize(knowledge, rnd)) for _ in range(self._param("judged") - 1)]
        worth = {}
        for key, command in moves:
            values = [self._value(after, seat) for w in worlds if (after := self._apply(w, command, rng)) is not None]
            if values:
                worth[key] = sum(values) / len(values)
        kept = sorted((m for m in moves if m[0] in worth), key=lambda m: -worth[m[0]])  # stable: ties keep order
        if width > 0:
            kept = kept[:width]
        base = sum(self._value(w, seat) for w in worlds) / len(worlds) if prior > 0 and self._param("baseline") else 0.0
        for key, command in kept if prior > 0 else ():
            child = root.children[key] = _Node(command, seat)
            child.visits, child.reward = prior, prior * self._squash(worth[key] - base)
        return (kept or moves) if width > 0 else moves

    def _iterate(self, root: _Node, moves: list[tuple[bytes, Any]], state: Any, rnd: random.Random) -> None:
        """One iteration on one dealt world (changed in place): select, expand, play out, back up."""
        search, rng, c = self.search, PlayoutRng(rnd), self._param("exploration")
        depth = int(self._param("depth")) or -1
        node, dealt = root, state
        path: list[_Node] = []
        while len(path) != depth:
            mover = search.mover(state)
            if mover is None:
                break
            options = moves if node is root else [(_KEY.encode(x), x) for x in search.candidates(state, mover, rnd, 0)]
            untried = [(k, x) for k, x in options if k not in node.children]
            for k, _ in options:
                child = node.children.get(k)
                if child is not None:
                    child.avail += 1
            chosen, state = self._descend(node, untried, options, state, mover, rng, rnd, c)
            if chosen is None:  # nothing could be played here in this world: judge it as it is
                break
            path.append(chosen)
            node = chosen
            if chosen.visits == 0:  # just added: the tree grows by one node an iteration
                break
        end = self._playout(state, rnd, rng)
        relative = bool(self._param("baseline"))
        rewards = {
            seat: self._squash(self._value(end, seat) - (self._value(dealt, seat) if relative else 0.0))
            for seat in {n.seat for n in path}
        }
        for n in path:
            n.visits += 1
            n.reward += rewards[n.seat]

    def _descend(
        self,
        node: _Node,
        untried: list[tuple[bytes, Any]],
        options: list[tuple[bytes, Any]],
        state: Any,
        mover: int,
        rng: PlayoutRng,
        rnd: random.Random,
        exploration: float,
    ) -> tuple[_Node | None, Any]:
        """The child taken from `node` in this world (a new one while some are untried, else the
        UCB1 best among the available ones) and the state after its command; a refused command is
        not available in this world and the next is tried."""
        if untried:
            rnd.shuffle(untried)
            for key, command in untried:
                after = self._apply(state, command, rng)
                if after is not None:
                    child = node.children[key] = _Node(command, mover)
                    return child, after
        tried = [node.children[k] for k, _ in options if k in node.children]
        for child in sorted(tried, key=lambda n: -n.ucb(exploration)):
            after = self._apply(state, child.command, rng)
            if after is not None:
                return child, after
        return None, state

    def _apply(self, state: Any, command: Any, rng: PlayoutRng) -> Any:
        """The state after `command` (None if refused; the state is then as it was)."""
        try:
            return self.search.apply(self.search.clone(state), command, rng)[0]
        except DomainError:
            return None

    def _playout(self, state: Any, rnd: random.Random, rng: PlayoutRng) -> Any:
        """Up to `plies` commands in place by the playout players, until the horizon moves."""
        search, greedy = self.search, self._param("policy") == "greedy"
        ended = self._ends(state)
        for _ in range(int(self._param("plies"))):
            mover = search.mover(state)
            if mover is None or ended(state):
                break
            try:
                command = self._greedy(state, mover, rnd, rng) if greedy else search.random_command(state, mover, rnd)
                state = search.apply(state, command, rng)[0]
            except DomainError:
                break
        return state

    def _greedy(self, state: Any, seat: int, rnd: random.Random, rng: PlayoutRng) -> Any:
        """The candidate whose state one command ahead the seat values most (greedy's choice)."""
        best, worth = None, -math.inf
        for command in self.search.candidates(state, seat, rnd, 1):
            after = self._apply(state, command, rng)
            value = -math.inf if after is None else self.search.evaluate(after, seat)
            if best is None or value > worth:
                best, worth = command, value
        return best

    def _ends(self, start: Any) -> Callable[[Any], bool]:
        """Whether a playout from `start` has gone far enough: once it passes the search's horizon
        (a game's expert may look less far, as its strong bot does)."""
        horizon = self.search.horizon(start)
        return lambda state: self.search.horizon(state) != horizon

    def _value(self, state: Any, seat: int) -> float:
        """A state's worth for `seat`: the game's evaluation (a game's expert may judge as its strong bot)."""
        return self.search.evaluate(state, seat)

    def _squash(self, value: float) -> float:
        """A seat's evaluation as a reward in (0, 1): a logistic of width `scale`."""
        scale = float(self._param("scale"))
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, value / scale))))


__all__ = ["DEFAULTS", "ExpertBot"]
