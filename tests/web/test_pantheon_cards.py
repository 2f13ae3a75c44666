"""Pantheon, the card game in the browser: a whole 3-player game (you and two AIs, the shortest game
length) played by clicks to the end, its table and panels checked against the seat's view (names,
never ids; your hand, the others' hand sizes only); its replay at an earlier event; and a war drawn
from fixed views, sealed to everybody but the committed seat, then revealed."""

from __future__ import annotations

import random
import re
import time

import httpx
import msgspec
import pytest

from domain.pantheon_cards import commands as cmd
from domain.pantheon_cards.components import load_components
from domain.pantheon_cards.views import public_view, seat_view
from tests.domain.pantheon_cards.scenario import A, B, Tw, W, col, given, run
from tests.web.conftest import DUMP, new_game, play_by_clicks, screenshot
from tests.web.idscan import assert_no_ids, scan_played_game

CARDS = load_components("house-1").cards
IDS = re.compile(r"\b(?:god|temple|worshiper|civ)\.[a-z0-9_]+|\b\d:\d+\b")  # a card's or a column's id


def name(card: str) -> str:
    """A card as the components name it (the words the page must show)."""
    c, n = CARDS[card], card.rsplit(".", 1)[1]
    if c.type == "temple":
        return f"{c.kind} temple {int(n)}"
    if c.type == "worshiper":
        return f"{c.level:,} worshipers (card {int(n)})"
    return c.name


def seat_token(page, game: str) -> str:
    return page.evaluate(f"JSON.parse(localStorage.getItem('pantheon.games'))['{game}'].seats['0']")


def assert_the_page_shows(page, view: dict) -> None:
    """The table and panels as the seat's `view` has them, in names."""
    hand = page.locator("section.hand .cards .card").all_inner_texts()
    assert len(hand) == len(view["you"]["hand"])
    for shown, card in zip(hand, view["you"]["hand"]):  # a god may carry its pantheon and powers
        assert shown == name(card) or shown.startswith(f"{name(card)} ("), (shown, card)
    assert page.locator("section.hand").count() == 1  # nobody else's hand: the others' are counts
    for s in view["seats"]:
        head = page.locator(f"svg.board .seat-head[data-seat='{s['seat']}'] .seat-info").text_content()
        assert head.startswith(f"{s['hand_size']} card"), head
        row = page.locator(f"table.seats tr[data-seat='{s['seat']}']")
        assert row.locator("td.hand-size").inner_text() == str(s["hand_size"])
        assert row.locator("td.score").inner_text() == str(s["score"])
        drawn = page.locator(f"svg.board g.column[data-column^='{s['seat']}:']")
        assert drawn.count() == len(s["columns"])
        for k, column in enumerate(s["columns"]):
            words = drawn.nth(k).text_content()
            assert (name(column["god"]) if column["god"] else "no god") in words
            assert (name(column["temple"]) if column["temple"] else "no temple") in words
            assert f"value {column['value']:,}" in words
    assert page.locator("svg.board .pile-state.deck text").text_content().startswith(f"{view['deck']} cards")
    shown = page.locator("main").text_content()
    assert not IDS.findall(shown), IDS.findall(shown)


