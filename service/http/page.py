"""A game's page in one read: the game's status, the caller's view and its choices, all at the
stream's newest version, from the state this process keeps folded (no read model, no wait for the
projector). What the web client reads after every move: one request where it made three."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, get
from litestar.di import NamedDependency, Provide

from domain.kernel import Decider
from service.errors import Code
from service.read.models import PROJECTIONS
from service.write import GameService

from .auth import GameIdParam, caller_seat, provide_service, require
from .caching import META
from .choices import choices_at
from .games import game_detail
from .models import of_kind, per_game
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
