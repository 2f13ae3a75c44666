"""Engine benchmark (not a test): random-play speed and replay cost against plain decoding.

.venv/bin/python -m bench.bench_engine [--games 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import msgspec

from domain.kernel import fold
from domain.pantheon import PANTHEON, Event
from service.cli.simulate import run


def play_speed(games: int, check: bool) -> dict:
    """Random 4-player games per second, by the wall clock and by this process's CPU time."""
    summary, _ = run(games, "4", "bench", check=check)
    return {"wall": summary["games_per_s"], "cpu": summary["games_per_cpu_s"]}


def replay_ratio(repeats: int = 100) -> dict:
    """Decode+fold of a finished 4-player game's stored events, against decoding alone."""
    _, records = run(1, "4", "bench-replay")
    events = records[0].events
    stored = msgspec.msgpack.encode(events)
    decoder = msgspec.msgpack.Decoder(list[Event])

    def timed(work) -> float:
        samples = []
        for _ in range(repeats):
            start = time.perf_counter()
            work()
            samples.append(time.perf_counter() - start)
        return statistics.median(samples)

    decode = timed(lambda: decoder.decode(stored))
    replay = timed(lambda: fold(PANTHEON, decoder.decode(stored)))
    return {
        "events": len(events),
        "decode_ms": round(decode * 1e3, 3),
        "replay_ms": round(replay * 1e3, 3),
        "replay_over_decode": round(replay / decode, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    result = {
        "four_player_games_per_s_apply": play_speed(args.games, check=False),
        "four_player_games_per_s_decide_checked": play_speed(max(args.games // 10, 5), check=True),
        **replay_ratio(),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
