"""Whole games played by a policy through the pure decider, exactly as the server would play them
(each command draws from `game_rng(seed, game, version)`): for the random-games test, the bench,
the ladder and the golden games. Pure: no clock, no I/O."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from domain.kernel import DomainError
from domain.rng import game_rng

from . import commands as cmd
from . import events as ev
from .decide import apply, decide
from .evolve import evolve
from .invariants import check_invariants
from .random_play import random_command
from .state import State

Policy = Callable[[State, int, random.Random], Any]  # (state, seat, rnd) -> a command


@dataclass
class GameRecord:
    seed: bytes
    options: cmd.PergamonOptions
    game: str
    steps: list[tuple[Any, list[ev.Event]]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    state: State | None = None

    @property
    def events(self) -> list[ev.Event]:
        return [e for _, events in self.steps for e in events]


def game_seed(label: str, index: int) -> bytes:
    """The secret seed of game `index` under a label (the same rule as `pantheon simulate`)."""
    return hashlib.sha256(f"pergamon-simulate:{label}:{index}".encode()).digest()


def game_id(seed: bytes) -> str:
    return "sim-" + hashlib.sha256(b"id|" + seed).hexdigest()[:16]


def play_game(
    seed: bytes,
    options: cmd.PergamonOptions,
    rnd: random.Random,
    *,
    check: bool = True,
    policies: dict[int, Policy] | None = None,
) -> GameRecord:
    """Play one game to its end (or its first error). With `check`, each command goes through the
    pure `decide`, each event is evolved on its own and every invariant (VP never decreasing
    included) is checked after it; without, the in-place `apply` is used."""
    record = GameRecord(seed=seed, options=options, game=game_id(seed))
    command: Any = cmd.PergamonCreateGame(options=options)
    state, version = None, 0
    while True:
        rng = game_rng(seed, record.game, version)
        try:
            if check:
                events = decide(state, command, rng)
                state = _checked(state, events, record)
            else:
                state, events = apply(state, command, rng)
        except DomainError as error:
            record.errors.append(f"{error.code}: {error.message} ({command!r})")
            break
        record.steps.append((command, events))
        version += len(events)
        if state.finished or record.violations:
            break
        seat = state.awaiting
        policy = (policies or {}).get(seat, random_command)
        command = policy(state, seat, rnd)
    record.state = state
    return record


_VP_EVENTS = (ev.Exhibited, ev.MarkersScored, ev.AwardGiven, ev.FinalBonusGiven)


def _checked(state: State | None, events: list[ev.Event], record: GameRecord) -> State:
    for event in events:
        before = None if state is None else [s.vp for s in state.seats]
        state = evolve(state, event)
        problems = check_invariants(state)
        after = [s.vp for s in state.seats]
        if before is not None and any(a > b for a, b in zip(before, after)):
            problems.append("VP decreased")
        if before is not None and before != after and not isinstance(event, _VP_EVENTS):
            problems.append("VP changed by an event that gives none (§14)")
        record.violations += [f"after {type(event).__name__}: {p}" for p in problems]
    assert state is not None, "a command causes events"
    return state
