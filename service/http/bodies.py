"""Request bodies, decoded once and strictly from their bytes into the type their route documents.

StrictRequests reads a body before the handler runs (its bytes checked first: JSON, UTF-8, depth) and
stores what `read` makes of it; `StrictBody` hands that to the handler as its `data`. A body whose
type a game's kind says (models.ByKind) is decoded as that kind's type: a command as the type of
the game's kind, a create request as that of the `kind` it names. Only a body that fails the strict
decoder is read again, the slow way, to say what is wrong in the words the API documents (and to
take 60.0 for 60: JSON has one number type); so a good body costs one pass of msgspec's decoder."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
from litestar import Request
from litestar.dto import AbstractDTO
from litestar.typing import FieldDefinition

from domain.games import DEFAULT_KIND
from service.errors import Code, ServiceError

from .auth import TOKEN_SEAT
from .models import ByKind

BODY = "strict_body"  # request state: the body as `read` decoded it
_ANY = msgspec.json.Decoder()


class _Kind(msgspec.Struct):
    """The `kind` a create request names (its other fields are skipped, not decoded)."""

    kind: Any = DEFAULT_KIND


_KIND = msgspec.json.Decoder(_Kind)


async def read(request: Request, field: FieldDefinition, body: bytes) -> Any:
    """The body as the type of the route's `data` (`field`); 400 (or 422 `wrong_kind`) when it is not one."""
    by_kind = next((m for m in field.metadata if isinstance(m, ByKind)), None)
    if by_kind is None:
        return _decoded(body, _decoder(field.annotation), lambda: decoded(_json(body), field.annotation))
    if by_kind.kind_from == "body":
        return _create_request(body, by_kind)
    seat = request.state.get(TOKEN_SEAT)  # checked before (None: no seat token, which the handler refuses)
    kind = None if seat is None else await request.app.state.service.kind(request.path_params["game_id"])
    return _command(body, by_kind, kind)


@cache
def _decoder(tp: Any) -> msgspec.json.Decoder:
    return msgspec.json.Decoder(tp)


def _decoded(body: bytes, decoder: msgspec.json.Decoder, slowly: Any) -> Any:
    try:
        return decoder.decode(body)
    except msgspec.DecodeError:  # not exactly the type: read again to say why (or to take 60.0 for 60)
        return slowly()


def _create_request(body: bytes, by_kind: ByKind) -> Any:
    try:
        kind = _KIND.decode(body).kind
    except msgspec.DecodeError:
        kind = None
    if not isinstance(kind, str) or kind not in by_kind.types:
        return _create_request_slowly(body, by_kind)
    return _decoded(body, by_kind.decoders[kind], lambda: _create_request_slowly(body, by_kind))


def _create_request_slowly(body: bytes, by_kind: ByKind) -> Any:
    value = decoded(_json(body), dict[str, Any])
    kind = value.get("kind", DEFAULT_KIND)
    if not isinstance(kind, str) or kind not in by_kind.types:
        raise ServiceError(
            Code.MALFORMED_REQUEST,
            f"The request is malformed: Expected one of {', '.join(map(repr, by_kind.types))} - at `$.kind` "
            "(in the body).",
        )
    return decoded(value, by_kind.types[kind])


def _command(body: bytes, by_kind: ByKind, kind: str | None) -> Any:
    """A seat's command as the wire type of the game's `kind` (None: the caller holds no seat, so only
    what is wrong with the body itself is said, before the handler refuses the caller)."""
    if kind is None:
        return _command_slowly(body, by_kind, None)
    return _decoded(body, by_kind.decoders[kind], lambda: _command_slowly(body, by_kind, kind))


def _command_slowly(body: bytes, by_kind: ByKind, kind: str | None) -> Any:
    value = _json(body)
    if isinstance(value, dict) and "seat" in value:
        raise ServiceError(
            Code.SEAT_IN_COMMAND,
            "A command names no seat: the seat is the one your token holds. Send the command without `seat`.",
        )
    if isinstance(value, dict) and value.get("type") == "create_game":  # every game's command that starts it
        raise ServiceError(Code.NOT_A_SEAT_COMMAND, "Only a seat's commands go here; create games with POST /games.")
    if isinstance(value, dict) and value.get("type") == "time_out":  # the clock keeper's, in no client's reach
        raise ServiceError(
            Code.NOT_A_SEAT_COMMAND, "Only the server's clock keeper times a seat out; send one of your seat's moves."
        )
    value = decoded(value, dict[str, Any])
    if kind is None:
        return value
    tag = value.get("type")  # another game's command (and none of this one's): 422 wrong_kind
    wrong_kind = ServiceError(Code.WRONG_KIND, f"This is a {kind} game: send one of its commands.")
    if tag not in by_kind.tags[kind] and any(tag in tags for tags in by_kind.tags.values()):
        raise wrong_kind
    try:
        return decoded(value, by_kind.types[kind])
    except ServiceError as error:  # a tag two games share: a whole command of the other game is still 422
        if any(_is_a(value, by_kind.types[other]) for other in by_kind.types if other != kind):
            raise ServiceError(
                Code.WRONG_KIND, f"This is a {kind} game and this is another game's command: {error.message}"
            ) from None
        raise


def _is_a(value: Any, tp: Any) -> bool:
    try:
        decoded(value, tp)
    except ServiceError:
        return False
    return True


def _json(body: bytes) -> Any:
    try:
        return _ANY.decode(body)
    except msgspec.DecodeError as error:
        raise ServiceError(Code.MALFORMED_REQUEST, f"The request body is not JSON: {error}.") from None


def decoded(value: Any, tp: Any) -> Any:
    """A JSON body (builtins) as `tp`, strictly: 400 `malformed_request` when it is not one."""
    try:
        return msgspec.convert(_whole_numbers(value), tp, strict=True)
    except msgspec.ValidationError as error:
        raise ServiceError(Code.MALFORMED_REQUEST, f"The request is malformed: {error} (in the body).") from None


def _whole_numbers(value: Any) -> Any:
    """JSON (and JSON Schema) has one number type: 60.0 is the integer 60, "60" is not a number."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_whole_numbers(v) for v in value]
    if isinstance(value, dict):
        return {k: _whole_numbers(v) for k, v in value.items()}
    return value


class StrictBody(AbstractDTO):
    """Litestar's way to own the decoding of a body (a DTO), used to hand the handler the body that
    `read` decoded: Litestar would decode it again, and laxly ("0" for 0). No library reads a body as
    the type a game's kind says; the document shows the type the handler declares."""

    @classmethod
    def generate_field_definitions(cls, model_type: type[Any]) -> Any:
        return iter(())  # no fields of its own to transfer: the body is decoded whole

    @classmethod
    def detect_nested_field(cls, field_definition: FieldDefinition) -> bool:
        return False

    @classmethod
    def is_supported_model_type_field(cls, field_definition: FieldDefinition) -> bool:
        return False  # answers are encoded as usual

    @classmethod
    def create_for_field_definition(cls, field_definition: FieldDefinition, handler_id: str, backend_cls=None) -> None:
        pass  # nothing to build: the decoders are made once per type

    @classmethod
    def create_openapi_schema(cls, field_definition: FieldDefinition, handler_id: str, schema_creator: Any) -> Any:
        return schema_creator.for_field_definition(field_definition)

    def decode_bytes(self, value: bytes) -> Any:
        return self.asgi_connection.state[BODY]
