"""The time to build a seat's knowledge and deal one world from it (a determinization, what the
bots do 2-8 times a move and a fork once), over states of random games: mean and p95 per game."""

from __future__ import annotations

import argparse
import importlib
import json
import random
import time

from domain import games
from domain.kernel import fold
from service.cli.simulate import game_options, game_seed, play_game


def _states(kind: str, count: int, seed: str) -> list:
    """States every 20 commands of `count` random games."""
    decider, states = games.get(kind).decider, []
    for index in range(count):
        rnd = random.Random(f"{seed}-{index}")
        record = play_game(
            game_seed(seed, index, kind), game_options("mixed", index, rnd, kind), rnd, check=False, kind=kind
        )
        batches = [batch for _, batch in record.steps]
        for end in range(20, len(batches) - 1, 20):
            states.append(fold(decider, [e for batch in batches[:end] for e in batch]))
    return states


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--seed", default="determinize")
    p.add_argument("--kinds", default="pantheon,pantheon_cards")
    args = p.parse_args()
    results = {}
    for kind in args.kinds.split(","):
        bots = importlib.import_module(f"domain.{kind}.bots")
        rnd, times = random.Random(1), []
        for state in _states(kind, args.games, args.seed):
            seat = state.agenda[0].seat if kind == "pantheon" else state.awaiting
            started = time.process_time()
            bots.SEARCH.determinize(bots.seat_knowledge(state, seat), rnd)
            times.append(time.process_time() - started)
        times.sort()
        results[kind] = {
            "deals": len(times),
            "mean_ms": round(1000 * sum(times) / len(times), 2),
            "p95_ms": round(1000 * times[int(0.95 * len(times))], 2),
        }
    print(json.dumps(results))


if __name__ == "__main__":
    main()
