"""`GameService`: what the write path works with (the event store, the folds cached in this
process, the metadata that never changes, the scheduler hook) and its operations by name, each
one a function of its own module (create, seats, submit, reads)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from domain.kernel import Decider
from service.store.secret import ServerSecret
from service.store.streams import EventStore

from . import create as _create
from . import reads as _reads
from . import seats as _seats
from . import submit as _submit
from .errors import ServiceError
from .folds import Folds
from .meta import FIXED_FIELDS, game_of, token_hash


class GameService:
    """Games over an event store; folds are cached in memory per game and caught up on demand."""

    def __init__(self, store: EventStore, cache_size: int = 256,
                 on_awaiting: Callable[[str, int, int], Awaitable[Any]] | None = None,
                 secret: ServerSecret | None = None) -> None:
        self.store, self.cache_size = store, cache_size
        # derives the secrets of answers given for an Idempotency-Key (keyed.py); the one in Redis by default
        self.secret = secret or ServerSecret(store.redis, store.prefix)
        # awaited with (game, version, awaited seat) after each accepted command: where AI turns get
        # enqueued at once (service.ai.scheduler.TurnNotifier); it must not raise
        self.on_awaiting = on_awaiting
        self.folds = Folds(store, cache_size)
        self._fixed: OrderedDict[str, dict[str, bytes]] = OrderedDict()

    create = _create.create
    start = _create.start
    claim = _seats.claim
    reissue = _seats.reissue
    hand_to_ai = _seats.hand_to_ai
    take_back = _seats.take_back
    submit = _submit.submit
    record_rejected = _submit.record_rejected
    rejected = _submit.rejected
    state_at = _reads.state_at
    events = _reads.events

    async def awaiting(self, game: str, version: int, seat: int) -> None:
        """Tell the scheduler that the game awaits `seat` at `version` (the store already knows: the
        append recorded it; this only saves the AI sweeper's delay)."""
        if self.on_awaiting is not None:
            await self.on_awaiting(game, version, seat)

    async def meta(self, game: str) -> dict[str, bytes]:
        """All of the game's metadata, read now; 404 `unknown_game` for an unknown game."""
        meta = await self.store.meta(game)
        if not meta or "kind" not in meta:
            raise ServiceError(404, "unknown_game", f"There is no game {game!r}.")
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
            raise ServiceError(422, "game_over", "The game is over and archived; it takes no more commands "
                                                 "or seat changes.")

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
        value = await self.store.redis.hget(self.store.keys(game).meta, field)
        if value is None and (cold := await self.store.archived(game)):
            value = cold.meta.get(field)
        return None if value is None else int(value)

    async def is_admin(self, game: str, token: str) -> bool:
        return (await self.fixed(game)).get("admin", b"").decode() == token_hash(token)

    @property
    def lobby_key(self) -> str:
        """The listed games that have not ended (newest first by creation time)."""
        return f"{self.store.prefix}:lobby"

    @property
    def ended_key(self) -> str:
        """The listed games that have ended."""
        return f"{self.store.prefix}:lobby:ended"

    async def lobby(self, limit: int, *, ended: bool = False) -> list[str]:
        """The ids of the newest listed games that are running (or, with `ended`, that have ended)."""
        key = self.ended_key if ended else self.lobby_key
        return [g.decode() for g in await self.store.redis.zrevrange(key, 0, limit - 1)]

    async def lobby_after(self, after: tuple[int, str] | None, count: int, *, ended: bool = False
                          ) -> list[tuple[str, int]]:
        """Up to `count` listed games (id, creation time), newest first, after the game `after`
        (its creation time and id; None: from the newest). Ties in time are ordered by id, descending."""
        key, redis = self.ended_key if ended else self.lobby_key, self.store.redis
        if after is None:
            found = await redis.zrevrangebyscore(key, "+inf", "-inf", start=0, num=count, withscores=True)
            return [(g.decode(), int(score)) for g, score in found]
        at, game = after
        ties = sorted((g.decode() for g in await redis.zrangebyscore(key, at, at)), reverse=True)
        page = [(g, at) for g in ties if g < game][:count]
        older = await redis.zrevrangebyscore(key, f"({at}", "-inf", start=0, num=count - len(page), withscores=True)
        return page + [(g.decode(), int(score)) for g, score in older]

    async def delist_ended(self, game: str) -> None:
        """Move an ended game from the lobby to the ended games (if it was listed at all)."""
        score = await self.store.redis.zscore(self.lobby_key, game)
        if score is not None:  # the two keys may be on two nodes of a Redis Cluster: no MULTI, but an order
            # that never delists a game without listing it as ended (a failure between the two
            # leaves it in both, and a retry finishes the move)
            await self.store.redis.zadd(self.ended_key, {game: score})
            await self.store.redis.zrem(self.lobby_key, game)
