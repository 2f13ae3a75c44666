"""The one write path: decide a seat's command on the game's current state and append its events.
HTTP handlers and AI workers both come here; so do refusals, recorded without changing the game."""

from __future__ import annotations

import contextlib
import hashlib
import typing
from dataclasses import dataclass
from functools import cache
from typing import Any

import msgspec

from domain.kernel import Decider, DomainError
from domain.rng import game_rng
from domain.words import seat_name
from service.errors import Code, Refused, ServiceError
from service.store.codec import JSON, wrap_batch
from service.store.errors import RedisError
from service.store.records import SeatPlayer
from service.store.streams import ClockOff, VersionConflict

from .errors import store_failure
from .meta import game_of, now_ms, seat_namespace
from .service import Games

ATTEMPTS = 5  # appends lost to another process's append before the service gives up (409)
REJECTED_KEPT = 1000  # refused commands kept per game (the oldest go first)
REJECTED_COMMAND_BYTES = 2048  # a longer refused command is kept as its type only


@dataclass
class Submitted:
    version: int
    first: int
    duplicate: bool = False
    awaiting: dict | None = None  # who the game waits for now (not known for a duplicate)
    player: SeatPlayer | None = None  # who plays the awaited seat, as the append found it


def parse_command(decider: Decider, raw: Any) -> Any:
    """The game's command: `raw` itself when it is one (the HTTP layer decoded it strictly from the
    body, and `decide` checks every field again), else converted from JSON-like data (AI workers,
    scripts); 400 `malformed_command` otherwise."""
    if type(raw) in _commands(decider.command_type):
        return raw
    try:
        return msgspec.convert(raw, decider.command_type)
    except msgspec.ValidationError as error:
        raise ServiceError(Code.MALFORMED_COMMAND, f"The command is malformed: {error}.") from None


@cache
def _commands(union: Any) -> frozenset[type]:
    return frozenset(typing.get_args(union) or (union,))


def decide(decider: Decider, state: Any, command: Any, seed: bytes, game: str, version: int) -> list:
    """The command's events at `version`, drawing from the game's seeded RNG for that version."""
    return decider.decide(state, command, game_rng(seed, game, version))


async def submit(
    games: Games,
    game: str,
    seat: int,
    raw_command: Any,
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    provenance: dict[str, str] | None = None,
    ai: bool = False,
    key_recorded: bool | None = None,
) -> Submitted:
    """Decide a seat's command against the current state and append its events.

    An idempotency key belongs to the game and the seat (`ai`: to the AI's own namespace, which no
    client can reach): a retry with the same command gets the first answer and appends nothing,
    the same key with another command is refused (422 `idempotency_key_reused`). `key_recorded`:
    whether the seat held a record of the key when the caller looked (`command_context`; None: not
    looked), which saves a round trip for a new key."""
    fixed = await games.fixed(game)
    if "read_only" in fixed:
        raise ServiceError(Code.READ_ONLY, "This game was imported as an archive; it takes no commands.")
    decider, seed = game_of(fixed["kind"].decode()).decider, bytes.fromhex(fixed["seed"].decode())
    command = parse_command(decider, raw_command)
    if getattr(command, "seat", seat) != seat:
        raise ServiceError(
            Code.WRONG_SEAT,
            f"Your token is for {seat_name(seat)}; the command names {seat_name(command.seat)}: "
            f"send seat {seat}, or leave the seat out.",
        )
    key = Key.of(idempotency_key, "ai" if ai else seat_namespace(seat), command)
    if key and (prior := await _prior(games, game, key, key_recorded)):
        # A retry after success: the state has moved on, so deciding again would refuse it.
        return key.replay(prior)
    attempt = _Attempt(games, game, decider, seed, command, seat, expected_version, key, provenance)
    for _ in range(ATTEMPTS):
        async with games.folds.lock(game):
            done = await attempt.run()
        if done is not None:
            if done.awaiting is not None:
                await games.awaiting(game, done.version, done.awaiting["seat"], done.player)
            return done
    raise ServiceError(Code.VERSION_CONFLICT, "The game is too busy; try again.")


async def _prior(games: Games, game: str, key: Key, recorded: bool | None) -> bytes | None:
    """The outcome remembered with the key (a new key, as the caller found it, costs no round trip;
    a known one is read again and proven replicated)."""
    records = games.store.records
    if recorded is None:
        return await records.prior_outcome(game, key.stored)
    return await records.proven_outcome(game, key.stored) if recorded else None


@dataclass(frozen=True)
class Key:
    """An idempotency key as stored: in its seat's (or the AI's) namespace, with a hash of the
    command it was sent with."""

    sent: str  # as the client sent it (recorded in the envelopes)
    stored: str  # "<namespace>|<sent>"
    request: str  # sha256 of the command's canonical JSON

    @classmethod
    def of(cls, sent: str | None, namespace: str, command: Any) -> Key | None:
        if not sent:
            return None
        return cls(sent, f"{namespace}|{sent}", hashlib.sha256(JSON.encode(command)).hexdigest())

    def outcome(self, version: int, first: int, awaiting: dict | None) -> bytes:
        """What is remembered with the key: the answer, and the request it answered."""
        return JSON.encode({"version": version, "first": first, "awaiting": awaiting, "request": self.request})

    def replay(self, outcome: bytes) -> Submitted:
        """The first answer for a retry of the same command; 422 for another command."""
        prior = msgspec.json.decode(outcome)
        if prior.get("request") != self.request:
            raise ServiceError(
                Code.IDEMPOTENCY_KEY_REUSED,
                "This Idempotency-Key was already used for another "
                "command of this seat; send a new key with a new command.",
            )
        return Submitted(version=prior["version"], first=prior["first"], duplicate=True, awaiting=prior.get("awaiting"))


