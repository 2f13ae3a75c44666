"""Playing in the browser: a whole game against the AI by clicks, a spectator who sees it live,
a reload that resumes the seat."""

from __future__ import annotations

import random
from urllib.parse import urlsplit

import httpx
import pytest

from tests.web.conftest import new_game, play_by_clicks, screenshot
from tests.web.idscan import assert_no_ids, scan_played_game


@pytest.mark.alone
def test_a_whole_game_against_the_ai_is_played_by_clicks_to_the_end_and_shows_the_final_scores(watched, server):
    page = watched().page()
    game = new_game(page)
    play_by_clicks(page, random.Random(16), commands=12)
    page.wait_for_selector("[data-choice]")
    screenshot(page, "game")
    assert_no_ids(page, server, "pantheon")  # the choices, their tooltips and the panels in words
    play_by_clicks(page, random.Random(17))
    outcome = page.get_by_test_id("outcome")
    final = httpx.get(f"{server}/games/{game}").json()
    assert final["finished"]
    shown = [int(x) for x in outcome.get_attribute("data-scores").split(",")]
    assert shown == final["outcome"]["scores"]
    for seat, score in enumerate(final["outcome"]["scores"]):
        assert outcome.locator(f"li[data-seat='{seat}'] strong").inner_text() == str(score)
    scan_played_game(page, server, game, "pantheon")  # no id nor dump on any page of the game


def test_an_expert_ai_chosen_in_the_new_game_form_answers_the_persons_moves(watched, server):
    page = watched().page()
    game = new_game(page, **{"Player B": "ai:expert"})  # the level list comes from the API document
    assert httpx.get(f"{server}/games/{game}").json()["seats"][1]["level"] == "expert"
    for _ in range(30):  # click until the expert has answered: an event of its seat's command
        events = httpx.get(f"{server}/games/{game}/events", params={"after": 0}).json()["events"]
        if any(e["seat"] == 1 and e["command"] for e in events):
            break
        play_by_clicks(page, random.Random(5), commands=1, timeout_s=60)
    assert any(e["seat"] == 1 and e["command"] for e in events)
    page.wait_for_selector("[data-choice]")  # and the person has choices again


def _version(page) -> int:
    return int(page.evaluate("document.body.dataset.version || 0"))


def test_a_spectator_in_another_browser_sees_the_moves_live_without_a_reload(watched, server):
    player = watched().page()
    game = new_game(player)
    spectator = watched().page()
    spectator.goto(f"/#/game/{game}")
    spectator.wait_for_selector("svg.board .overlay")
    spectator.evaluate("window.__sameDocument = true")
    assert "you are watching" in spectator.locator("h1").inner_text()
    before = _version(spectator)
    play_by_clicks(player, random.Random(3), commands=4)
    player.wait_for_function("document.body.dataset.version && !document.querySelector('button:disabled[data-choice]')")
    reached = httpx.get(f"{server}/games/{game}").json()["version"]
    assert reached > before
    spectator.wait_for_function(f"Number(document.body.dataset.version) >= {reached}", timeout=10_000)
    assert spectator.evaluate("window.__sameDocument") is True  # updated in place, not reloaded
    assert spectator.locator("[data-choice]").count() == 0 and spectator.get_by_text("Your move").count() == 0
    pieces = httpx.get(f"{server}/games/{game}/view", params={"min_version": reached}).json()["view"]["pieces"]
    spectator.wait_for_function(f"document.querySelectorAll('svg.board .overlay .piece').length === {len(pieces)}")


