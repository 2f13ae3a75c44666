"""RFC 9457 problem details: one table from errors to HTTP, the exception handlers, their docs."""

from __future__ import annotations

import logging
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.datastructures import ResponseSpec
from msgspec import Struct

from domain.kernel import DomainError
from service.errors import Code, Refused, ServiceError
from service.store.cold import ArchiveUnreadable
from service.store.errors import RedisError
from service.write.errors import store_failure

from .requestid import request_id
from .strict import MAX_DEPTH

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_BASE = "https://pantheon.example/problems/"
log = logging.getLogger("pantheon.api")

# The one table from the service's codes to HTTP statuses (every `Code` has its row).
STATUS: dict[Code, int] = {
    Code.MALFORMED_REQUEST: 400,
    Code.MALFORMED_COMMAND: 400,
    Code.MALFORMED_CURSOR: 400,
    Code.MALFORMED_CHOICE_TOKEN: 400,
    Code.UNKNOWN_CHOICE: 400,
    Code.UNKNOWN_QUERY_PARAMETER: 400,
    Code.SEAT_IN_COMMAND: 400,
    Code.NOT_A_SEAT_COMMAND: 400,
    Code.IDEMPOTENCY_KEY_TOO_SHORT: 400,
    Code.UNSUPPORTED_MEDIA_TYPE: 415,
    Code.MISSING_TOKEN: 401,
    Code.WRONG_TOKEN: 403,
    Code.WRONG_SEAT: 403,
    Code.WRONG_INVITE: 403,
    Code.NOT_FOUND: 404,
    Code.UNKNOWN_GAME: 404,
    Code.UNKNOWN_SEAT: 404,
    Code.UNKNOWN_VERSION: 404,
    Code.NO_SUCH_VIEW: 404,
    Code.VERSION_CONFLICT: 409,
    Code.READ_ONLY: 409,
    Code.SEAT_TAKEN: 409,
    Code.SEAT_NOT_HUMAN: 409,
    Code.SEAT_NOT_CLAIMED: 409,
    Code.NOT_HANDED_OVER: 409,
    Code.GAME_EXISTS: 409,
    Code.GAME_IN_PROGRESS: 409,
    Code.GAME_OVER: 422,
    Code.IDEMPOTENCY_KEY_REUSED: 422,
    Code.UNKNOWN_KIND: 422,
    Code.UNKNOWN_LEVEL: 422,
    Code.WRONG_KIND: 422,
    Code.WRONG_SEAT_CLAIM: 422,
    Code.WRONG_SEAT_COUNT: 422,
    Code.BAD_CLOCK: 422,
    Code.FORK_INSIDE_COMMAND: 422,
    Code.FORK_NOT_SUPPORTED: 422,
    Code.AUDIT_FAILED: 422,
    Code.RATE_LIMITED: 429,
    Code.QUOTA_EXCEEDED: 429,
    Code.STORE_UNAVAILABLE: 503,
    Code.OUTCOME_UNKNOWN: 503,
    Code.NOT_REPLICATED: 503,
    Code.NOT_READY: 503,
    Code.ARCHIVE_UNAVAILABLE: 503,
    Code.INTERNAL_ERROR: 500,
}
REFUSED = 422  # a request refused as it stands, with the refusing rule's own code (`Refused`, a DomainError)


def status_of(error: ServiceError) -> int:
    return REFUSED if isinstance(error, Refused) else STATUS[Code(error.code)]


# Framework errors, by status: the stable code and the sentence a person reads.
_HTTP_CODES: dict[int, tuple[str, str]] = {
    400: ("malformed_request", "The request is malformed."),
    401: ("missing_token", "This needs a token: send Authorization: Bearer <token>."),
    403: ("wrong_token", "This token does not give access here."),
    404: ("not_found", "There is nothing at this address."),
    405: ("method_not_allowed", "This address does not take that method."),
    413: ("request_body_too_large", "The request body is too large."),
    415: ("unsupported_media_type", "The request body must be JSON."),
}


