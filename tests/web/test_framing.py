"""The browser keeps the client to itself: a page on another site cannot frame it (the client acts
with the visitor's seat tokens, stored in the browser), and the client and the API docs run under
their content security policies."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from domain import games


@contextmanager
def another_site(page: bytes) -> Iterator[str]:
    """A server of this one page on another port, named `localhost` (the client's is 127.0.0.1): its URL.
    A real local server, as Chromium keeps a page it does not know to be local from framing one that is."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args) -> None:
            pass

    with ThreadingHTTPServer(("127.0.0.1", 0), Page) as httpd:
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://localhost:{httpd.server_address[1]}/"
        finally:
            httpd.shutdown()
            thread.join()


def test_a_page_on_another_site_cannot_frame_the_client(browser, server):
    context = browser.new_context()
    with another_site(f'<!doctype html><title>Prize</title><iframe src="{server}/"></iframe>'.encode()) as url:
        try:
            page = context.new_page()
            refusals: list[str] = []
            page.on("console", lambda message: "frame-ancestors" in message.text and refusals.append(message.text))
            page.goto(url)  # waits for the frame's load, or its refusal
            framed = page.frames[1]
            page.wait_for_timeout(200)  # the refusal's console message may trail the load event
            assert framed.locator("header .brand").count() == 0 and framed.locator("#main").count() == 0
            assert refusals and "frame-ancestors 'none'" in refusals[0], refusals
        finally:
            context.close()


class Visitor:
    """Pages as a visitor's browser runs them, under the server's policies (no `bypass_csp`, unlike
    `watched`: so no wait_for_function, which evaluates text), and what they refused or got wrong:
    every policy violation (recorded from a page's first script on), console error and page error."""

    def __init__(self, browser, server: str) -> None:
        self.context = browser.new_context(viewport={"width": 1400, "height": 900}, base_url=server)
        self.context.add_init_script(
            "window.__refused = []; document.addEventListener('securitypolicyviolation', "
            "(e) => window.__refused.push(`${e.violatedDirective} ${e.blockedURI}`));"
        )
        self.pages: list = []
        self.faults: list[str] = []

    def open(self, url: str, ready: str):
        """A new page at `url` once `ready` (a selector) shows."""
        page = self.context.new_page()
        page.on("console", lambda message: message.type == "error" and self.faults.append(f"console: {message.text}"))
        page.on("pageerror", lambda error: self.faults.append(f"page error: {error}"))
        page.goto(url)
        page.wait_for_selector(ready)
        self.pages.append(page)
        return page

    def refused(self) -> list[str]:
        """Every fault so far, the policy violations of the open pages included."""
        return self.faults + [v for page in self.pages for v in page.evaluate("window.__refused")]


@pytest.fixture
def visitor(browser, server):
    visiting = Visitor(browser, server)
    yield visiting
    visiting.context.close()


@pytest.mark.parametrize("kind", sorted(games.GAMES))
def test_the_client_plays_a_game_replays_and_audits_it_under_its_policy_with_nothing_refused(visitor, kind):
    page = visitor.open("/", "#new-game")
    page.get_by_role("button", name="New game").click()
    page.get_by_label("Game", exact=True).select_option(kind)
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector("[data-choice]:not([disabled])")
    game = page.evaluate("location.hash").rsplit("/", 1)[1]
    # a colour set by the client: an inline style refused would lose it (asked of the swatch on the page
    # at that moment: the page may draw itself again, and a swatch it replaced has no computed style)
    page.wait_for_function(
        "() => { const e = document.querySelector('.swatch.seat-0');"
        " return e !== null && getComputedStyle(e).backgroundColor === 'rgb(214, 40, 40)'; }",
        timeout=10_000,
    )
    version = page.locator("body").get_attribute("data-version")
    for _ in range(10):  # a choice may open the next ones before it makes a whole command
        page.locator("[data-choice]:not([disabled])").first.click()
        if page.evaluate("window.__pantheonSent || 0"):
            break
        page.wait_for_selector("[data-choice]:not([disabled])")
    page.wait_for_selector(f"body:not([data-version='{version}'])")  # the command went and the page followed
    visitor.open(f"/#/replay/{game}", "svg.board")
    visitor.open(f"/#/audit/{game}", "[data-testid=audit-verdict]")
    visitor.open("/#/lobby", f"tr[data-game='{game}']")
    assert visitor.refused() == []


def test_the_api_docs_render_every_operation_under_their_policy(visitor):
    page = visitor.open("/schema", ".opblock-summary")
    assert page.locator(".opblock").count() >= 15
    page.locator(".opblock-summary").first.click()  # an operation opens: the script runs, not just loads
    page.wait_for_selector(".opblock-body")
    assert visitor.refused() == []
