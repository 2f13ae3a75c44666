"""Strict, honest HTTP around the handlers: request bodies are JSON (415 otherwise), valid UTF-8,
nested at most MAX_DEPTH levels (400, checked before any recursive work) and of exactly the
documented types (no "0" for 0: 400), query parameters are the documented ones (400 otherwise), a
command names no seat (400 `seat_in_command`: the token says it), a token sent to a game is one of
its tokens (403 otherwise), and HEAD is answered wherever GET is."""

from __future__ import annotations

import asyncio
import re
from itertools import accumulate
from typing import Any, cast

from litestar import Litestar, Request
from litestar.types import HTTPScope, LifeSpanReceive, LifeSpanScope, LifeSpanSend, Receive, Scope, Send
from litestar.typing import FieldDefinition

from service.errors import Code, ServiceError
from service.write.meta import token_hash

from .auth import KEY_RECORDED, TOKEN_SEAT, bearer
from .bodies import BODY, read
from .caching import checks_token

_JSON_TYPES = ("application/json",)
MAX_DEPTH = 32  # arrays and objects inside each other: the deepest body the API documents has 4
# A string, to its closing quote or to the end of a body that never closes it (so a match never fails
# and the scan stays linear)
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_STEP = [1 if c in b"[{" else -1 if c in b"]}" else 0 for c in range(256)]  # a byte's change of depth
_NOT_BRACKETS = bytes(c for c in range(256) if not _STEP[c])


class StrictRequests:
    """A guard (Litestar's checks before a handler runs); `learn(app)` tells it each operation's query
    parameters."""

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

    async def __call__(self, request: Request, _: Any = None) -> None:
        self._check_query(request)
        if request.route_handler.opt.get("rate") == "commands":
            await _check_command_caller(request)
        else:
            if not checks_token(request):  # else checked with the validator's round trip (caching.conditional)
                await self._check_token(request)
            await _check_rate(request)
        field = request.route_handler.parsed_data_field
        if field is not None:
            await self._check_body(request, field)

    def _check_query(self, request: Request) -> None:
        allowed = self.queries.get((request.scope.get("path_template", ""), request.method))
        unknown = sorted(set(request.query_params) - allowed) if allowed is not None else []
        if unknown:
            assert allowed is not None  # unknown is empty otherwise
            expected = ", ".join(sorted(allowed)) or "none"
            raise ServiceError(
                Code.UNKNOWN_QUERY_PARAMETER,
                f"This address takes no query parameter {unknown[0]!r} (it takes: {expected}).",
            )

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
            raise ServiceError(Code.WRONG_TOKEN, "This token is not one of this game's tokens.")
        request.state[TOKEN_SEAT] = seat  # the handler need not look the token up again (None: the admin)

    @staticmethod
    async def _check_body(request: Request, field: FieldDefinition) -> None:
        """The body's bytes are checked before any decoding, then `bodies.read` decodes them once
        (the handler gets that as its `data`: bodies.StrictBody)."""
        content_type = request.headers.get("content-type")
        media = (content_type or "").split(";")[0].strip().lower()
        if content_type is not None and media not in _JSON_TYPES and not media.endswith("+json"):
            raise ServiceError(
                Code.UNSUPPORTED_MEDIA_TYPE,
                f"The request body must be JSON (Content-Type: application/json), not {media or 'empty'}.",
            )
        body = await request.body()
        if not body:
            return  # the handler answers a missing body (400 malformed_request)
        try:
            body.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ServiceError(
                Code.MALFORMED_REQUEST, f"The request body is not valid UTF-8 (byte {error.start})."
            ) from None
        if too_deep(body):
            raise ServiceError(
                Code.MALFORMED_REQUEST,
                f"The request body nests arrays and objects more than "
                f"{MAX_DEPTH} levels deep; no request needs that many.",
            )
        request.state[BODY] = await read(request, field, body)


