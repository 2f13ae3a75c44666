"""A live server (`pantheon serve`: embedded Redis, projector, an AI worker, the API) and Chromium
driven by Playwright, for the web client's tests. Every page records what would be a fault: a
console error, an uncaught exception, a request to another host, an answer with an error status."""

from __future__ import annotations

import os
import random
import re
import shutil
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.service.live import RELAXED_ENV, free_port, running

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).with_name("screenshots")
# what a person must never read on a page: an object's repr (`PergamonState(options=`), nested
# lists, a dict's repr
DUMP = re.compile(r"\w+\(\w+=|\[\[|\{'")


@pytest.fixture(scope="session")
def server() -> str:
    """`pantheon serve` on a port of its own with a data directory of its own; its base URL."""
    port, data = free_port(), tempfile.mkdtemp(prefix="web-")
    env = dict(
        os.environ,
        PANTHEON_PORT=str(port),
        PANTHEON_DATA_DIR=data,
        PANTHEON_AI_WORKERS="1",
        PANTHEON_AI_SWEEP_S="0.5",
        PANTHEON_CLOCK_MIN_S="1",  # test-only: a turn clock runs out in seconds (tests/web/test_clocks.py)
        PANTHEON_AI_EXPERT_S="0.05",  # an expert seat thinks briefly: the tests prove it plays, not how well
        **RELAXED_ENV,
    )
    env.pop("REDIS_URL", None)  # the embedded Redis: the README's first command, as a person runs it
    try:
        with running("serve", env, port, timeout_s=60, stop_s=15) as (base, _):
            yield base
    finally:
        shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium (the bundled browser download is not reachable here). Missing, the test
    fails: scripts/test installs it. Per module: Playwright's sync API runs an event loop in this
    thread while it is open, which asyncio tests after it could not start their own beside."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install it (apt-get install -y chromium; scripts/test does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


class Watched:
    """A browser context whose pages' faults are recorded."""

    def __init__(self, browser, base: str) -> None:
        self.base, self.host = base, urlsplit(base).netloc
        # bypass_csp: Playwright's wait_for_function evaluates its text in the page, which the client's
        # policy forbids (no eval); the client under its policy is tested in test_framing.py
        self.context = browser.new_context(viewport={"width": 1400, "height": 900}, base_url=base, bypass_csp=True)
        self.faults: list[str] = []
        self.offline = False  # while a test cuts the network on purpose, failed requests are expected
        self.expected: list[str] = []  # faults a test makes on purpose (a part of their text)

    def page(self):
        page = self.context.new_page()
        page.on(
            "console",
            lambda m: (
                m.type == "error"
                and not (self.offline and "ERR_INTERNET_DISCONNECTED" in m.text)
                and self.faults.append(f"console: {m.text}")
            ),
        )
        page.on("pageerror", lambda e: self.faults.append(f"page error: {e}"))
        page.on("request", self._request)
        page.on("response", lambda r: r.status >= 400 and self.faults.append(f"{r.status} {r.request.method} {r.url}"))
        page.on("requestfailed", self._failed)
        return page

    def _request(self, request) -> None:
        if urlsplit(request.url).netloc != self.host and not request.url.startswith(("data:", "blob:")):
            self.faults.append(f"request to another host: {request.url}")

    def _failed(self, request) -> None:
        # a stream or read still open when the page goes away or moves on is cancelled: not a fault
        if request.failure != "net::ERR_ABORTED" and not (self.offline and "DISCONNECTED" in (request.failure or "")):
            self.faults.append(f"failed: {request.method} {request.url} {request.failure}")

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def watched(browser, server):
    """Contexts made by `watched()`; after the test, none of their pages had a fault."""
    made: list[Watched] = []

    def make() -> Watched:
        made.append(Watched(browser, server))
        return made[-1]

    yield make
    for w in made:
        w.close()
    faults = [f for w in made for f in w.faults if not any(part in f for part in w.expected)]
    assert faults == [], faults


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=False)


def new_game(page, kind: str | None = None, **options: str) -> str:
    """The new-game form with its defaults (you and one AI), or of the game `kind` with these
    options (by field name, each value as the request sends it or as the form shows it; a seat's
    choice by its label, "Player B"): the game's id, from the address."""
    page.goto("/")
    page.get_by_role("button", name="New game").click()
    if kind:
        page.get_by_label("Game", exact=True).select_option(kind)
    for name, value in options.items():  # "Player B": that seat's choice (a person, an AI level)
        seat = re.fullmatch(r"Player ([A-Z])", name)
        field = f"seat{ord(seat[1]) - ord('A')}" if seat else f"option:{name}"
        page.locator(f"select[name='{field}']").select_option(value)
    page.get_by_role("button", name="Start").click()
    page.wait_for_function("location.hash.startsWith('#/game/')")
    page.wait_for_selector("svg.board")
    return page.evaluate("location.hash").rsplit("/", 1)[1]


def play_by_clicks(page, rnd: random.Random, *, commands: int | None = None, timeout_s: float = 150) -> int:
    """Click random `data-choice` elements until the game ends (or `commands` were sent); the
    number of commands sent."""
    deadline = time.monotonic() + timeout_s
    start = sent = page.evaluate("window.__pantheonSent || 0")
    while time.monotonic() < deadline:
        sent = page.evaluate("window.__pantheonSent || 0") - start
        if commands is not None and sent >= commands:
            return sent
        try:
            page.wait_for_function("document.querySelector('[data-choice], [data-testid=outcome]')", timeout=30_000)
        except Exception as error:
            screenshot(page, "stuck")
            game = page.evaluate("location.hash").rsplit("/", 1)[1]
            status = httpx.get(f"{page.evaluate('location.origin')}/games/{game}").json()
            raise AssertionError(
                f"no choice to click: page at version {page.evaluate('document.body.dataset.version')}, "
                f"the game at {status['version']} awaiting {status['awaiting']}"
            ) from error
        if page.locator("[data-testid=outcome]").count():
            return sent
        # a command sent by the last click may have been answered while we waited for choices
        # (the next ones are ours again): count before clicking, or one command too many is sent
        if commands is not None and page.evaluate("window.__pantheonSent || 0") - start >= commands:
            continue
        choices = page.locator("[data-choice]")
        n = choices.count()
        if not n:
            continue
        target = choices.nth(rnd.randrange(n))
        try:
            target.click(timeout=2000)
        except Exception:  # noqa: BLE001 - re-drawn under the pointer: choose again
            continue
    raise AssertionError(f"the game did not end within {timeout_s} s ({sent} commands)")
