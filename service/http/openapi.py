"""The OpenAPI document: Litestar's generated schema, made exact enough for clients and schemathesis."""

# Tagged unions get a discriminator (unless two members share a tag), strict Structs forbid extra properties, tuples a fixed length.

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, cast

import msgspec

# Litestar exports no public name for its Struct schema plugin; subclassing it keeps its behaviour.
from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, YamlRenderPlugin
from litestar.openapi.spec import (
    Components,
    Discriminator,
    OpenAPI,
    OpenAPIFormat,
    OpenAPIType,
    Operation,
    Reference,
    RequestBody,
    Schema,
    SecurityScheme,
    Tag,
)
from litestar.openapi.spec.base import BaseSchemaObject
from litestar.plugins import OpenAPISchemaPlugin
from litestar.typing import FieldDefinition

from .docs import swagger_ui
from .models import ByKind

BEARER = "SeatToken"
SEAT_TOKEN: list[dict[str, list[str]]] = [{BEARER: []}]  # a seat token is required
OPTIONAL_TOKEN: list[dict[str, list[str]]] = [{}, {BEARER: []}]  # anonymous callers are spectators
API_VERSION = "2.0.0"  # within a major version the document only grows (tests/contract/test_compatibility.py)


class StrictStructSchemaPlugin(StructSchemaPlugin):
    """msgspec Structs as Litestar documents them, plus `additionalProperties: false` for the
    ones that refuse unknown fields (commands and request bodies), so the schema tells the truth."""

    def to_openapi_schema(self, field_definition: Any, schema_creator: Any) -> Schema:
        schema = super().to_openapi_schema(field_definition, schema_creator)
        config = field_definition.type_.__struct_config__
        if config.forbid_unknown_fields:
            schema.additional_properties = False
        if config.array_like:  # sent as an array of its fields in order (Litestar would say an object)
            fields = msgspec.structs.fields(field_definition.type_)
            assert schema.properties is not None  # a Struct's schema has its fields
            schema.prefix_items = [schema.properties[f.encode_name] for f in fields]
            schema.type, schema.properties, schema.required = OpenAPIType.ARRAY, None, None
            schema.min_items, schema.max_items = sum(f.required for f in fields), len(fields)
        return schema


class ByKindSchemaPlugin(OpenAPISchemaPlugin):
    """A body decoded by its game's kind (models.ByKind) is documented as the union of every game's types."""

    def is_plugin_supported_field(self, field_definition: Any) -> bool:
        return any(isinstance(m, ByKind) for m in field_definition.metadata)

    def to_openapi_schema(self, field_definition: Any, schema_creator: Any) -> Schema:
        union = next(m.union for m in field_definition.metadata if isinstance(m, ByKind))
        return schema_creator.for_field_definition(FieldDefinition.from_annotation(union))


@dataclass
class OptionalBody(Operation):
    """An operation whose body (`T | None`) may be left out (`operation_class`): Litestar marks every
    body required, and documents it as `T` or null, which a generated client then sends for "no body"."""

    def __post_init__(self) -> None:
        if isinstance(self.request_body, RequestBody):
            self.request_body.required = False
            for media in (self.request_body.content or {}).values():  # `T`: a client sends it or nothing
                kept = [o for o in getattr(media.schema, "one_of", None) or [] if getattr(o, "type", 0) != "null"]
                media.schema = kept[0] if len(kept) == 1 else media.schema


