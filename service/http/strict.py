"""Strict, honest HTTP around the handlers: request bodies are JSON (415 otherwise), valid UTF-8
and of exactly the documented types (no "0" for 0: 400), query parameters are the documented ones
(400 otherwise), a command names no seat (400 `seat_in_command`: the token says it), a token sent to a game is one of its tokens (403 otherwise), and HEAD is answered
wherever GET is."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
from litestar import Litestar, Request
from litestar.types import Receive, Scope, Send

from service.write import ServiceError

from .auth import TOKEN_SEAT, bearer

_JSON_TYPES = ("application/json",)


class StrictRequests:
    """A before-request hook; `learn(app)` tells it each operation's query parameters."""

    def __init__(self) -> None:
        self.queries: dict[tuple[str, str], frozenset[str]] = {}

    def learn(self, app: Litestar) -> None:
        """Read each operation's query parameters from the app's OpenAPI document."""
        for path, item in (app.openapi_schema.paths or {}).items():
            for method in ("get", "post", "put", "patch", "delete"):
                operation = getattr(item, method)
                if operation is not None:
                    names = {p.name for p in operation.parameters or () if p.param_in == "query"}
                    self.queries[(path, method.upper())] = frozenset(names)

    async def __call__(self, request: Request) -> None:
        self._check_query(request)
        await self._check_token(request)
        field = request.route_handler.parsed_data_field
        if field is not None:
            await self._check_body(request, field.annotation)

    def _check_query(self, request: Request) -> None:
        allowed = self.queries.get((request.scope.get("path_template", ""), request.method))
        unknown = sorted(set(request.query_params) - allowed) if allowed is not None else []
        if unknown:
            expected = ", ".join(sorted(allowed)) or "none"
            raise ServiceError(400, "unknown_query_parameter",
                               f"This address takes no query parameter {unknown[0]!r} (it takes: {expected}).")

    @staticmethod
    async def _check_token(request: Request) -> None:
        """A token sent to a game's address must be one of that game's (a seat's or the admin's),
        whether or not the route needs one: 401 when malformed, 403 `wrong_token` when unknown."""
        game = request.path_params.get("game_id")
        token = bearer(request)
        if game is None or token is None:
            return
        service = request.app.state.service
        seat = await service.seat_of(game, token)
        if seat is None and not await service.is_admin(game, token):
            raise ServiceError(403, "wrong_token", "This token is not one of this game's tokens.")
        request.state[TOKEN_SEAT] = seat  # the handler need not look the token up again (None: the admin)

    @staticmethod
    async def _check_body(request: Request, body_type: Any) -> None:
        content_type = request.headers.get("content-type")
        media = (content_type or "").split(";")[0].strip().lower()
        if content_type is not None and media not in _JSON_TYPES and not media.endswith("+json"):
            raise ServiceError(415, "unsupported_media_type",
                               f"The request body must be JSON (Content-Type: application/json), not {media or 'empty'}.")
        body = await request.body()
        if not body:
            return  # the handler answers a missing body (400 malformed_request)
        try:
            body.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ServiceError(400, "malformed_request", f"The request body is not valid UTF-8 (byte {error.start}).") \
                from None
        try:
            value = msgspec.json.decode(body)
        except msgspec.DecodeError as error:
            raise ServiceError(400, "malformed_request", f"The request body is not JSON: {error}.") from None
        if request.route_handler.opt.get("seat_from_token") and isinstance(value, dict):
            if "seat" in value:
                raise ServiceError(400, "seat_in_command", "A command names no seat: the seat is the one your token "
                                                           "holds. Send the command without `seat`.")
            if value.get("type") == "create_game":  # every game's command that starts it (domain.games)
                raise ServiceError(400, "not_a_seat_command", "Only a seat's commands go here; create games with "
                                                              "POST /games.")
        decoded(value, body_type)


def decoded(value: Any, tp: Any) -> Any:
    """A JSON body (builtins) as `tp`, strictly: 400 `malformed_request` when it is not one."""
    try:
        return msgspec.convert(_whole_numbers(value), tp, strict=True)
    except msgspec.ValidationError as error:
        raise ServiceError(400, "malformed_request", f"The request is malformed: {error} (in the body).") from None


def by_kind(value: dict, kind: Any, types: dict[str, Any], where: str = "$.kind") -> Any:
    """A JSON body as the type of its game's `kind` among `types` (400 `malformed_request` for an
    unknown kind): how bodies whose type the game says are decoded (models.ByKind)."""
    if not isinstance(kind, str) or kind not in types:
        raise ServiceError(400, "malformed_request", f"The request is malformed: Expected one of "
                                                     f"{', '.join(map(repr, types))} - at `{where}` (in the body).")
    return decoded(value, types[kind])


def _whole_numbers(value: Any) -> Any:
    """JSON (and JSON Schema) has one number type: 60.0 is the integer 60, "60" is not a number."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_whole_numbers(v) for v in value]
    if isinstance(value, dict):
        return {k: _whole_numbers(v) for k, v in value.items()}
    return value


class HeadAsGet(Litestar):
    """Litestar answers HEAD only where a handler says so; here every GET route answers HEAD: the
    GET handler runs and only its status and headers go out. Once they are out, the app hears
    that the client has gone, so a streaming body (the event stream) stops at once."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await super().__call__(scope, receive, send)
            return
        answered = asyncio.Event()

        async def headers_only(message: Any) -> None:
            if message["type"] == "http.response.start":
                await send(message)
            elif message["type"] == "http.response.body" and not answered.is_set():
                answered.set()
                await send({"type": "http.response.body", "body": b"", "more_body": False})

        async def gone_once_answered() -> Any:
            if answered.is_set():
                return {"type": "http.disconnect"}
            message, waiting = asyncio.ensure_future(receive()), asyncio.ensure_future(answered.wait())
            await asyncio.wait((message, waiting), return_when=asyncio.FIRST_COMPLETED)
            (waiting if message.done() else message).cancel()
            return message.result() if message.done() else {"type": "http.disconnect"}

        await super().__call__({**scope, "method": "GET", "head": True},  # type: ignore[typeddict-item]
                               gone_once_answered, headers_only)
