"""A bot ladder (the card game's by default, any game with `--game`) with what `pantheon ladder`
does not give: the same games (service.ai.ladder, seeded as the CLI's `ladder`), plus each game's seats and winners
written as it ends with each bot's move times (`--log`), a stopped run continued (`--first`), each bot's time per move
(mean, p50, p95, max) and per game it sat in (`per_game_s`: the AI CPU of one seat's game with
`--clock cpu`) and Wilson interval in the JSON line, and bots' parameters other than their
defaults for tuning runs (`--params`). One bot against two of another, seats rotated.

    .venv/bin/python -m bench.ladder_pantheon_cards --games 400 --bots strong,greedy,greedy --jobs 2
    .venv/bin/python -m bench.ladder_pantheon_cards --game pantheon --games 40 --bots expert,strong \
        --params '{"expert": {"iterations": 200}}' --clock cpu --jobs 2
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from domain.bots import Bot
from service.ai import ladder as ladders
from service.tuning import fewer_gc_passes

KIND = "pantheon_cards"
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}  # a move's time: elapsed, or this process's CPU


def _with_params(kind: str, params: dict[str, dict[str, Any]]) -> None:
    """Make the named bots of the game `kind` with these parameters instead of their defaults (this
    process only: its bots module's `BOTS`, which its `make_bot` reads)."""
    bots: dict[str, Callable[[], Bot]] = importlib.import_module(f"domain.{kind}.bots").BOTS
    for name, extra in params.items():
        made = bots[name]

        def factory(made: Callable[[], Bot] = made, extra: dict[str, Any] = extra) -> Bot:
            bot = made()
            bot.params = {**bot.params, **extra}
            return bot

        bots[name] = factory


def _part(
    bots: list[str],
    indices: range,
    players: int,
    seed: str,
    log: str | None,
    params: dict[str, dict[str, Any]],
    clock: str = "wall",
    kind: str = KIND,
) -> dict[str, ladders.Tally]:
    """The ladder's games (service.ai.ladder.play, seeded as its `ladder`), each one's seating and
    winners appended to `log` as it ends (so a long run can be read while it plays)."""
    _with_params(kind, params)
    tallies = {name: ladders.Tally() for name in bots}
    with fewer_gc_passes():
        for index in indices:
            names = ladders.seating(bots, players, index)
            game_seed = hashlib.sha256(f"{kind}-ladder:{seed}:{index}".encode()).digest()
            rnd = random.Random(f"{seed}:{index}")
            moved = {name: len(t.move_seconds) for name, t in tallies.items()}
            winners = ladders.play(names, game_seed, f"ladder-{index}", rnd, tallies, CLOCKS[clock], kind)
            if log is not None:
                ms = {n: [round(1000 * x, 1) for x in t.move_seconds[moved[n] :]] for n, t in tallies.items()}
                with open(log, "a") as out:
                    out.write(json.dumps({"game": index, "seats": names, "winners": winners, "move_ms": ms}) + "\n")
    return tallies


def run(
    bots: list[str],
    games: int,
    players: int,
    seed: str,
    jobs: int,
    log: str | None,
    first: int = 0,
    params: dict[str, dict[str, Any]] | None = None,
    clock: str = "wall",
    kind: str = KIND,
) -> dict[str, ladders.Tally]:
    """Games `first`..`games`-1; the same games whatever `jobs` is (game i depends only on the seed and i)."""
    tallies = {name: ladders.Tally() for name in bots}
    params = params or {}
    if jobs <= 1:
        parts = [_part(bots, range(first, games), players, seed, log, params, clock, kind)]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [
                pool.submit(_part, bots, range(first + j, games, jobs), players, seed, log, params, clock, kind)
                for j in range(jobs)
            ]
            parts = [f.result() for f in futures]
    for part in parts:
        for name, t in part.items():
            tallies[name].add(t)
    return tallies


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--game", default=KIND, help=f"the game's kind (default: {KIND})")
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--bots", default="strong,greedy,greedy", help="one per seat, rotated game by game")
    p.add_argument("--seed", default="cards-ladder-1")
    p.add_argument("--jobs", type=int, default=1, help="processes (2 at most on a shared machine)")
    p.add_argument("--first", type=int, default=0, help="start at this game (to continue a logged run)")
    p.add_argument("--log", help="append each game's seats and winners to this file (JSON lines) as it ends")
    p.add_argument(
        "--params", default="{}", help='bots\' parameters instead of defaults, e.g. \'{"strong": {"worlds": 8}}\''
    )
    p.add_argument(
        "--clock", choices=sorted(CLOCKS), default="wall", help="time moves by the clock or by the CPU they used"
    )
    args = p.parse_args()
    bots = args.bots.split(",")
    start = time.perf_counter()
    tallies = run(
        bots,
        args.games,
        len(bots),
        args.seed,
        args.jobs,
        args.log,
        args.first,
        json.loads(args.params),
        args.clock,
        args.game,
    )
    lines, summary = ladders.report(tallies)
    print("\n".join(lines))
    moves = {name: sorted(t.move_seconds) for name, t in tallies.items()}
    summary["move_ms"] = {
        name: {
            "mean": round(1000 * sum(m) / len(m), 1) if m else 0.0,
            "p50": round(1000 * m[int(0.5 * (len(m) - 1))], 1) if m else 0.0,
            "p95": round(1000 * m[int(0.95 * (len(m) - 1))], 1) if m else 0.0,
            "max": round(1000 * m[-1], 1) if m else 0.0,
        }
        for name, m in moves.items()
    }
    summary["per_game_s"] = {
        name: round(sum(t.move_seconds) / t.games, 2) if t.games else 0.0 for name, t in tallies.items()
    }
    summary["wilson95"] = {name: [round(x, 3) for x in ladders.wilson(t.wins, t.games)] for name, t in tallies.items()}
    summary["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
