"""Names a generator derives never collide: openapi-python-client names an inline enum of property
`p` of schema `S` as `S` + `P` (PascalCase), which once met the schema `PlacePiece` and made it drop
submit_command; game schemas carry the game's name."""

from __future__ import annotations

import typing

from domain import games
from service.http.openapi_export import document


def _pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.replace("-", "_").split("_"))


def _enum_names(schemas: dict) -> dict[str, str]:
    found = {}
    for name, schema in schemas.items():
        for prop, sub in (schema.get("properties") or {}).items():
            options = [sub, *sub.get("oneOf", []), *(sub.get("items", {}),)]
            if any("enum" in o for o in options if isinstance(o, dict)):
                found[name + _pascal(prop)] = f"{name}.{prop}"
    return found


def test_no_generated_enum_name_is_also_a_schema_name():
    schemas = document()["components"]["schemas"]
    clashes = {enum: where for enum, where in _enum_names(schemas).items() if enum in schemas}
    assert clashes == {}


def test_schemas_of_a_game_carry_its_name():
    schemas = set(document()["components"]["schemas"])
    for game in games.GAMES.values():
        name, contract = game.contract.name, game.contract
        assert {f"{name}View", f"{name}GameDetail", f"{name}Choices", f"{name}Events", f"{name}Score"} <= schemas
        commands = {t.__name__ for t in typing.get_args(contract.command)}
        events = {t.__name__ for t in typing.get_args(contract.event)}
        assert commands <= schemas and all(c.startswith(name) for c in commands), commands
        assert events <= schemas and all(e.startswith(f"{name}Event") for e in events), events
    assert {"PantheonMove", "PantheonEventMoved", "PergamonExhibit", "PergamonEventExhibited"} <= schemas
    assert not {"Move", "View", "Place", "PlacePiece", "EventOut", "Choices", "GameDetail"} & schemas