def openapi_config() -> OpenAPIConfig:
    """Served at /schema (docs UI), /schema/openapi.json and /schema/openapi.yaml."""
    return OpenAPIConfig(
        title="Pantheon Server",
        version=API_VERSION,
        description=(
            "Event-sourced Pantheon games over HTTP. Errors are RFC 9457 problem details "
            "(`application/problem+json`) with a stable `code`."
        ),
        path="/schema",
        render_plugins=[swagger_ui(), JsonRenderPlugin(), YamlRenderPlugin()],
        components=Components(
            security_schemes={
                BEARER: SecurityScheme(
                    type="http",
                    scheme="bearer",
                    description="A seat token (from claiming a seat) or the game's admin token.",
                )
            }
        ),
        tags=[
            Tag(name="games", description="Create, list and read games; claim seats."),
            Tag(name="play", description="Submit commands and follow a game."),
            Tag(name="operations", description="Health and metrics."),
        ],
        use_handler_docstrings=True,
    )


def finish(openapi: OpenAPI) -> OpenAPI:
    """Add discriminators to unions of tagged Structs and fix tuple lengths, in place (Litestar
    documents neither)."""
    components = openapi.components.schemas if openapi.components and openapi.components.schemas else {}
    for node in _walk(openapi):
        if isinstance(node, Schema):
            if isinstance(node.default, msgspec.Struct):  # e.g. default options: plain JSON for any encoder
                node.default = msgspec.to_builtins(node.default)
            _fix_tuple(node)
            _add_discriminator(node, components)
    for item in (openapi.paths or {}).values():
        for operation in (item.get, item.post):
            for response in ((operation.responses or {}) if operation else {}).values():
                content = getattr(response, "content", None) or {}
                if isinstance(getattr(content.get("application/octet-stream"), "schema", None), Schema):
                    content["application/octet-stream"].schema.format = OpenAPIFormat.BINARY  # a download: bytes
                if "text/event-stream" in content:  # frames, not one document: no schema a generator would parse
                    content["text/event-stream"].schema = None
    if components is not None and openapi.components is not None:
        components["StreamMessage"] = STREAM_MESSAGE
    return openapi


# One Server-Sent Event of GET /games/{id}/stream, for documentation (the stream is text/event-stream).
STREAM_MESSAGE = Schema(
    type=OpenAPIType.OBJECT,
    title="StreamMessage",
    required=["id", "data"],
    description="One Server-Sent Event of stream_events (the stream is text/event-stream, read it with an SSE "
    "client): `id` is the event's version (send it back as Last-Event-ID), `data` the event in JSON, "
    "as an item of list_events' `events`.",
    properties={
        "id": Schema(type=OpenAPIType.STRING, pattern="^[0-9]+$"),
        "event": Schema(type=OpenAPIType.STRING, const="message"),
        "data": Schema(type=OpenAPIType.STRING, content_media_type="application/json"),
    },
)


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
    if schema.prefix_items and schema.max_items is None and schema.min_items is None:
        schema.min_items = schema.max_items = len(schema.prefix_items)


def _add_discriminator(schema: Schema, components: dict[str, Schema]) -> None:
    options = schema.one_of or []
    if len(options) < 2 or schema.discriminator or not all(isinstance(o, Reference) for o in options):
        return
    for field in ("type", "kind"):  # commands and events are tagged by `type`, a game's answers by `kind`
        mapping: dict[str, str] = {}
        for ref in cast("list[Reference]", options):  # all are, as checked above
            target = components.get(ref.ref.rsplit("/", 1)[-1])
            tag = (target.properties or {}).get(field) if target else None
            if (
                target is None  # then tag is None too
                or not isinstance(tag, Schema)
                or not isinstance(tag.const, str)
                or field not in (target.required or [])
            ):
                break
            if mapping.get(tag.const, ref.ref) != ref.ref:  # two games' commands share a tag: no discriminator
                break
            mapping[tag.const] = ref.ref
        else:
            schema.discriminator = Discriminator(property_name=field, mapping=dict(sorted(mapping.items())))
            return


def tagged(union: Any) -> list[str | int | None]:
    """The tags of a union of tagged Structs (for descriptions)."""
    return [
        t.__struct_config__.tag
        for t in getattr(union, "__args__", ())
        if isinstance(t, type) and issubclass(t, msgspec.Struct)
    ]