@pytest.mark.long
def test_a_whole_three_player_card_game_against_two_ais_is_played_by_clicks_to_the_end(watched, server):
    page = watched().page()
    game = new_game(page, "pantheon_cards", game_length="short")
    detail = httpx.get(f"{server}/games/{game}").json()
    assert detail["kind"] == "pantheon_cards" and detail["options"]["game_length"] == "short"
    assert [s["type"] for s in detail["seats"]] == ["human", "ai", "ai"]  # the form's default: its fewest players
    assert "Pantheon, the card game" in page.locator("h1").inner_text()
    token = seat_token(page, game)
    play_by_clicks(page, random.Random(250), commands=12)
    page.wait_for_selector("[data-choice]")  # our turn: the game waits, the page is settled
    at = page.evaluate("document.body.dataset.version")
    view = httpx.get(
        f"{server}/games/{game}/view", params={"at": at}, headers={"Authorization": f"Bearer {token}"}
    ).json()["view"]
    assert_the_page_shows(page, view)
    screenshot(page, "pantheon-cards-game")
    assert_no_ids(page, server, "pantheon_cards")  # the choices, their tooltips and the panels in words
    play_by_clicks(page, random.Random(251), timeout_s=150)
    events = httpx.get(f"{server}/games/{game}/events", params={"after": 0}).json()
    events = events if isinstance(events, list) else events["events"]
    ours = {(e["command"], e["recorded_at"]) for e in events if e["seat"] == 0}
    assert page.evaluate("window.__pantheonSent") == len(ours) > 20  # every command of seat 0 was a click
    final = httpx.get(f"{server}/games/{game}").json()
    assert final["finished"] and page.locator("p.status").inner_text() == "The game has ended."
    outcome = page.get_by_test_id("outcome")
    assert [int(x) for x in outcome.get_attribute("data-scores").split(",")] == final["outcome"]["scores"]
    winners = " and ".join(f"Player {'ABC'[w]}" for w in final["outcome"]["winners"])
    verdict = page.get_by_test_id("end-screen").locator(".verdict").inner_text()
    assert verdict == (f"{winners} share the victory." if len(final["outcome"]["winners"]) > 1 else f"{winners} wins.")
    last = httpx.get(
        f"{server}/games/{game}/view", params={"at": final["version"]}, headers={"Authorization": f"Bearer {token}"}
    ).json()["view"]
    page.wait_for_function(f"document.body.dataset.version === '{final['version']}'")
    assert_the_page_shows(page, last)
    scan_played_game(page, server, game, "pantheon_cards")  # no id nor dump on any page of the game


@pytest.fixture(scope="module")
def finished_card_game(server) -> str:
    """A 3-player card game (shortest length) three AIs played to the end."""
    with httpx.Client(base_url=server, timeout=30) as http:
        seats = [{"type": "ai", "level": "random"}] * 3
        game = http.post(
            "/games", json={"kind": "pantheon_cards", "options": {"game_length": "short"}, "seats": seats}
        ).json()["game"]
        deadline = time.monotonic() + 120
        while not http.get(f"/games/{game}").json()["finished"]:
            assert time.monotonic() < deadline, "the AI did not finish its game"
            time.sleep(0.3)
    return game


def test_the_card_game_replay_at_an_earlier_event_shows_the_table_and_players_of_that_version(
    watched, server, finished_card_game
):
    game = finished_card_game
    page = watched().page()
    last = httpx.get(f"{server}/games/{game}").json()["version"]
    at = last * 2 // 3
    page.goto(f"/#/replay/{game}/{at}")
    page.wait_for_function(f"document.body.dataset.version === '{at}'")
    view = httpx.get(f"{server}/games/{game}/view", params={"at": at}).json()["view"]
    for s in view["seats"]:
        assert page.locator(f"svg.board g.column[data-column^='{s['seat']}:']").count() == len(s["columns"])
        assert page.locator(f"table.seats tr[data-seat='{s['seat']}'] td.score").inner_text() == str(s["score"])
        assert page.locator(f"table.seats tr[data-seat='{s['seat']}'] td.hand-size").inner_text() == str(s["hand_size"])
    assert page.locator("section.hand").count() == 0  # a spectator sees no hand
    general = page.locator("section.piles .cards").first.locator(".card").all_inner_texts()
    assert general == [name(c) for c in reversed(view["general_discard"])]  # top first
    text = httpx.get(f"{server}/games/{game}/events", params={"after": at - 1, "limit": 1}).json()["events"][0]["text"]
    assert page.locator("p.event").inner_text() == f"v{at} · {text}"  # the server's words, never a dump
    assert not DUMP.search(page.locator("body").inner_text())
    assert page.locator(".chart polyline.score-line").count() == 3
    shown = page.locator("main .play").text_content()
    assert not IDS.findall(shown), IDS.findall(shown)
    screenshot(page, "pantheon-cards-replay")


