"""Replay, fork, audit and the lobby in the browser, on games the AI played to the end."""

from __future__ import annotations

import random
import time

import httpx
import pytest

from tests.web.conftest import DUMP, play_by_clicks, screenshot


def _ai_game(server: str) -> str:
    with httpx.Client(base_url=server, timeout=30) as http:
        game = http.post("/games", json={"seats": [{"type": "ai", "level": "random"}] * 2}).json()["game"]
        deadline = time.monotonic() + 120
        while not http.get(f"/games/{game}").json()["finished"]:
            assert time.monotonic() < deadline, "the AI did not finish its game"
            time.sleep(0.3)
    return game


@pytest.fixture(scope="module")
def finished(server) -> str:
    """A game two AIs played to the end."""
    return _ai_game(server)


def test_the_replay_slider_at_an_earlier_event_shows_the_board_and_scores_of_that_version(watched, server, finished):
    page = watched().page()
    page.goto(f"/#/replay/{finished}")
    page.wait_for_selector("svg.board .overlay .piece")
    last = httpx.get(f"{server}/games/{finished}").json()["version"]
    assert int(page.evaluate("document.body.dataset.version")) == last
    at = last * 2 // 3
    page.get_by_label("Event", exact=True).fill(str(at))
    page.wait_for_function(f"document.body.dataset.version === '{at}'")
    view = httpx.get(f"{server}/games/{finished}/view", params={"at": at}).json()["view"]
    assert page.locator("svg.board .overlay .piece").count() == len(view["pieces"])
    shown = [int(s) for s in page.locator("table.seats td.score").all_inner_texts()]
    assert shown == [s["score"] for s in view["seats"]]
    texts = {e["version"]: e["text"] for e in httpx.get(f"{server}/games/{finished}/events").json()["events"]}
    assert page.locator("p.event").inner_text() == f"v{at} · {texts[at]}"
    page.get_by_role("button", name="Previous event").click()
    page.wait_for_function(f"document.body.dataset.version === '{at - 1}'")
    assert page.locator("p.event").inner_text() == f"v{at - 1} · {texts[at - 1]}"
    assert not DUMP.search(page.locator("body").inner_text())
    assert page.locator(".chart polyline.score-line").count() == 2
    screenshot(page, "replay")


def test_a_fork_from_the_replay_is_played_on_by_clicks(watched, server, finished):
    page = watched().page()
    page.goto(f"/#/replay/{finished}/{60}")
    # the board drawn at version 60 (which may have no piece on it yet: about 1 random game in 20)
    page.wait_for_function("document.body.dataset.version === '60'")
    page.get_by_role("button", name="Play on from here").click()
    page.get_by_role("button", name="Start the fork").click()
    page.wait_for_function(f"location.hash.startsWith('#/game/') && !location.hash.endsWith('{finished}')")
    fork = page.evaluate("location.hash").rsplit("/", 1)[1]
    lineage = httpx.get(f"{server}/games/{fork}").json()["lineage"]
    assert lineage["parent"] == finished and lineage["at"] >= 60
    assert play_by_clicks(page, random.Random(60), commands=3) == 3
    assert httpx.get(f"{server}/games/{fork}").json()["version"] > lineage["at"]


def test_the_audit_page_of_a_finished_game_shows_every_check_and_offers_the_export(watched, server, finished):
    page = watched().page()
    page.goto(f"/#/audit/{finished}")
    page.wait_for_selector("[data-testid=audit-verdict]")
    report = httpx.get(f"{server}/games/{finished}/audit").json()
    assert report["ok"] and page.get_by_test_id("audit-verdict").inner_text().startswith("Valid")
    assert page.locator("table.checks tbody tr").count() == len(report["checks"])
    told = page.locator("ol.story li").all_inner_texts()
    assert [line.split(" · scores ")[0] for line in told] == [
        f"v{s['version']} · {s['text']}" for s in report["story_events"]
    ]
    assert told[-1].endswith(
        " · scores " + ", ".join(f"{'AB'[i]} {n}" for i, n in enumerate(report["story_events"][-1]["scores"]))
    )
    assert not DUMP.search(page.locator("body").inner_text())
    link = page.get_by_role("link", name="Download the export file")
    download = page.request.get(link.get_attribute("href"))
    assert download.ok and download.body().count(b"\n") == report["events"] + 1  # a header, then every event
    screenshot(page, "audit")


