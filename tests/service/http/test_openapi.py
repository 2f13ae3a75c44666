"""The OpenAPI document: committed, current, served, and exact enough for generated clients."""

from __future__ import annotations

import json

from service.http.models import CONTRACTS
from service.http.openapi_export import DEFAULT_PATH, document, render

from ..api_helpers import api_client

REGENERATE = "openapi/openapi.json is stale; regenerate it with: .venv/bin/python -m service.http.openapi_export"


def test_the_committed_openapi_document_is_the_one_the_code_generates():
    assert DEFAULT_PATH.exists(), REGENERATE
    assert DEFAULT_PATH.read_text(encoding="utf-8") == render(), REGENERATE


async def test_the_api_serves_the_same_document(redis_url, prefix):
    async with api_client(redis_url, prefix) as client:
        served = await client.get("/schema/openapi.json")
        docs = await client.get("/schema")

    assert served.status_code == 200 and served.json() == json.loads(render())
    assert docs.status_code == 200 and "text/html" in docs.headers["content-type"]


def test_every_operation_has_an_explicit_snake_case_id_a_tag_and_problem_responses():
    operations = [op for path in document()["paths"].values() for op in path.values()]
    ids = [op["operationId"] for op in operations]

    assert sorted(ids) == sorted(
        {
            "create_game",
            "list_games",
            "get_game",
            "claim_seat",
            "submit_command",
            "get_options",
            "get_option_blocks",
            "get_view",
            "get_page",
            "get_score",
            "list_events",
            "stream_events",
            "health_live",
            "health_ready",
            "metrics",
            "fork_game",
            "audit_game",
            "list_rejected",
            "export_game",
            "hand_seat_to_ai",
            "take_seat_back",
            "reissue_seat_token",
            "name_seat",
            "rematch_game",
            "get_glossary",
        }
    )
    for op in operations:
        assert op["tags"]
        for status, response in op["responses"].items():
            if status.startswith(("4", "5")):
                assert list(response["content"]) == ["application/problem+json"], (op["operationId"], status)


def test_a_body_is_required_where_the_operation_needs_one_and_optional_for_a_claim():
    bodies = {
        op["operationId"]: op["requestBody"]
        for item in document()["paths"].values()
        for op in item.values()
        if "requestBody" in op
    }

    assert sorted(bodies) == [
        "claim_seat",
        "create_game",
        "fork_game",
        "hand_seat_to_ai",
        "name_seat",
        "submit_command",
    ]
    claim = bodies.pop("claim_seat")  # an open seat is claimed with no body (not with `null`)
    assert claim == {
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ClaimRequest"}}},
        "required": False,
    }
    assert all(body["required"] is True for body in bodies.values())


def test_commands_are_a_union_of_strict_objects_tagged_by_type():
    """Every game's commands, each tagged by `type`; two games share the tag `draw_card`, so the
    union has no discriminator (its mapping would send one game's command to the other's schema):
    the game's kind, from the path's game, says which game's command a body is."""
    doc = document()
    body = doc["paths"]["/games/{game_id}/commands"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    schemas = doc["components"]["schemas"]

    refs = [option["$ref"] for option in body["oneOf"]]
    tags = [schemas[ref.rsplit("/", 1)[-1]]["properties"]["type"]["const"] for ref in refs]
    assert {"move", "buy", "gain_god", "draw_card", "pass", "play_card", "commit_war_columns"} <= set(tags)
    assert len(tags) > len(set(tags)) and "discriminator" not in body
    mapping = dict(zip(tags, refs))
    for ref in refs:
        schema = schemas[ref.rsplit("/", 1)[-1]]
        assert "type" in schema["required"] and schema["additionalProperties"] is False
    hex_ = schemas["PantheonMovePlacement"]["properties"]["hex"]
    assert hex_["minItems"] == hex_["maxItems"] == 2
    assert not any("seat" in schemas[ref.rsplit("/", 1)[-1]]["properties"] for ref in mapping.values())
    assert "create_game" not in mapping and all(
        ref.rsplit("/", 1)[-1].startswith(tuple(c.name for c in CONTRACTS.values())) for ref in mapping.values()
    )


def test_seat_tokens_are_documented_as_bearer_security():
    doc = document()
    paths = doc["paths"]

    assert doc["components"]["securitySchemes"]["SeatToken"] == {
        "type": "http",
        "scheme": "bearer",
        "description": doc["components"]["securitySchemes"]["SeatToken"]["description"],
    }
    assert paths["/games/{game_id}/commands"]["post"]["security"] == [{"SeatToken": []}]
    assert paths["/games/{game_id}/events"]["get"]["security"] == [{}, {"SeatToken": []}]