def test_a_reload_in_the_middle_of_a_game_resumes_the_seat(watched, server):
    page = watched().page()
    game = new_game(page)
    play_by_clicks(page, random.Random(5), commands=3)
    page.reload()
    page.wait_for_selector("svg.board .overlay")
    assert "you play Player A" in page.locator("h1").inner_text()
    assert page.evaluate("location.hash") == f"#/game/{game}"
    before = httpx.get(f"{server}/games/{game}").json()["version"]
    sent = play_by_clicks(page, random.Random(6), commands=3)  # the seat's token came back from localStorage
    assert sent == 3 and httpx.get(f"{server}/games/{game}").json()["version"] > before
    assert httpx.get(f"{server}/games/{game}/rejected").json() == []  # every command it sent was taken
    _the_move_log_holds_every_event_in_words(page, server, game)


def _the_move_log_holds_every_event_in_words(page, server: str, game: str) -> None:
    """The move log shows an entry per event of the last ones, newest first, in words for this seat
    (the server's text: "You ..." for our own moves, "Player B ..." for the AI's)."""
    page.wait_for_function("!document.querySelector('button:disabled[data-choice]')")
    version = httpx.get(f"{server}/games/{game}").json()["version"]
    page.wait_for_function(
        f"document.querySelector('[data-testid=log-entry]')?.dataset.version === '{version}'", timeout=15_000
    )
    entries = page.get_by_test_id("move-log").get_by_test_id("log-entry")
    versions = [int(v) for v in entries.evaluate_all("(es) => es.map((e) => e.dataset.version)")]
    assert versions == list(range(version, version - len(versions), -1)) and len(versions) >= 20
    texts = entries.all_inner_texts()
    assert all(text.endswith(".") and "_" not in text and "[[" not in text and "=" not in text for text in texts), texts
    assert any(t.startswith("You ") for t in texts) and any(t.startswith("Player B ") for t in texts), texts


def test_the_choices_are_reached_and_taken_with_the_keyboard(watched):
    page = watched().page()
    new_game(page)
    page.wait_for_selector("[data-choice]")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.hasAttribute('data-choice')"):
            break
    else:
        raise AssertionError("no choice is reachable with Tab")
    name = page.evaluate("document.activeElement.getAttribute('aria-label') || document.activeElement.textContent")
    assert name.strip()  # named for a screen reader
    page.keyboard.press("Enter")
    page.wait_for_function("(window.__pantheonSent || 0) > 0 || document.querySelector('ol.path')")


@pytest.mark.alone
def test_the_admin_hands_a_seat_to_the_ai_and_takes_it_back_and_reads_the_refused_commands(watched, server):
    page = watched().page()
    game = new_game(page)
    token = page.evaluate(f"JSON.parse(localStorage.getItem('pantheon.games'))['{game}'].seats['0']")
    auth = {"Authorization": f"Bearer {token}"}
    choices = httpx.get(f"{server}/games/{game}/options", headers=auth).json()["choices"]
    offered = next((c["command"] for c in choices if c["command"]), {"seat": 0})
    seat = {"seat": 0} if "seat" in offered else {}  # as the server's own commands are written (API 1.x or 2.0)
    # a drawing pick is never the first decision of a game
    refused = httpx.post(f"{server}/games/{game}/commands", json={"type": "draw_card", "slot": 3, **seat}, headers=auth)
    assert refused.status_code == 422
    page.get_by_text("Refused commands").click()
    page.wait_for_selector(f"details.rejected li:has-text('{refused.json()['code']}')")
    page.get_by_role("button", name="Hand Player A to the AI").click()
    page.wait_for_selector("text=Player A is played by the AI now.")
    assert httpx.get(f"{server}/games/{game}").json()["seats"][0]["type"] == "ai"
    page.get_by_role("button", name="Take Player A back").click()
    page.wait_for_selector("text=Player A is yours again.")
    assert httpx.get(f"{server}/games/{game}").json()["seats"][0]["type"] == "human"


