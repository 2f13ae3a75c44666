"""What a game kind calls things: its glossary (every id a player meets with a display name and a
one-line description, the options and their values, the rules in short), from the game registry,
so that every client shows the same words as the server's labels and log."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get
from litestar.datastructures import CacheControlHeader
from litestar.params import PathParameter, QueryParameter

from domain import games
from domain.glossary import Glossary
from service.errors import Code, ServiceError

from .problems import problems

# the words change with a release only
WORDS_CACHE = CacheControlHeader(max_age=300, public=True)


class KindsController(Controller):
    """The words of each game kind."""

    path = "/kinds"
    tags = ["games"]

    @get(
        "/{kind:str}/glossary",
        operation_id="get_glossary",
        status_code=200,
        summary="A game kind's names for its ids, its options and its rules in short",
        cache_control=WORDS_CACHE,
        responses=problems(400, 404),
    )
    async def get_glossary(
        self,
        kind: Annotated[str, PathParameter(max_length=40, description="a game kind: `pantheon`, `pergamon`, …")],
        edition: Annotated[
            str | None,
            QueryParameter(max_length=80, description="an edition (the kind's first if left out)"),
        ] = None,
    ) -> Glossary:
        """Every id of the kind a player meets — its pieces, cards, tiles, hexes (group `hexes`,
        ids `"q,r"`), options and their values (a yes/no option's values are `true` and `false`)
        — with a display name and a one-line description, grouped by what they are; and a short
        summary of its rules. 404 `not_found` for an unknown kind or edition."""
        game = games.GAMES.get(kind)
        if game is None or (edition is not None and edition not in game.editions):
            raise ServiceError(
                Code.NOT_FOUND, f"No game kind {kind!r} with that edition. Kinds: {', '.join(games.kinds())}."
            )
        return game.glossary(edition or game.editions[0])
