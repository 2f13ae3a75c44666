"""Views for the API from the read models: read-your-writes with a short wait for the projector,
then a fold on demand; `?at=N` replays."""

from __future__ import annotations

import asyncio
import time
from typing import Annotated

import msgspec
from litestar.params import QueryParameter

from service.errors import Code
from service.read.models import ReadModelMissing, read_model_json, view_at
from service.write import GameService

from .auth import require
from .models import MAX_VERSION

# How long a read waits for the projector to reach the version the client asked for before it
# folds the events itself (the projector's p99 lag is a few milliseconds).
WAIT_FOR_PROJECTOR_S = 0.05
AtParam = Annotated[int | None, QueryParameter(ge=1, le=MAX_VERSION, description="The view at this version (replay).")]
MinVersionParam = Annotated[
    int,
    QueryParameter(
        ge=0,
        le=MAX_VERSION,
        description="Read your writes: a view of at least this version (e.g. the `version` a command returned).",
    ),
]


async def projected(
    service: GameService,
    game: str,
    name: str,
    seat: int | None,
    at: int | None,
    min_version: int,
    *,
    or_public: bool = False,
) -> tuple[int, dict]:
    """(version, view): the stored read model if it is recent enough, else folded now (with
    `or_public`, the public view where the projection has none of its own for `seat`)."""
    await service.kind(game)  # 404 for an unknown game
    try:
        if at is not None:
            version, body = await view_at(service.store, game, name, seat, at, or_public=or_public)
            require(version == at, Code.UNKNOWN_VERSION, f"The game has no version {at} yet.")
        else:
            current, _ = await service.store.head(game)
            require(min_version <= current, Code.UNKNOWN_VERSION, f"The game has no version {min_version} yet.")
            await _wait_for_projector(service, game, name, min_version)
            version, body = await read_model_json(
                service.store, game, name, seat, min_version=min_version, or_public=or_public
            )
    except ReadModelMissing as missing:
        require(False, Code.NO_SUCH_VIEW, str(missing))
    return version, msgspec.json.decode(body)


async def _wait_for_projector(service: GameService, game: str, name: str, min_version: int) -> None:
    if min_version <= 0:
        return
    deadline = time.monotonic() + WAIT_FOR_PROJECTOR_S
    while time.monotonic() < deadline:
        stored = await service.store.models.version(game, name)
        if stored is not None and stored >= min_version:
            return
        if stored is None and await service.store.archived(game) is not None:
            return  # an archived game has no read models in Redis: folded from the archive at once
        await asyncio.sleep(0.005)
