"""Names for everything in the browser: the new-game form names each option and value in the game's
words with a one-line tooltip, and a Rules link opens the game's rules in short, from the server."""

from __future__ import annotations

import httpx
import pytest

from domain import games


@pytest.mark.parametrize("kind", sorted(games.GAMES))
def test_the_new_game_form_names_options_and_values_in_the_games_words_and_links_its_rules(watched, server, kind):
    glossary = httpx.get(f"{server}/kinds/{kind}/glossary").json()
    page = watched().page()
    page.goto("/#/new")
    page.get_by_label("Game", exact=True).select_option(kind)
    for option in glossary["options"]:
        select = page.locator(f"select[name='option:{option['option']}']")
        label = page.locator("fieldset.game-options label", has=select)
        assert label.evaluate("l => l.firstChild.textContent.trim()") == option["name"]
        assert label.get_attribute("title") == option["description"]
        shown = {
            o.get_attribute("value"): (o.inner_text(), o.get_attribute("title")) for o in select.locator("option").all()
        }
        for value in option["values"]:  # every value the form offers, by its name (seats are "Player A"…)
            assert shown[value["id"]] == (value["name"], value["description"]), (option["option"], value)
    page.get_by_test_id("rules-link").click()
    rules = page.get_by_test_id("rules")
    rules.wait_for()
    assert page.evaluate("location.hash") == f"#/rules/{kind}"
    assert rules.locator("h1").inner_text() == f"{glossary['name']}: the rules in short"
    assert rules.locator("h2").all_inner_texts()[: len(glossary["rules"])] == [s["heading"] for s in glossary["rules"]]
    assert glossary["rules"][0]["paragraphs"][0] in rules.inner_text()
