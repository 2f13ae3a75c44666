"""The end screen of a finished game: the ranking, each seat's breakdown, and Rematch."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.web.conftest import screenshot
from tests.web.test_replay import _ai_game


@pytest.fixture(scope="module")
def ended(server) -> dict:
    """A finished game whose seat 0 this browser will hold: a fork, at its end, of a game two AIs played."""
    played = _ai_game(server)
    with httpx.Client(base_url=server, timeout=30) as http:
        at = http.get(f"/games/{played}").json()["version"]
        seats = [{"type": "human", "holder": "creator"}, {"type": "ai", "level": "random"}]
        fork = http.post(f"/games/{played}/fork", json={"at": at, "seats": seats}).json()
        detail = http.get(f"/games/{fork['game']}").json()
    assert detail["finished"]
    return {"game": fork["game"], "token": fork["seats"][0]["token"], "admin": fork["admin_token"], "detail": detail}


def test_the_end_screen_ranks_the_seats_with_their_breakdown_and_rematch_opens_the_new_game_in_your_seat(
    watched, server, ended
):
    page = watched().page()
    page.goto("/")
    held = {ended["game"]: {"seats": {"0": ended["token"]}, "admin": ended["admin"]}}
    page.evaluate(f"localStorage.setItem('pantheon.games', {json.dumps(json.dumps(held))})")
    page.goto(f"/#/game/{ended['game']}")

    end = page.get_by_test_id("end-screen")
    end.wait_for()
    end.locator(".breakdown").first.wait_for()
    screenshot(page, "end-screen")
    scores = ended["detail"]["outcome"]["scores"]
    rows = end.locator("li[data-seat]")
    assert rows.count() == 2
    first = int(rows.nth(0).get_attribute("data-seat"))
    assert scores[first] == max(scores)  # the best first
    assert end.locator(f"li[data-seat='{first}'] strong").inner_text() == str(scores[first])
    winners = ended["detail"]["outcome"]["winners"]
    assert ("share the victory" if len(winners) > 1 else "Player") in end.locator(".verdict").inner_text()
    assert "Winner:" not in end.inner_text() and "{" not in end.inner_text()
    assert end.evaluate("e => getComputedStyle(e).backgroundColor") != "rgb(253, 232, 228)"  # not the error box

    end.get_by_test_id("rematch").click()
    page.wait_for_function(f"location.hash.startsWith('#/game/') && !location.hash.endsWith('{ended['game']}')")
    new = page.evaluate("location.hash").rsplit("/", 1)[1]
    page.wait_for_selector("svg.board")
    assert "you play Player A" in page.locator("h1").inner_text()
    detail = httpx.get(f"{server}/games/{new}").json()
    assert not detail["finished"] and [s["type"] for s in detail["seats"]] == ["human", "ai"]
    assert detail["seats"][0]["claimed"]
    again = httpx.post(f"{server}/games/{ended['game']}/rematch", headers={"Authorization": f"Bearer {ended['token']}"})
    assert again.json()["game"] == new
