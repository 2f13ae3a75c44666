"""HTTP as client authors expect it: request ids, 201 with Location and links, compression that
spares the event stream, API docs that need no other host."""

from __future__ import annotations

import gzip
import logging
import re
import threading
import time
from html.parser import HTMLParser
from urllib.parse import urlsplit

import brotli
import httpx

from service.http.openapi_export import document

from ..api_helpers import api_client, assert_problem, bearer, new_game, play, sse_events
from ..live import live_api

# --- X-Request-ID ---------------------------------------------------------------------------


async def test_every_answer_has_a_request_id_and_a_sane_one_from_the_client_is_kept(client):
    mine = await client.get("/health/live", headers={"X-Request-ID": "client-id-42"})
    made = [await client.get("/health/live") for _ in range(2)]
    missing = await client.get("/no/such/address")

    assert mine.headers["x-request-id"] == "client-id-42"
    assert re.fullmatch(r"[0-9a-f]{32}", made[0].headers["x-request-id"])
    assert made[0].headers["x-request-id"] != made[1].headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", missing.headers["x-request-id"])


async def test_a_request_id_that_is_too_long_or_not_visible_ascii_is_replaced(client):
    for bad in (b"x" * 129, b"has space", b"tab\there", "é".encode()):
        answer = await client.get("/health/live", headers={b"X-Request-ID": bad})
        assert re.fullmatch(r"[0-9a-f]{32}", answer.headers["x-request-id"]), bad


async def test_problem_details_carry_the_request_id_of_their_answer(client):
    given = await client.get("/games/0123456789abcdef", headers={"X-Request-ID": "trace-me"})
    made = await client.post("/games", content=b"{", headers={"Content-Type": "application/json"})
    routed = await client.get("/nowhere")

    assert assert_problem(given, 404, "unknown_game")["request_id"] == "trace-me"
    for answer in (made, routed):
        assert answer.json()["request_id"] == answer.headers["x-request-id"]


async def test_the_access_log_line_names_the_request_id(client, caplog):
    with caplog.at_level(logging.INFO, logger="pantheon.access"):
        await client.get("/games?limit=3", headers={"X-Request-ID": "look-for-me"})
        await client.head("/health/live", headers={"X-Request-ID": "a-head"})
    lines = [r.getMessage() for r in caplog.records if r.name == "pantheon.access"]
    assert '"GET /games?limit=3" 200 request_id=look-for-me' in lines[0]
    assert '"HEAD /health/live" 200 request_id=a-head' in lines[1]


# --- 201 Created, Location, links -----------------------------------------------------------


async def test_created_games_forks_claims_and_reissues_say_where_they_are(client):
    made = await client.post("/games", json={"seats": [{"type": "human"}, {"type": "human"}]})
    game, admin = made.json()["game"], made.json()["admin_token"]
    claimed = await client.post(f"/games/{game}/seats/0/claim")
    reissued = await client.post(f"/games/{game}/seats/0/token", headers=bearer(admin))
    forked = await client.post(
        f"/games/{game}/fork",
        headers=bearer(admin),
        json={"at": made.json()["version"], "seats": [{"type": "human"}] * 2},
    )

    assert made.status_code == 201 and made.headers["location"] == f"/games/{game}"
    assert (await client.get(made.headers["location"])).json()["game"] == game
    assert claimed.status_code == reissued.status_code == 201
    assert claimed.headers["location"] == f"/games/{game}/view"
    assert reissued.headers["location"] == f"/games/{game}/seats/0/claim"
    again = await client.post(reissued.headers["location"], json={"invite": reissued.json()["code"]})
    assert again.status_code == 201 and again.headers["location"] == f"/games/{game}/view"
    seat_view = await client.get(again.headers["location"], headers=bearer(again.json()["token"]))
    assert seat_view.status_code == 200 and seat_view.json()["seat"] == 0
    assert forked.status_code == 201 and forked.headers["location"] == f"/games/{forked.json()['game']}"
    assert (await client.get(forked.headers["location"])).status_code == 200


async def test_the_browser_may_read_location_from_another_origin(redis_url, prefix):
    async with api_client(redis_url, prefix, cors_origins=["https://friend.example"]) as client:
        made = await client.post(
            "/games", json={"seats": [{"type": "human"}] * 2}, headers={"Origin": "https://friend.example"}
        )
    assert made.status_code == 201 and "location" in made.headers["access-control-expose-headers"].lower()


