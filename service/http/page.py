"""A game's status (`game_detail`), and its page in one read: the status, the caller's view and its
choices, all at the stream's newest version, from the state this process keeps folded (no read
model, no wait for the projector). What the web client reads after every move: one request where it
made three."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Controller, Request, get
from litestar.di import NamedDependency, Provide

from domain.kernel import Decider
from service.ai.scheduler import ai_level
from service.errors import Code
from service.read.models import PROJECTIONS
from service.write import GameService, SeatSpec
from service.write.names import names_of

from .auth import GameIdParam, caller_seat, provide_service, require
from .caching import META
from .choices import choices_at
from .clocks import clock_status
from .models import CONTRACTS, Awaiting, GameDetail, Lineage, SeatInfo, of_kind, per_game
from .openapi import OPTIONAL_TOKEN
from .problems import problems
from .views import MinVersionParam

GamePage = per_game(
    "GamePage",
    "What a game's page shows, at one version (the stream's newest): the game's status (as GET "
    "/games/{id}), the caller's view (as GET /games/{id}/view at that version: a seat's own with its "
    "token, else the public one) and, for a seat token while the game runs, its choices (as GET "
    "/games/{id}/options; else null).",
    lambda kind, c: [
        ("game", of_kind("GameDetail", kind)),
        ("view", of_kind("ViewAnswer", kind)),
        ("choices", of_kind("Choices", kind) | None),
    ],
)


async def lineage_of(service: GameService, meta: dict[str, bytes]) -> Lineage | None:
    """A fork's lineage; the parent's hash at the fork point only once the parent has ended (or
    when the parent is not on this server: an imported fork, whose export was public)."""
    if "lineage" not in meta:
        return None
    lineage = msgspec.json.decode(meta["lineage"], type=Lineage)
    parent = await service.store.records.meta(lineage.parent)
    if parent and "finished" not in parent:
        return msgspec.structs.replace(lineage, prefix_hash=None)
    return lineage


async def game_detail(
    service: GameService, game: str, *, meta: dict[str, bytes] | None = None, at: tuple[int, Any] | None = None
) -> GameDetail:
    """The game's status from its metadata and its current state (a fold of its events); `meta` and
    `at` (version, state) when the caller has read them already."""
    meta = meta if meta is not None else await service.meta(game)
    decider = await service.decider(game)
    version, state = at if at is not None else await service.state_at(game)
    # what the state says, before any await: the cached state changes with the next command
    finished, awaited, options = decider.is_terminal(state), decider.awaited(state), state.options
    outcome = decider.outcome(state) if finished else None
    specs = msgspec.json.decode(meta["seats"], type=list[SeatSpec])
    levels = [ai_level(meta, i) for i in range(len(specs))]  # AI from creation or handed over since
    names = names_of(meta)
    seats = [
        SeatInfo(
            seat=i,
            type="ai" if level else "human",
            level=level,
            claimed=level is not None or f"seat:{i}" in meta,
            reserved=f"invite:{i}" in meta,
            name=names.get(i),
        )
        for i, level in enumerate(levels)
    ]
    open_seats = [s.seat for s in seats if not s.claimed and not s.reserved]
    kind = meta["kind"].decode()
    contract = CONTRACTS[kind]
    return of_kind("GameDetail", kind)(
        game=game,
        players=len(seats),
        version=version,
        open_seats=open_seats,
        status="finished" if finished else "open" if open_seats else "playing",
        created_at=int(meta.get("created_at", b"0")),
        seats=seats,
        lineage=await lineage_of(service, meta),
        options=msgspec.convert(msgspec.to_builtins(options), contract.game_options),
        awaiting=Awaiting(seat=awaited.seat, decision=awaited.decision) if awaited else None,
        finished=finished,
        outcome=None if outcome is None else msgspec.convert(outcome, contract.outcome),
        commitment=meta["commitment"].decode(),
        seed=meta["seed"].decode() if finished and await service.store.records.revealed(game) else None,
        clock=await clock_status(service, game),
    )


# each game's board projection: its views of a state (what GET /view serves from the read model)
_BOARD = {kind: next(p for p in projections if p.name == "board") for kind, projections in PROJECTIONS.items()}


class PageController(Controller):
    """A game's page in one read."""

    path = "/games/{game_id:str}"
    tags = ["play"]
    dependencies = {"service": Provide(provide_service, sync_to_thread=False)}

    @get(
        "/page",
        operation_id="get_page",
        status_code=200,
        summary="The game, the caller's view and its choices, in one read",
        security=OPTIONAL_TOKEN,
        responses=problems(400, 401, 403, 404),
    )
    async def get_page(
        self,
        game_id: GameIdParam,
        request: Request,
        service: NamedDependency[GameService],
        min_version: MinVersionParam = 0,
    ) -> GamePage:  # type: ignore[valid-type]  # a type made at run time
        """The game's status, the caller's view and (a seat token's, while the game runs) its choices,
        all at the game's newest version, which `min_version` must not exceed (404 `unknown_version`):
        the three reads a client makes after a move, in one."""
        seat = await caller_seat(service, game_id, request, required=False)
        meta = request.state.get(META) or await service.meta(game_id)  # as caching.conditional read it
        decider = await service.decider(game_id)
        # the fold this process keeps, taken as it is when it ends where the metadata says the log does
        head = (int(meta["version"]), meta["hash"].decode()) if "version" in meta and "hash" in meta else None
        version, state = await service.state_at(game_id, head=head)
        require(min_version <= version, Code.UNKNOWN_VERSION, f"The game has no version {min_version} yet.")
        # the view and choices at once: the cached state changes with the next command (game_detail
        # reads what it needs of it before it awaits anything)
        kind = decider.kind
        view = _BOARD[kind].view(state, seat)
        choices = _choices(decider, state, version, seat)
        detail = await game_detail(service, game_id, meta=meta, at=(version, state))
        answer = of_kind("ViewAnswer", kind)(version=version, seat=seat, view=view)
        return of_kind("GamePage", kind)(game=detail, view=answer, choices=choices)


def _choices(decider: Decider, state: Any, version: int, seat: int | None) -> Any:
    """A seat's choices while the game runs (None for a spectator, or once it has ended)."""
    if seat is None or decider.choices is None or decider.is_terminal(state):
        return None
    return choices_at(decider, state, version, seat, None)
