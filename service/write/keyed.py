"""Idempotency-Keys whose answers hold secrets: creating or forking a game (its id, admin token,
seat tokens and invite codes) and claiming a seat (its token). Nothing secret is stored to answer a
retry: the secrets are derived as HMACs of the server secret and the key, with the purpose and
scope in the message, so a retry derives them again and is checked against the stored hashes. The
key itself is never stored; only what it derives (a game id, hashes of tokens) and a hash of the
request, so the same key with another request is refused (422 `idempotency_key_reused`)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

import msgspec

from service.errors import Code, ServiceError

from .meta import new_game_id

MIN_KEY_CHARS = 16  # such a key is a secret: long enough not to be guessed
CREATED = "created"  # the name of a new game's record of its key (in the game's idempotency namespace)
_CANONICAL = msgspec.json.Encoder(order="sorted")


def check_key(sent: str) -> str:
    """The key, if it is long enough to stand for secrets; 400 `idempotency_key_too_short` otherwise."""
    if len(sent) < MIN_KEY_CHARS:
        raise ServiceError(
            Code.IDEMPOTENCY_KEY_TOO_SHORT,
            f"This Idempotency-Key would give back secrets, so it "
            f"must be one too: send at least {MIN_KEY_CHARS} random "
            "characters (e.g. 16 random bytes in base64url).",
        )
    return sent


def request_hash(**request: Any) -> str:
    """sha256 of the request's canonical JSON: what a key's record remembers of the request it answered."""
    return hashlib.sha256(_CANONICAL.encode(request)).hexdigest()


def reused() -> ServiceError:
    return ServiceError(
        Code.IDEMPOTENCY_KEY_REUSED,
        "This Idempotency-Key was already used for another request; send a new key with a new request.",
    )


def _text(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def claim_token(secret: bytes, game: str, seat: int, key: str) -> str:
    """The token a claim of `seat` with this key gets, the first time and on every retry."""
    return _text(hmac.digest(secret, f"claim|{game}|{seat}|{check_key(key)}".encode(), "sha256")[:24])


class Fresh:
    """Random ids and secrets for a new game: a request without an Idempotency-Key."""

    def game_id(self) -> str:
        return new_game_id()

    def admin(self) -> str:
        return secrets.token_urlsafe(24)

    def tokens(self, seats: list[int]) -> dict[int, str]:
        return {seat: secrets.token_urlsafe(24) for seat in seats}

    def invites(self, seats: list[int]) -> dict[int, str]:
        return {seat: secrets.token_urlsafe(18) for seat in seats}


FRESH = Fresh()


@dataclass(frozen=True)
class Derived:
    """A new game's id and secrets derived from HMAC(server secret, "<scope>|<key>"): the same for
    every retry of the key, in every process. `scope`: "create", or "fork|<parent>"."""

    root: bytes

    @classmethod
    def of(cls, secret: bytes, scope: str, key: str) -> Derived:
        return cls(hmac.digest(secret, f"{scope}|{check_key(key)}".encode(), "sha256"))

    def _part(self, label: str, size: int) -> bytes:
        return hmac.digest(self.root, label.encode(), "sha256")[:size]

    def game_id(self) -> str:
        return self._part("game", 8).hex()

    def admin(self) -> str:
        return _text(self._part("admin", 24))

    def tokens(self, seats: list[int]) -> dict[int, str]:
        return {seat: _text(self._part(f"seat|{seat}", 24)) for seat in seats}

    def invites(self, seats: list[int]) -> dict[int, str]:
        return {seat: _text(self._part(f"invite|{seat}", 18)) for seat in seats}


class Remembered(msgspec.Struct, frozen=True, kw_only=True):
    """A new game's record of its key (kept for PANTHEON_IDEMPOTENCY_TTL_S): the request it answered
    and what to answer again (the secrets themselves are derived again, never stored)."""

    request: str  # request_hash of the request
    version: int  # the game's version at creation
    tokens: list[int]  # the seats whose tokens were in the answer
    invites: list[int]  # the seats whose invite codes were in the answer
    listed: bool  # whether the game belongs in the lobby

    def encode(self) -> bytes:
        return _CANONICAL.encode(self)

    @staticmethod
    def decode(raw: bytes) -> Remembered:
        return msgspec.json.decode(raw, type=Remembered)


class AlreadyCreated(Exception):
    """The game of this Idempotency-Key was stored meanwhile, by a concurrent request."""

    def __init__(self, record: bytes) -> None:
        super().__init__("created meanwhile")
        self.record = record


Ids = Fresh | Derived  # where a new game's id and secrets come from


def record_args(
    request: str, version: int, tokens: dict[int, str] | None, invites: dict[int, str] | None, listed: bool
) -> dict:
    """The arguments of a new game's append that store its key's record with it."""
    record = Remembered(
        request=request, version=version, tokens=sorted(tokens or {}), invites=sorted(invites or {}), listed=listed
    )
    return {"idempotency_key": CREATED, "outcome": record.encode()}
