"""Players' display names over HTTP against a live `pantheon api`: chosen at creation or when
claiming a seat, changed by the seat's own token, refused with a stable code when the game cannot
take them (and then nothing changes), and recorded in the game's log, so every text, the audit and
the export carry them. A name is untrusted text: what an attacker types comes back as the same
characters in JSON, never anything else."""

from __future__ import annotations

import unicodedata
import uuid

import httpx
import pytest

from service.store.connection import connect_sync
from tests.service.live import live_api

from ..api_helpers import assert_problem, bearer

SCRIPT = "<script>alert()</script>"  # 24 characters
SVG = '"><svg onload=alert(1)>'


@pytest.fixture(scope="module")
def api(redis_url):
    """One live `pantheon api` for the module's tests, on a prefix of its own, deleted at the end."""
    name = f"test-{uuid.uuid4().hex[:10]}"
    try:
        with live_api(redis_url, name) as base, httpx.Client(base_url=base, timeout=10) as client:
            yield client
    finally:
        redis = connect_sync(redis_url)
        keys = list(redis.scan_iter(match=f"*{name}*", count=1000))
        if keys:
            redis.delete(*keys)
        redis.close()


def _game(api, name: str | None = "Ann") -> tuple[str, str, dict]:
    """A two-player Pantheon game: seat 0 the creator's (named `name`), seat 1 behind an invite."""
    creator = {"type": "human", "holder": "creator", **({"name": name} if name else {})}
    answer = api.post("/games", json={"seats": [creator, {"type": "human", "holder": "invite"}]})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    return body["game"], body["seats"][0]["token"], body


def _seats(api, game: str) -> list:
    return [s["name"] for s in api.get(f"/games/{game}").json()["seats"]]


def test_a_name_chosen_at_creation_and_when_claiming_shows_in_the_game_and_its_texts(api):
    game, ann, body = _game(api)
    assert body["seats"][0]["name"] == "Ann"
    code = body["invites"][0]["code"]
    claimed = api.post(f"/games/{game}/seats/1/claim", json={"invite": code, "name": SCRIPT})
    assert claimed.status_code == 201 and claimed.json()["name"] == SCRIPT
    assert _seats(api, game) == ["Ann", SCRIPT]
    texts = [e["text"] for e in api.get(f"/games/{game}/events").json()["events"]]
    assert "Player A chose the name “Ann”." in texts and f"Player B chose the name “{SCRIPT}”." in texts
    bob = claimed.json()["token"]
    mine = [e["text"] for e in api.get(f"/games/{game}/events", headers=bearer(bob)).json()["events"]]
    assert f"You chose the name “{SCRIPT}”." in mine
    renamed = api.put(f"/games/{game}/seats/1/name", json={"name": SVG}, headers=bearer(bob))
    assert renamed.status_code == 200 and renamed.json() == {"seat": 1, "name": SVG}
    later = api.get(f"/games/{game}/events", headers=bearer(ann)).json()["events"][-1]["text"]
    assert later == f"{SCRIPT} chose the name “{SVG}”."  # told with the names of its moment
    assert _seats(api, game) == ["Ann", SVG]


