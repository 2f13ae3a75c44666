"""Random playouts: play whole games choosing uniformly among legal options, checking every
invariant after every event and that replaying the events gives the same state."""

from __future__ import annotations

import hashlib
import pathlib
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from domain.kernel import DomainError, fold
from domain.pantheon import PANTHEON
from domain.pantheon.commands import CreateGame, Options
from domain.pantheon.invariants import check_invariants
from domain.pantheon.random_play import random_command
from domain.rng import game_rng
from service.tuning import fewer_gc_passes


@dataclass
class GameRecord:
    """One simulated game: its seed, options, commands with the events each caused."""

    seed: bytes
    options: Options
    game: str = ""
    steps: list[tuple[object, list]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    state: object = None

    @property
    def events(self) -> list:
        return [e for _, events in self.steps for e in events]


def game_seed(seed: int | str, index: int) -> bytes:
    """The secret seed of simulated game `index` under the run's seed."""
    return hashlib.sha256(f"pantheon-simulate:{seed}:{index}".encode()).digest()


def game_options(players: str, index: int, rnd: random.Random) -> Options:
    count = {"mixed": (2, 3, 4)[index % 3]}.get(players) or int(players)
    return Options(players=count, start_material=rnd.choice(["bsw", "rulebook"]),
                   bonus_tiles=rnd.choice(["draft", "random"]))


def simulated_game_id(seed: bytes) -> str:
    """A simulated game's id, derived from its seed."""
    return "sim-" + hashlib.sha256(b"id|" + seed).hexdigest()[:16]


def play_game(seed: bytes, options: Options, rnd: random.Random, *, check: bool = True) -> GameRecord:
    """Play one game to its end (or its first error) with the random player.

    Each command draws from `game_rng(seed, game, version)`, exactly as the server does, so an
    exported simulated game can be audited. With `check`, each command goes through the pure
    `decide`, each event is evolved on its own and every invariant is checked after it;
    without, the faster in-place `apply` is used."""
    game = simulated_game_id(seed)
    record = GameRecord(seed=seed, options=options, game=game)
    command: object = CreateGame(options=options)
    state, version = None, 0
    while True:
        rng = game_rng(seed, game, version)
        try:
            if check:
                events = PANTHEON.decide(state, command, rng)
            else:
                state, events = PANTHEON.apply(state, command, rng)
        except DomainError as error:
            record.errors.append(f"{error.code}: {error.message} ({command!r})")
            break
        for event in events if check else ():
            state = PANTHEON.evolve(state, event)
            record.violations += [f"after {type(event).__name__}: {p}" for p in check_invariants(state)]
        record.steps.append((command, events))
        version += len(events)
        if state.finished or record.violations:
            break
        command = random_command(state, state.agenda[0].seat, rnd)
    record.state = state
    if check and fold(PANTHEON, record.events) != state:
        record.violations.append("replaying the events does not give the state built step by step")
    return record


def simulate(games: int, players: str, seed: int | str, *, check: bool = True) -> Iterator[GameRecord]:
    """Play `games` games; the same seed gives the same games."""
    for index in range(games):
        rnd = random.Random(f"{seed}:{index}")
        options = game_options(players, index, rnd)
        yield play_game(game_seed(seed, index), options, rnd, check=check)


def summary(records: list[GameRecord], seconds: float) -> dict:
    return {
        "games": len(records),
        "commands": sum(len(r.steps) for r in records),
        "events": sum(len(r.events) for r in records),
        "errors": sum(len(r.errors) for r in records),
        "invariant_violations": sum(len(r.violations) for r in records),
        "finished": sum(1 for r in records if r.state is not None and r.state.finished),
        "games_per_s": round(len(records) / seconds, 2) if seconds else None,
        "seconds": round(seconds, 3),
    }


def run(games: int, players: str, seed: int | str, *, check: bool = True) -> tuple[dict, list[GameRecord]]:
    with fewer_gc_passes():
        start = time.perf_counter()
        records = list(simulate(games, players, seed, check=check))
        seconds = time.perf_counter() - start
    return summary(records, seconds), records


def export_records(records: list[GameRecord], directory: str) -> None:
    """Write each simulated game as an export file, with its real seed and commitment."""
    from domain.rng import commitment
    from service.audit.export import Header, chain, export_lines
    from service.write.games import ENGINE_VERSION

    target = pathlib.Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    for record in records:
        facts = {"commitment": commitment(record.seed), "engine": ENGINE_VERSION}
        envelopes = chain(record.game, record.steps, facts=facts)
        header = Header(game=record.game, kind="pantheon", engine=ENGINE_VERSION, commitment=facts["commitment"],
                        seed=record.seed.hex() if record.state is not None and record.state.finished else None,
                        seats=[{"type": "ai", "level": "random"}] * record.options.players, events=len(envelopes))
        with open(target / f"{record.game}.jsonl", "wb") as out:
            for line in export_lines(header, envelopes, PANTHEON):
                out.write(line + b"\n")
