"""The web client's files and boards: served at `/` beside the API, out of its OpenAPI document."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from domain import games

from ..api_helpers import assert_problem


async def test_the_web_client_is_served_at_the_root_with_its_modules_and_an_icon(client):
    page = await client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert 'src="app.js"' in page.text and 'href="favicon.svg"' in page.text  # relative: any path prefix works
    for name, media in (("app.js", "text/javascript"), ("style.css", "text/css"), ("favicon.svg", "image/svg+xml")):
        answer = await client.get(f"/{name}")
        assert answer.status_code == 200 and answer.headers["content-type"].startswith(media), name
    assert (await client.head("/")).status_code == 200


async def test_a_board_is_the_registrys_svg_whose_hexes_carry_their_coordinates(client):
    for game in games.GAMES.values():
        for edition in game.editions:
            answer = await client.get(f"/web/boards/{game.kind}/{edition}.svg")
            assert answer.status_code == 200 and answer.headers["content-type"].startswith("image/svg+xml")
            assert answer.text == game.render_board(edition)
            hexes = [e for e in ET.fromstring(answer.text).iter() if "hex" in (e.get("class") or "").split()]
            assert all(e.get("data-q") is not None and e.get("data-r") is not None for e in hexes)
            assert hexes or game.kind != games.DEFAULT_KIND  # a game drawn in hexes (another may not be)


async def test_an_unknown_board_or_file_is_a_404_problem(client):
    assert_problem(await client.get("/web/boards/nogame/house-1.svg"), 404, "not_found")
    assert_problem(await client.get(f"/web/boards/{games.DEFAULT_KIND}/no-such-edition.svg"), 404, "not_found")
    answer = await client.get("/no-such-file.js")
    assert answer.status_code == 404 and answer.headers["content-type"] == "application/problem+json"


async def test_the_web_client_stays_out_of_the_api_document(client):
    paths = (await client.get("/schema/openapi.json")).json()["paths"]
    assert not [p for p in paths if p == "/" or p.startswith("/web") or "file_path" in p]
