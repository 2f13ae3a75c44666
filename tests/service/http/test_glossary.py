"""A game kind's glossary over HTTP: the registry's words for every id, the same for every client."""

from __future__ import annotations

import msgspec

from domain import games

from ..api_helpers import assert_problem


async def test_each_kinds_glossary_is_the_registrys_and_may_be_cached(client):
    for game in games.GAMES.values():
        answer = await client.get(f"/kinds/{game.kind}/glossary")
        assert answer.status_code == 200, answer.text
        assert answer.json() == msgspec.to_builtins(game.glossary(game.editions[0]))
        assert "max-age=300" in answer.headers["cache-control"]
        same = await client.get(f"/kinds/{game.kind}/glossary", params={"edition": game.editions[0]})
        assert same.json() == answer.json()
    pantheon = (await client.get("/kinds/pantheon/glossary")).json()
    start = next(o for o in pantheon["options"] if o["option"] == "start_material")
    assert {v["id"]: v["name"] for v in start["values"]} == {"bsw": "BSW", "rulebook": "Rulebook (4 feet, 3 columns)"}


async def test_an_unknown_kind_or_edition_is_a_404_problem(client):
    assert_problem(await client.get("/kinds/chess/glossary"), 404, "not_found")
    assert_problem(await client.get("/kinds/pantheon/glossary", params={"edition": "house-9"}), 404, "not_found")
