"""A clocked game in Chromium: the new-game form's clock choice, every clocked seat's clock counting
down, and a seat that lets its time run out played by the greedy AI, as its creator chose; the game
goes on and its audit passes. The live server allows 1 s clocks (PANTHEON_CLOCK_MIN_S, test-only)."""

from __future__ import annotations

import random
import time

import httpx
import pytest

from .conftest import play_by_clicks

pytestmark = pytest.mark.long


def _our_clock_runs(page, rnd: random.Random, timeout_s: float = 60) -> None:
    """Play our moves until our seat's clock runs (the clocks start with the game's first command)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if page.locator("[data-testid=clock][data-seat='0'].running").count():
            return
        if page.locator("[data-choice]").count():
            play_by_clicks(page, rnd, commands=1)
        time.sleep(0.1)
    raise AssertionError("our clock never ran")


def test_a_seat_that_lets_its_time_run_out_is_played_by_the_greedy_ai_and_the_game_goes_on(watched, server):
    page = watched().page()
    page.goto("/")
    page.get_by_role("button", name="New game").click()
    choice = page.get_by_test_id("clock-choice")
    choice.locator("select[name='clock:kind']").select_option("per_move")
    choice.get_by_label("seconds per move").fill("3")
    choice.get_by_label("When time runs out").select_option("greedy")
    page.get_by_role("button", name="Start").click()
    page.wait_for_function("location.hash.startsWith('#/game/')")
    game = page.evaluate("location.hash").rsplit("/", 1)[1]
    ours = page.locator("[data-testid=clock][data-seat='0']")
    ours.wait_for()
    assert page.locator("[data-testid=clock]").count() == 1  # the AI's seat has none

    _our_clock_runs(page, random.Random(5))
    first = ours.text_content()
    page.wait_for_function(f"document.querySelector(\"[data-testid=clock][data-seat='0']\").textContent !== {first!r}")
    assert first.startswith("You: 0:0")  # and it counts down, without a click or a new event

    page.locator("[data-testid=log-entry]", has_text="Your time ran out").wait_for(timeout=20_000)
    events = _events_after_time_out(server, game)
    assert events[0]["payload"]["seat"] == 0 and events[0]["payload"]["then"] == "greedy"
    audit = httpx.get(f"{server}/games/{game}/audit").json()
    checks = {c["name"]: c["ok"] for c in audit["checks"]}
    assert checks["clocks"] is True and False not in checks.values(), audit["checks"]


def _events_after_time_out(server: str, game: str, timeout_s: float = 20) -> list[dict]:
    """The time-out and what followed it, once the greedy AI has played seat 0's move."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        events = httpx.get(f"{server}/games/{game}/events", params={"limit": 1000}).json()["events"]
        at = next((i for i, e in enumerate(events) if e["type"] == "timed_out"), None)
        if at is not None and any(e["seat"] == 0 for e in events[at + 1 :]):  # the game went on for seat 0
            return events[at:]
        time.sleep(0.2)
    raise AssertionError("the timed-out turn was not played")
