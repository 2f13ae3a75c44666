"""The OpenAPI document: Litestar's generated schema, made exact enough for clients and schemathesis."""

# Tagged unions get a discriminator, strict Structs forbid extra properties, tuples a fixed length.

from __future__ import annotations

from dataclasses import fields
from typing import Any

import msgspec

# Litestar exports no public name for its Struct schema plugin; subclassing it keeps its behaviour.
from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import (
    JsonRenderPlugin,
    SwaggerRenderPlugin,
    YamlRenderPlugin,
)
from litestar.openapi.spec import (
    Components,
    Discriminator,
    OpenAPI,
    Reference,
    Schema,
    SecurityScheme,
    Tag,
)
from litestar.openapi.spec.base import BaseSchemaObject

BEARER = "SeatToken"
SEAT_TOKEN = [{BEARER: []}]  # a seat token is required
OPTIONAL_TOKEN = [{}, {BEARER: []}]  # anonymous callers are spectators
API_VERSION = "1.0.0"


class StrictStructSchemaPlugin(StructSchemaPlugin):
    """msgspec Structs as Litestar documents them, plus `additionalProperties: false` for the
    ones that refuse unknown fields (commands and request bodies), so the schema tells the truth."""

    def to_openapi_schema(self, field_definition: Any, schema_creator: Any) -> Schema:
        schema = super().to_openapi_schema(field_definition, schema_creator)
        if field_definition.type_.__struct_config__.forbid_unknown_fields:
            schema.additional_properties = False
        return schema


def openapi_config() -> OpenAPIConfig:
    """Served at /schema (docs UI), /schema/openapi.json and /schema/openapi.yaml."""
    return OpenAPIConfig(
        title="Pantheon Server",
        version=API_VERSION,
        description=("Event-sourced Pantheon games over HTTP. Errors are RFC 9457 problem details "
                     "(`application/problem+json`) with a stable `code`."),
        path="/schema",
        render_plugins=[SwaggerRenderPlugin(path="/"), JsonRenderPlugin(), YamlRenderPlugin()],
        components=Components(security_schemes={BEARER: SecurityScheme(
            type="http", scheme="bearer",
            description="A seat token (from claiming a seat) or the game's admin token.")}),
        tags=[Tag(name="games", description="Create, list and read games; claim seats."),
              Tag(name="play", description="Submit commands and follow a game."),
              Tag(name="operations", description="Health and metrics.")],
        use_handler_docstrings=True,
    )


def finish(openapi: OpenAPI) -> OpenAPI:
    """Add discriminators to unions of tagged Structs and fix tuple lengths, in place."""
    components = openapi.components.schemas if openapi.components and openapi.components.schemas else {}
    for node in _walk(openapi):
        if isinstance(node, Schema):
            if isinstance(node.default, msgspec.Struct):  # e.g. default options: plain JSON for any encoder
                node.default = msgspec.to_builtins(node.default)
            _fix_tuple(node)
            _add_discriminator(node, components)
    return openapi


def _walk(node: Any, seen: set[int] | None = None):
    seen = set() if seen is None else seen
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, BaseSchemaObject):
        yield node
        for f in fields(node):
            yield from _walk(getattr(node, f.name, None), seen)
    elif isinstance(node, dict):
        for value in node.values():
            yield from _walk(value, seen)
    elif isinstance(node, (list, tuple)):
        for value in node:
            yield from _walk(value, seen)


def _fix_tuple(schema: Schema) -> None:
    if schema.prefix_items and schema.max_items is None:
        schema.min_items = schema.max_items = len(schema.prefix_items)


def _add_discriminator(schema: Schema, components: dict[str, Schema]) -> None:
    options = schema.one_of or []
    if len(options) < 2 or schema.discriminator or not all(isinstance(o, Reference) for o in options):
        return
    mapping = {}
    for ref in options:
        target = components.get(ref.ref.rsplit("/", 1)[-1])
        tag = (target.properties or {}).get("type") if target else None
        if not isinstance(tag, Schema) or not isinstance(tag.const, str) or "type" not in (target.required or []):
            return
        mapping[tag.const] = ref.ref
    schema.discriminator = Discriminator(property_name="type", mapping=dict(sorted(mapping.items())))


def tagged(union: Any) -> list[str]:
    """The tags of a union of tagged Structs (for descriptions)."""
    return [t.__struct_config__.tag for t in getattr(union, "__args__", ()) if isinstance(t, type)
            and issubclass(t, msgspec.Struct)]

