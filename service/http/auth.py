"""Who is calling: the seat a bearer token stands for, and the dependencies handlers share."""

from __future__ import annotations

from typing import Annotated, Any, Literal, overload

from litestar import Request
from litestar.datastructures import State
from litestar.params import PathParameter

from domain.kernel import Decider
from service.errors import Code, ServiceError
from service.store.fanout import Fanout
from service.write import GameService

from .metrics import Metrics
from .quotas import Quotas
from .sse import Frames

TOKEN_SEAT = "token_seat"  # request state: the seat of the request's token, once checked (None: the admin)
KEY_RECORDED = "key_recorded"  # request state: whether the token's seat held a record of the Idempotency-Key
GameIdParam = Annotated[
    str,
    PathParameter(description="The game's id (16 hex digits).", pattern="^[0-9a-f]{16}$", min_length=16, max_length=16),
]


def provide_service(state: State) -> GameService:
    return state.service


def provide_metrics(state: State) -> Metrics:
    return state.metrics


def provide_quotas(state: State) -> Quotas:
    return state.quotas


def provide_fanout(state: State) -> Fanout:
    return state.fanout


def provide_frames(state: State) -> Frames:
    return state.frames


def bearer(request: Request) -> str | None:
    """The token of `Authorization: Bearer <token>`, None without the header; 401 when it is malformed."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServiceError(Code.MISSING_TOKEN, "Send the token as Authorization: Bearer <token>.")
    return token.strip()


@overload
async def caller_seat(service: GameService, game: str, request: Request, *, required: Literal[True]) -> int: ...
@overload
async def caller_seat(service: GameService, game: str, request: Request, *, required: bool) -> int | None: ...
async def caller_seat(service: GameService, game: str, request: Request, *, required: bool) -> int | None:
    """The caller's seat; None for a spectator (no token, or the admin token) when `required` is false.

    401 `missing_token` without a token where one is required; 403 `wrong_token` for a token that is
    not one of this game's (or, where a seat is required, not a seat token); 404 for an unknown game."""
    token = bearer(request)
    if token is None:
        if required:
            raise ServiceError(Code.MISSING_TOKEN, "This needs your seat token: Authorization: Bearer <token>.")
        await service.kind(game)  # 404 for an unknown game
        return None
    # the token was checked before the handler ran (StrictRequests): its seat is known
    seat = request.state[TOKEN_SEAT] if TOKEN_SEAT in request.state else await service.seat_of(game, token)
    if seat is not None:
        return seat
    if not required and await service.is_admin(game, token):
        return None
    raise ServiceError(
        Code.WRONG_TOKEN,
        "This token is not a seat token of this game." if required else "This token is not one of this game's tokens.",
    )


async def decider_of(service: GameService, game: str) -> Decider:
    return await service.decider(game)


def require(condition: Any, code: Code, message: str) -> None:
    if not condition:
        raise ServiceError(code, message)
