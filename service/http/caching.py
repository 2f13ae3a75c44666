"""Conditional GETs: ETags, Cache-Control and Vary for a game's reads, and 304 Not Modified.

A read's ETag is a hash of everything its answer depends on, read with one Redis round trip before
the handler runs (two for a fork, whose parents' ends are one more input): the stream version, the
game's metadata revision (`rev`: seats claimed or handed to the AI change no version), the viewer
(a seat, or the public), the query, and what hides secrets (whether the game's secrets are
revealed, which for a fork waits on its parents). If `If-None-Match` names it, the answer is 304
without running the handler. Those inputs only grow and are read before the answer is made, so an
answer is never older than its tag (at worst newer, which costs one more 200 later): a tag never
goes stale. Views and scores are the exception handled apart: they come from read models that may
lag the stream, so their tag is that of the version actually served (the read model's). The lobby
depends on every listed game: its tag is a hash of the answer once made (a 304 saves the bytes only).

Immutable answers (a finished game's events and export, views and scores `?at=N`) are marked so;
everything the token changes is `private` with `Vary: Authorization`.

Litestar offers a fixed ETag per handler (`etag=`) and server-side response caching; no library reads
a validator from the store before the handler runs, so this module does."""

from __future__ import annotations

import contextvars
import hashlib
import re
from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.openapi.spec import OpenAPI, OpenAPIHeader, OpenAPIResponse, Schema
from litestar.openapi.spec.enums import OpenAPIType
from litestar.types import Message, Scope

from service.errors import Code, ServiceError
from service.read.models import PROJECTIONS
from service.store.streams import REV_FIELD
from service.write import GameService
from service.write.meta import token_hash

from .auth import TOKEN_SEAT, bearer

IMMUTABLE = "max-age=31536000, immutable"
LIVE = "no-cache"  # may be stored, but asked again each time (If-None-Match makes that cheap)
# "hash": the last event's; a version alone does not name what the game holds: a failover can lose
# an unacknowledged event after it was seen, and the next append reuses its version
_META_FIELDS = ("kind", "version", REV_FIELD, "finished", "sealed_by", "lineage", "hash")


@dataclass(frozen=True)
class Rule:
    """How one operation's answers are cached."""

    resource: str  # game | view | score | options | events | export | page | lobby
    by_viewer: bool  # the answer depends on the token: private, Vary: Authorization
    seat_only: bool = False  # only a seat token gets an answer (else the handler's 401/403)


RULES = {
    "get_game": Rule("game", by_viewer=False),
    "get_view": Rule("view", by_viewer=True),
    "get_score": Rule("score", by_viewer=True),  # a seat sees its own secret score
    "get_options": Rule("options", by_viewer=True, seat_only=True),
    "get_option_blocks": Rule("options", by_viewer=True, seat_only=True),
    "list_events": Rule("events", by_viewer=True),
    "export_game": Rule("export", by_viewer=False),
    "get_page": Rule("page", by_viewer=True),
    "list_games": Rule("lobby", by_viewer=False),  # tagged by a hash of its body: see `finish`
}
_READ_MODEL = {"view": "board", "score": "score"}
_WHOLE_META = ("game", "page")  # their handlers read all of the game's metadata: read once (`META`)
META = "game_meta"  # request state: the game's metadata as `conditional` read it


@dataclass
class Validator:
    """What one cacheable request's answer depends on, as far as is known before the handler runs."""

    rule: Rule
    parts: tuple  # views and scores: the inputs but the version served (whose tag is known only then)
    immutable: bool
    tag: str | None  # what If-None-Match must name for a 304 (None: never 304)
    if_none_match: str | None = None  # the lobby's: compared once its answer is made

    def tag_for(self, answer: Any) -> str | None:
        """The tag of the answer the handler made (a view's: of the `version` it says it shows; none
        if it says none)."""
        if not self.parts:
            return self.tag
        served = getattr(answer, "version", None)
        return etag(*self.parts, served) if isinstance(served, int) else None

    def headers(self, tag: str) -> dict[str, str]:
        private = self.rule.by_viewer
        control = (
            f"{'private' if private else 'public'}, {IMMUTABLE}"
            if self.immutable
            else f"{'private, ' if private else ''}{LIVE}"
        )
        return {"ETag": tag, "Cache-Control": control, **({"Vary": "Authorization"} if private else {})}


_current: contextvars.ContextVar[Validator | None] = contextvars.ContextVar("pantheon_validator", default=None)


def etag(*parts: Any) -> str:
    """A strong entity tag of these inputs."""
    return '"' + hashlib.blake2b(msgspec.json.encode(parts), digest_size=12).hexdigest() + '"'


# A compressed answer is another representation, so its strong tag is another too: the coding is
# appended (`"…-br"`), as Apache does; If-None-Match compares without it (the same content).
_CODED = re.compile(r'-(?:br|gzip)"$')


