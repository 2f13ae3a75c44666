"""Choices over HTTP: the awaited decision of the caller's seat as choices a client follows, each
ending in a complete command it can send as it is; `next` tokens carry the path taken so far."""

from __future__ import annotations

import base64
import binascii

import msgspec

from domain.kernel import Decider, DomainError
from service.errors import Code, ServiceError

from .models import CONTRACTS, Choices, of_kind

MAX_TOKEN = 2048  # far longer than any decision's path
TOKEN_PATTERN = r"^[0-9]{1,10}\.[A-Za-z0-9_-]*$"  # "<version>.<base64url of the path>"


def next_token(version: int, path: tuple[str, ...]) -> str:
    """An opaque token for the choices after `path` at `version` (not secret: it only names choices)."""
    body = base64.urlsafe_b64encode(msgspec.json.encode(list(path))).decode().rstrip("=")
    return f"{version}.{body}"


def read_token(token: str, version: int) -> tuple[str, ...]:
    """The path a token names; 400 for a token this server did not make, 409 once the game has moved on."""
    try:
        made_at, _, body = token.partition(".")
        path = msgspec.json.decode(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)), type=list[str])
        made_at_version = int(made_at)
    except (ValueError, binascii.Error, msgspec.DecodeError):
        raise ServiceError(
            Code.MALFORMED_CHOICE_TOKEN, "`after` must be a `next` token from an earlier answer of this route."
        ) from None
    if made_at_version != version:
        raise ServiceError(
            Code.VERSION_CONFLICT,
            f"The game moved on to version {version} since this choice was offered: ask for the choices again.",
            current_version=version,
        )
    return tuple(path)


def choices_at(decider: Decider, state, version: int, seat: int, after: str | None) -> Choices:
    """The seat's choices at the root of its decision, or after the path an `after` token names; each
    command in its wire form (no `seat`: the token says it)."""
    if decider.choices is None:
        raise ServiceError(Code.NOT_FOUND, "This game offers no choices; use /options/blocks.")
    path = read_token(after, version) if after else ()
    try:
        listed = decider.choices(state, seat, path)
    except DomainError as error:
        raise ServiceError(Code.UNKNOWN_CHOICE, error.message) from None  # the only refusal of `choices`
    contract, answer, choice = (
        CONTRACTS[decider.kind],
        of_kind("Choices", decider.kind),
        of_kind("Choice", decider.kind),
    )
    return answer(
        version=version,
        seat=seat,
        decision=listed.decision,
        prompt=listed.prompt,
        choices=[
            choice(
                key=c.key,
                label=c.label,
                refers=msgspec.convert(c.refers, contract.refers),
                command=msgspec.convert(contract.to_wire(c.command), contract.command)
                if c.command is not None
                else None,
                next=next_token(version, (*path, c.key)) if c.more else None,
            )
            for c in listed.choices
        ],
    )
