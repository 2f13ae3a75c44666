"""Choice-tree benchmark (not a test): the time of `choices(state, seat, path)` at the root of
each decision of random games, one level down, two levels down, and at the deepest level of a
random walk to a leaf (paths of movements and purchases replay every step from the root).

    .venv/bin/python -m bench.bench_choices [--games 6]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import msgspec

from tests.domain.pantheon.helpers_choices import choices, played, random_walk


def _timed(state, seat, path) -> float:
    start = time.perf_counter()
    listed = choices(state, seat, path)
    msgspec.json.encode(listed)  # what a client receives
    return (time.perf_counter() - start) * 1000


def _figures(samples: list[float]) -> dict:
    ordered = sorted(samples)
    pick = lambda q: round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)  # noqa: E731
    return {
        "calls": len(samples),
        "p50_ms": round(statistics.median(samples), 3),
        "p95_ms": pick(0.95),
        "p99_ms": pick(0.99),
        "max_ms": round(ordered[-1], 3),
    }


def measure(games: int) -> dict:
    times: dict[str, list[float]] = {"root": [], "one_down": [], "two_down": [], "deepest": []}
    depth: list[int] = []
    rnd = random.Random(0)
    for game in range(games):
        players = 2 + game % 3
        for state, _ in played(f"bench-choices-{game}", players):
            seat = state.agenda[0].seat
            times["root"].append(_timed(state, seat, ()))
            path, _ = random_walk(state, seat, rnd, deep=0.95)
            if len(path) > 1:
                times["one_down"].append(_timed(state, seat, path[:1]))
            if len(path) > 2:
                times["two_down"].append(_timed(state, seat, path[:2]))
            if len(path) > 3:
                times["deepest"].append(_timed(state, seat, path[:-1]))
                depth.append(len(path) - 1)
    figures = {name: _figures(samples) for name, samples in times.items()}
    figures["deepest"]["mean_depth"] = round(statistics.mean(depth), 1)
    figures["deepest"]["max_depth"] = max(depth)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    print(json.dumps(measure(args.games), indent=2))


if __name__ == "__main__":
    main()
