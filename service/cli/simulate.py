"""Random playouts: play whole games of any registered kind choosing uniformly among legal
options, checking every invariant after every event and that replaying the events gives the
same state."""

from __future__ import annotations

import hashlib
import pathlib
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from domain import games as registry
from domain.kernel import DomainError, fold
from domain.rng import game_rng
from service.tuning import fewer_gc_passes


@dataclass
class GameRecord:
    """One simulated game: its kind, seed, options, commands with the events each caused."""

    seed: bytes
    options: Any  # the game's options struct (every game's has `players`)
    game: str = ""
    kind: str = registry.DEFAULT_KIND
    steps: list[tuple[object, list]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    state: object = None

    @property
    def events(self) -> list:
        return [e for _, events in self.steps for e in events]

    @property
    def finished(self) -> bool:
        return self.state is not None and registry.get(self.kind).decider.is_terminal(self.state)


def game_seed(seed: int | str, index: int, kind: str = registry.DEFAULT_KIND) -> bytes:
    """The secret seed of simulated game `index` under the run's seed."""
    return hashlib.sha256(f"{kind}-simulate:{seed}:{index}".encode()).digest()


def game_options(players: str, index: int, rnd: random.Random, kind: str = registry.DEFAULT_KIND) -> Any:
    """Random options of game `index`; "mixed" cycles through the game's player counts."""
    game = registry.get(kind)
    count = game.players[index % len(game.players)] if players == "mixed" else int(players)
    return game.random_options(count, rnd)


def simulated_game_id(seed: bytes) -> str:
    """A simulated game's id, derived from its seed."""
    return "sim-" + hashlib.sha256(b"id|" + seed).hexdigest()[:16]


def play_game(
    seed: bytes, options: Any, rnd: random.Random, *, check: bool = True, kind: str = registry.DEFAULT_KIND
) -> GameRecord:
    """Play one game to its end (or its first error) with the random player.

    Each command draws from `game_rng(seed, game, version)`, exactly as the server does, so an
    exported simulated game can be audited. With `check`, each command goes through the pure
    `decide`, each event is evolved on its own and every invariant is checked after it;
    without, the faster in-place `apply` (where the game has one) is used."""
    spec = registry.get(kind)
    decider = spec.decider
    apply = None if check else decider.apply  # the faster in-place apply, where the game has one
    game = simulated_game_id(seed)
    record = GameRecord(seed=seed, options=options, game=game, kind=kind)
    command: object = spec.create_command(options)
    state, version = None, 0
    # the loop runs once per command: what it calls is looked up once
    is_terminal, awaited_seat, random_command = decider.is_terminal, decider.awaited, spec.random_command
    steps = record.steps
    while True:
        rng = game_rng(seed, game, version)
        try:
            if apply is not None:
                state, events = apply(state, command, rng)
            else:
                events = decider.decide(state, command, rng)
        except DomainError as error:
            record.errors.append(f"{error.code}: {error.message} ({command!r})")
            break
        if apply is None:
            for event in events:
                state = decider.evolve(state, event)
                if check:
                    record.violations += [f"after {type(event).__name__}: {p}" for p in spec.invariants(state)]
        steps.append((command, events))
        version += len(events)
        if is_terminal(state) or record.violations:
            break
        awaited = awaited_seat(state)
        assert awaited is not None  # not ended: a seat is awaited
        command = random_command(state, awaited.seat, rnd)
    record.state = state
    if check and fold(decider, record.events) != state:
        record.violations.append("replaying the events does not give the state built step by step")
    return record


def simulate(
    games: int, players: str, seed: int | str, *, check: bool = True, kind: str = registry.DEFAULT_KIND
) -> Iterator[GameRecord]:
    """Play `games` games; the same seed gives the same games."""
    for index in range(games):
        rnd = random.Random(f"{seed}:{index}")
        options = game_options(players, index, rnd, kind)
        yield play_game(game_seed(seed, index, kind), options, rnd, check=check, kind=kind)


def summary(records: list[GameRecord], seconds: float, cpu_seconds: float | None = None) -> dict:
    """The run in figures: `games_per_s` by the wall clock, `games_per_cpu_s` by this process's CPU
    time (the steadier figure on a shared machine)."""
    return {
        "games": len(records),
        "commands": sum(len(r.steps) for r in records),
        "events": sum(len(r.events) for r in records),
        "errors": sum(len(r.errors) for r in records),
        "invariant_violations": sum(len(r.violations) for r in records),
        "finished": sum(1 for r in records if r.finished),
        "games_per_s": round(len(records) / seconds, 2) if seconds else None,
        "seconds": round(seconds, 3),
        **({"games_per_cpu_s": round(len(records) / cpu_seconds, 2)} if cpu_seconds else {}),
    }


def run(
    games: int, players: str, seed: int | str, *, check: bool = True, kind: str = registry.DEFAULT_KIND
) -> tuple[dict, list[GameRecord]]:
    with fewer_gc_passes():
        start, cpu = time.perf_counter(), time.process_time()
        records = list(simulate(games, players, seed, check=check, kind=kind))
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return summary(records, seconds, cpu), records


def export_records(records: list[GameRecord], directory: str) -> None:
    """Write each simulated game as an export file, with its real seed and commitment."""
    from domain.rng import commitment
    from service.audit.export import Header, chain, export_lines

    target = pathlib.Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    for record in records:
        game = registry.get(record.kind)
        facts = {"commitment": commitment(record.seed), "engine": game.engine}
        envelopes = chain(record.game, record.steps, facts=facts)
        header = Header(
            game=record.game,
            kind=record.kind,
            engine=game.engine,
            commitment=facts["commitment"],
            seed=record.seed.hex() if record.finished else None,
            seats=[{"type": "ai", "level": "random"}] * record.options.players,
            events=len(envelopes),
        )
        with open(target / f"{record.game}.jsonl", "wb") as out:
            for line in export_lines(header, envelopes, game.decider):
                out.write(line + b"\n")
