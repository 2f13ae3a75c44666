"""Rematch: a new game like an ended one, offered to each of its seats (service/write/rematch.py)."""

from __future__ import annotations

import msgspec
from litestar import Controller, Request, Response, post
from litestar.di import NamedDependency, Provide
from msgspec import Struct

from service.write import GameService, SeatSpec

from .auth import GameIdParam, bearer, caller_seat, provide_quotas, provide_service
from .created import created
from .games import Admission
from .models import AiSeat, GameKind, HumanSeat
from .openapi import SEAT_TOKEN
from .problems import problems
from .quotas import Quotas


class RematchAnswer(Struct, frozen=True, kw_only=True):
    """The rematch of an ended game (the same for every seat that asks, however often): `game`, and
    the caller's `seat` in it (the same seat as in the ended game) with its `token`, shown to this
    token's holder only. The ended game's admin token is the rematch's admin token."""

    game: str
    kind: GameKind  # type: ignore[valid-type]
    seat: int
    token: str


class RematchController(Controller):
    """Rematch an ended game."""

    path = "/games/{game_id:str}"
    tags = ["games"]
    dependencies = {
        "service": Provide(provide_service, sync_to_thread=False),
        "quotas": Provide(provide_quotas, sync_to_thread=False),
    }

    @post(
        "/rematch",
        operation_id="rematch_game",
        status_code=201,
        summary="Rematch an ended game",
        security=SEAT_TOKEN,
        responses=problems(400, 401, 403, 404, 409, 422, 429),
        opt={"rate": "create"},
    )
    async def rematch_game(
        self,
        game_id: GameIdParam,
        request: Request,
        service: NamedDependency[GameService],
        quotas: NamedDependency[Quotas],
    ) -> Response[RematchAnswer]:
        """A new game with the ended game's kind, options, idle time and seats (AI seats at the same
        levels), a new seed (the first seat is drawn afresh) and the same admin token; one per ended
        game, ever: the first call (of any seat, in any process) makes it, every other call answers
        the same game. Each human seat is reserved for the token that held it in the ended game: the
        caller's seat is claimed now (its new token is in the answer, the same on every call), the
        others are claimed by their holders pressing Rematch too, or through the seat's claim with
        their old token as the invite code. Archived games too. Needs a seat token of the ended game
        (401 without, 403 for another token); 409 `game_in_progress` while the game is being played."""
        seat = await caller_seat(service, game_id, request, required=True)
        token = bearer(request)
        assert token is not None  # caller_seat required it (for mypy)
        specs = msgspec.json.decode((await service.meta(game_id))["seats"], type=list[SeatSpec])
        seats = [AiSeat(level=s.level or "random") if s.type == "ai" else HumanSeat() for s in specs]
        admission = Admission(service, quotas, request, seats)
        made = await service.rematch(game_id, seat, token, admit=admission)
        if made.made:
            await admission.made(made.game)
        answer = RematchAnswer(game=made.game, kind=made.kind, seat=made.seat, token=made.token)
        return created(answer, f"/games/{made.game}")