def matches(if_none_match: str | None, tag: str) -> str | None:
    """The tag of `If-None-Match` that names `tag` (weak comparison, as RFC 9110 wants for it, and
    whatever its coding; `*` names any), or None."""
    if not if_none_match:
        return None
    wanted = tag.removeprefix("W/")
    for given in (t.strip() for t in if_none_match.split(",")):
        if given == "*":
            return tag
        if _CODED.sub('"', given.removeprefix("W/")) == wanted:
            return given
    return None


async def tag_coding(message: Message, scope: Scope) -> None:
    """A before_send hook (it sees answers as compressed): a compressed answer's ETag names its coding
    (Litestar's compression leaves a strong ETag as it was)."""
    if message["type"] != "http.response.start":
        return
    headers = dict(message.get("headers", ()))
    coding, tag = headers.get(b"content-encoding"), headers.get(b"etag")
    if coding in (b"br", b"gzip") and tag and tag.endswith(b'"') and not tag.startswith(b"W/"):
        message["headers"] = [
            (k, tag[:-1] + b"-" + coding + b'"' if k == b"etag" else v) for k, v in message["headers"]
        ]


async def conditional(request: Request) -> Response | None:
    """A before-request hook: check the caller's token and remember the request's validator (one
    round trip for both), and answer 304 when the client has the answer."""
    _current.set(None)
    operation_id = request.route_handler.operation_id  # a string on every route here (Litestar allows a callable)
    rule = RULES.get(operation_id if isinstance(operation_id, str) else "")
    game = request.path_params.get("game_id")
    if rule is not None and rule.resource == "lobby":
        _current.set(Validator(rule, (), False, None, request.headers.get("if-none-match")))
        return None
    if rule is None or game is None or request.method != "GET":
        return None
    token = bearer(request)
    validator = await _validator(request.app.state.service, game, rule, token, request)
    seat = request.state.get(TOKEN_SEAT) if token else None  # checked with the validator (None: the admin)
    if validator is None or (rule.seat_only and seat is None):
        return None  # the handler answers (404, or 401 or 403 where a seat is required)
    _current.set(validator)
    held = matches(request.headers.get("if-none-match"), validator.tag) if validator.tag else None
    return Response(content=b"", status_code=304, headers=validator.headers(held)) if held else None


def checks_token(request: Request) -> bool:
    """Whether `conditional` checks this request's token (with the game's version, in one round trip),
    so that the guard need not (a GET of a game's cached read)."""
    operation_id = request.route_handler.operation_id
    rule = RULES.get(operation_id if isinstance(operation_id, str) else "")
    return rule is not None and rule.resource != "lobby" and request.method == "GET"


async def finish(response: Response) -> Response:
    """An after-request hook: the validator's headers on a 200 answer (a coroutine: Litestar runs a plain
    function in its thread pool, a hop per request)."""
    validator = _current.get()
    _current.set(None)
    if validator is None or response.status_code not in (None, 200):  # None: the handler's own (200)
        return response
    tag: str | None
    if validator.rule.resource == "lobby":  # it depends on every listed game: a hash of what it says
        tag = etag(msgspec.to_builtins(response.content))
        held = matches(validator.if_none_match, tag)
        if held:
            return Response(content=b"", status_code=304, headers=validator.headers(held))
    else:
        tag = validator.tag_for(response.content)
    if tag is not None:
        for name, value in validator.headers(tag).items():
            response.headers[name] = value
    return response


async def _validator(
    service: GameService, game: str, rule: Rule, token: str | None, request: Request
) -> Validator | None:
    """The request's validator, and its token checked (`TOKEN_SEAT`; 403 `wrong_token` for a token
    not of this game), from one round trip; None for a game neither in Redis nor archived (the
    handler answers 404, and checks the token itself)."""
    store, name = service.store, _READ_MODEL.get(rule.resource)
    fields = (*_META_FIELDS, f"token:{token_hash(token)}") if token else _META_FIELDS
    if rule.resource in _WHOLE_META:  # the handler reads all of it: read once, here
        meta = request.state[META] = await store.records.meta(game)
        rows = [[meta.get(f) for f in fields]]
    else:
        rows = await store.models.with_meta(game, fields, name, "pv", "v", "h")
        if rows[0][0] is None and (cold := await store.archived(game)):  # moved to the archive: its metadata is there
            rows = [[cold.meta.get(f) for f in fields], [None, None, None]]
    kind, version, rev, finished, sealed_by, lineage, head = rows[0][: len(_META_FIELDS)]
    if kind is None or version is None:
        return None  # no such game: the handler answers 404
    seat = None
    if token:
        seat = request.state[TOKEN_SEAT] = await _seat(service, game, token, rows[0][-1])
    at, rev_n, viewer = int(version), int(rev or 0), seat if rule.by_viewer else None
    if name:
        return await _view_validator(service, rule, game, kind.decode(), name, (at, head), viewer, rows[1], request)
    parents = await _parents_ended(service, sealed_by, lineage)
    revealed = finished is not None and all(parents.get(p, True) for p in _sealed_by(sealed_by))
    query = sorted(request.query_params.multi_items())
    if rule.resource == "export":
        return Validator(rule, (), True, etag("export", game, at, head)) if revealed else None
    if rule.resource == "events":
        return Validator(rule, (), revealed, etag("events", game, at, head, viewer, revealed, query))
    parts = (rule.resource, game, at, head, rev_n, viewer, revealed, sorted(parents.items()), query)
    return Validator(rule, (), False, etag(*parts))


