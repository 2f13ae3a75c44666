"""The card game's bot ladder with what `pantheon ladder --game pantheon_cards` does not give: the
same games (service.ai.ladder, seeded as the CLI's `ladder`), plus each game's seats and winners
written as it ends (`--log`), a stopped run continued (`--first`), each bot's time per move
(mean, p95, max) and Wilson interval in the JSON line, and bots' parameters other than their
defaults for tuning runs (`--params`). One bot against two of another, seats rotated.

    .venv/bin/python -m bench.ladder_pantheon_cards --games 400 --bots strong,greedy,greedy --jobs 2
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from domain.bots import Bot
from domain.pantheon_cards import GAME
from domain.pantheon_cards.bots import BOTS
from service.ai import ladder as ladders
from service.tuning import fewer_gc_passes

KIND = GAME.kind
DEFAULT_BOTS = dict(BOTS)
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}  # a move's time: elapsed, or this process's CPU


def _with_params(params: dict[str, dict[str, Any]]) -> None:
    """Make the named bots with these parameters instead of their defaults (this process only)."""
    for name, extra in params.items():
        made = DEFAULT_BOTS[name]

        def factory(made: Callable[[], Bot] = made, extra: dict[str, Any] = extra) -> Bot:
            bot = made()
            bot.params = {**bot.params, **extra}
            return bot

        BOTS[name] = factory


def _part(
    bots: list[str],
    indices: range,
    players: int,
    seed: str,
    log: str | None,
    params: dict[str, dict[str, Any]],
    clock: str = "wall",
) -> dict[str, ladders.Tally]:
    """The ladder's games (service.ai.ladder.play, seeded as its `ladder`), each one's seating and
    winners appended to `log` as it ends (so a long run can be read while it plays)."""
    _with_params(params)
    tallies = {name: ladders.Tally() for name in bots}
    with fewer_gc_passes():
        for index in indices:
            names = ladders.seating(bots, players, index)
            game_seed = hashlib.sha256(f"{KIND}-ladder:{seed}:{index}".encode()).digest()
            rnd = random.Random(f"{seed}:{index}")
            winners = ladders.play(names, game_seed, f"ladder-{index}", rnd, tallies, CLOCKS[clock], KIND)
            if log is not None:
                with open(log, "a") as out:
                    out.write(json.dumps({"game": index, "seats": names, "winners": winners}) + "\n")
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
) -> dict[str, ladders.Tally]:
    """Games `first`..`games`-1; the same games whatever `jobs` is (game i depends only on the seed and i)."""
    tallies = {name: ladders.Tally() for name in bots}
    params = params or {}
    if jobs <= 1:
        parts = [_part(bots, range(first, games), players, seed, log, params, clock)]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [
                pool.submit(_part, bots, range(first + j, games, jobs), players, seed, log, params, clock)
                for j in range(jobs)
            ]
            parts = [f.result() for f in futures]
    for part in parts:
        for name, t in part.items():
            tallies[name].add(t)
    return tallies


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
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
        bots, args.games, len(bots), args.seed, args.jobs, args.log, args.first, json.loads(args.params), args.clock
    )
    lines, summary = ladders.report(tallies)
    print("\n".join(lines))
    moves = {name: sorted(t.move_seconds) for name, t in tallies.items()}
    summary["move_ms"] = {
        name: {
            "mean": round(1000 * sum(m) / len(m), 1) if m else 0.0,
            "p95": round(1000 * m[int(0.95 * (len(m) - 1))], 1) if m else 0.0,
            "max": round(1000 * m[-1], 1) if m else 0.0,
        }
        for name, m in moves.items()
    }
    summary["wilson95"] = {name: [round(x, 3) for x in ladders.wilson(t.wins, t.games)] for name, t in tallies.items()}
    summary["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
