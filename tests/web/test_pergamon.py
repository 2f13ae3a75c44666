"""Pergamon in the browser: a whole game against the AI played by clicks to the end (VP kept
secret: each seat sees only its own; the finds arranged by a player), its replay at an earlier
event, a fork from the replay, its audit page, and the board's choices taken with the keyboard."""

from __future__ import annotations

import random
import time

import httpx
import pytest

from tests.web.conftest import DUMP, new_game, play_by_clicks, screenshot
from tests.web.idscan import assert_no_ids, scan_played_game


@pytest.mark.long
def test_a_whole_pergamon_game_against_the_ai_is_played_by_clicks_to_the_end(watched, server):
    page = watched().page()
    game = new_game(page, "pergamon", vp_visibility="secret", variant_sorting="true")
    detail = httpx.get(f"{server}/games/{game}").json()
    assert detail["kind"] == "pergamon" and detail["options"]["vp_visibility"] == "secret"
    assert detail["options"]["variant_sorting"] is True  # the finds are arranged by a player
    assert "Pergamon" in page.locator("h1").inner_text()
    play_by_clicks(page, random.Random(170), commands=12)
    page.wait_for_selector("[data-choice]")
    page.wait_for_timeout(1300)  # the new tiles' highlight over
    # the board: the figures and the tiles in the galleries as the view has them
    view = httpx.get(
        f"{server}/games/{game}/view", params={"min_version": page.evaluate("document.body.dataset.version")}
    ).json()["view"]
    in_galleries = sum(len(g) for g in view["galleries"])
    assert page.locator("svg.board .overlay .tile").count() == in_galleries + len(view["finds"] or [])
    assert view["seats"][1]["vp"] is None  # secret to everybody but seat 1 (and to the page: it holds seat 0)
    assert page.locator("table.seats tr[data-seat='1'] td.score").inner_text() == "secret"
    assert page.locator("table.seats tr[data-seat='0'] td.score").inner_text().isdigit()
    screenshot(page, "pergamon-game")
    assert_no_ids(page, server, "pergamon")  # the choices, their tooltips and the panels in words
    play_by_clicks(page, random.Random(171), timeout_s=170)
    sent = page.evaluate("window.__pantheonSent")
    events = httpx.get(f"{server}/games/{game}/events", params={"after": 0}).json()
    events = events if isinstance(events, list) else events["events"]
    # every command of seat 0 was sent by a click (the page holds no other way to send one)
    ours = {(e["command"], e["recorded_at"]) for e in events if e["seat"] == 0}
    assert sent == len(ours) and sent > 20, (sent, sorted(ours, key=lambda c: c[1]))
    outcome = page.get_by_test_id("outcome")
    final = httpx.get(f"{server}/games/{game}").json()
    assert final["finished"]
    shown = [int(x) for x in outcome.get_attribute("data-scores").split(",")]
    assert shown == final["outcome"]["scores"]
    for seat, score in enumerate(final["outcome"]["scores"]):
        assert outcome.locator(f"li[data-seat='{seat}'] strong").inner_text() == str(score)
    scan_played_game(page, server, game, "pergamon")  # no id nor dump on any page of the game


@pytest.fixture(scope="module")
def finished_pergamon(server) -> str:
    """A Pergamon game two AIs played to the end."""
    with httpx.Client(base_url=server, timeout=30) as http:
        game = http.post("/games", json={"kind": "pergamon", "seats": [{"type": "ai", "level": "random"}] * 2}).json()[
            "game"
        ]
        deadline = time.monotonic() + 120
        while not http.get(f"/games/{game}").json()["finished"]:
            assert time.monotonic() < deadline, "the AI did not finish its game"
            time.sleep(0.3)
    return game


