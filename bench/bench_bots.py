"""Bot move times (p50/p95 per bot over whole games) and the ladder result, e.g. strong vs greedy."""

from __future__ import annotations

import argparse
import json
import time

from service.ai.ladder import ladder, report


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--bots", default="strong,greedy")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", default="bench")
    p.add_argument("--jobs", type=int, default=1, help="processes (timings are per move, so use one per core)")
    args = p.parse_args()
    tallies = ladder(args.bots.split(","), args.games, args.players, args.seed, time.perf_counter, args.jobs)
    lines, summary = report(tallies)
    print("\n".join(lines))
    print(
        json.dumps(
            {
                "move_ms": {
                    name: {
                        "moves": len(t.move_seconds),
                        "p50": round(1000 * percentile(t.move_seconds, 0.5), 1),
                        "p95": round(1000 * percentile(t.move_seconds, 0.95), 1),
                        "max": round(1000 * max(t.move_seconds, default=0), 1),
                    }
                    for name, t in tallies.items()
                },
                **summary,
            }
        )
    )


if __name__ == "__main__":
    main()
