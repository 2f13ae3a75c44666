"""Players in the browser: names (attackers' names shown as text, never run), turn alerts (the
tab's title, the sound toggle, "Your games" marked), a lost invite's way back, keyboard focus that
stays on the choices, and a phone-sized screen where every target is at least 44 px."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.web.conftest import new_game, screenshot

SVG = '"><svg onload=alert(1)>'
SCRIPT = "<script>alert()</script>"
IMG = "<img src=x onerror=f()>"


def _no_markup_ran(page, dialogs: list) -> None:
    """No dialog opened and no element an attacker's name would have made exists."""
    assert dialogs == []
    assert page.locator("main svg[onload], main img[onerror], main script").count() == 0


def test_attackers_names_show_as_text_and_a_refused_name_says_why(watched, server):
    context = watched()
    page, dialogs = context.page(), []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto("/")
    page.get_by_role("button", name="New game").click()
    page.locator("form.new-game").get_by_test_id("player-name").fill(SVG)
    page.get_by_role("button", name="Start").click()
    page.wait_for_function("location.hash.startsWith('#/game/')")
    game = page.evaluate("location.hash").rsplit("/", 1)[1]
    assert httpx.get(f"{server}/games/{game}").json()["seats"][0]["name"] == SVG
    page.locator("table.seats").get_by_text(f"{SVG} (you)").wait_for()
    page.get_by_test_id("move-log").get_by_text(f"You chose the name “{SVG}”.").wait_for()
    page.get_by_test_id("seat-name").fill("\u202eevil")
    page.get_by_role("button", name="Save name").click()
    page.get_by_role("alert").get_by_text("name_forbidden_character").wait_for()
    context.expected += ["/seats/0/name", "422 (Unprocessable Entity)"]  # the 422 answered on purpose
    page.get_by_test_id("seat-name").fill(SCRIPT)
    page.get_by_role("button", name="Save name").click()
    page.locator("table.seats").get_by_text(f"{SCRIPT} (you)").wait_for()
    assert page.title().endswith(f"Game {game} · Pantheon")
    _no_markup_ran(page, dialogs)


def test_a_friend_joins_by_invite_with_a_name_and_a_lost_invite_has_a_way_back(watched, server):
    seats = [{"type": "human", "holder": "creator", "name": IMG}, {"type": "human", "holder": "invite"}]
    created = httpx.post(f"{server}/games", json={"seats": seats}).json()
    game, code = created["game"], created["invites"][0]["code"]
    context = watched()
    friend, dialogs = context.page(), []
    friend.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    friend.goto(f"/#invite={game}.1.{code}")
    friend.get_by_test_id("player-name").fill("You")
    friend.get_by_role("button", name="Join the game").click()
    friend.get_by_role("alert").get_by_text("name_reserved").wait_for()
    friend.get_by_test_id("player-name").fill("Bob")
    friend.get_by_role("button", name="Join the game").click()
    friend.wait_for_function("location.hash.startsWith('#/game/')")
    friend.locator("table.seats").get_by_text(IMG).wait_for()  # the creator, by name, as text
    _no_markup_ran(friend, dialogs)
    # the same link in a browser that lost its storage: the seat is taken, and the page says whom to ask
    lost_context = watched()
    lost_context.expected += ["/claim", "409 (Conflict)"]  # the 409 answered on purpose
    lost = lost_context.page()
    lost.goto(f"/#invite={game}.1.{code}")
    lost.get_by_role("button", name="Join the game").click()
    alert = lost.get_by_role("alert")
    alert.get_by_text("Re-issue Player B's invite").wait_for()
    assert "Seat 1" not in alert.inner_text() and "seat 1" not in alert.inner_text()
    context.expected += ["/claim", "422 (Unprocessable Entity)"]  # the 422 answered on purpose
    friend.close()  # the re-issue below revokes its token
    # the admin (the creator's browser) re-issues the seat: a new link, and every seat reads it in the log
    admin = watched().page()
    admin.goto("/")
    admin.evaluate(
        "([g, t, a]) => localStorage.setItem('pantheon.games', JSON.stringify({[g]: {admin: a, seats: {0: t}}}))",
        [game, created["seats"][0]["token"], created["admin_token"]],
    )
    admin.goto(f"/#/game/{game}")
    button = admin.locator("[data-testid=reissue][data-seat='1']")
    button.click()
    button.click()
    admin.get_by_label("Invite link for Bob").wait_for()
    admin.get_by_test_id("move-log").get_by_text("Bob's seat was handed to a new player").wait_for()
    events = httpx.get(f"{server}/games/{game}/events").json()["events"]  # a spectator's words too
    assert events[-1]["type"] == "seat_reissued" and events[-1]["text"].startswith("Bob's seat was handed")