async def _seat(service: GameService, game: str, token: str, held: bytes | None) -> int | None:
    """The seat of the token whose field of the metadata holds `held` (None: the admin's), remembered
    for the handler; 403 `wrong_token` for a token that is none of this game's (as StrictRequests)."""
    seat = None if held is None else int(held)
    if seat is None and not await service.is_admin(game, token):
        raise ServiceError(Code.WRONG_TOKEN, "This token is not one of this game's tokens.")
    return seat


async def _view_validator(
    service: GameService,
    rule: Rule,
    game: str,
    kind: str,
    name: str,
    stream: tuple[int, bytes | None],
    viewer: int | None,
    stored: list,
    request: Request,
) -> Validator | None:
    """A view's or score's validator: its tag is that of the version served. `?at=N` is that version;
    otherwise it is the read model's when it is recent enough, else the stream's (folded now). A
    request for a version the read model has not reached may wait for the projector: its version is
    known only once it is served, so such a request is never answered 304."""
    projection = next((p.version for p in PROJECTIONS.get(kind, ()) if p.name == name), None)
    try:
        at = int(request.query_params["at"]) if "at" in request.query_params else None
        min_version = int(request.query_params.get("min_version", 0))
    except ValueError:
        return None  # the handler answers 400
    (version, head), (pv, v, h) = stream, stored
    parts: tuple[Any, ...] = (name, game, projection, viewer)
    if at is not None:  # the tag names the event the view ends with, not only its version
        if not 1 <= at <= version:
            return Validator(rule, parts, True, None)
        ending = await service.store.read(game, at - 1, at)
        parts = (*parts, ending[0].hash if ending else "")
        return Validator(rule, parts, True, etag(*parts, at))
    pv, v = (int(x) if x is not None else None for x in (pv, v))
    # as `read_model_json` does: not a model ahead of the stream, or at its head with another event
    current = v is not None and (v < version or (v == version and (h is None or h == head)))
    served: int | None
    if pv == projection and v is not None and v >= max(min_version, 1) and current:
        served, last = v, h
    else:
        served, last = (version if min_version <= 0 else None), head
    parts = (*parts, (last or b"").decode())
    return Validator(rule, parts, False, etag(*parts, served) if served is not None else None)


def _sealed_by(sealed_by: bytes | None) -> list[str]:
    return msgspec.json.decode(sealed_by) if sealed_by else []


async def _parents_ended(service: GameService, sealed_by: bytes | None, lineage: bytes | None) -> dict[str, bool]:
    """For a fork: whether each game it came from has ended (the fork's secrets and its lineage's
    prefix hash wait on them). A second round trip, for forks only."""
    parents = set(_sealed_by(sealed_by))
    if lineage:
        parents.add(msgspec.json.decode(lineage)["parent"])
    if not parents:
        return {}
    ordered = sorted(parents)
    ended = await service.store.records.have_ended(ordered)
    for i, parent in enumerate(ordered):
        if not ended[i]:  # or moved to the archive
            ended[i] = (await service.store.records.fields(parent, "finished"))[0] is not None
    return {parent: bool(e) for parent, e in zip(ordered, ended)}


def document(openapi: OpenAPI) -> OpenAPI:
    """Say so in the document: each cached read's 200 carries an ETag, and If-None-Match may make it a 304."""
    for item in (openapi.paths or {}).values():
        operation = item.get
        if operation is None or operation.operation_id not in RULES or operation.responses is None:
            continue
        ok = operation.responses.get("200")
        if isinstance(ok, OpenAPIResponse):
            ok.headers = {
                **(ok.headers or {}),
                "ETag": OpenAPIHeader(
                    schema=Schema(type=OpenAPIType.STRING),
                    description=(
                        "A strong tag of this answer: send it back as `If-None-Match` to get a 304 while it "
                        "has not changed (see `Cache-Control`)."
                    ),
                ),
            }
        operation.responses["304"] = OpenAPIResponse(
            description="Not Modified: the answer has not changed since the `ETag` sent as `If-None-Match`; no body."
        )
    return openapi