def test_a_players_move_is_told_with_their_name(api):
    game, ann, body = _game(api)
    claimed = api.post(f"/games/{game}/seats/1/claim", json={"invite": body["invites"][0]["code"], "name": "Bob"})
    tokens, names = [ann, claimed.json()["token"]], ["Ann", "Bob"]
    seat = api.get(f"/games/{game}").json()["awaiting"]["seat"]  # the first seat is drawn
    options = api.get(f"/games/{game}/options", headers=bearer(tokens[seat])).json()
    command = next(c["command"] for c in options["choices"] if c.get("command"))
    before = api.get(f"/games/{game}").json()["version"]
    assert api.post(f"/games/{game}/commands", json=command, headers=bearer(tokens[seat])).status_code == 201
    texts = [e["text"] for e in api.get(f"/games/{game}/events", params={"after": before}).json()["events"]]
    assert texts[0].startswith(names[seat] + " ") and not [t for t in texts if "Player" in t], texts


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("a" * 25, "name_length"),
        ("   ", "name_length"),
        ("\u202eevil", "name_forbidden_character"),
        ("Ann\u2066x", "name_forbidden_character"),
        ("two\nlines", "name_forbidden_character"),
        ("zero\u200bwidth", "name_forbidden_character"),
        ("You", "name_reserved"),
        ("player b", "name_reserved"),
        ("AI (strong)", "name_reserved"),
        ("Seat 1", "name_reserved"),
        ("ANN", "name_taken"),
        ("Ａnn", "name_taken"),
    ],
)
def test_a_name_the_game_cannot_take_is_refused_with_its_code_and_changes_nothing(api, name, code):
    game, _, body = _game(api)
    version = api.get(f"/games/{game}").json()["version"]
    refused = api.post(f"/games/{game}/seats/1/claim", json={"invite": body["invites"][0]["code"], "name": name})
    assert_problem(refused, 422, code)
    assert api.get(f"/games/{game}").json()["seats"][1]["claimed"] is False  # the seat was not taken either
    assert api.get(f"/games/{game}").json()["version"] == version


def test_names_differing_only_in_normal_form_are_one_name_stored_composed(api):
    game, ann, body = _game(api, name="Zoe\u0308")  # e + combining diaeresis
    assert body["seats"][0]["name"] == "Zoë" == unicodedata.normalize("NFC", "Zoe\u0308")
    claimed = api.post(f"/games/{game}/seats/1/claim", json={"invite": body["invites"][0]["code"], "name": "ZOË"})
    assert_problem(claimed, 422, "name_taken")
    assert api.put(f"/games/{game}/seats/0/name", json={"name": "a" * 24}, headers=bearer(ann)).status_code == 200


def test_only_the_seats_own_token_names_it(api):
    game, ann, body = _game(api)
    bob = api.post(f"/games/{game}/seats/1/claim", json={"invite": body["invites"][0]["code"]}).json()["token"]
    assert_problem(api.put(f"/games/{game}/seats/0/name", json={"name": "Eve"}), 401, "missing_token")
    assert_problem(api.put(f"/games/{game}/seats/0/name", json={"name": "Eve"}, headers=bearer(bob)), 403, "wrong_seat")
    admin = body["admin_token"]
    assert_problem(
        api.put(f"/games/{game}/seats/0/name", json={"name": "Eve"}, headers=bearer(admin)), 403, "wrong_token"
    )
    assert _seats(api, game) == ["Ann", None]


def test_a_name_at_creation_is_for_the_creators_own_seat_only(api):
    seats = [{"type": "human", "holder": "creator"}, {"type": "human", "holder": "invite", "name": "Bob"}]
    assert_problem(api.post("/games", json={"seats": seats}), 422, "wrong_seat_claim")


def test_the_audit_and_the_export_carry_the_names(api):
    game, ann, body = _game(api)
    api.post(f"/games/{game}/seats/1/claim", json={"invite": body["invites"][0]["code"], "name": SVG})
    audit = api.get(f"/games/{game}/audit").json()
    assert not [c for c in audit["checks"] if c["ok"] is False], audit["checks"]
    assert any(SVG in line["text"] for line in audit["story_events"])


def test_a_claim_retried_with_its_key_and_another_name_is_refused_and_changes_nothing(api):
    game, _, body = _game(api)
    claim, key = {"invite": body["invites"][0]["code"], "name": "Bob"}, {"Idempotency-Key": uuid.uuid4().hex}
    first = api.post(f"/games/{game}/seats/1/claim", json=claim, headers=key)
    assert first.status_code == 201, first.text
    again = api.post(f"/games/{game}/seats/1/claim", json=claim, headers=key)  # a retry: its first answer
    assert again.status_code == 201 and again.json()["token"] == first.json()["token"]
    other = api.post(f"/games/{game}/seats/1/claim", json={**claim, "name": "Cy"}, headers=key)
    assert_problem(other, 422, "idempotency_key_reused")
    assert _seats(api, game) == ["Ann", "Bob"]
