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
    firsts = [int(r.get_attribute("data-seat")) for r in rows.all() if r.get_attribute("data-place") == "1"]
    assert sorted(firsts) == sorted(winners)  # the client's ranking agrees with the rules' winners
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


TIES = """async () => {
  const { breakdown, ranking, tieBreaks } = await import("./endscreen.js");
  await (await import("./glossary.js")).glossary("pantheon_cards");
  const cases = {
    pantheon: { winners: [1], scores: [26, 26], half_gods: [2, 3] },
    pantheon_shared: { winners: [0, 1], scores: [26, 26, 20], half_gods: [2, 2, 5] },
    pergamon: { winners: [0], scores: [30, 30, 12], places: [1, 2, 3] },
    pantheon_cards: { winners: [2], scores: [10, 12, 14], draw: false, reason: "battle_of_pantheons" },
    pantheon_cards_draw: { winners: [0, 1], scores: [14, 14], draw: true, reason: "no_power" },
  };
  const out = {};
  for (const [name, outcome] of Object.entries(cases)) {
    const kind = name.replace(/_shared|_draw/, "");
    out[name] = { places: ranking(kind, outcome).map((r) => [r.seat, r.place]), words: tieBreaks(kind, outcome) };
  }
  out.breakdown = breakdown({ seat: 0, total: 9, gods: ["god.zeus", "god.hera"], pantheons: ["greek"], doubled: true,
    half_gods: 0, markers: { I: 2, II: 3 } }, "pantheon_cards");
  return out;
}"""


def test_ties_are_ranked_and_broken_in_words_as_each_games_rules_say(watched):
    page = watched().page()
    page.goto("/")
    got = page.evaluate(TIES)

    # the 26-26 tie: Player B holds more half gods, so B is first and the end says why
    assert got["pantheon"]["places"] == [[1, 1], [0, 2]]
    assert got["pantheon"]["words"] == [
        "Player A and Player B tied on 26 points; the tie goes to whoever holds more half-god tiles: "
        "Player A 2, Player B 3."
    ]
    assert got["pantheon_shared"]["places"] == [[0, 1], [1, 1], [2, 3]]
    assert "they share the place" in got["pantheon_shared"]["words"][0]
    assert got["pergamon"]["places"] == [[0, 1], [1, 2], [2, 3]]
    assert got["pergamon"]["words"] == [
        "Player A and Player B tied on 30 VP; the older oldest exhibited object breaks the tie: "
        "Player A ahead of Player B."
    ]
    assert got["pantheon_cards"]["places"] == [[2, 1], [1, 2], [0, 3]]
    assert got["pantheon_cards"]["words"] == [
        "The seats tied for the most points fought the Battle of Pantheons, and Player C won it (the scores are "
        "as the battle left them)."
    ]
    assert got["breakdown"] == "gods: Zeus, Hera · pantheons: Greek · doubled: every god of one pantheon · markers 5"
    assert got["pantheon_cards_draw"]["places"] == [[0, 1], [1, 1]]
    assert got["pantheon_cards_draw"]["words"] == [
        "Player A and Player B tied on 14 points; the Battle of Pantheons ended in a draw (no tied seat had a "
        "god power left to use): they share the victory."
    ]