def test_turn_alerts_the_title_the_sound_and_your_games(watched, server):
    page = watched().page()
    game = new_game(page)
    page.wait_for_selector("[data-choice]")
    page.wait_for_function("document.title.startsWith('Your turn — ')")
    toggle = page.get_by_test_id("sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false"  # off by default
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('pantheon.sound')") == "on"
    page.wait_for_function("(window.__pantheonBeeps || 0) >= 1")
    page.goto("/")
    mine = page.locator(f"section[aria-label='Your games'] li[data-game='{game}']")
    mine.and_(page.locator("[data-your-turn]")).wait_for()
    page.goto(f"/#/game/{game}")
    assert page.get_by_test_id("sound-toggle").get_attribute("aria-pressed") == "true"  # remembered


def test_after_enter_on_a_choice_the_focus_stays_on_the_choices(watched):
    page = watched().page()
    new_game(page)
    page.wait_for_selector(".choice-list [data-choice]")
    page.locator(".choice-list [data-choice]").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("(window.__pantheonSent || 0) > 0 || document.querySelector('ol.path')")
    page.wait_for_function("document.activeElement.closest('section.choices') !== null")
    page.wait_for_selector(".choice-list [data-choice]")  # our turn again (or the next step of a move)
    page.wait_for_function("document.activeElement.closest('section.choices') !== null")
    assert page.evaluate("document.activeElement !== document.body")


def test_on_a_phone_the_board_zooms_and_every_target_is_at_least_44_px(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=server, bypass_csp=True)
    try:
        page = context.new_page()
        new_game(page)
        page.wait_for_selector(".choice-list [data-choice]")
        for _ in range(12):  # choices (a step into a move first) until the board offers targets
            if page.locator("svg.board [data-choice]").count():
                break
            steps = page.locator(".choice-list button.step[data-choice]")
            (steps if steps.count() else page.locator(".choice-list button[data-choice]")).first.click()
            page.wait_for_selector(".choice-list [data-choice]", timeout=15_000)
        targets = page.locator("svg.board [data-choice]")
        assert targets.count() > 0
        small = [
            (name, box)
            for locator, name in ((page.locator(".choice-list button"), "choice"), (targets, "board"))
            for box in (locator.nth(i).bounding_box() for i in range(locator.count()))
            if box and (box["width"] < 44 or box["height"] < 44)
        ]
        assert small == []
        top = page.locator(".zoom-controls").bounding_box()["y"] + page.evaluate("window.scrollY")
        page.evaluate(f"window.scrollTo(0, {top - 8})")  # the zoom buttons, the board, then the choices
        screenshot(page, "web-phone")  # tests/web/screenshots/: docs/web-phone.png is copied from it by hand
        zoom_out = page.get_by_role("button", name="Zoom the board out")
        width = page.locator("svg.board").bounding_box()["width"]
        zoom_out.click()
        assert page.locator("svg.board").bounding_box()["width"] < width  # the − button zooms out
    finally:
        context.close()


def test_the_web_client_never_turns_text_into_markup():
    """Names (and every other text the server sends) reach the page as text nodes only: no module
    parses a string as HTML (the one DOMParser reads the server's own board, as SVG)."""
    web = Path(__file__).resolve().parents[2] / "service" / "http" / "web"
    sinks = ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "text/html", "eval(", "new Function")
    found = [(f.name, s) for f in sorted(web.glob("*.js")) for s in sinks if s in f.read_text()]
    assert found == []
