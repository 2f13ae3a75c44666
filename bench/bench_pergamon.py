"""Pergamon engine benchmark (not a test): random games per second (in-place `apply`, and the
checked `decide` path that evolves each event and checks every invariant after it, VP never
decreasing included), replay events per second (decode + fold), errors and violations.

    .venv/bin/python -m bench.bench_pergamon [--games 3000]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import msgspec

from domain.kernel import fold
from domain.pergamon import PERGAMON, Event
from domain.pergamon.commands import PergamonOptions
from domain.pergamon.playout import game_seed, play_game


def _options(index: int) -> PergamonOptions:
    players = (2, 3, 4)[index % 3]
    return PergamonOptions(
        players=players, variant_sorting=index % 2 == 0, variant_player_order=players > 2 and index % 4 == 1
    )


def play(games: int, check: bool) -> dict:
    start, events, errors, violations = time.perf_counter(), 0, 0, 0
    records = []
    for index in range(games):
        record = play_game(game_seed("bench", index), _options(index), random.Random(index), check=check)
        events += len(record.events)
        errors += len(record.errors)
        violations += len(record.violations)
        if index < 30:
            records.append(record)
    seconds = time.perf_counter() - start
    return {
        "games": games,
        "seconds": round(seconds, 2),
        "games_per_s": round(games / seconds, 1),
        "events": events,
        "errors": errors,
        "violations": violations,
        "records": records,
    }


def replay(records, repeats: int = 5) -> dict:
    """Decode + fold of stored event logs: events per second."""
    decoder = msgspec.msgpack.Decoder(list[Event])
    stored = [msgspec.msgpack.encode(r.events) for r in records]
    total = sum(len(r.events) for r in records)
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for blob in stored:
            fold(PERGAMON, decoder.decode(blob))
        samples.append(time.perf_counter() - start)
    seconds = statistics.median(samples)
    return {"replayed_events": total, "replay_events_per_s": round(total / seconds)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--checked", type=int, default=None, help="games on the checked path (default: --games)")
    args = parser.parse_args()
    fast = play(args.games, check=False)
    checked = play(args.games if args.checked is None else args.checked, check=True)
    result = {
        "apply": {k: v for k, v in fast.items() if k != "records"},
        "decide_checked": {k: v for k, v in checked.items() if k != "records"},
        **replay(fast["records"]),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
