"""A ladder's figures from its `--log` (bench/ladder_pantheon_cards.py), also of a run stopped
early: each bot's share of wins (ties counting 1/winners) with the Wilson 95% interval, its time
per move (p50, p95) and its time per game it sat in (the AI CPU of one seat's game with `--clock cpu`).

    .venv/bin/python -m bench.ladder_log strong.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

from service.ai.ladder import wilson


def summary(lines: list[dict]) -> dict:
    games: dict[str, int] = defaultdict(int)
    wins: dict[str, float] = defaultdict(float)
    moves: dict[str, list[float]] = defaultdict(list)
    for line in lines:
        for seat, name in enumerate(line["seats"]):
            games[name] += 1
            if seat in line["winners"]:
                wins[name] += 1 / len(line["winners"])
        for name, ms in line.get("move_ms", {}).items():
            moves[name] += ms
    out = {}
    for name in games:
        m = sorted(moves[name])
        low, high = wilson(wins[name], games[name])
        out[name] = {
            "games": games[name],
            "wins": round(wins[name], 2),
            "share": round(wins[name] / games[name], 3),
            "wilson95": [round(low, 3), round(high, 3)],
            "move_ms_p50": m[len(m) // 2] if m else None,
            "move_ms_p95": m[int(0.95 * (len(m) - 1))] if m else None,
            "per_game_s": round(sum(m) / 1000 / games[name], 2) if m else None,
        }
    return {"games": len(lines), "bots": out}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("log")
    args = p.parse_args()
    with open(args.log) as f:
        print(json.dumps(summary([json.loads(x) for x in f if x.strip()])))


if __name__ == "__main__":
    main()
