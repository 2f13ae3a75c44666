"""The full leak sweep: random games of 2, 3 and 4 players (a third with an AI "random" seat) played
over HTTP on an embedded Redis; at `--moments` random moments of each game and at its end every
caller (spectator, admin, each seat) reads the game's routes, and every response is searched for
anything hidden from that caller at that moment (tests/service/leaks.py says how). The suite runs
a part of it (tests/service/http/test_leak_sweep.py).

Run: .venv/bin/python -m bench.bench_leaks --games 200 [--moments 4] [--seed 2026] [--live]

`--live` sends the requests to a real `pantheon api` process instead of the app in this process.
The last line is JSON: games, players, AI games, commands, moments, responses, bytes, refused
commands, leaks (and by route), seconds. The exit code is 1 if any leak was found.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
import uuid
from contextlib import AsyncExitStack

from service.store.embedded import EmbeddedRedis
from tests.service.api_helpers import referee_service
from tests.service.leaks import in_process, over_http, projector_on, run_sweep
from tests.service.live import live_api


async def sweep(url: str, prefix: str, games: int, moments: int, seed: int, live: str | None):
    per = {p: games // 3 + (1 if i < games % 3 else 0) for i, p in enumerate((2, 3, 4))}
    async with AsyncExitStack() as stack:
        api = await stack.enter_async_context(over_http(live) if live else in_process(url, prefix))
        referee = await stack.enter_async_context(referee_service(url, prefix))
        projector = await stack.enter_async_context(projector_on(referee))
        return await run_sweep(api, referee, per, seed, moments=moments, projector=projector)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--moments", type=int, default=4, help="moments swept in each game, besides its end")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--live", action="store_true", help="against a `pantheon api` process")
    args = p.parse_args()
    directory = tempfile.mkdtemp(prefix="bench-leaks-")
    server = EmbeddedRedis(directory)
    prefix = f"bench-leaks-{uuid.uuid4().hex[:6]}"
    started = time.perf_counter()
    try:
        if args.live:
            with live_api(server.url, prefix) as base:
                report = asyncio.run(sweep(server.url, prefix, args.games, args.moments, args.seed, base))
        else:
            report = asyncio.run(sweep(server.url, prefix, args.games, args.moments, args.seed, None))
    finally:
        server.close()
        shutil.rmtree(directory, ignore_errors=True)
    for finding in report.findings[:20]:
        print(finding)
    print(
        json.dumps(
            {
                **report.summary(),
                "api": "live process" if args.live else "in process",
                "wall_seconds": round(time.perf_counter() - started, 1),
            }
        )
    )
    sys.exit(1 if report.findings else 0)


if __name__ == "__main__":
    main()
