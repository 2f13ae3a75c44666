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

    assert sorted(ids) == sorted({
        "create_game", "list_games", "get_game", "claim_seat", "submit_command", "get_options", "get_option_blocks",
            "get_view", "get_score",
        "list_events", "stream_events", "health_live", "health_ready", "metrics",
        "fork_game", "audit_game", "list_rejected", "export_game", "hand_seat_to_ai", "take_seat_back",
        "reissue_seat_token"})
    for op in operations:
        assert op["tags"]
        for status, response in op["responses"].items():
            if status.startswith(("4", "5")):
                assert list(response["content"]) == ["application/problem+json"], (op["operationId"], status)


def test_commands_are_a_discriminated_union_of_strict_objects():
    doc = document()
    body = doc["paths"]["/games/{game_id}/commands"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    schemas = doc["components"]["schemas"]

    mapping = body["discriminator"]["mapping"]
    assert body["discriminator"]["propertyName"] == "type"
    assert {"move", "buy", "gain_god", "draw_card", "pass"} <= set(mapping)
    assert sorted(mapping.values()) == sorted(option["$ref"] for option in body["oneOf"])
    for tag, ref in mapping.items():
        schema = schemas[ref.rsplit("/", 1)[-1]]
        assert schema["properties"]["type"]["const"] == tag and "type" in schema["required"]
        assert schema["additionalProperties"] is False
    hex_ = schemas["PantheonMovePlacement"]["properties"]["hex"]
    assert hex_["minItems"] == hex_["maxItems"] == 2
    assert not any("seat" in schemas[ref.rsplit("/", 1)[-1]]["properties"] for ref in mapping.values())
    assert "create_game" not in mapping and all(
        ref.rsplit("/", 1)[-1].startswith(tuple(c.name for c in CONTRACTS.values())) for ref in mapping.values())


def test_seat_tokens_are_documented_as_bearer_security():
    doc = document()
    paths = doc["paths"]

    assert doc["components"]["securitySchemes"]["SeatToken"] == {
        "type": "http", "scheme": "bearer", "description": doc["components"]["securitySchemes"]["SeatToken"]["description"]}
    assert paths["/games/{game_id}/commands"]["post"]["security"] == [{"SeatToken": []}]
    assert paths["/games/{game_id}/events"]["get"]["security"] == [{}, {"SeatToken": []}]
