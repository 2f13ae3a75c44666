"""Games: create one, list the lobby, read a game's status, claim a seat."""

from __future__ import annotations

import logging
from typing import Annotated, Literal

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency, Provide
from litestar.openapi.spec import OpenAPIType
from litestar.params import HeaderParameter, JSONBody, PathParameter, QueryParameter

from service.errors import ServiceError
from service.read.models import ReadModelMissing, read_model
from service.store.cold import ArchiveUnreadable
from service.write import GameService, SeatSpec

from .auth import GameIdParam, provide_metrics, provide_quotas, provide_service
from .caching import META
from .created import created
from .metrics import Metrics
from .models import (
    AiSeat,
    AnyCreateGameRequest,
    GameCreatedResponse,
    GameDetail,
    GameKind,
    GameSummary,
    HumanSeat,
    Lobby,
)
from .page import game_detail, lineage_of
from .pages import CURSOR_PATTERN, MAX_CURSOR, MAX_SCAN, cursor_of, read_cursor
from .problems import problems
from .quotas import Quotas

log = logging.getLogger(__name__)

SeatParam = Annotated[int, PathParameter(ge=0, le=15, description="The seat's index (0 for the first seat).")]
# An Idempotency-Key whose answer holds secrets: a shorter one than the document says is refused by
# the service with its own code (400 `idempotency_key_too_short`), not as a malformed header. The
# document says "a string" (a header is never null: Litestar would also allow `null`, which a
# client sends as the 4 characters "null").
SecretIdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        pattern="^[!-~]{1,128}$",
        schema_extra={"oneOf": None, "type": OpenAPIType.STRING, "pattern": "^[!-~]{16,128}$", "minLength": 16},
        description="A retry whose reply was lost sends the same key and gets the same answer, secrets included, "
        "and changes nothing (for 24 h: PANTHEON_IDEMPOTENCY_TTL_S); nobody else can get it, so the key "
        "must be a secret too: 16 to 128 random visible ASCII characters (shorter: 400 "
        "`idempotency_key_too_short`). The same key with another request: 422 `idempotency_key_reused`.",
    ),
]


def _seat_spec(seat: object) -> SeatSpec:
    return SeatSpec(type="ai", level=seat.level) if isinstance(seat, AiSeat) else SeatSpec(type="human")


class Admission:
    """A new game (created or forked) counted against the caller's limits (429 when over) when the
    service is about to make it: a retried Idempotency-Key that gets its first answer is not a new
    game, so it is not counted again."""

    def __init__(self, service: GameService, quotas: Quotas, request: Request, seats: list) -> None:
        self.service, self.quotas, self.request, self.seats = service, quotas, request, seats
        self.ai_client: str | None = None  # the address whose quota of running AI games counts it

    async def __call__(self) -> None:
        client = self.quotas.client(self.request)
        await self.quotas.hit("create", client)
        if any(isinstance(s, AiSeat) for s in self.seats):
            await admit_ai_game(self.service, self.quotas, client)
            self.ai_client = client

    async def made(self, game: str) -> None:
        """Count the game now made against the caller's running games with AI seats (if admitted so)."""
        if self.ai_client:
            await self.service.store.quotas.count_ai_game(self.ai_client, game)


async def admit_ai_game(service: GameService, quotas: Quotas, client: str, game: str | None = None) -> None:
    """429 when `client` may not start (or add AI seats to) another running game with AI seats."""

    async def running(listed: str) -> bool:
        return listed != game and await service.store.records.is_running(listed)  # this game is already counted

    await quotas.admit_ai_game(service.store.quotas, client, running)


async def _listed(service: GameService, game: str, status: str | None, metrics: Metrics) -> GameSummary | None:
    """The lobby line of a listed game if it has `status` (None: not ended); a game that ended since
    it was listed moves to the ended games. An archived game whose files cannot be read is left out
    (logged and counted): one damaged file must not fail the lobby for every caller."""
    try:
        entry = await lobby_entry(service, game)
    except (ServiceError, ReadModelMissing):  # deleted since it was listed
        return None
    except ArchiveUnreadable as error:
        log.warning("lobby: game %s left out: %s", game, error)
        metrics.archive_unreadable += 1
        return None
    if entry.status == "finished" and status != "finished":  # listed before ended games moved out
        await service.delist_ended(game)
        return None
    return entry if status is None or entry.status == status else None


def seat_choices(seats: list) -> tuple[list[int], list[int]]:
    """The human seats to claim for the caller now, and those to reserve behind invite codes."""
    humans = [(i, s) for i, s in enumerate(seats) if isinstance(s, HumanSeat)]
    return [i for i, s in humans if s.holder == "creator"], [i for i, s in humans if s.holder == "invite"]


