"""The web client: its static files (plain ES modules, CSS) at `/`, and each game edition's board
as SVG (from the game registry), which the client draws pieces and choices on.

Both stay out of the OpenAPI document: they are the browser client's assets, not the API."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from litestar import Controller, Response, get
from litestar.datastructures import CacheControlHeader
from litestar.params import PathParameter
from litestar.static_files import create_static_files_router

from domain import games
from service.errors import Code, ServiceError

WEB_DIR = Path(__file__).with_name("web")
# the files change with a release only; a short max-age lets a browser reuse them while playing
ASSETS_CACHE = CacheControlHeader(max_age=300)


class BoardController(Controller):
    """The board of a game kind's edition as an SVG document (game-generic: the registry draws it)."""

    path = "/web/boards"
    include_in_schema = False

    @get(
        "/{kind:str}/{edition:str}",
        operation_id="web_board",
        status_code=200,
        media_type="image/svg+xml",
        cache_control=ASSETS_CACHE,
    )
    async def board(
        self, kind: Annotated[str, PathParameter(max_length=40)], edition: Annotated[str, PathParameter(max_length=80)]
    ) -> Response[str]:
        game = games.GAMES.get(kind)
        name = edition.removesuffix(".svg")
        if game is None or name not in game.editions:
            raise ServiceError(Code.NOT_FOUND, "No such game kind or edition.")
        return Response(game.render_board(name), media_type="image/svg+xml")


def web_routes() -> list:
    """The web client's routes: the static files at `/` (index.html for `/`) and the boards."""
    static = create_static_files_router(
        path="/", directories=[WEB_DIR], html_mode=True, name="web", cache_control=ASSETS_CACHE, include_in_schema=False
    )
    return [static, BoardController]
