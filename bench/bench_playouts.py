"""Playout speed (not a test): random games with the in-place `apply` (`simulate --no-check`), by
the wall clock and by this process's CPU time (the steadier figure on a shared machine).

.venv/bin/python -m bench.bench_playouts [--game pantheon] [--games 300] [--players 4]

It measures with its own clocks, so the same file can time an older checkout's engine:
`cd <old checkout> && .venv/bin/python <this checkout>/bench/bench_playouts.py ...`
(that checkout's code is what its `.venv` imports)."""

from __future__ import annotations

import argparse
import json
import time

from service.cli.simulate import run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="pantheon")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", default="4", help="a player count, or mixed")
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    wall, cpu = time.perf_counter(), time.process_time()
    summary, _ = run(args.games, args.players, args.seed, check=False, kind=args.game)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(
        json.dumps(
            {
                "game": args.game,
                "games": args.games,
                "errors": summary["errors"],
                "games_per_s": round(args.games / wall, 1),
                "games_per_cpu_s": round(args.games / cpu, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