def _war_views() -> dict[str, bytes]:
    """A war (rules example R30): the attacker A has committed its column 2, sealed, and B is
    choosing; then B commits its columns 1 and 2 and both are revealed. The views as the API sends them."""
    state = given(
        col(A, 1, W(100, 1), temple=Tw(1)),
        col(A, 2, W(10, 1), temple=Tw(2)),
        col(B, 1, W(50, 1), temple=Tw(3)),
        col(B, 2, W(10, 2), temple=Tw(4)),
        hands={A: ["civ.holy_war.1"]},
        players=3,
    )
    state, _ = run(state, cmd.PlayCivilization(seat=A, card="civ.holy_war.1", target=B))
    state, _ = run(state, cmd.CommitWarColumns(seat=A, columns=["0:2"]))
    views = {"sealed, to A": seat_view(state, A), "sealed, to B": seat_view(state, B), "sealed": public_view(state)}
    state, _ = run(state, cmd.CommitWarColumns(seat=B, columns=["1:1", "1:2"]))
    views["revealed"] = public_view(state)
    return {k: msgspec.json.encode(v) for k, v in views.items()}


DRAW = """async ([text, seat]) => {
  const view = JSON.parse(text);
  const cards = await import("./board-pantheon-cards.js");
  const host = document.createElement("div"), side = document.createElement("div");
  document.querySelector("main").replaceChildren(host, side);
  const board = new cards.Board(host, () => {});
  await board.load("pantheon_cards", view.edition);
  board.draw(view, [], [], false, seat);
  side.append(...cards.panels(view, { detail: null, seat, choices: [], pick: () => {}, path: [] }));
  return { stage: side.querySelector("section.war").dataset.stage, text: document.querySelector("main").textContent,
    sides: [...side.querySelectorAll("section.war li")].map((li) => [li.dataset.side, li.dataset.sealed, li.innerText]),
    committed: [...host.querySelectorAll("g.column.committed")].map((g) => g.dataset.column) };
}"""


def test_a_war_is_drawn_sealed_to_all_but_the_committed_seat_then_revealed_once_both_are_in(watched):
    page = watched().page()
    page.goto("/")
    page.wait_for_function("window.__pantheonReady !== undefined")  # the lobby drawn: nothing redraws `main` later
    views = _war_views()

    def draw(which: str, seat: int | None) -> dict:
        drawn = page.evaluate(DRAW, [views[which].decode(), seat])
        assert not IDS.findall(drawn["text"]), IDS.findall(drawn["text"])
        return drawn

    for which, seat in (("sealed", None), ("sealed, to B", B)):
        drawn = draw(which, seat)
        assert drawn["stage"] == "commit_defender" and drawn["committed"] == []
        [(_, attacker_sealed, attacker), (_, defender_sealed, defender)] = drawn["sides"]
        assert attacker_sealed == "true" and "committed, sealed" in attacker and "column" not in attacker
        assert defender_sealed == "false" and "not committed yet" in defender
        assert "has committed, sealed until both sides have" in drawn["text"]
    [(_, _, attacker), _] = draw("sealed, to A", A)["sides"]
    assert "committed, sealed to the others: your column 2" in attacker  # its own choice, to itself only
    drawn = draw("revealed", None)
    assert drawn["stage"] == "battle_card_defender"
    [(_, attacker_sealed, attacker), (_, defender_sealed, defender)] = drawn["sides"]
    assert attacker_sealed == defender_sealed == "false"
    assert "committed Player A's column 2" in attacker and "war deck: 10 ×1" in attacker
    assert "committed Player B's column 1, Player B's column 2" in defender and "war deck: 50 ×1, 10 ×1" in defender
    assert drawn["committed"] == ["0:2", "1:1", "1:2"]  # framed on the table
