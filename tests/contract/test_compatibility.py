"""Within a major version the API only grows: the document the code generates is compared with the
committed baseline of its major version (openapi/baseline-<major>.0.0.json), but for the breaking
changes noted in ACCEPTED with their reasons, and the comparator is tested on planted breaking and
non-breaking changes."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from service.http.openapi import API_VERSION
from service.http.openapi_export import document

from .compat import breaking_changes

ROOT = Path(__file__).resolve().parents[2]
MAJOR = API_VERSION.split(".")[0]
BASELINE = ROOT / "openapi" / f"baseline-{MAJOR}.0.0.json"


@pytest.fixture(scope="module")
def baseline() -> dict:
    return json.loads(BASELINE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def current() -> dict:
    return document()


# Breaking changes made on purpose within the major version, each with why clients of the baseline
# must live with it (a security fix cannot wait for the next major version). A note whose change is
# no longer found must go.
ACCEPTED = {
    "POST /games/{game_id}/seats/{seat}/token 201: #/components/schemas/SeatClaimed became "
    "#/components/schemas/Invite": "issue 23 §4: re-issuing a seat handed the admin a working token of another person's seat (its "
    "hidden hand included); it now answers a one-time invite code for the seat, never a token",
    "POST /games/{game_id}/seats/{seat}/claim request: inline schema became #/components/schemas/ClaimRequest": "issue 24 "
    "§4: the claim's body is optional (`required: false`), a ClaimRequest or nothing, where it was a required "
    "ClaimRequest or null (a generated client had to send one, and sent its 'unset' as JSON when left out); the "
    "server still takes null, so no client of the baseline breaks",
}


def test_the_api_is_the_baseline_of_its_major_version_or_only_adds_to_it(baseline, current):
    assert baseline["info"]["version"].split(".")[0] == MAJOR
    found = breaking_changes(baseline, current)
    assert [change for change in found if change not in ACCEPTED] == []
    assert sorted(set(ACCEPTED) - set(found)) == []


def _schemas(doc: dict) -> dict:
    return doc["components"]["schemas"]


def _edit(doc: dict, change) -> dict:
    changed = copy.deepcopy(doc)
    change(changed)
    return changed


def _new_required_request_field(d):
    _schemas(d)["PantheonMove"]["properties"]["hurry"] = {"type": "boolean"}
    _schemas(d)["PantheonMove"]["required"].append("hurry")


BREAKING = {
    "a route removed": lambda d: d["paths"].pop("/games/{game_id}/score"),
    "an operation removed": lambda d: d["paths"]["/games"].pop("post"),
    "a response removed": lambda d: d["paths"]["/games/{game_id}"]["get"]["responses"].pop("404"),
    "a schema removed": lambda d: _schemas(d).pop("SeatHanded"),
    "an answer's property removed": lambda d: _schemas(d)["GameSummary"]["properties"].pop("open_seats"),
    "a property made required": lambda d: _schemas(d)["PantheonRefers"].setdefault("required", []).append("cards"),
    "an enum narrowed": lambda d: _schemas(d)["GameSummary"]["properties"]["status"]["enum"].remove("open"),
    "a type changed": lambda d: _schemas(d)["Awaiting"]["properties"]["seat"].update(type="string"),
    "a new required request field": _new_required_request_field,
    "a union member removed": lambda d: d["paths"]["/games/{game_id}/commands"]["post"]["requestBody"]["content"][
        "application/json"
    ]["schema"]["oneOf"].pop(),
    "a query parameter made required": lambda d: next(
        p for p in d["paths"]["/games"]["get"]["parameters"] if p["name"] == "limit"
    ).update(required=True),
    "a request limit tightened": lambda d: _schemas(d)["CreateGameRequest"]["properties"]["seats"].update(maxItems=3),
    "an answer's type replaced by a union without it": lambda d: _replace(
        _answer_of_get_game(d), {"oneOf": [{"$ref": "#/components/schemas/PergamonGameDetail"}]}
    ),
    "a const changed into an enum without it": lambda d: _replace(
        _schemas(d)["GameSummary"]["properties"]["kind"], {"type": "string", "enum": ["pergamon"]}
    ),
}


def _replace(schema: dict, by: dict) -> None:
    schema.clear()
    schema.update(by)


def _answer_of_get_game(d) -> dict:
    return d["paths"]["/games/{game_id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]


def _second_game(d):
    """What adding a game does: one answer type becomes a union of the games' (discriminated by `kind`),
    and the `kind` that was one game's becomes an enum of both."""
    _replace(
        _answer_of_get_game(d),
        {
            "oneOf": [
                {"$ref": "#/components/schemas/PantheonGameDetail"},
                {"$ref": "#/components/schemas/PergamonGameDetail"},
            ]
        },
    )
    _schemas(d)["PergamonGameDetail"] = {"type": "object"}
    _schemas(d)["GameSummary"]["properties"]["kind"] = {"type": "string", "enum": ["pantheon", "pergamon"]}


def _new_route(d):
    d["paths"]["/games/{game_id}/chat"] = {
        "get": {
            "operationId": "read_chat",
            "responses": {
                "200": {
                    "description": "ok",
                    "content": {"application/json": {"schema": {"type": "array", "items": {"type": "string"}}}},
                }
            },
        }
    }


def _new_union_member(d):
    _schemas(d)["PantheonSurrender"] = {
        "type": "object",
        "properties": {"type": {"const": "surrender"}},
        "required": ["type"],
        "additionalProperties": False,
    }
    d["paths"]["/games/{game_id}/commands"]["post"]["requestBody"]["content"]["application/json"]["schema"][
        "oneOf"
    ].append({"$ref": "#/components/schemas/PantheonSurrender"})


NOT_BREAKING = {
    "a new route": _new_route,
    "a new optional request field": lambda d: _schemas(d)["PantheonMove"]["properties"].update(note={"type": "string"}),
    "a new answer property": lambda d: _schemas(d)["GameSummary"]["properties"].update(title={"type": "string"}),
    "a new enum value in an answer": lambda d: _schemas(d)["GameSummary"]["properties"]["status"]["enum"].append(
        "paused"
    ),
    "a new schema": lambda d: _schemas(d).update(PergamonView={"type": "object"}),
    "a new command": _new_union_member,
    "a second game": _second_game,
    "a new response": lambda d: d["paths"]["/games/{game_id}"]["get"]["responses"].update(
        {"304": {"description": "Not modified"}}
    ),
    "a request body made optional": lambda d: d["paths"]["/games/{game_id}/fork"]["post"]["requestBody"].update(
        required=False
    ),
}


@pytest.mark.parametrize("name", BREAKING)
def test_the_comparator_finds_a_planted_breaking_change(baseline, name):
    assert breaking_changes(baseline, _edit(baseline, BREAKING[name])), name


@pytest.mark.parametrize("name", NOT_BREAKING)
def test_the_comparator_accepts_a_planted_addition(baseline, name):
    assert breaking_changes(baseline, _edit(baseline, NOT_BREAKING[name])) == [], name
