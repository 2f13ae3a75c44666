"""A game's metadata: its kind and game, its seats and who may play them, its secret seed and the
facts version 1 publishes. Pure helpers; nothing here reads Redis."""

from __future__ import annotations

import hashlib
import secrets
import time
import uuid
from typing import Any

import msgspec

from domain import games
from domain.rng import commitment
from domain.words import seats_words
from service.errors import Code, ServiceError
from service.store.codec import JSON

# The metadata that never changes after a game is created (cached once per process).
FIXED_FIELDS = frozenset(
    {"kind", "seed", "commitment", "admin", "seats", "created_at", "engine", "lineage", "read_only", "clock"}
)


class SeatSpec(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Who sits in a seat: a human (claims the seat) or an AI of some level."""

    type: str = "human"  # human or ai
    level: str | None = None  # one of the game's AI levels, for AI seats


def game_of(kind: str) -> games.Game:
    """The registered game of `kind`; 422 `unknown_kind` otherwise."""
    try:
        return games.get(kind)
    except KeyError:
        raise ServiceError(
            Code.UNKNOWN_KIND, f"There is no game kind {kind!r}; try {' or '.join(repr(k) for k in games.GAMES)}."
        ) from None


def check_levels(kind: str, seats: list[SeatSpec]) -> None:
    """Every AI seat's level names a bot of the game's kind (else its turns could never be played)."""
    names = game_of(kind).levels
    unknown = [s.level or "random" for s in seats if s.type == "ai" and (s.level or "random") not in names]
    if unknown:
        raise ServiceError(
            Code.UNKNOWN_LEVEL, f"There is no AI level {unknown[0]!r}; choose one of {', '.join(sorted(names))}."
        )


def check_seat_choices(seats: list[SeatSpec], claim, invite) -> None:
    """Seats claimed or reserved at creation are human seats of the game, each chosen one way."""
    if any(not 0 <= s < len(seats) or seats[s].type != "human" for s in (*claim, *invite)) or set(claim) & set(invite):
        raise ServiceError(
            Code.WRONG_SEAT_CLAIM, "Only human seats can be claimed or reserved at creation, each one way."
        )


def seats_of(meta: dict[str, bytes]) -> list[SeatSpec]:
    return msgspec.json.decode(meta["seats"], type=list[SeatSpec])


def seat_in(meta: dict[str, bytes], seat: int) -> SeatSpec:
    """The seat's spec; 404 `unknown_seat` for a seat the game does not have."""
    seats = seats_of(meta)
    if not 0 <= seat < len(seats):
        raise ServiceError(Code.UNKNOWN_SEAT, seats_words(len(seats)))
    return seats[seat]


def new_game_id() -> str:
    return uuid.uuid4().hex[:16]


def new_meta(
    kind: str, seed: bytes, seats: list[SeatSpec], *, admin: str | None = None, **extra: Any
) -> tuple[dict, str]:
    """A new game's metadata (the seed stays secret until the end) and its admin token (`admin`, or
    a random one)."""
    admin = admin or secrets.token_urlsafe(24)
    meta = dict(
        kind=kind,
        seed=seed.hex(),
        commitment=commitment(seed),
        admin=token_hash(admin),
        seats=JSON.encode(seats),
        created_at=now_ms(),
        engine=game_of(kind).engine,
        **extra,
    )
    return meta, admin


def first_facts(meta: dict, **more: str) -> dict[str, str]:
    """What version 1 publishes: the seed's commitment and the engine version (and a fork's lineage,
    a game's turn clocks)."""
    clock = {"clock": meta["clock"]} if "clock" in meta else {}
    return {"commitment": meta["commitment"], "engine": meta["engine"], **clock, **more}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def now_ms() -> int:
    return int(time.time() * 1000)


def seat_namespace(seat: int) -> str:
    """Where a seat's Idempotency-Keys are kept apart from the other seats' (and the AI's, "ai")."""
    return f"seat{seat}"


def seat_keys(sent: str, seats: int) -> list[str]:
    """An Idempotency-Key as each of a game's seats would store it (`submit.Key.stored`), seat by seat."""
    return [f"{seat_namespace(seat)}|{sent}" for seat in range(seats)]