def test_the_lobby_filters_games_and_a_person_joins_an_open_seat(watched, server, finished):
    with httpx.Client(base_url=server) as http:
        open_game = http.post("/games", json={"seats": [{"type": "ai", "level": "random"}, {"type": "human"}]}).json()[
            "game"
        ]
    page = watched().page()
    page.goto("/#/lobby?status=finished")
    page.wait_for_selector(f"tr[data-game='{finished}']")
    assert page.locator(f"tr[data-game='{open_game}']").count() == 0
    page.get_by_label("Status").select_option("open")
    page.wait_for_selector(f"tr[data-game='{open_game}']")
    screenshot(page, "lobby")
    page.locator(f"tr[data-game='{open_game}']").get_by_role("button", name="Join as Player B").click()
    page.wait_for_function(f"location.hash === '#/game/{open_game}'")
    page.wait_for_selector("svg.board .overlay")
    assert "you play Player B" in page.locator("h1").inner_text()
    assert httpx.get(f"{server}/games/{open_game}").json()["open_seats"] == []


def test_an_invite_link_gives_the_friend_the_reserved_seat_whose_running_game_audits_as_pending(watched, server):
    with httpx.Client(base_url=server) as http:
        created = http.post(
            "/games", json={"seats": [{"type": "human", "holder": "creator"}, {"type": "human", "holder": "invite"}]}
        ).json()
    invite = created["invites"][0]
    friend = watched().page()
    friend.goto(f"/#invite={created['game']}.{invite['seat']}.{invite['code']}")
    friend.get_by_role("button", name="Join the game").click()  # no name: the seat stays "Player B"
    friend.wait_for_function(f"location.hash === '#/game/{created['game']}'")
    friend.wait_for_selector("svg.board .overlay")
    assert "you play Player B" in friend.locator("h1").inner_text()
    # the audit of this running game: the checks that need its end are pending, none failed
    friend.goto(f"/#/audit/{created['game']}")
    friend.wait_for_selector("[data-testid=audit-verdict]")
    verdict = friend.get_by_test_id("audit-verdict").inner_text()
    assert verdict.startswith("Pending: no check failed") and "final scores" in verdict, verdict
    page_text = friend.locator("body").inner_text()
    assert "Not valid" not in page_text and "✘" not in page_text and not DUMP.search(page_text)
    story = httpx.get(f"{server}/games/{created['game']}/audit").json()["story_events"]
    assert friend.locator("ol.story li").all_inner_texts()[0].startswith(f"v1 · {story[0]['text']} · scores")


def test_a_reissued_seat_is_claimed_with_its_new_invite_link_and_the_replay_says_so_in_words(watched, server):
    with httpx.Client(base_url=server) as http:
        created = http.post(
            "/games", json={"seats": [{"type": "human", "holder": "creator"}, {"type": "human", "holder": "invite"}]}
        ).json()
        game = created["game"]
        assert (
            http.post(f"/games/{game}/seats/1/claim", json={"invite": created["invites"][0]["code"]}).status_code == 201
        )
        invite = http.post(
            f"/games/{game}/seats/1/token", headers={"Authorization": f"Bearer {created['admin_token']}"}
        ).json()
        at = http.get(f"/games/{game}").json()["version"]
    friend = watched().page()
    friend.goto(f"/#invite={game}.{invite['seat']}.{invite['code']}")
    friend.get_by_role("button", name="Join the game").click()
    friend.wait_for_function(f"location.hash === '#/game/{game}'")
    friend.wait_for_selector("svg.board .overlay")
    assert "you play Player B" in friend.locator("h1").inner_text()
    friend.goto(f"/#/replay/{game}/{at}")
    friend.wait_for_function(f"document.body.dataset.version === '{at}'")
    assert (
        friend.locator("p.event").inner_text()
        == f"v{at} · Your seat was handed to a new player (its old token no longer works)."  # told to its new holder
    )
