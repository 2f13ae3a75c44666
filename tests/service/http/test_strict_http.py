"""Strict, honest HTTP against the running server: JSON bodies only and of exactly the documented
types, documented query parameters only, one answer for a missing or a foreign token on every
route, HEAD wherever GET is, CORS only for the origins allowed."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

import httpx
import msgspec
import pytest

from ..api_helpers import assert_problem
from ..live import live_api, live_api_process


@pytest.fixture
def live(redis_url, prefix):
    with live_api(redis_url, prefix) as base, httpx.Client(base_url=base, timeout=10) as client:
        yield client


def _game(client) -> tuple[str, str, list[str]]:
    created = client.post("/games", json={"seats": [{"type": "human"}, {"type": "human"}]}).json()
    tokens = [client.post(f"/games/{created['game']}/seats/{s}/claim").json()["token"] for s in (0, 1)]
    return created["game"], created["admin_token"], tokens


def _lobby_size(client) -> int:
    return len(client.get("/games", params={"limit": 200}).json()["games"])


def test_a_body_that_is_not_utf8_or_not_json_is_a_400_and_changes_nothing(live):
    game, _, tokens = _game(live)
    version = live.get(f"/games/{game}").json()["version"]
    headers = {"Authorization": f"Bearer {tokens[0]}", "Content-Type": "application/json"}
    for body in (b'{"type": "pass", "seat": 0, "x": "\xff\xfe"}', b"\xff", b"{not json", b'{"type": "pass"'):
        assert_problem(live.post(f"/games/{game}/commands", content=body, headers=headers), 400, "malformed_request")
    before = _lobby_size(live)
    assert_problem(live.post("/games", content=b'{"seats": "\xc3\x28"}', headers=headers), 400, "malformed_request")
    assert live.get(f"/games/{game}").json()["version"] == version and _lobby_size(live) == before


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "application/xml", "multipart/form-data; boundary=x"],
)
def test_a_json_route_called_with_another_content_type_is_a_415(live, content_type):
    before = _lobby_size(live)
    answer = live.post(
        "/games", content=b'{"seats": [{"type": "human"}, {"type": "human"}]}', headers={"Content-Type": content_type}
    )
    assert_problem(answer, 415, "unsupported_media_type")
    assert _lobby_size(live) == before


@pytest.mark.parametrize(
    "body",
    [
        {"seats": [{"type": "human"}, {"type": "human"}], "idle_seconds": "60"},
        {"seats": [{"type": "human"}, {"type": "human"}], "options": {"start_material": 1}},
        {"seats": [{"type": "human"}, {"type": "ai", "level": 2}]},
        {"seats": [{"type": "human"}, {"type": "human"}], "idle_seconds": 60.5},
    ],
)
def test_values_of_the_wrong_type_are_refused_not_coerced(live, body):
    before = _lobby_size(live)
    assert_problem(live.post("/games", json=body), 400, "malformed_request")
    assert _lobby_size(live) == before


def test_a_number_sent_as_a_string_in_a_command_is_refused(live):
    game, _, tokens = _game(live)
    seat = live.get(f"/games/{game}").json()["awaiting"]["seat"]
    answer = live.post(
        f"/games/{game}/commands",
        json={"type": "draw_card", "slot": str(seat)},
        headers={"Authorization": f"Bearer {tokens[seat]}"},
    )
    assert_problem(answer, 400, "malformed_request")


def test_unknown_query_parameters_are_a_400(live):
    game, _, tokens = _game(live)
    assert_problem(live.get(f"/games/{game}/view", params={"version": 3}), 400, "unknown_query_parameter")
    assert_problem(live.get("/games", params={"limit": 5, "status": "open", "x": 1}), 400, "unknown_query_parameter")
    answer = live.post(
        f"/games/{game}/commands",
        params={"expected": 1},
        json={"type": "pass"},
        headers={"Authorization": f"Bearer {tokens[0]}"},
    )
    assert_problem(answer, 400, "unknown_query_parameter")
    assert live.get(f"/games/{game}/view", params={"min_version": 1}).status_code == 200


def _game_routes(game: str) -> list[tuple[str, str]]:
    return [
        ("GET", f"/games/{game}"),
        ("GET", f"/games/{game}/view"),
        ("GET", f"/games/{game}/score"),
        ("GET", f"/games/{game}/events"),
        ("GET", f"/games/{game}/options"),
        ("GET", f"/games/{game}/audit"),
        ("GET", f"/games/{game}/export"),
        ("GET", f"/games/{game}/rejected"),
        ("POST", f"/games/{game}/commands"),
        ("POST", f"/games/{game}/fork"),
        ("POST", f"/games/{game}/seats/0/claim"),
        ("POST", f"/games/{game}/seats/0/ai"),
        ("DELETE", f"/games/{game}/seats/0/ai"),
    ]


def test_a_foreign_or_forged_token_is_403_and_a_malformed_header_401_on_every_route_of_a_game(live):
    game, _, _ = _game(live)
    other, other_admin, other_tokens = _game(live)
    for method, path in _game_routes(game):
        for token in ("forged", other_admin, other_tokens[0]):
            answer = live.request(method, path, headers={"Authorization": f"Bearer {token}"}, json={})
            assert_problem(answer, 403, "wrong_token")
        answer = live.request(method, path, headers={"Authorization": "Basic abc"}, json={})
        assert_problem(answer, 401, "missing_token")


def test_head_answers_wherever_get_does_with_the_same_status_and_headers_and_no_body(live):
    game, admin, tokens = _game(live)
    document = live.get("/schema/openapi.json").json()
    paths = [path for path, item in document["paths"].items() if "get" in item and not path.endswith("/stream")]
    assert len(paths) >= 10  # the event stream of a running game never ends: its HEAD has a test of its own
    for path in paths:
        url = path.replace("{game_id}", game)
        headers = {"Authorization": f"Bearer {tokens[0]}"}
        get, head = live.get(url, headers=headers), live.head(url, headers=headers)
        assert head.status_code == get.status_code, url
        assert head.content == b"" and head.headers["content-type"] == get.headers["content-type"], url
        if "content-length" in get.headers and path != "/metrics":  # the metrics count the GET itself
            assert head.headers["content-length"] == get.headers["content-length"], url
    assert "HEAD" in live.options(f"/games/{game}").headers["allow"]


def test_head_of_a_running_games_event_stream_answers_at_once(live):
    game, _, _ = _game(live)
    head = live.head(f"/games/{game}/stream", timeout=3)
    assert head.status_code == 200 and head.headers["content-type"].startswith("text/event-stream")


def test_cross_origin_calls_are_allowed_only_for_the_origins_named(redis_url, prefix):
    preflight = {
        "Origin": "https://friend.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
    }
    with live_api(redis_url, prefix) as base:
        answer = httpx.options(f"{base}/games", headers=preflight)
        assert "access-control-allow-origin" not in answer.headers
        assert "access-control-allow-origin" not in httpx.get(f"{base}/games", headers=preflight).headers
    with live_api(redis_url, prefix, PANTHEON_CORS_ORIGINS="https://friend.example") as base:
        answer = httpx.options(f"{base}/games", headers=preflight)
        assert answer.status_code in (200, 204)
        assert answer.headers["access-control-allow-origin"] == "https://friend.example"
        assert "idempotency-key" in answer.headers["access-control-allow-headers"].lower()
        simple = httpx.get(f"{base}/games", headers={"Origin": "https://friend.example"})
        assert simple.headers["access-control-allow-origin"] == "https://friend.example"
        stranger = httpx.get(f"{base}/games", headers={"Origin": "https://stranger.example"})
        assert "access-control-allow-origin" not in stranger.headers


DEEP = b"[" * 485 + b"]" * 485  # 970 bytes that nest 485 levels deep (issue 23)
JSON = {"Content-Type": "application/json"}


def _nesting(depth: int) -> bytes:
    return b'{"a":' * depth + b"1" + b"}" * depth


def test_a_body_nested_too_deep_is_a_400_on_every_route_that_takes_one_and_changes_nothing(live):
    game, admin, tokens = _game(live)
    open_game = live.post("/games", json={"seats": [{"type": "human"}, {"type": "human"}]}).json()["game"]
    seat = live.get(f"/games/{game}").json()["awaiting"]["seat"]
    before, version = _lobby_size(live), live.get(f"/games/{game}").json()["version"]
    routes = [
        ("/games", {}),
        (f"/games/{game}/commands", {"Authorization": f"Bearer {tokens[seat]}"}),
        (f"/games/{open_game}/seats/0/claim", {}),
        (f"/games/{game}/seats/1/ai", {"Authorization": f"Bearer {admin}"}),
        (f"/games/{game}/fork", {"Authorization": f"Bearer {tokens[0]}"}),
    ]
    for url, headers in routes:
        for body in (DEEP, b"[" * 40_000, _nesting(300)):
            answer = live.post(url, content=body, headers={**JSON, **headers})
            detail = assert_problem(answer, 400, "malformed_request")["detail"]
            assert "nest" in detail and "32 levels" in detail, (url, detail)
    assert _lobby_size(live) == before and live.get(f"/games/{game}").json()["version"] == version
    assert live.get(f"/games/{open_game}").json()["open_seats"] == [0, 1]
    assert live.get(f"/games/{game}").json()["seats"][1]["type"] == "human"


def test_nesting_is_counted_outside_strings_only_and_up_to_the_limit_a_body_is_read_as_usual(live):
    seats = [{"type": "human"}, {"type": "human"}]
    in_a_string = msgspec.json.encode({"seats": seats, "kind": "[{" * 500 + '\\"[' + "{" * 100})
    answer = live.post("/games", content=in_a_string, headers=JSON)
    assert "nest" not in assert_problem(answer, 400, "malformed_request")["detail"]  # an unknown kind, not too deep
    at_the_limit = b'{"seats": ' + msgspec.json.encode(seats) + b', "options": ' + _nesting(31) + b"}"
    answer = live.post("/games", content=at_the_limit, headers=JSON)  # 32 levels: read, and refused by type
    assert "nest" not in assert_problem(answer, 400, "malformed_request")["detail"]
    one_more = b'{"seats": ' + msgspec.json.encode(seats) + b', "options": ' + _nesting(32) + b"}"
    assert (
        "32 levels"
        in assert_problem(live.post("/games", content=one_more, headers=JSON), 400, "malformed_request")["detail"]
    )


def _bad_requests(game: str, admin: str, token: str, foreign: str) -> list[tuple[str, str, dict]]:
    """One of each kind of client error (`token`: a seat's that is not awaited; `foreign`: another
    game's): (method, path, httpx arguments)."""
    seat, body = {"Authorization": f"Bearer {token}"}, {"headers": JSON}
    return [
        ("POST", "/games", {"content": DEEP, **body}),
        ("POST", "/games", {"content": b"{not json", **body}),
        ("POST", "/games", {"content": b"\xff", **body}),
        ("POST", "/games", {"json": {"seats": "two"}}),
        ("POST", "/games", {"content": b"{}", "headers": {"Content-Type": "text/plain"}}),
        ("POST", "/games", {"content": b"[" * 70_000, **body}),  # over the body size limit: 413
        ("POST", f"/games/{game}/commands", {"content": DEEP, "headers": {**JSON, **seat}}),
        ("POST", f"/games/{game}/commands", {"json": {"type": "no_such_command"}, "headers": seat}),
        ("POST", f"/games/{game}/commands", {"json": {"type": "pass", "seat": 0}, "headers": seat}),
        ("POST", f"/games/{game}/commands", {"json": {"type": "pass"}, "headers": seat}),  # not your turn: 422
        (
            "POST",
            f"/games/{game}/commands",
            {"json": {"type": "pass"}, "headers": {"Authorization": f"Bearer {foreign}"}},
        ),
        (
            "POST",
            f"/games/{game}/commands",
            {"json": {"type": "pass"}, "params": {"expected_version": 1}, "headers": seat},
        ),
        ("POST", f"/games/{game}/seats/0/claim", {"content": DEEP, **body}),
        ("POST", f"/games/{game}/seats/0/claim", {}),
        (
            "POST",
            f"/games/{game}/seats/1/ai",
            {"content": DEEP, "headers": {**JSON, "Authorization": f"Bearer {admin}"}},
        ),
        ("POST", f"/games/{game}/seats/99/ai", {"json": {"level": "random"}}),
        ("GET", f"/games/{game}/view", {"params": {"version": 3}}),
        ("GET", "/games", {"params": {"cursor": "!"}}),
        ("GET", "/games/0123456789abcdef", {}),
        ("GET", "/games/not-a-game", {}),
        ("GET", "/no/such/file.js", {}),
        ("PUT", "/games", {}),
        ("GET", f"/games/{game}/options", {"headers": {"Authorization": "Basic x"}}),
        ("GET", f"/games/{game}/export", {}),
        ("POST", "/games", {"json": {"seats": []}, "headers": {"Idempotency-Key": "short"}}),
    ]


def _raw_status(base: str, request: bytes) -> int:
    """The status of the answer to these bytes, sent as they are on a connection of their own."""
    with socket.create_connection(urlsplit(base)[1].split(":"), timeout=5) as connection:  # type: ignore[arg-type]
        connection.sendall(request)
        return int(connection.recv(4096).split(b" ", 2)[1])


def test_hundreds_of_bad_requests_are_answered_4xx_and_log_one_short_line_each_and_no_traceback(
    redis_url, prefix, tmp_path
):
    log = tmp_path / "api.log"
    with live_api_process(redis_url, prefix, log=log) as (base, _), httpx.Client(base_url=base, timeout=10) as c:
        (game, admin, tokens), (_, _, foreign) = _game(c), _game(c)
        awaited = c.get(f"/games/{game}").json()["awaiting"]["seat"]
        bad = _bad_requests(game, admin, tokens[1 - awaited], foreign[0])
        before, sent = log.stat().st_size, 0
        for _ in range(12):
            for method, path, arguments in bad:
                answer = c.request(method, path, **arguments)
                assert 400 <= answer.status_code < 500, (method, path, answer.status_code, answer.text[:200])
                sent += 1
            assert _raw_status(base, b"NOT HTTP AT ALL\r\n\r\n") == 400  # refused by the HTTP server itself
            sent += 1
        written = log.read_bytes()[before:].decode()
    assert sent >= 250
    assert "Traceback" not in written and "ERROR" not in written, written[:3000]
    lines = written.splitlines()
    assert len(lines) <= sent and len(written) <= 200 * sent, (len(lines), len(written), lines[:5])
