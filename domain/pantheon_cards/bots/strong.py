"""The card game's strong bot: the kernel's determinized Monte Carlo (domain.bots.StrongBot) with
four changes that matter in this game, where a god drawn by anyone goes to the best column of
all seats (§8) and a few draws decide the game:

- every candidate is first scored one command ahead on *all* the dealt states (greedy looks at
  two), and the best `width` go on to the playouts;
- the playouts look as far as the seat's next turn (every other seat plays once), not to the end
  of the round, so the last seat of a round sees the others answer too;
- common random numbers: on one dealt state every candidate's playout draws the same chance (a
  seed per dealt state), so candidates are compared on the same draws, not on luck;
- its own evaluation (`evaluation`: "expected", evaluate.expecting): what a drawn god is likely
  to bring, from the unseen cards, and the pantheon's doubling in full only near the end. The
  other seats in the playouts still play greedy's evaluation, as greedy bots would.

Still only the seat's knowledge (§22): the dealt states come from `determinize`."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from domain.bots import REFUSED
from domain.bots import StrongBot as KernelStrongBot
from domain.kernel import DomainError

from .. import commands as cmd
from ..rules import card
from ..state import State
from .evaluate import GREEDY, expecting, queueing

EVALUATIONS = {
    "expected": expecting(GREEDY),
    "queue": queueing(GREEDY),
}  # by name; any other name: the game's (greedy's) evaluation


def next_turn(start: State) -> Callable[[State], bool]:
    """A rollout goes until each other seat has had its turn (or a battle turn) and it is the
    seat's again, not to the end of the round: the last seat of a round sees the others answer."""
    turn, battle, players = start.turn, start.battle_turns, start.players
    return lambda state: state.turn - turn >= players or state.battle_turns - battle >= players


class _FirstPick:
    """The engine's Rng with its first draw fixed (the card a deck draw takes), then the bot's chance."""

    __slots__ = ("_first", "_rnd")

    def __init__(self, first: int, rnd: random.Random) -> None:
        self._first: int | None = first
        self._rnd = rnd

    def randbelow(self, n: int) -> int:
        first, self._first = self._first, None
        return self._rnd.randrange(n) if first is None else first


class StrongBot(KernelStrongBot):
    """Determinized Monte Carlo over `worlds` dealt states: all candidates one command ahead, the
    best `width` played out by greedy players for up to `plies` commands (to the seat's next turn)."""

    def _value(self, state: Any, seat: int) -> float:
        """The state's worth for `seat` by the bot's own evaluation (REFUSED: no state)."""
        if state is None:
            return REFUSED
        evaluate: Callable[[Any, int], float] = EVALUATIONS.get(self._param("evaluation", ""), self.search.evaluate)
        return evaluate(state, seat)

    def choose(self, knowledge: Any, seat: int, rnd: random.Random) -> Any:
        search = self.search
        worlds = [search.determinize(knowledge, rnd) for _ in range(self._param("worlds"))]
        options = search.candidates(worlds[0], seat, rnd, self._param("samples", 0))
        if len(options) == 1:
            return options[0]
        seeds = [rnd.getrandbits(64) for _ in worlds]  # one chance per dealt state, shared by the candidates

        def ahead(command: Any) -> float:
            return sum(
                weight * self._value(after, seat)
                for w, s in zip(worlds, seeds, strict=True)
                for weight, after, _ in self._outcomes(w, command, s)
            )

        def played_out(command: Any) -> float:
            return sum(
                weight * (REFUSED if after is None else self._rollout(after, seat, chance))
                for w, s in zip(worlds, seeds, strict=True)
                for weight, after, chance in self._outcomes(w, command, s)
            )

        ranked = sorted(options, key=lambda c: -ahead(c))[: self._param("width")]  # stable: ties keep their order
        return ranked[0] if len(ranked) == 1 else max(ranked, key=played_out)

    def _outcomes(self, world: State, command: Any, seed: int) -> list[tuple[float, State | None, random.Random]]:
        """The states after `command` on a dealt state, each with its weight and the chance that goes on
        from it. A deck draw (`split_draws`) is two: a god, and not a god, weighted by their odds among
        the unseen cards (§20), so that a few dealt states do not leave a god's arrival to luck."""
        rnd = random.Random(seed)
        if self._param("split_draws", False) and isinstance(command, cmd.DrawCard) and command.source == "deck":
            unseen = world.unseen
            gods = [i for i, c in enumerate(unseen) if card(world, c).type == "god"]
            others = [i for i, c in enumerate(unseen) if card(world, c).type != "god"]
            if gods and others:
                p = len(gods) / len(unseen)
                god, other = rnd.choice(gods), rnd.choice(others)
                return [
                    (p, self._drawn(world, command, god, rnd), rnd),
                    (1 - p, self._drawn(world, command, other, random.Random(seed + 1)), random.Random(seed + 2)),
                ]
        return [(1.0, self._after(world, command, rnd), rnd)]

    def _drawn(self, world: State, command: Any, index: int, rnd: random.Random) -> State | None:
        """The state after a deck draw that takes the `index`-th unseen card (the draw's first chance)."""
        try:
            return self.search.apply(self.search.clone(world), command, _FirstPick(index, rnd))[0]  # type: ignore[no-any-return]
        except DomainError:
            return None

    def _ends(self, start: Any) -> Callable[[Any], bool]:
        return next_turn(start)

    def _rollout_value(self, state: Any, seat: int) -> float:
        return self._value(state, seat)


__all__ = ["EVALUATIONS", "StrongBot", "next_turn"]
