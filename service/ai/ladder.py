"""The bot ladder: bots play each other with seats rotated; win rates with Wilson intervals."""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass, field

from domain import games as registry
from domain.kernel import step
from domain.rng import game_rng
from service.tuning import fewer_gc_passes


@dataclass
class Tally:
    games: int = 0
    wins: float = 0.0  # a shared win counts as 1 / winners
    move_seconds: list[float] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        """Count another tally's games (a part of the ladder played elsewhere) in this one."""
        self.games += other.games
        self.wins += other.wins
        self.move_seconds += other.move_seconds
        self.scores += other.scores


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def seating(names: list[str], players: int, index: int) -> list[str]:
    """Game `index`'s bot per seat: the bots cycle through the seats game by game."""
    return [names[(index + seat) % len(names)] for seat in range(players)]


def play(
    names: list[str],
    seed: bytes,
    game: str,
    rnd: random.Random,
    tallies: dict[str, Tally],
    clock,
    kind: str = registry.DEFAULT_KIND,
    params: dict[str, dict] | None = None,
) -> list[int]:
    """One game of `kind` to its end; each bot (with `params` by name over its defaults) decides from
    its seat's knowledge only. The winners."""
    decider = registry.get(kind).decider
    assert decider.bots is not None  # the ladder plays games that have bots
    bots = [decider.bots.make(name, **(params or {}).get(name, {})) for name in names]
    state, version = None, 0
    command = registry.get(kind).create_command({"players": len(names)})
    while True:
        state, events = _step(decider, state, command, game_rng(seed, game, version))
        version += len(events)
        if decider.is_terminal(state):
            break
        awaited = decider.awaited(state)
        assert awaited is not None  # not ended: a seat is awaited
        seat = awaited.seat
        start = clock()
        command = bots[seat].choose(decider.bots.knowledge(state, seat), seat, rnd)
        tallies[names[seat]].move_seconds.append(clock() - start)
    outcome = decider.outcome(state)
    winners = outcome.winners
    for seat, name in enumerate(names):
        tallies[name].scores.append(outcome.scores[seat])
        if seat in winners:
            tallies[name].wins += 1 / len(winners)
    for name in set(names):
        tallies[name].games += names.count(name)
    return winners


def _step(decider, state, command, rng):
    """Decide and evolve one command (in place where the game can)."""
    if decider.apply is not None:
        return decider.apply(state, command, rng)
    return step(decider, state, command, rng)


def _play_games(
    bots: list[str], indices: range, players: int, seed: str, clock, kind: str, params: dict | None = None
) -> dict[str, Tally]:
    tallies = {name: Tally() for name in bots}
    with fewer_gc_passes():
        for index in indices:
            game_seed = hashlib.sha256(f"{kind}-ladder:{seed}:{index}".encode()).digest()
            play(
                seating(bots, players, index),
                game_seed,
                f"ladder-{index}",
                random.Random(f"{seed}:{index}"),
                tallies,
                clock,
                kind,
                params,
            )
    return tallies


def ladder(
    bots: list[str],
    games: int,
    players: int,
    seed: str,
    clock,
    jobs: int = 1,
    kind: str = registry.DEFAULT_KIND,
    params: dict | None = None,
) -> dict[str, Tally]:
    """Play `games` games of `kind`; the same seed gives the same games whatever `jobs` is (game i
    depends only on the seed and i). Tallies per bot (per seat played); `jobs` > 1 plays in processes."""
    if jobs <= 1 or games <= 1:
        return _play_games(bots, range(games), players, seed, clock, kind, params)
    from concurrent.futures import ProcessPoolExecutor

    tallies = {name: Tally() for name in bots}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = [
            pool.submit(_play_games, bots, range(j, games, jobs), players, seed, clock, kind, params)
            for j in range(jobs)
        ]
        for part in parts:
            for name, t in part.result().items():
                tallies[name].add(t)
    return tallies


def report(tallies: dict[str, Tally]) -> tuple[list[str], dict]:
    """Readable lines and the JSON summary."""
    lines, results = [], {}
    for name, t in tallies.items():
        rate = t.wins / t.games if t.games else 0.0
        low, high = wilson(t.wins, t.games)
        mean = sum(t.scores) / len(t.scores) if t.scores else 0.0
        per_move = 1000 * sum(t.move_seconds) / len(t.move_seconds) if t.move_seconds else 0.0
        lines.append(
            f"{name:>8}: {t.wins:g}/{t.games} wins, win rate {rate:.3f} "
            f"(95% CI {low:.3f}-{high:.3f}), mean score {mean:.1f}, {per_move:.2f} ms/move"
        )
        results[name] = {"games": t.games, "wins": t.wins, "win_rate": round(rate, 4)}
    return lines, {"results": results}
