"""Seats: claim one (with a name), name it, hand it to the AI and take it back, re-issue it."""

from __future__ import annotations

from litestar import Controller, Request, Response, delete, post, put
from litestar.di import NamedDependency, Provide
from litestar.params import JSONBody
from msgspec import Struct

from service.errors import Code
from service.write import GameService
from service.write.meta import token_hash

from .auth import GameIdParam, bearer, caller_seat, provide_quotas, provide_service, require
from .created import created
from .games import SeatParam, SecretIdempotencyKey, admit_ai_game
from .models import AiLevel, ClaimRequest, Invite, PlayerName, SeatClaimed, SeatInfo
from .openapi import SEAT_TOKEN, OptionalBody
from .page import game_detail
from .problems import problems
from .quotas import Quotas


class HandToAi(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Hand a seat to the AI from now on (the game's admin token)."""

    level: AiLevel = "greedy"  # type: ignore[valid-type]


class SeatHanded(Struct, frozen=True, kw_only=True):
    seat: int
    level: str


class SeatNameRequest(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The display name the seat's player chooses."""

    name: PlayerName


class SeatName(Struct, frozen=True, kw_only=True):
    """A seat's display name, as recorded (NFC-normalised, trimmed)."""

    seat: int
    name: str


class SeatsController(Controller):
    """Claim seats (with a name), name them, hand them to the AI and back, re-issue them."""

    path = "/games"
    tags = ["games"]
    dependencies = {
        "service": Provide(provide_service, sync_to_thread=False),
        "quotas": Provide(provide_quotas, sync_to_thread=False),
    }

    @put(
        "/{game_id:str}/seats/{seat:int}/name",
        operation_id="name_seat",
        status_code=200,
        summary="Name your seat",
        security=SEAT_TOKEN,
        responses=problems(400, 401, 403, 404, 413, 415, 422, 429),
        opt={"rate": "commands"},  # a name is an event in the log: counted with the seat's commands
    )
    async def name_seat(
        self,
        game_id: GameIdParam,
        seat: SeatParam,
        data: JSONBody[SeatNameRequest],
        request: Request,
        service: NamedDependency[GameService],
    ) -> SeatName:
        """The seat's display name, shown instead of "Player B" to everyone (the seat's own token:
        403 `wrong_seat` for another seat's). Recorded in the game's log (a `seat_named` event every
        viewer sees); the same name again records nothing. 422 for a name the game refuses (its
        code says why), `game_over` once the game has ended, `name_changes_exhausted` after 20 names."""
        mine = await caller_seat(service, game_id, request, required=True)
        require(mine == seat, Code.WRONG_SEAT, "A seat is named by its own token only: send that seat's token.")
        token = bearer(request)
        assert token is not None  # caller_seat required one
        return SeatName(seat=seat, name=await service.name_seat(game_id, seat, data.name, token_hash(token)))

    @post(
        "/{game_id:str}/seats/{seat:int}/ai",
        operation_id="hand_seat_to_ai",
        status_code=200,
        summary="Hand a seat to the AI",
        security=SEAT_TOKEN,
        responses=problems(400, 401, 403, 404, 413, 415, 429),
    )
    async def hand_seat_to_ai(
        self,
        game_id: GameIdParam,
        seat: SeatParam,
        data: JSONBody[HandToAi],
        request: Request,
        service: NamedDependency[GameService],
        quotas: NamedDependency[Quotas],
    ) -> SeatHanded:
        """From now on the AI plays this seat (the game's admin token); if the game awaits it, at once.
        The game then counts against the caller's quota of running games with AI seats."""
        token = bearer(request)
        require(token is not None, Code.MISSING_TOKEN, "Send the game's admin token as Authorization: Bearer <token>.")
        assert token is not None  # require raised otherwise (for mypy)
        require(await service.is_admin(game_id, token), Code.WRONG_TOKEN, "Only the game's admin token may do this.")
        client = quotas.client(request)
        await admit_ai_game(service, quotas, client, game_id)
        await service.hand_to_ai(game_id, seat, data.level)
        await service.store.quotas.count_ai_game(client, game_id)
        return SeatHanded(seat=seat, level=data.level)

    @delete(
        "/{game_id:str}/seats/{seat:int}/ai",
        operation_id="take_seat_back",
        status_code=200,
        summary="Take a seat back from the AI",
        security=SEAT_TOKEN,
        responses=problems(400, 401, 403, 404, 409),
    )
    async def take_seat_back(
        self, game_id: GameIdParam, seat: SeatParam, request: Request, service: NamedDependency[GameService]
    ) -> SeatInfo:
        """A seat handed to the AI (by the admin, or for being idle) is played by its person again:
        send that seat's token or the admin token. If the game awaits the seat, its idle clock
        starts afresh. 409 for a seat that was not handed over."""
        token = bearer(request)
        require(
            token is not None,
            Code.MISSING_TOKEN,
            "Send the seat's token or the game's admin token as Authorization: Bearer <token>.",
        )
        assert token is not None  # require raised otherwise (for mypy)
        require(
            await service.seat_of(game_id, token) == seat or await service.is_admin(game_id, token),
            Code.WRONG_TOKEN,
            "Only this seat's token or the game's admin token may take the seat back.",
        )
        await service.take_back(game_id, seat)
        return next(s for s in (await game_detail(service, game_id)).seats if s.seat == seat)

    @post(
        "/{game_id:str}/seats/{seat:int}/claim",
        operation_id="claim_seat",
        status_code=201,
        summary="Claim a seat",
        responses=problems(400, 401, 403, 404, 409, 413, 415, 422),
        operation_class=OptionalBody,  # an open seat is claimed with no body
    )
    async def claim_seat(
        self,
        game_id: GameIdParam,
        seat: SeatParam,
        service: NamedDependency[GameService],
        data: JSONBody[ClaimRequest | None] = None,
        idempotency_key: SecretIdempotencyKey = None,
    ) -> Response[SeatClaimed]:
        """The seat's token, shown only this once (it is stored hashed). A seat reserved by an invite
        needs its code in the body (403 `wrong_invite` without it or with another). 409 when taken or
        played by an AI. With an `Idempotency-Key`, a retry of the claim gets the same token. With a
        `name`, the seat is named too (422 for a name the game refuses, and nothing is claimed)."""
        invite, name = (data.invite, data.name) if data else (None, None)
        if name is None:
            return created(
                SeatClaimed(seat=seat, token=await service.claim(game_id, seat, invite, idempotency_key)),
                f"/games/{game_id}/view",
            )
        token, named = await service.claim_named(game_id, seat, name, invite, idempotency_key)
        return created(SeatClaimed(seat=seat, token=token, name=named), f"/games/{game_id}/view")

    @post(
        "/{game_id:str}/seats/{seat:int}/token",
        operation_id="reissue_seat_token",
        status_code=201,
        summary="Re-issue a seat (a new invite code)",
        security=SEAT_TOKEN,
        responses=problems(400, 401, 403, 404, 409, 422),
    )
    async def reissue_seat_token(
        self, game_id: GameIdParam, seat: SeatParam, request: Request, service: NamedDependency[GameService]
    ) -> Response[Invite]:
        """For a seat whose token was lost (the game's admin token): the seat's token stops working at
        once, and the answer is a new one-time invite code for the seat, never a token: give it to the
        seat's player, who claims the seat with it. The game's log records the re-issue (a
        `seat_reissued` event every viewer sees). 409 for a seat nobody has claimed or reserved, 422
        `game_over` once the game has ended."""
        token = bearer(request)
        require(token is not None, Code.MISSING_TOKEN, "Send the game's admin token as Authorization: Bearer <token>.")
        assert token is not None  # require raised otherwise (for mypy)
        require(await service.is_admin(game_id, token), Code.WRONG_TOKEN, "Only the game's admin token may do this.")
        code = await service.reissue(game_id, seat)
        return created(Invite(seat=seat, code=code), f"/games/{game_id}/seats/{seat}/claim")
