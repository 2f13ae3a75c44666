"""Playout speed (not a test): random games with the in-place `apply` (`simulate --no-check`), by
the wall clock and by this process's CPU time (the steadier figure on a shared machine).

.venv/bin/python -m bench.bench_playouts [--game pantheon] [--games 300] [--players 4]

It measures with its own clocks, so the same file can time an older checkout's engine:
`cd <old checkout> && .venv/bin/python <this checkout>/bench/bench_playouts.py ...`
(that checkout's code is what its `.venv` imports). `--digest` adds a SHA-256 of every command,
event and final state of the run: the same digest from two checkouts means they played exactly
the same games."""

from __future__ import annotations

import argparse
import hashlib
import json
import time

import msgspec

from service.cli.simulate import GameRecord, run


def digest(records: list[GameRecord]) -> str:
    """A SHA-256 of every command and event of these games, and of their final states."""
    encode, sha = msgspec.msgpack.Encoder().encode, hashlib.sha256()
    for record in records:
        for command, events in record.steps:
            sha.update(encode(command))
            sha.update(encode(events))
        sha.update(encode(record.state))
    return sha.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="pantheon")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", default="4", help="a player count, or mixed")
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--digest", action="store_true", help="print a digest of the games played")
    args = parser.parse_args()
    wall, cpu = time.perf_counter(), time.process_time()
    summary, records = run(args.games, args.players, args.seed, check=False, kind=args.game)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(
        json.dumps(
            {
                "game": args.game,
                "games": args.games,
                "errors": summary["errors"],
                "games_per_s": round(args.games / wall, 1),
                "games_per_cpu_s": round(args.games / cpu, 1),
                **({"digest": digest(records)} if args.digest else {}),
            }
        )
    )


if __name__ == "__main__":
    main()
