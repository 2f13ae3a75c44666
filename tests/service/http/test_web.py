"""The web client's files and boards: served at `/` beside the API, out of its OpenAPI document."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from domain import games

from ..api_helpers import assert_problem, new_game


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


SECURITY = {"x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


def _policy(answer) -> dict[str, list[str]]:
    """The answer's Content-Security-Policy: each directive's sources."""
    directives = [d.split() for d in answer.headers["content-security-policy"].split(";") if d.strip()]
    return {d[0]: d[1:] for d in directives}


async def test_every_answer_forbids_framing_and_sniffing_and_sends_no_referrer(client):
    game, _, _ = await new_game(client)
    answers = [
        await client.get(url)
        for url in (
            "/",
            "/app.js",
            "/style.css",
            "/favicon.svg",
            f"/web/boards/{games.DEFAULT_KIND}/house-1.svg",
            "/games",
            f"/games/{game}",
            f"/games/{game}/view",
            "/no-such-file.js",
            "/games/0123456789abcdef",
            "/schema",
            "/schema/openapi.json",
            "/schema/assets/swagger-ui.css",
            "/health/live",
            "/metrics",
        )
    ]
    answers += [
        await client.head("/"),
        await client.post("/games", content=b"[", headers={"Content-Type": "application/json"}),
        await client.delete("/games"),
    ]
    for answer in answers:
        where = f"{answer.request.method} {answer.request.url.path} {answer.status_code}"
        assert {k: answer.headers.get(k) for k in SECURITY} == SECURITY, where
        policy = _policy(answer)
        assert policy["default-src"] == ["'self'"] and policy["frame-ancestors"] == ["'none'"], where
        assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"], where


async def test_the_web_client_runs_nothing_inline_and_loads_nothing_from_another_host(client):
    page = await client.get("/")
    sources = [s for sources in _policy(page).values() for s in sources]
    assert set(sources) <= {"'self'", "'none'"}, sources
    assert "<script>" not in page.text and "style=" not in page.text  # its one script is a module file


async def test_the_api_docs_page_runs_its_inline_script_by_a_nonce_made_for_each_answer(client):
    nonces = []
    for _ in range(2):
        page = await client.get("/schema")
        policy = _policy(page)
        nonce = next(s for s in policy["script-src"] if s.startswith("'nonce-"))[len("'nonce-") : -1]
        assert policy["script-src"] == ["'self'", f"'nonce-{nonce}'"] and len(nonce) >= 22
        inline = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", page.text)
        assert inline and all(f'nonce="{nonce}"' in attributes for attributes in inline), inline
        assert "'unsafe-inline'" not in page.headers["content-security-policy"]
        nonces.append(nonce)
    assert nonces[0] != nonces[1]


def test_every_module_of_the_web_client_parses_as_an_es_module_and_preloads(tmp_path):
    """Node's parser, no browser: a name imported and declared again in one module (a merge of two
    changes) stops the whole page, so every module is checked as a module (`.mjs`), and every one is
    preloaded by index.html."""
    import shutil
    import subprocess
    from pathlib import Path

    web = Path(__file__).parents[3] / "service" / "http" / "web"
    node = shutil.which("node")
    assert node, "node is needed to parse the web client's modules (Debian's nodejs)"
    index = (web / "index.html").read_text()
    for module in sorted(web.glob("*.js")):
        copy = tmp_path / (module.stem + ".mjs")
        copy.write_text(module.read_text())
        checked = subprocess.run([node, "--check", str(copy)], capture_output=True, text=True)
        assert checked.returncode == 0, f"{module.name}: {checked.stderr}"
        assert module.name == "app.js" or f'href="{module.name}"' in index, f"index.html does not preload {module.name}"
