"""The expert's time per move as the worker runs it (service/ai/budget.py: 24 iterations timed on
the position, then as many as the rest of the budget buys): CPU seconds of one thread per move,
p50/p95/max, and the iterations it bought, on positions every `--every` commands of greedy games.

    .venv/bin/python -m bench.bench_expert --seconds 1 --games 1 --every 12
"""

from __future__ import annotations

import argparse
import json
import random
import time

from domain import games as registry
from domain.kernel import step
from domain.rng import game_rng
from service.ai.budget import budgeted

PLAYERS = {"pantheon": 2, "pergamon": 2, "pantheon_cards": 3}


def positions(kind: str, seed: str, every: int):
    """(state, seat) every `every` commands of one game of greedy players."""
    entry = registry.get(kind)
    decider = entry.decider
    rnd, state, version = random.Random(seed), None, 0
    command = entry.create_command({"players": PLAYERS[kind]})
    bot, count = decider.bots.make("greedy"), 0
    while True:
        state, events = step(decider, state, command, game_rng(seed.encode(), "g", version))
        version += len(events)
        if decider.is_terminal(state):
            return
        seat = decider.awaited(state).seat
        count += 1
        if count % every == 0:
            yield state, seat
        command = bot.choose(decider.bots.knowledge(state, seat), seat, rnd)


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[int(q * (len(values) - 1))]


def measure(kind: str, seconds: float, games: int, every: int) -> dict:
    bots = registry.get(kind).decider.bots
    cpu, iterations = [], []
    for g in range(games):
        for state, seat in positions(kind, f"bench-expert-{g}", every):
            knowledge = bots.knowledge(state, seat)
            started = time.thread_time()
            bot = budgeted(bots, "expert", knowledge, seat, seconds)
            bot.choose(knowledge, seat, random.Random("turn"))
            cpu.append(time.thread_time() - started)
            iterations.append(bot.params["iterations"])
    return {
        "moves": len(cpu),
        "cpu_s": {"p50": round(_pct(cpu, 0.5), 3), "p95": round(_pct(cpu, 0.95), 3), "max": round(max(cpu), 3)},
        "iterations": {"p50": _pct(iterations, 0.5), "min": min(iterations), "max": max(iterations)},
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seconds", type=float, default=1.0, help="the budget (PANTHEON_AI_EXPERT_S)")
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--every", type=int, default=12, help="a position every this many commands")
    p.add_argument("--kinds", default=",".join(PLAYERS))
    args = p.parse_args()
    for kind in args.kinds.split(","):
        print(json.dumps({"kind": kind, **measure(kind, args.seconds, args.games, args.every)}), flush=True)


if __name__ == "__main__":
    main()