async def lobby_entry(service: GameService, game: str) -> GameSummary:
    """One lobby line: seats from the game's metadata, progress from its summary read model."""
    meta = await service.meta(game)
    specs = msgspec.json.decode(meta["seats"], type=list[SeatSpec])
    open_seats = [
        i for i, s in enumerate(specs) if s.type == "human" and f"seat:{i}" not in meta and f"invite:{i}" not in meta
    ]
    version, summary = await read_model(service.store, game, "summary")
    status: Literal["open", "playing", "finished"] = (
        "finished" if summary["status"] == "finished" else "open" if open_seats else "playing"
    )
    return GameSummary(
        game=game,
        kind=meta["kind"].decode(),
        players=len(specs),
        status=status,
        version=version,
        open_seats=open_seats,
        created_at=int(meta.get("created_at", b"0")),
        lineage=await lineage_of(service, meta),
    )


class GamesController(Controller):
    """Create games, list the lobby, read a game's status, claim seats."""

    path = "/games"
    tags = ["games"]
    dependencies = {
        "service": Provide(provide_service, sync_to_thread=False),
        "quotas": Provide(provide_quotas, sync_to_thread=False),
        "metrics": Provide(provide_metrics, sync_to_thread=False),
    }

    @post(
        "/",
        operation_id="create_game",
        status_code=201,
        summary="Create a game",
        responses=problems(400, 413, 415, 422, 429),
        opt={"rate": "create"},
    )
    async def create_game(
        self,
        data: JSONBody[AnyCreateGameRequest],
        request: Request,
        service: NamedDependency[GameService],
        quotas: NamedDependency[Quotas],
        idempotency_key: SecretIdempotencyKey = None,
    ) -> Response[GameCreatedResponse]:
        """A new game of `kind` (its options typed by it) with these seats; the admin token in the answer
        is shown only this once (or again to a retry with the same `Idempotency-Key`, which creates
        nothing new)."""
        admission, (claim, invite) = Admission(service, quotas, request, data.seats), seat_choices(data.seats)
        game = await service.create(
            data.kind,
            msgspec.to_builtins(data.options),
            [_seat_spec(s) for s in data.seats],
            idle_seconds=data.idle_seconds,
            clock=data.clock,
            claim=claim,
            invite=invite,
            names={i: s.name for i, s in enumerate(data.seats) if isinstance(s, HumanSeat) and s.name is not None},
            idempotency_key=idempotency_key,
            admit=admission,
        )
        await admission.made(game.game)
        return created(GameCreatedResponse.of(game, data.kind), f"/games/{game.game}")

    @get("/", operation_id="list_games", status_code=200, summary="List games", responses=problems(400))
    async def list_games(
        self,
        service: NamedDependency[GameService],
        metrics: NamedDependency[Metrics],
        limit: Annotated[int, QueryParameter(ge=1, le=200, description="At most this many games, newest first.")] = 50,
        cursor: Annotated[
            str | None,
            QueryParameter(
                schema_extra={"maxLength": MAX_CURSOR, "pattern": CURSOR_PATTERN},
                description=(
                    "A `next` from an earlier page of the same query: the games after it (another string: 400 "
                    "`malformed_cursor`)."
                ),
            ),
        ] = None,
        status: Annotated[
            Literal["open", "playing", "finished"] | None,
            QueryParameter(description="Only games with this status; without it, the games that have not ended."),
        ] = None,
        kind: Annotated[
            GameKind | None,  # type: ignore[valid-type]  # a Literal of the hosted kinds, made at run time
            QueryParameter(description="Only games of this kind."),
        ] = None,
        open_seats: Annotated[
            bool | None,
            QueryParameter(description="true: only games with at least one open seat; false: only games with none."),
        ] = None,
    ) -> Lobby:
        """The listed games, newest first, with their status and open seats (from the summary read
        models): those that have not ended, or those with `status`. A page may hold fewer than `limit`
        games (filters are applied to a bounded scan) and still have a `next`; `next` is null at the end."""
        page: list[GameSummary]
        position, page, scanned = read_cursor(cursor), [], 0
        while len(page) < limit and scanned < MAX_SCAN:
            batch = await service.lobby_after(position, limit, ended=status == "finished")
            if not batch:
                return Lobby(games=page, next=None)
            for game, created_at in batch:
                position, scanned = (created_at, game), scanned + 1
                entry = await _listed(service, game, status, metrics)
                if (
                    entry
                    and (kind is None or entry.kind == kind)
                    and (open_seats is None or bool(entry.open_seats) == open_seats)
                ):
                    page.append(entry)
                    if len(page) == limit:
                        break
        assert position is not None  # the loop ran (limit >= 1) and returned or moved on
        return Lobby(games=page, next=cursor_of(position))

    @get(
        "/{game_id:str}",
        operation_id="get_game",
        status_code=200,
        summary="Read a game's status",
        responses=problems(400, 401, 403, 404),
    )
    async def get_game(
        self, game_id: GameIdParam, request: Request, service: NamedDependency[GameService]
    ) -> GameDetail:
        """Status, version, the awaited seat and decision, seats, options; outcome once finished; the seed
        once finished (for a fork of a running game: once that game has ended too)."""
        # the metadata as the validator read it (caching.conditional): no second round trip for it
        return await game_detail(service, game_id, meta=request.state.get(META) or None)