def test_the_seat_buttons_follow_the_game_when_the_read_after_a_hand_over_fails(watched, server):
    """The first read of the game after a hand-over fails (the server busy): the page reads again
    and then offers to take the seat back; it does not keep the buttons of before."""
    browser = watched()
    browser.expected += ["503 GET", "status of 503"]  # the one read the test fails
    page = browser.page()
    new_game(page)
    page.wait_for_selector("[data-choice]")
    failed = []

    def busy_once(route):
        if not failed:
            failed.append(route.request.url)
            route.fulfill(
                status=503,
                content_type="application/problem+json",
                headers={"Retry-After": "1"},
                body='{"status": 503, "code": "store_unavailable", "title": "Busy", "detail": "Busy."}',
            )
        else:
            route.continue_()

    page.route("**/page*", busy_once)
    page.get_by_role("button", name="Hand Player A to the AI").click()
    page.get_by_role("button", name="Take Player A back").wait_for(timeout=15_000)
    assert failed  # the read did fail once
    assert page.get_by_role("button", name="Hand Player A to the AI").count() == 0


def test_a_choice_clicked_twice_at_once_sends_one_command(watched, server):
    page = watched().page()
    game = new_game(page)
    page.wait_for_selector("button.final[data-choice]")
    before = httpx.get(f"{server}/games/{game}").json()["version"]
    page.evaluate(
        "() => { const b = document.querySelector('button.final[data-choice]'); b.click(); b.click(); b.click(); }"
    )
    page.wait_for_function("(window.__pantheonSent || 0) === 1 && window.__pantheonLastUpdateMs !== undefined")
    assert page.evaluate("window.__pantheonSent") == 1
    assert httpx.get(f"{server}/games/{game}/rejected").json() == []
    assert httpx.get(f"{server}/games/{game}").json()["version"] > before


def test_a_spectator_cut_off_from_the_network_catches_up_when_it_is_back(watched, server):
    player = watched().page()
    game = new_game(player)
    spectators = watched()
    spectator = spectators.page()
    spectator.goto(f"/#/game/{game}")
    spectator.wait_for_selector("svg.board .overlay")
    spectators.offline = True
    spectators.context.set_offline(True)
    play_by_clicks(player, random.Random(8), commands=3)
    reached = httpx.get(f"{server}/games/{game}").json()["version"]
    spectators.context.set_offline(False)
    spectator.wait_for_function(f"Number(document.body.dataset.version) >= {reached}", timeout=15_000)


def test_two_seats_held_in_one_browser_are_played_in_turn(watched, server):
    page = watched().page()
    page.goto("/")
    page.get_by_role("button", name="New game").click()
    page.get_by_label("Player B").select_option("me")
    page.get_by_role("button", name="Start").click()
    page.wait_for_function("location.hash.startsWith('#/game/')")
    game = page.evaluate("location.hash").rsplit("/", 1)[1]
    page.wait_for_selector("svg.board .overlay")
    assert "you play Player A and Player B" in page.locator("h1").inner_text()
    play_by_clicks(page, random.Random(22), commands=12)
    body = httpx.get(f"{server}/games/{game}/events").json()
    events = body if isinstance(body, list) else body["events"]  # API 1.x or a 2.0 page
    seats = {e["seat"] for e in events if e["seat"] is not None}
    assert seats == {0, 1}  # both seats moved, from the same page


def test_behind_a_path_prefix_every_request_stays_under_it(watched):
    """A proxy that serves the API under /pantheon/ (as Playwright routes it): the page asks for
    nothing outside that prefix, and a game is started and played there."""
    browser = watched()
    outside: list[str] = []

    def proxy(route) -> None:
        url = urlsplit(route.request.url)
        if url.path.startswith("/pantheon/"):
            route.continue_(url=route.request.url.replace("/pantheon/", "/", 1))
        else:
            outside.append(route.request.url)
            route.continue_()

    browser.context.route("**/*", proxy)
    page = browser.page()
    page.goto("/pantheon/")
    page.get_by_role("button", name="New game").click()
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector("svg.board .overlay")
    assert play_by_clicks(page, random.Random(9), commands=2) == 2
    assert outside == []