def test_a_created_game_links_to_its_reads_and_commands_and_each_201_documents_location():
    paths = document()["paths"]
    created = paths["/games"]["post"]["responses"]["201"]
    links = created["links"]
    assert set(links) == {"get_game", "get_view", "get_options", "list_events", "submit_command"}
    for name, link in links.items():
        assert link["operationId"] == name and link["parameters"] == {"game_id": "$response.body#/game"}
        target = next(op for item in paths.values() for op in item.values() if op["operationId"] == name)
        assert any(p["name"] == "game_id" and p["in"] == "path" for p in target["parameters"])
    assert paths["/games/{game_id}/fork"]["post"]["responses"]["201"]["links"] == links
    for path in (
        "/games",
        "/games/{game_id}/fork",
        "/games/{game_id}/seats/{seat}/claim",
        "/games/{game_id}/seats/{seat}/token",
    ):
        assert paths[path]["post"]["responses"]["201"]["headers"]["Location"]["required"] is True


# --- compression ----------------------------------------------------------------------------


async def test_large_answers_are_compressed_with_brotli_or_gzip_and_small_ones_are_not(client, referee):
    game, _, tokens = await new_game(client)
    await play(client, referee, game, tokens)
    url = f"/games/{game}/events"
    plain = await client.get(url, headers={"Accept-Encoding": "identity"})
    as_br = await client.get(url, headers={"Accept-Encoding": "gzip, br"})
    as_gz = await client.get(url, headers={"Accept-Encoding": "gzip"})
    small = await client.get("/health/live", headers={"Accept-Encoding": "gzip, br"})
    export = await client.get(f"/games/{game}/export", headers={"Accept-Encoding": "gzip"})

    assert "content-encoding" not in plain.headers
    assert as_br.headers["content-encoding"] == "br" and as_gz.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in as_br.headers["vary"].lower()
    assert as_br.json() == as_gz.json() == plain.json()  # httpx decodes both
    raw_br, raw_gz = await _raw(client, url, "br"), await _raw(client, url, "gzip")
    assert brotli.decompress(raw_br) == gzip.decompress(raw_gz) == plain.content
    assert len(raw_br) < len(plain.content) / 4 and len(raw_gz) < len(plain.content) / 3
    assert "content-encoding" not in small.headers
    assert export.headers["content-encoding"] == "gzip" and export.text.count("\n") > 100


async def _raw(client, url: str, encoding: str) -> bytes:
    async with client.stream("GET", url, headers={"Accept-Encoding": encoding}) as answer:
        return b"".join([chunk async for chunk in answer.aiter_raw()])


def test_the_event_stream_is_never_compressed_and_events_arrive_one_by_one(redis_url, prefix):
    with live_api(redis_url, prefix) as base, httpx.Client(base_url=base, timeout=10) as http:
        made = http.post("/games", json={"seats": [{"type": "human", "holder": "creator"}] * 2}).json()
        game = made["game"]
        token = made["seats"][http.get(f"/games/{game}").json()["awaiting"]["seat"]]["token"]
        # a large first batch (the game's start) and then one event per command, each as it happens
        headers = {"Accept-Encoding": "gzip, br"}
        seen: list[tuple[float, bytes]] = []
        with http.stream("GET", f"/games/{game}/stream", headers=headers) as stream:
            assert "content-encoding" not in stream.headers
            assert stream.headers["content-type"].startswith("text/event-stream")
            chunks = stream.iter_raw()
            seen.append(_arrival(chunks))
            first = sse_events(seen[0][1].decode())
            assert first and first[-1][0] == made["version"]  # the catch-up arrived before any move

            def move() -> None:
                time.sleep(0.3)
                options = http.get(f"/games/{game}/options", headers=bearer(token)).json()
                command = next(c["command"] for c in options["choices"] if c.get("command"))
                assert http.post(f"/games/{game}/commands", json=command, headers=bearer(token)).status_code == 201

            mover = threading.Thread(target=move)
            started = time.monotonic()
            mover.start()
            seen.append(_arrival(chunks))
            mover.join()
    later = sse_events(seen[1][1].decode())
    assert later and later[0][0] == made["version"] + 1  # a new event, plain text, sent as it happened
    assert seen[1][0] - started >= 0.25  # it came when it happened, not with the first batch


def _arrival(chunks) -> tuple[float, bytes]:
    chunk = next(chunks)
    return time.monotonic(), chunk


# --- offline docs ---------------------------------------------------------------------------


class _References(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.urls += [v for k, v in attrs if k in ("src", "href") and v]


async def test_the_api_docs_load_nothing_from_another_host_and_every_asset_is_served(client):
    page = await client.get("/schema")
    parser = _References()
    parser.feed(page.text)

    assert page.status_code == 200 and "SwaggerUIBundle" in page.text
    assert len(parser.urls) >= 4
    assert "//" not in page.text.split("<body", 1)[0].replace("http://www.w3.org", "")  # no scheme-relative host
    for url in parser.urls:
        parts = urlsplit(url)
        assert not parts.scheme and not parts.netloc and url.startswith("/"), url
        asset = await client.get(url)
        assert asset.status_code == 200 and len(asset.content) > 500, url
    kinds = {urlsplit(u).path.rsplit(".", 1)[-1] for u in parser.urls}
    assert {"js", "css"} <= kinds