@dataclass
class _Attempt:
    """One command's decide-and-append, tried again when another process appended first."""

    games: Games
    game: str
    decider: Decider
    seed: bytes
    command: Any
    seat: int
    expected_version: int | None
    key: Key | None
    provenance: dict[str, str] | None

    async def run(self) -> Submitted | None:
        """One attempt, holding the game's lock; None when another process appended first.

        It decides on the cached state without asking Redis for newer events (the append's version
        check refuses a decision made on a stale state, and the next attempt reads); a refusal
        (another expected version, a rule) is only given after deciding again on the state read
        fresh from the stream, so a stale cache never refuses a legal command."""
        version, state, last_hash = await self.games.folds.current(self.game, self.decider, refresh=False)
        try:
            self._expect(version)
            events = decide(self.decider, state, self.command, self.seed, self.game, version)
        except (ServiceError, DomainError):
            if self.key and (prior := await self.games.store.records.prior_outcome(self.game, self.key.stored)):
                return self.key.replay(prior)  # the same request, sent at once, was applied first: its answer
            version, state, last_hash = await self.games.folds.current(self.game, self.decider, refresh=True)
            self._expect(version)
            events = await self._decide(state, version)
        envelopes = wrap_batch(
            self.game,
            version,
            last_hash,
            events,
            self.command,
            seat=self.seat,
            recorded_at=(stamp := self.games.store.now_ms()),  # the Redis clock: the append checks it
            idempotency_key=self.key.sent if self.key else None,
            provenance=self.provenance,
        )
        for event in events:  # into the cached state at once; dropped below if the append fails
            state = self.decider.evolve(state, event)
        awaited = self.decider.awaited(state)
        awaiting = None if awaited is None else {"seat": awaited.seat, "decision": awaited.decision}
        outcome = self.key.outcome(version + len(events), version + 1, awaiting) if self.key else b""
        try:
            ended = self.decider.is_terminal(state)  # recorded with the events: the seed may then be revealed
            appended = await self.games.store.append(
                self.game,
                version,
                envelopes,
                meta={"finished": 1} if ended else None,
                idempotency_key=self.key.stored if self.key else None,
                outcome=outcome,
                awaiting=None if awaited is None else awaited.seat,
                stamp=stamp,
            )
        except ClockOff:  # stamped off the Redis clock: the store now knows it, stamp again
            self.games.folds.forget(self.game)
            return None
        except VersionConflict as conflict:
            self.games.folds.forget(self.game)
            if conflict.current == 0 and version > 0:  # moved out of Redis meanwhile
                await self.games.refuse_archived(self.game)
            # at the same version, the cached state held an event a failover lost: decide again on the log
            if self.expected_version is not None and conflict.current != version:
                raise ServiceError(
                    Code.VERSION_CONFLICT,
                    f"The game moved on to version {conflict.current}.",
                    current_version=conflict.current,
                ) from None
            return None
        except BaseException as error:  # the cached state moved on in place, but nothing is known stored
            self.games.folds.forget(self.game)
            if isinstance(error, RedisError):
                raise store_failure(error, writing=True) from None
            raise
        if appended.duplicate:  # the same key was appended meanwhile, by another process
            self.games.folds.forget(self.game)
            assert self.key is not None  # only a keyed append finds a duplicate
            return self.key.replay(appended.outcome)
        self.games.folds.put(self.game, appended.version, state, envelopes[-1].hash)
        if ended:
            with contextlib.suppress(RedisError):  # the lobby moves an ended game out by itself when it next lists it
                await self.games.delist_ended(self.game)
        player = SeatPlayer((await self.games.fixed(self.game)).get("seats"), appended.handed)
        return Submitted(version=appended.version, first=version + 1, awaiting=awaiting, player=player)

    def _expect(self, version: int) -> None:
        if self.expected_version is not None and self.expected_version != version:
            raise ServiceError(
                Code.VERSION_CONFLICT,
                f"The game is at version {version}, not {self.expected_version}.",
                current_version=version,
            )

    async def _decide(self, state: Any, version: int) -> list:
        try:
            return decide(self.decider, state, self.command, self.seed, self.game, version)
        except DomainError as error:
            await self.games.refuse_archived(self.game)  # an archived game keeps the log it had
            await record_rejected(self.games, self.game, version, self.seat, self.command, error.code, error.message)
            raise Refused.by_rule(error) from None


async def record_rejected(
    games: Games, game: str, version: int, seat: int | None, command: Any, code: str, message: str
) -> None:
    """Who tried what, when, and why it was refused: kept for audits, the game is unchanged. The log
    keeps the newest REJECTED_KEPT entries, each command at most REJECTED_COMMAND_BYTES long."""
    body = JSON.encode(command)
    if len(body) > REJECTED_COMMAND_BYTES:
        body = JSON.encode({"type": _tag(command), "truncated": len(body)})
    await games.store.record_refusal(
        game,
        {
            "at": now_ms(),
            "version": version,
            "seat": "" if seat is None else seat,
            "code": code,
            "message": message[:500],
            "command": body,
        },
        REJECTED_KEPT,
    )


def _tag(command: Any) -> str | None:
    config = getattr(type(command), "__struct_config__", None)
    return None if config is None else config.tag


async def rejected(games: Games, game: str) -> list[dict]:
    """Every refused command of a game, oldest first."""
    await games.fixed(game)
    entries = await games.store.rejected_entries(game)
    return [
        {
            "at": int(f[b"at"]),
            "version": int(f[b"version"]),
            "seat": int(f[b"seat"]) if f[b"seat"] else None,
            "code": f[b"code"].decode(),
            "message": f[b"message"].decode(),
            "command": msgspec.json.decode(f[b"command"]),
        }
        for f in entries
    ]
