"""`Games`: what the write path works with (the event store, the folds cached in this process, the
metadata that never changes, the scheduler hook). The write functions (create, seats, submit,
reads) each take it; `facade.GameService` gives them as methods to the layers above."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from domain.kernel import Decider
from service.errors import Code, ServiceError
from service.store.records import SeatPlayer
from service.store.secret import ServerSecret
from service.store.streams import EventStore

from .folds import Folds
from .meta import FIXED_FIELDS, game_of, seat_keys, token_hash
from .texts import Texts

# Games whose state a process keeps folded (about 8 KB each, half played): at 1,000 games at a human
# pace, 256 made states be read and folded again from the stream (8% of the API's CPU, issue 26).
FOLDS_KEPT = 4096
CLOCK_MIN_S = 30


class Games:
    """Games over an event store; folds are cached in memory per game and caught up on demand."""

    def __init__(
        self,
        store: EventStore,
        cache_size: int = FOLDS_KEPT,
        on_awaiting: Callable[..., Awaitable[Any]] | None = None,
        secret: ServerSecret | None = None,
    ) -> None:
        self.store, self.cache_size = store, cache_size
        # derives the secrets of answers given for an Idempotency-Key (keyed.py); the one in Redis by default
        self.secret = secret or store.server_secret()
        # awaited with (game, version, awaited seat) after each accepted command: where AI turns get
        # enqueued at once (service.ai.scheduler.TurnNotifier); it must not raise
        self.on_awaiting = on_awaiting
        self.folds = Folds(store, cache_size)
        # the state before the events a reader asks the texts of (reads.Texts)
        self.texts = Texts()
        self._fixed: OrderedDict[str, dict[str, bytes]] = OrderedDict()
        # the shortest Fischer bank or time per move a new game's clock may have (PANTHEON_CLOCK_MIN_S)
        self.clock_min_s = CLOCK_MIN_S
        # each clocked game's clocks and state as of a version (clocks.py), caught up on demand
        self.clocks: OrderedDict[str, Any] = OrderedDict()

    async def awaiting(self, game: str, version: int, seat: int, player: SeatPlayer | None = None) -> None:
        """Tell the scheduler that the game awaits `seat` at `version` (the store already knows: the
        append recorded it; this only saves the AI sweeper's delay); `player`: who plays the seat, if
        the append said (else the scheduler reads it)."""
        if self.on_awaiting is not None:
            await self.on_awaiting(game, version, seat, player)

    async def meta(self, game: str) -> dict[str, bytes]:
        """All of the game's metadata, read now; 404 `unknown_game` for an unknown game."""
        meta = await self.store.records.meta(game)
        if not meta or "kind" not in meta:
            raise ServiceError(Code.UNKNOWN_GAME, f"There is no game {game!r}.")
        return meta

    async def fixed(self, game: str) -> dict[str, bytes]:
        """The game's metadata that never changes after creation (kind, seed, seats, admin, …),
        read from Redis once per process."""
        fixed = self._fixed.get(game)
        if fixed is None:
            fixed = {k: v for k, v in (await self.meta(game)).items() if k in FIXED_FIELDS}
            self._fixed[game] = fixed
            while len(self._fixed) > 8 * self.cache_size:
                self._fixed.popitem(last=False)
        return fixed

    async def refuse_archived(self, game: str) -> None:
        """422 `game_over` (as for a command to a finished game) if the game was moved to the archive:
        an archived game takes no more writes."""
        if await self.store.archived(game) is not None:
            raise ServiceError(
                Code.GAME_OVER, "The game is over and archived; it takes no more commands or seat changes."
            )

    async def kind(self, game: str) -> str:
        """The game's kind; a 404 ServiceError for an unknown game."""
        return (await self.fixed(game))["kind"].decode()

    async def decider(self, game: str) -> Decider:
        return game_of(await self.kind(game)).decider

    async def seat_of(self, game: str, token: str) -> int | None:
        """The seat a token is for (None if it is not a seat token of this game). Read every time:
        the admin may replace a seat's token, and the old one must stop working in every process."""
        await self.fixed(game)
        field = f"token:{token_hash(token)}"
        (value,) = await self.store.records.fields(game, field)  # from the archive once archived
        return None if value is None else int(value)

    async def command_context(self, game: str, token: str, idempotency_key: str | None) -> tuple[int, bool] | None:
        """Before a seat's command, in one round trip: the token's seat and whether that seat holds a
        record of the Idempotency-Key (the `key_recorded` of `submit`); None when the token is not a
        seat token of a game in Redis (`seat_of` and `is_admin` then say what it is)."""
        fixed = await self.fixed(game)
        keys = seat_keys(idempotency_key, len(msgspec.json.decode(fixed["seats"]))) if idempotency_key else []
        seat, record = await self.store.records.command_context(game, token_hash(token), keys)
        return None if seat is None else (seat, record is not None)

    async def is_admin(self, game: str, token: str) -> bool:
        return (await self.fixed(game)).get("admin", b"").decode() == token_hash(token)

    async def lobby(self, limit: int, *, ended: bool = False) -> list[str]:
        """The ids of the newest listed games that are running (or, with `ended`, that have ended)."""
        return await self.store.lobby.newest(limit, ended=ended)

    async def lobby_after(
        self, after: tuple[int, str] | None, count: int, *, ended: bool = False
    ) -> list[tuple[str, int]]:
        """Up to `count` listed games (id, creation time), newest first, after the game `after`
        (its creation time and id; None: from the newest). Ties in time are ordered by id, descending."""
        return await self.store.lobby.page_after(after, count, ended=ended)

    async def delist_ended(self, game: str) -> None:
        """Move an ended game from the lobby to the ended games (if it was listed at all)."""
        await self.store.lobby.move_to_ended(game)
