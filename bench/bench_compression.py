"""Compression benchmark (not a test): the bytes a client receives for a finished game's events
(GET /games/{id}/events) and export (GET /games/{id}/export) as they are (what the API sent before
compression), gzip and brotli, and the time one such request takes in the app (in process, the
body read raw, not decoded), and that of a revalidation (If-None-Match: 304, no body), over random
games played to the end over HTTP; then the same 200 against 304 for the live reads of a running
game (status, a seat's view, events, options), whose ETag costs one Redis round trip and no render.

    .venv/bin/python -m bench.bench_compression [--games 3] [--players 4] [--repeats 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time

from tests.service.api_helpers import api_client, new_game, play, referee_service
from tests.service.private_redis import private_server

ENCODINGS = ("identity", "gzip", "br")


async def _raw(client, url: str, encoding: str, tag: str | None = None) -> tuple[int, float, str, str]:
    headers = {"Accept-Encoding": encoding, **({"If-None-Match": tag} if tag else {})}
    start = time.perf_counter()
    async with client.stream("GET", url, headers=headers) as answer:
        body = b"".join([chunk async for chunk in answer.aiter_raw()])
        assert answer.status_code == (304 if tag else 200), answer.status_code
        return (
            len(body),
            (time.perf_counter() - start) * 1000,
            answer.headers.get("content-encoding", "identity"),
            answer.headers["etag"],
        )


async def measure(url: str, games: int, players: int, repeats: int) -> dict:
    sizes: dict[str, dict[str, list[int]]] = {r: {e: [] for e in ENCODINGS} for r in ("events", "export")}
    times: dict[str, dict[str, list[float]]] = {r: {e: [] for e in (*ENCODINGS, "304")} for r in ("events", "export")}
    async with api_client(url, "bench") as client, referee_service(url, "bench") as referee:
        for g in range(games):
            game, _, tokens = await new_game(client, seats=("human",) * players)
            await play(client, referee, game, tokens, seed=random.Random(g).randrange(10**6))
            for resource in ("events", "export"):
                for encoding in ENCODINGS:
                    for _ in range(repeats):
                        size, ms, sent, tag = await _raw(client, f"/games/{game}/{resource}", encoding)
                        assert sent == encoding, (resource, encoding, sent)
                        times[resource][encoding].append(ms)
                    sizes[resource][encoding].append(size)
                for _ in range(repeats):
                    times[resource]["304"].append((await _raw(client, f"/games/{game}/{resource}", "br", tag))[1])
        live = await _live_reads(client, referee, players, repeats)
    report = {}
    for resource in sizes:
        plain = statistics.median(sizes[resource]["identity"])
        report[resource] = {
            e: {
                "median_bytes": int(statistics.median(sizes[resource][e])),
                "ratio": round(plain / statistics.median(sizes[resource][e]), 1),
                "request_p50_ms": round(statistics.median(times[resource][e]), 1),
            }
            for e in ENCODINGS
        }
        report[resource]["revalidated_304_p50_ms"] = round(statistics.median(times[resource]["304"]), 1)
    report["live_reads_p50_ms"] = live
    return {"games": games, "players": players, "repeats": repeats, **report}


async def _live_reads(client, referee, players: int, repeats: int) -> dict:
    game, _, tokens = await new_game(client, seats=("human",) * players)
    await play(client, referee, game, tokens, max_commands=60)
    figures = {}
    for read in ("", "/view", "/events", "/options"):
        url, auth = f"/games/{game}{read}", {"Authorization": f"Bearer {tokens[0]}"}
        full, revalidated = [], []
        for _ in range(repeats):
            start = time.perf_counter()
            answer = await client.get(url, headers={**auth, "Accept-Encoding": "br"})
            full.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            again = await client.get(url, headers={**auth, "If-None-Match": answer.headers["etag"]})
            revalidated.append((time.perf_counter() - start) * 1000)
            assert again.status_code == 304, (read, again.status_code)
        figures[read or "/"] = {
            "200": round(statistics.median(full), 2),
            "304": round(statistics.median(revalidated), 2),
        }
    return figures


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--repeats", type=int, default=20)
    args = p.parse_args()
    with private_server() as server:
        print(json.dumps(asyncio.run(measure(server.url, args.games, args.players, args.repeats)), indent=1))


if __name__ == "__main__":
    main()
