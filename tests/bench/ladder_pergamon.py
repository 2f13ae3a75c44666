"""Pergamon bot ladder (not a test): games between bot levels, seats rotated, with win counts
(shared first places count as a win for each), mean VP and move times.

    .venv/bin/python -m tests.bench.ladder_pergamon --games 100 --bots greedy,random
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict

from domain.pergamon.bots import make_bot, seat_knowledge
from domain.pergamon.commands import PergamonOptions
from domain.pergamon.playout import game_seed, play_game


def ladder(names: list[str], games: int, players: int, seed: str) -> dict:
    wins, vp, seconds, moves = defaultdict(float), defaultdict(list), defaultdict(float), defaultdict(int)
    for index in range(games):
        lineup = [names[(index + i) % len(names)] for i in range(players)]
        bots = [make_bot(name) for name in lineup]
        rnd = random.Random(f"{seed}:{index}")

        def policy_for(seat):
            def policy(state, s, r):
                start = time.perf_counter()
                command = bots[s].choose(seat_knowledge(state, s), s, rnd)
                seconds[lineup[s]] += time.perf_counter() - start
                moves[lineup[s]] += 1
                return command
            return policy

        record = play_game(game_seed(seed, index), PergamonOptions(players=players), rnd, check=False,
                           policies={s: policy_for(s) for s in range(players)})
        assert not record.errors, record.errors
        for s, name in enumerate(lineup):
            vp[name].append(record.state.seats[s].vp)
            if s in record.state.winners:
                wins[name] += 1 / lineup.count(name)
    return {"games": games, "players": players, "bots": names,
            "wins": {n: round(wins[n], 1) for n in names},
            "mean_vp": {n: round(sum(vp[n]) / len(vp[n]), 1) for n in names},
            "ms_per_move": {n: round(1000 * seconds[n] / max(moves[n], 1), 1) for n in names}}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--bots", default="greedy,random")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", default="ladder")
    args = p.parse_args()
    print(json.dumps(ladder(args.bots.split(","), args.games, args.players, args.seed)))


if __name__ == "__main__":
    main()
