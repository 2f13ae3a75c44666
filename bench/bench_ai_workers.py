"""AI turns per second with 1, then 2 `pantheon worker` processes sharing the RQ queue (a benchmark,
not a test): the same all-AI games each time, on a private redis-server (bench/bench_ai.py
plays them). Strong bots think (CPU): with as many workers as cores the turns per second should
nearly double; random bots barely think, so there the queue, Redis and the appends set the pace.

Run: .venv/bin/python -m bench.bench_ai_workers --games 4 --concurrent 4 --players 2 --level strong
"""

from __future__ import annotations

import argparse
import json
import os

from .bench_ai import run


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--concurrent", type=int, default=4, help="games in play at once (enough to keep every worker busy)")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--level", default="strong", help="the bots' level (strong thinks most, random least)")
    p.add_argument("--workers", default="1,2", help="worker counts to compare, comma-separated")
    args = p.parse_args()
    load = os.getloadavg()[0]  # other work on the machine: the figures are worth what this allows
    results = [run(args.games, args.concurrent, int(w), args.players, args.level) for w in args.workers.split(",")]
    for r in results:
        print(
            json.dumps(
                {k: r[k] for k in ("workers", "games", "level", "players", "concurrent", "seconds", "ai_turns_per_s")}
                | {
                    "queue_wait_p50_ms": r["enqueue_to_stored_minus_thinking"]["p50_ms"],
                    "thinking_p50_ms": r["thinking"]["p50_ms"],
                }
            )
        )
    base = results[0]["ai_turns_per_s"]
    print(
        f"cpus: {os.cpu_count()}, load average before: {load:.1f}; turns/s relative to "
        f"{results[0]['workers']} worker(s): "
        + ", ".join(f"{r['workers']}: x{r['ai_turns_per_s'] / base:.2f}" for r in results)
    )


if __name__ == "__main__":
    main()