async def _check_command_caller(request: Request) -> None:
    """A command's caller, with one round trip to the game's Redis (the token's seat, its record of
    the Idempotency-Key: `KEY_RECORDED`) and the rate limit counted at the same time on its own
    Redis, per seat token (its hash names the counter). A token that is no seat's of a game in Redis
    goes the general way (`_check_token`: 403, or the admin's, which the handler refuses)."""
    game, token = request.path_params.get("game_id"), bearer(request)
    if game is None or token is None:
        return  # the handler asks for a token (401)
    service, quotas = request.app.state.service, request.app.state.quotas
    context: tuple[int, bool] | BaseException | None
    counted: BaseException | None
    context, counted = await asyncio.gather(
        service.command_context(game, token, request.headers.get("idempotency-key")),
        quotas.hit("commands", f"{game}:{token_hash(token)[:32]}"),
        return_exceptions=True,
    )
    if isinstance(context, BaseException):
        raise context
    if context is None:
        await StrictRequests._check_token(request)  # 403 for a stranger's token; not counted then
        return
    request.state[TOKEN_SEAT], request.state[KEY_RECORDED] = context
    if isinstance(counted, BaseException):
        raise counted


async def _check_rate(request: Request) -> None:
    """Over its rate limit (the route's `opt["rate"]`) a request is 429 before its body is read, so a
    flood of bodies costs no parsing (a command: `_check_command_caller`). A create or fork is only
    checked: it is counted once the game is to be made (games.Admission), so a retry answered from
    its Idempotency-Key is not; a request with a key is left to that count, as it may be such a retry."""
    rate, quotas = request.route_handler.opt.get("rate"), request.app.state.quotas
    if rate == "create" and "idempotency-key" not in request.headers:
        await quotas.check(rate, quotas.client(request))


def too_deep(body: bytes) -> bool:
    """Whether the arrays and objects of a JSON text nest more than MAX_DEPTH levels (brackets inside
    strings do not count): checked before decoding, as msgspec's decoder has no depth limit and
    recurses once per level (485 levels overflowed a request's stack)."""
    if body.count(b"[") + body.count(b"{") <= MAX_DEPTH:  # most bodies: nothing to scan
        return False
    brackets = _STRING.sub(b"", body).translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > MAX_DEPTH


class HeadAsGet(Litestar):
    """Litestar answers HEAD only where a handler says so (and a `head` handler may return no body,
    so no handler serves both); here every GET route answers HEAD: the GET handler runs and only
    its status and headers go out. Once they are out, the app hears that the client has gone, so a
    streaming body (the event stream) stops at once."""

    async def __call__(
        self, scope: Scope | LifeSpanScope, receive: Receive | LifeSpanReceive, send: Send | LifeSpanSend
    ) -> None:
        if scope["type"] != "http" or cast("HTTPScope", scope)["method"] != "HEAD":  # the type check does not narrow
            await super().__call__(scope, receive, send)
            return
        answered, http_send = asyncio.Event(), cast("Send", send)  # an HTTP request's (as checked above)

        async def headers_only(message: Any) -> None:
            if message["type"] == "http.response.start":
                await send(message)
            elif message["type"] == "http.response.body" and not answered.is_set():
                answered.set()
                await http_send({"type": "http.response.body", "body": b"", "more_body": False})

        async def gone_once_answered() -> Any:
            if answered.is_set():
                return {"type": "http.disconnect"}
            message, waiting = asyncio.ensure_future(receive()), asyncio.ensure_future(answered.wait())
            await asyncio.wait((message, waiting), return_when=asyncio.FIRST_COMPLETED)
            (waiting if message.done() else message).cancel()
            return message.result() if message.done() else {"type": "http.disconnect"}

        await super().__call__(
            cast("HTTPScope", {**scope, "method": "GET", "head": True}),  # "head": a key of this app's own
            gone_once_answered,
            headers_only,
        )