class Problem(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """An RFC 9457 problem: `code` is stable for machines, `detail` is a sentence for people."""

    type: str
    title: str
    status: int
    detail: str
    code: str
    current_version: int | None = None  # with version_conflict
    retry_after: int | None = None  # seconds, with 429 and 503 (also the Retry-After header)
    request_id: str | None = None  # the answer's X-Request-ID, also in the server's log lines


def problem(status: int, code: str, detail: str, headers: dict[str, str] | None = None, **extra: Any) -> Response:
    """A problem details response."""
    code = str(code)
    body = {
        "type": PROBLEM_BASE + code,
        "title": code.replace("_", " ").capitalize(),
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }
    return Response(body, status_code=status, media_type=PROBLEM_MEDIA_TYPE, headers=headers)


def _service_error(_: Request, exc: ServiceError) -> Response:
    status = status_of(exc)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else {}
    if "retry_after" in exc.extra:
        headers["Retry-After"] = str(exc.extra["retry_after"])
    return problem(status, exc.code, exc.message, headers or None, **exc.extra)


def _domain_error(_: Request, exc: DomainError) -> Response:
    return problem(REFUSED, exc.code, exc.message)


def _reason(error: Any) -> str:
    if not isinstance(error, dict):
        return str(error)
    message, key, source = (
        error.get("message", ""),
        error.get("key"),
        getattr(error.get("source"), "value", error.get("source")),
    )
    if key == "data" and message == "'data'":
        return "a JSON body is required"
    return f"{message} (in {source} `{key}`)" if key and source else str(message)


def _validation_error(_: Request, exc: ValidationException) -> Response:
    reasons = "; ".join(_reason(e) for e in exc.extra or []) if isinstance(exc.extra, list) else ""
    return problem(
        STATUS[Code.MALFORMED_REQUEST], Code.MALFORMED_REQUEST, f"The request is malformed: {reasons or exc.detail}."
    )


CLIENT_GONE = 499  # nginx's "client closed request": no one reads it, but the log and /metrics do


def _http_error(_: Request, exc: HTTPException) -> Response:
    if exc.status_code == 500 and exc.detail == "client disconnected prematurely":  # Litestar's words for it
        return problem(
            CLIENT_GONE, "client_closed_request", "The client closed its connection before its request ended."
        )
    code, detail = _HTTP_CODES.get(exc.status_code, (None, None))
    if exc.status_code == 400 and exc.detail:  # e.g. "JSON is malformed: invalid character (byte 0)"
        detail = f"{exc.detail}."
    if code is None:
        code, detail = HTTPStatus(exc.status_code).phrase.lower().replace(" ", "_"), exc.detail
    headers = {k: v for k, v in (exc.headers or {}).items() if k.lower() == "allow"}
    return problem(exc.status_code, code, detail or exc.detail, headers)


def _store_error(_: Request, exc: RedisError) -> Response:
    """Redis unavailable, full or too slow where nothing was being written: 503, try again."""
    return _service_error(_, store_failure(exc))


def _archive_error(request: Request, exc: ArchiveUnreadable) -> Response:
    """The game is archived but its files cannot be read now (a volume away, a file damaged): 503."""
    log.error("%s", exc)
    request.app.state.metrics.archive_unreadable += 1
    return problem(
        STATUS[Code.ARCHIVE_UNAVAILABLE],
        Code.ARCHIVE_UNAVAILABLE,
        "The archive that holds this game cannot be read now; try again later.",
        {"Retry-After": "30"},
        retry_after=30,
    )


def _internal_error(request: Request, exc: Exception) -> Response:
    # The last resort: log everything, tell the client nothing about the internals.
    log.exception(
        "unhandled error on %s %s request_id=%s",
        request.method,
        request.url.path,
        request_id(request.scope),
        exc_info=exc,
    )
    return problem(
        STATUS[Code.INTERNAL_ERROR], Code.INTERNAL_ERROR, "Something went wrong on the server; it has been logged."
    )


def _with_request_id(handler):
    """The handler's problem, with the request's id in its body."""

    def handle(request: Request, exc: Any) -> Response:
        response = handler(request, exc)
        response.content["request_id"] = request_id(request.scope)
        return response

    return handle


EXCEPTION_HANDLERS: dict[int | type[Exception], Callable[[Request, Any], Response]] = {
    error: _with_request_id(handler)
    for error, handler in {
        ServiceError: _service_error,
        DomainError: _domain_error,
        ValidationException: _validation_error,
        HTTPException: _http_error,
        RedisError: _store_error,
        ArchiveUnreadable: _archive_error,
        Exception: _internal_error,
    }.items()
}

_DESCRIPTIONS = {
    400: f"Malformed request: not JSON, not UTF-8, nested more than {MAX_DEPTH} levels deep, a value of the wrong "
    "type, an unknown query parameter (`malformed_request`, `malformed_command`, `unknown_query_parameter`); "
    "an Idempotency-Key shorter than 16 characters where the answer holds secrets (`idempotency_key_too_short`).",
    401: "No token where one is needed, or a malformed Authorization header (`missing_token`).",
    403: "The token is not one of this game's, or not one that may do this (`wrong_token`, `wrong_seat`).",
    404: "No such game, seat or version (`unknown_game`, `unknown_seat`, `unknown_version`, `not_found`).",
    409: "Conflict: the game moved on (`version_conflict`, with `current_version`), or the seat is taken.",
    413: "The request body is too large (`request_body_too_large`).",
    415: "The request body is not JSON (`unsupported_media_type`): send Content-Type: application/json.",
    429: "Over a rate limit or quota (`rate_limited`, `quota_exceeded`); `Retry-After` says when to try again.",
    422: "The rules refuse the command: the domain's code and sentence (e.g. `not_your_turn`); or an "
    "Idempotency-Key already used for another command or request (`idempotency_key_reused`).",
    503: "The event store (Redis) is unavailable, full or too slow (`store_unavailable`: nothing changed; "
    "`outcome_unknown`: a command may have been applied, retry it with the same Idempotency-Key), or fewer "
    "replicas than the deployment requires confirmed a write (`not_replicated`: retry the same way); "
    "`Retry-After` says when to try again. Health: `not_ready`. An archived game whose archive cannot be "
    "read now: `archive_unavailable`.",
}


def problems(*statuses: int) -> dict[int, ResponseSpec]:
    """OpenAPI documentation of the problem responses an operation may give."""
    return {
        s: ResponseSpec(
            data_container=Problem, description=_DESCRIPTIONS[s], media_type=PROBLEM_MEDIA_TYPE, generate_examples=False
        )
        for s in statuses
    }
