"""The web client's budget: first page load (time and bytes, cold cache) and the time from a
command's answer to the board drawn again, in Debian's chromium against `pantheon serve`.

    .venv/bin/python -m bench.bench_web --loads 5 --commands 60
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
from contextlib import contextmanager
from urllib.parse import urlsplit

import httpx

from tests.web.conftest import CHROMIUM, new_game, play_by_clicks
from tests.web.conftest import server as serve_fixture

RESOURCES = """JSON.stringify([performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]
  .map(e => ({name: e.name, transfer: e.transferSize, encoded: e.encodedBodySize, decoded: e.decodedBodySize})))"""


@contextmanager
def serving():
    generator = serve_fixture.__wrapped__()  # the tests' server fixture, as a plain generator
    try:
        yield next(generator)
    finally:
        generator.close()


def first_load(browser, base: str, path: str, ready: str) -> dict:
    """A cold load of `path` (a fresh context: empty cache) until `ready` is on the page."""
    # bypass_csp: wait_for_function and evaluate run their text in the page, which the client's policy
    # (script-src 'self', no 'unsafe-eval') refuses; the page's own loading is the same either way
    context = browser.new_context(base_url=base, bypass_csp=True)
    page = context.new_page()
    page.goto(path)
    page.wait_for_selector(ready)
    page.wait_for_function("window.__pantheonReady !== undefined")
    elapsed = page.evaluate("window.__pantheonReady") / 1000  # from the start of the navigation
    entries = [e for e in json.loads(page.evaluate(RESOURCES)) if "/stream" not in e["name"]]
    gzipped = sum(len(gzip.compress(httpx.get(e["name"]).content, 6)) for e in entries)
    context.close()
    return {
        "seconds": elapsed,
        "transferred": sum(e["transfer"] for e in entries),
        "bodies": sum(e["decoded"] for e in entries),
        "gzip_estimate": gzipped,
        "requests": len(entries),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--commands", type=int, default=60)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with serving() as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        setup = browser.new_page(base_url=base, bypass_csp=True)
        game = new_game(setup)
        for name, path, ready in (("lobby", "/", "main h1"), ("game", f"/#/game/{game}", "svg.board .overlay")):
            runs = [first_load(browser, base, path, ready) for _ in range(args.loads)]
            print(
                json.dumps(
                    {
                        "page": name,
                        "seconds_median": round(statistics.median(r["seconds"] for r in runs), 3),
                        "seconds_max": round(max(r["seconds"] for r in runs), 3),
                        **{k: runs[-1][k] for k in ("requests", "transferred", "bodies", "gzip_estimate")},
                    }
                )
            )
        updates, rnd = [], random.Random(1)
        while len(updates) < args.commands:
            before = setup.evaluate("window.__pantheonSent || 0")
            if not play_by_clicks(setup, rnd, commands=1):
                break  # the game ended
            setup.wait_for_function(
                f"(window.__pantheonSent || 0) > {before} && window.__pantheonLastUpdateMs !== undefined"
            )
            updates.append(setup.evaluate("window.__pantheonLastUpdateMs"))
        updates.sort()
        print(
            json.dumps(
                {
                    "answer_to_board_ms": {
                        "n": len(updates),
                        "median": round(statistics.median(updates), 1),
                        "p95": round(updates[int(0.95 * (len(updates) - 1))], 1),
                        "max": round(updates[-1], 1),
                    },
                    "host": urlsplit(base).netloc,
                }
            )
        )
        browser.close()


if __name__ == "__main__":
    main()