def test_the_pergamon_replay_at_an_earlier_event_shows_the_board_and_players_of_that_version(
    watched, server, finished_pergamon
):
    game = finished_pergamon
    page = watched().page()
    page.goto(f"/#/replay/{game}")
    last = httpx.get(f"{server}/games/{game}").json()["version"]
    # the board at the last event (its museum may be empty: calendar scorings empty it)
    page.wait_for_function(f"document.body.dataset.version === '{last}'")
    page.wait_for_selector("svg.board .overlay")
    at = last * 2 // 3
    page.get_by_label("Event", exact=True).fill(str(at))
    page.wait_for_function(f"document.body.dataset.version === '{at}'")
    view = httpx.get(f"{server}/games/{game}/view", params={"at": at}).json()["view"]
    assert page.locator("svg.board .overlay .marker").count() == len(view["museum"])
    tiles = sum(len(g) for g in view["galleries"]) + len(view["finds"] or [])
    assert page.locator("svg.board .overlay .tile").count() == tiles
    assert page.locator("svg.board .overlay .figure").count() == len(view["track"]) + bool(
        (view["tomb_raider"] or {}).get("space")
    )
    assert [int(s) for s in page.locator("table.seats td.score").all_inner_texts()] == [s["vp"] for s in view["seats"]]
    assert [int(s) for s in page.locator("table.seats td.coins").all_inner_texts()] == [
        s["coins"] for s in view["seats"]
    ]
    for s in view["seats"]:
        chips = page.locator(f"section.seat-panel[data-seat='{s['seat']}'] .tiles .tile-chip").all_inner_texts()
        assert [int(t) for t in chips] == s["loose"]
    text = httpx.get(f"{server}/games/{game}/events", params={"after": at - 1, "limit": 1}).json()["events"][0]["text"]
    assert page.locator("p.event").inner_text() == f"v{at} · {text}"  # the server's words, never a dump
    assert not DUMP.search(page.locator("body").inner_text())
    assert page.locator(".chart polyline.score-line").count() == 2
    page.wait_for_timeout(1300)
    screenshot(page, "pergamon-replay")


def test_a_pergamon_game_is_forked_from_its_replay_and_played_on_and_its_audit_page_passes(
    watched, server, finished_pergamon
):
    game = finished_pergamon
    page = watched().page()
    page.goto(f"/#/replay/{game}/60")
    page.wait_for_function("document.body.dataset.version === '60'")  # the board drawn at version 60
    page.get_by_role("button", name="Play on from here").click()
    page.get_by_role("button", name="Start the fork").click()
    page.wait_for_function(f"location.hash.startsWith('#/game/') && !location.hash.endsWith('{game}')")
    fork = page.evaluate("location.hash").rsplit("/", 1)[1]
    lineage = httpx.get(f"{server}/games/{fork}").json()["lineage"]
    assert lineage["parent"] == game and lineage["at"] >= 60
    assert play_by_clicks(page, random.Random(61), commands=3) >= 3  # read between clicks: one may be in flight
    page.goto(f"/#/audit/{game}")
    page.wait_for_selector("[data-testid=audit-verdict]")
    report = httpx.get(f"{server}/games/{game}/audit").json()
    assert report["ok"] and page.get_by_test_id("audit-verdict").inner_text().startswith("Valid")
    assert page.locator("table.checks tbody tr").count() == len(report["checks"])
    told = [line.split(" · scores ")[0] for line in page.locator("ol.story li").all_inner_texts()]
    assert told == [f"v{line['version']} · {line['text']}" for line in report["story_events"]]
    assert not DUMP.search(page.locator("body").inner_text())


def test_a_funding_space_on_the_pergamon_board_is_reached_and_taken_with_the_keyboard(watched, server):
    page = watched().page()
    game = new_game(page, "pergamon", first_seat="Player A")
    page.wait_for_selector("svg.board [data-choice]")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.hasAttribute('data-choice')"):
            break
    else:
        raise AssertionError("no choice is reachable with Tab")
    # the board comes first: a funding space, named in the server's words
    assert page.evaluate("document.activeElement.closest('svg.board') !== null")
    name = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert name.startswith("Space ") and "coin" in name
    page.keyboard.press("Enter")
    page.wait_for_function("(window.__pantheonSent || 0) === 1")
    space = int(name.split()[1].rstrip(":"))
    body = httpx.get(f"{server}/games/{game}/events").json()
    events = body if isinstance(body, list) else body["events"]
    assert [e["payload"].get("space") for e in events if e["seat"] == 0 and e["command"] == "choose_funding_space"][
        :1
    ] == [space]
