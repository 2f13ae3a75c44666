"""The application service: create games, claim seats, submit commands, read games. HTTP
handlers and AI workers both go through `submit` (one write path)."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.kernel import Decider, DomainError, fold
from domain.pantheon import PANTHEON
from domain.rng import commitment, game_rng
from service.store.codec import JSON, Envelope, wrap_batch
from service.store.streams import EventStore, VersionConflict

DECIDERS: dict[str, Decider] = {"pantheon": PANTHEON}
ENGINE_VERSION = "pantheon-engine/1"


class ServiceError(Exception):
    """A request the service refuses: an HTTP status, a stable code and a sentence."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra


class SeatSpec(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Who sits in a seat: a human (claims the seat) or an AI of some level."""

    type: str = "human"  # human or ai
    level: str | None = None  # random, greedy or strong for AI seats


@dataclass
class Created:
    game: str
    admin_token: str
    version: int
    commitment: str = ""


@dataclass
class Submitted:
    version: int
    first: int
    duplicate: bool = False
    awaiting: dict | None = None  # who the game waits for now (not known for a duplicate)


def check_levels(kind: str, seats: list[SeatSpec]) -> None:
    """Every AI seat's level names a bot of the game's kind (else its turns could never be played)."""
    bots = DECIDERS[kind].bots
    names = bots.names if bots is not None else frozenset()
    unknown = [s.level or "random" for s in seats if s.type == "ai" and (s.level or "random") not in names]
    if unknown:
        raise ServiceError(422, "unknown_level", f"There is no AI level {unknown[0]!r}; "
                                                 f"choose one of {', '.join(sorted(names))}.")


def new_game_id() -> str:
    return uuid.uuid4().hex[:16]


def new_meta(kind: str, seed: bytes, seats: list[SeatSpec], **extra: str) -> tuple[dict, str]:
    """A new game's metadata (the seed stays secret until the end) and its admin token."""
    admin = secrets.token_urlsafe(24)
    meta = dict(kind=kind, seed=seed.hex(), commitment=commitment(seed), admin=token_hash(admin),
                seats=JSON.encode(seats), created_at=_now_ms(), engine=ENGINE_VERSION, **extra)
    return meta, admin


def first_facts(meta: dict, **more: str) -> dict[str, str]:
    """What version 1 publishes: the seed's commitment and the engine version (and a fork's lineage)."""
    return {"commitment": meta["commitment"], "engine": ENGINE_VERSION, **more}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _now_ms() -> int:
    return int(time.time() * 1000)


@dataclass
class GameService:
    """Games over an event store; folds are cached in memory per game and caught up on demand."""

    store: EventStore
    cache_size: int = 256
    # called with (game, version, awaited seat) after each accepted command: where AI turns get scheduled
    on_awaiting: Any = None
    _cache: OrderedDict = field(default_factory=OrderedDict)
    _locks: dict[str, asyncio.Lock] = field(default_factory=dict)
    _fixed_meta: OrderedDict = field(default_factory=OrderedDict)
    _tokens: OrderedDict = field(default_factory=OrderedDict)

    # --- writes ---------------------------------------------------------------------------
    async def create(self, kind: str, options: dict, seats: list[SeatSpec], *, idle_seconds: int | None = None) -> Created:
        decider = DECIDERS.get(kind)
        if decider is None:
            raise ServiceError(422, "unknown_kind", f"There is no game kind {kind!r}; try 'pantheon'.")
        check_levels(kind, seats)
        command = self._command(decider, {"type": "create_game", "options": {**options, "players": len(seats)}})
        game, seed = new_game_id(), secrets.token_bytes(32)
        events = self._decide(decider, None, command, seed, game, 0)
        meta, admin = new_meta(kind, seed, seats, **({"idle_seconds": idle_seconds} if idle_seconds else {}))
        envelopes = wrap_batch(game, 0, "", events, command, seat=None, recorded_at=meta["created_at"],
                               facts=first_facts(meta))
        return await self.start(game, envelopes, meta, admin)

    async def start(self, game: str, envelopes: list[Envelope], meta: dict, admin: str) -> Created:
        """Store a new game's first events and metadata atomically, then list it in the lobby."""
        appended = await self.store.append(game, 0, envelopes, meta=meta)
        # The lobby index is not in the game's hash slot, so it is written after the append.
        await self.store.redis.zadd(self.lobby_key, {game: meta["created_at"]})
        if self.on_awaiting is not None:
            _, state = await self.state_at(game)
            awaited = DECIDERS[meta["kind"]].awaited(state)
            if awaited is not None:
                self.on_awaiting(game, appended.version, awaited.seat)
        return Created(game=game, admin_token=admin, version=appended.version, commitment=meta["commitment"])

    async def claim(self, game: str, seat: int) -> str:
        """A new seat token for an unclaimed human seat (shown once, stored hashed)."""
        meta = await self._meta(game)
        seats = msgspec.json.decode(meta["seats"], type=list[SeatSpec])
        if not 0 <= seat < len(seats):
            raise ServiceError(404, "unknown_seat", f"This game has seats 0 to {len(seats) - 1}.")
        if seats[seat].type != "human":
            raise ServiceError(409, "seat_not_human", f"Seat {seat} is played by an AI.")
        if "read_only" in meta:
            raise ServiceError(409, "read_only", "This game was imported as an archive; its seats cannot be claimed.")
        token = secrets.token_urlsafe(24)
        if not await self.store.set_meta_if_absent(game, f"seat:{seat}", token_hash(token)):
            raise ServiceError(409, "seat_taken", f"Seat {seat} has already been claimed.")
        await self.store.set_meta(game, **{f"token:{token_hash(token)}": seat})
        return token

    async def submit(self, game: str, seat: int, raw_command: Any, *, expected_version: int | None = None,
                     idempotency_key: str | None = None, provenance: dict[str, str] | None = None) -> Submitted:
        """Decide a seat's command against the current state and append its events."""
        meta = await self._fixed(game)
        if "read_only" in meta:
            raise ServiceError(409, "read_only", "This game was imported as an archive; it takes no commands.")
        decider, seed = DECIDERS[meta["kind"].decode()], bytes.fromhex(meta["seed"].decode())
        command = self._command(decider, raw_command)
        if getattr(command, "seat", seat) != seat:
            raise ServiceError(403, "wrong_seat", f"Your token is for seat {seat}; the command names seat {command.seat}.")
        if idempotency_key and (prior := await self._prior_outcome(game, idempotency_key)):
            # A retry after success: the state has moved on, so deciding again would refuse it.
            return self._duplicate(prior)
        for _ in range(5):
            async with self._lock(game):
                done = await self._decide_and_append(game, decider, seed, command, seat, expected_version,
                                                     idempotency_key, provenance)
            if done is not None:
                if done.awaiting is not None and self.on_awaiting is not None:
                    self.on_awaiting(game, done.version, done.awaiting["seat"])
                return done
        raise ServiceError(409, "version_conflict", "The game is too busy; try again.")

    async def _decide_and_append(self, game: str, decider: Decider, seed: bytes, command: Any, seat: int,
                                 expected_version: int | None, idempotency_key: str | None,
                                 provenance: dict[str, str] | None = None) -> Submitted | None:
        """One attempt, holding the game's lock; None when another process appended first.

        It decides on the cached state without asking Redis for newer events: if another process
        has appended meanwhile, the append's version check refuses it and the next attempt reads."""
        version, state, last_hash = await self._current(game, decider, refresh=False)
        if expected_version is not None and expected_version != version:
            raise ServiceError(409, "version_conflict", f"The game is at version {version}, not {expected_version}.",
                               current_version=version)
        try:
            events = self._decide(decider, state, command, seed, game, version)
        except DomainError as error:
            await self.record_rejected(game, version, seat, command, error.code, error.message)
            raise ServiceError(422, error.code, error.message) from None
        envelopes = wrap_batch(game, version, last_hash, events, command, seat=seat, recorded_at=_now_ms(),
                               idempotency_key=idempotency_key, provenance=provenance)
        for event in events:  # into the cached state at once; dropped below if the append fails
            state = decider.evolve(state, event)
        awaited = decider.awaited(state)
        awaiting = None if awaited is None else {"seat": awaited.seat, "decision": awaited.decision}
        outcome = JSON.encode({"version": version + len(events), "first": version + 1, "awaiting": awaiting})
        try:
            appended = await self.store.append(game, version, envelopes, idempotency_key=idempotency_key, outcome=outcome)
        except VersionConflict as conflict:
            self._cache.pop(game, None)
            if expected_version is not None:
                raise ServiceError(409, "version_conflict", f"The game moved on to version {conflict.current}.",
                                   current_version=conflict.current) from None
            return None
        if appended.duplicate:
            self._cache.pop(game, None)
            return self._duplicate(appended.outcome)
        self._cache[game] = (appended.version, state, envelopes[-1].hash)
        if decider.is_terminal(state):
            await self.store.set_meta(game, finished=1)  # the seed may now be revealed
        return Submitted(version=appended.version, first=version + 1, awaiting=awaiting)

    @staticmethod
    def _duplicate(outcome: bytes) -> Submitted:
        prior = msgspec.json.decode(outcome)
        return Submitted(version=prior["version"], first=prior["first"], duplicate=True, awaiting=prior.get("awaiting"))

    async def hand_to_ai(self, game: str, seat: int, level: str) -> None:
        """The AI plays `seat` from now on; scheduled at once if the game awaits that seat."""
        await self._seat_spec(game, seat)
        check_levels(await self.kind(game), [SeatSpec(type="ai", level=level)])
        await self.store.set_meta(game, **{f"ai:{seat}": level})
        await self._reschedule(game, seat)

    async def take_back(self, game: str, seat: int) -> None:
        """A seat handed to the AI is a person's again; if the game awaits it, its idle clock
        starts afresh (so an idle hand-over does not take it straight back)."""
        if (await self._seat_spec(game, seat)).type == "ai":
            raise ServiceError(409, "not_handed_over", f"Seat {seat} is an AI seat from the game's creation.")
        if not await self.store.redis.hdel(self.store.keys(game).meta, f"ai:{seat}"):
            raise ServiceError(409, "not_handed_over", f"Seat {seat} was not handed to the AI: a person plays it.")
        await self._reschedule(game, seat)

    async def _seat_spec(self, game: str, seat: int) -> SeatSpec:
        seats = msgspec.json.decode((await self._meta(game))["seats"], type=list[SeatSpec])
        if not 0 <= seat < len(seats):
            raise ServiceError(404, "unknown_seat", f"This game has seats 0 to {len(seats) - 1}.")
        return seats[seat]

    async def _reschedule(self, game: str, seat: int) -> None:
        """Tell the scheduler again if the game awaits `seat` (who plays it has just changed)."""
        version, state = await self.state_at(game)
        awaited = DECIDERS[await self.kind(game)].awaited(state)
        if awaited is not None and awaited.seat == seat and self.on_awaiting is not None:
            self.on_awaiting(game, version, seat)

    async def record_rejected(self, game: str, version: int, seat: int | None, command: Any, code: str,
                              message: str) -> None:
        """Who tried what, when, and why it was refused: kept for audits, the game is unchanged."""
        await self.store.redis.xadd(self.store.keys(game).rejected, {
            "at": _now_ms(), "version": version, "seat": "" if seat is None else seat, "code": code,
            "message": message, "command": JSON.encode(command)})

    async def rejected(self, game: str) -> list[dict]:
        """Every refused command of a game, oldest first."""
        await self._fixed(game)
        entries = await self.store.redis.xrange(self.store.keys(game).rejected)
        return [{"at": int(f[b"at"]), "version": int(f[b"version"]),
                 "seat": int(f[b"seat"]) if f[b"seat"] else None, "code": f[b"code"].decode(),
                 "message": f[b"message"].decode(), "command": msgspec.json.decode(f[b"command"])}
                for _, f in entries]

    # --- reads ----------------------------------------------------------------------------
    async def state_at(self, game: str, at: int | None = None) -> tuple[int, Any]:
        decider = DECIDERS[await self.kind(game)]
        if at is None:
            async with self._lock(game):
                version, state, _ = await self._current(game, decider)
            return version, state
        envelopes = await self.store.read(game, 0, at)
        events = [self._event(decider, e) for e in envelopes]
        return len(events), fold(decider, events)

    async def seat_of(self, game: str, token: str) -> int | None:
        """The seat a token is for (None if it is not a seat token of this game)."""
        await self._fixed(game)
        key = (game, token_hash(token))
        if key not in self._tokens:  # a claimed seat's token never changes: remember it
            value = await self.store.redis.hget(self.store.keys(game).meta, f"token:{key[1]}")
            if value is None:
                return None
            self._tokens[key] = int(value)
            while len(self._tokens) > 8 * self.cache_size:
                self._tokens.popitem(last=False)
        return self._tokens[key]

    async def is_admin(self, game: str, token: str) -> bool:
        return (await self._fixed(game)).get("admin", b"").decode() == token_hash(token)

    async def kind(self, game: str) -> str:
        """The game's kind; a 404 ServiceError for an unknown game."""
        return (await self._fixed(game))["kind"].decode()

    async def events(self, game: str, after: int, viewer: int | None) -> list[dict]:
        decider = DECIDERS[await self.kind(game)]
        envelopes = await self.store.read(game, after)
        return [self._public_envelope(decider, e, viewer) for e in envelopes]

    async def meta(self, game: str) -> dict[str, bytes]:
        return await self._meta(game)

    @property
    def lobby_key(self) -> str:
        return f"{self.store.prefix}:lobby"

    async def lobby(self, limit: int) -> list[str]:
        """The ids of the newest games, newest first."""
        return [g.decode() for g in await self.store.redis.zrevrange(self.lobby_key, 0, limit - 1)]

    # --- helpers --------------------------------------------------------------------------
    async def _prior_outcome(self, game: str, key: str) -> bytes | None:
        return await self.store.redis.hget(self.store.keys(game).idempotency, key)

    def _public_envelope(self, decider: Decider, e: Envelope, viewer: int | None) -> dict:
        event = decider.redact(self._event(decider, e), viewer)
        return {"version": e.version, "type": e.type, "recorded_at": e.recorded_at,
                "seat": e.seat, "command": e.command, "payload": msgspec.to_builtins(event), "hash": e.hash}

    async def _meta(self, game: str) -> dict[str, bytes]:
        meta = await self.store.meta(game)
        if not meta or "kind" not in meta:
            raise ServiceError(404, "unknown_game", f"There is no game {game!r}.")
        return meta

    async def _fixed(self, game: str) -> dict[str, bytes]:
        """The game's metadata that never changes after creation (kind, seed, seats, admin, …),
        read from Redis once per process."""
        fixed = self._fixed_meta.get(game)
        if fixed is None:
            meta = await self._meta(game)
            fixed = {k: v for k, v in meta.items() if k in _FIXED_FIELDS}
            self._fixed_meta[game] = fixed
            while len(self._fixed_meta) > 8 * self.cache_size:
                self._fixed_meta.popitem(last=False)
        return fixed

    @staticmethod
    def _command(decider: Decider, raw: Any):
        try:
            return msgspec.convert(raw, decider.command_type)
        except msgspec.ValidationError as error:
            raise ServiceError(400, "malformed_command", f"The command is malformed: {error}.") from None

    @staticmethod
    def _decide(decider: Decider, state: Any, command: Any, seed: bytes, game: str, version: int) -> list:
        return decider.decide(state, command, game_rng(seed, game, version))

    @staticmethod
    def _event(decider: Decider, e: Envelope):
        return _decoder(decider).decode(e.payload)

    def _lock(self, game: str) -> asyncio.Lock:
        """One lock per game in this process: the cached state is changed only while holding it."""
        return self._locks.setdefault(game, asyncio.Lock())

    async def _current(self, game: str, decider: Decider, *, refresh: bool = True) -> tuple[int, Any, str]:
        """The latest state (hold the game's lock): the cached fold caught up with the stream
        (without `refresh`, a cached fold as it is).

        Callers use the state at once, without awaiting anything, or copy what they need."""
        cached = self._cache.pop(game, None)
        version, state, last_hash = cached or (0, None, "")
        if refresh or cached is None:
            for e in await self.store.read(game, version):
                state = decider.evolve(state, self._event(decider, e))
                version, last_hash = e.version, e.hash
        self._cache[game] = (version, state, last_hash)
        while len(self._cache) > self.cache_size:
            evicted, _ = self._cache.popitem(last=False)
            if evicted in self._locks and not self._locks[evicted].locked():
                del self._locks[evicted]
        return version, state, last_hash


_FIXED_FIELDS = frozenset({"kind", "seed", "commitment", "admin", "seats", "created_at", "engine", "lineage",
                           "read_only"})
_ENCODER = msgspec.msgpack.Encoder()
_DECODERS: dict[int, msgspec.msgpack.Decoder] = {}


def _decoder(decider: Decider) -> msgspec.msgpack.Decoder:
    key = id(decider.event_type)
    if key not in _DECODERS:
        _DECODERS[key] = msgspec.msgpack.Decoder(decider.event_type)
    return _DECODERS[key]
