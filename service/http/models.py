"""Request and response bodies of the HTTP API (msgspec Structs, documented in the OpenAPI schema)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct

from domain import games

MAX_VERSION = 2**31 - 1  # keeps stream ids and counters in Redis' range; no game gets near it

# The games this server hosts and their AI levels, from the registry (weakest level first).
GameKind = Literal[games.kinds()]  # type: ignore[valid-type]
AiLevel = Literal[tuple(dict.fromkeys(level for game in games.GAMES.values() for level in game.levels))]  # type: ignore[valid-type]

# The game options a creator chooses: the game's options without `players` (the seats decide it).
GameOptions = msgspec.defstruct(
    "GameOptions",
    [(f.name, f.type, f.default) for f in msgspec.structs.fields(games.default().options_type) if f.name != "players"],
    kw_only=True, frozen=True, forbid_unknown_fields=True, module=__name__,
)


class HumanSeat(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type", tag="human"):
    """A seat for a person. `holder`: `anyone` may claim it (the first to do so gets its token);
    the `creator` takes it now (its token is in the answer, so nobody can take it in between); or
    it is reserved for whoever has its `invite` code (in the answer), such as a friend."""

    holder: Literal["anyone", "creator", "invite"] = "anyone"


class AiSeat(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type", tag="ai"):
    """A seat played by the server's AI at some strength."""

    level: AiLevel = "random"  # type: ignore[valid-type]


class CreateGameRequest(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A new game: its kind, options and seats (2 to 4; the number of seats is the number of players)."""

    kind: GameKind = games.DEFAULT_KIND  # type: ignore[valid-type]
    options: GameOptions = GameOptions()  # type: ignore[valid-type]
    seats: Annotated[list[HumanSeat | AiSeat], Meta(min_length=2, max_length=4)]
    # a human seat awaited this long without an answer is handed to the AI (greedy), so abandoned
    # games finish; null: never
    idle_seconds: Annotated[int, Meta(ge=10, le=30 * 24 * 3600)] | None = None


class SeatClaimed(Struct, frozen=True, kw_only=True):
    """A seat token, shown only this once: send it as `Authorization: Bearer <token>`."""

    seat: int
    token: str


class Invite(Struct, frozen=True, kw_only=True):
    """A seat reserved for whoever holds `code`: send it as the body of the seat's claim. Share it as
    a link whose secret part is in the fragment, which browsers never send to a server:
    `https://<server>/#invite=<game>.<seat>.<code>`."""

    seat: int
    code: str


class GameCreatedResponse(Struct, frozen=True, kw_only=True):
    """The new game; `admin_token`, the tokens of the seats claimed at creation (`seats`) and the
    invite codes (`invites`) are shown only this once."""

    game: str
    admin_token: str
    version: int
    commitment: str  # sha256 of the secret seed, revealed when the game ends
    seats: list[SeatClaimed] = []
    invites: list[Invite] = []

    @classmethod
    def of(cls, created) -> GameCreatedResponse:
        """The answer for a game the service has just created (or forked)."""
        return cls(game=created.game, admin_token=created.admin_token, version=created.version,
                   commitment=created.commitment,
                   seats=[SeatClaimed(seat=s, token=t) for s, t in sorted(created.tokens.items())],
                   invites=[Invite(seat=s, code=c) for s, c in sorted(created.invites.items())])


class ClaimRequest(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The invite code of a reserved seat (no body, or no code, for an open seat)."""

    invite: Annotated[str, Meta(min_length=1, max_length=128)] | None = None


class Awaiting(Struct, frozen=True, kw_only=True):
    """The seat the game waits for, and the kind of decision it must make."""

    seat: int
    decision: str


class CommandAccepted(Struct, frozen=True, kw_only=True):
    """The command's events are versions `first` to `version`; `awaiting` is who the game waited
    for right after them (null once the game has ended). A retried Idempotency-Key returns the same."""

    version: int
    first: int
    awaiting: Awaiting | None = None


class SeatInfo(Struct, frozen=True, kw_only=True):
    seat: int
    type: Literal["human", "ai"]
    level: str | None
    claimed: bool
    reserved: bool = False  # held for an invite code


class Lineage(Struct, frozen=True, kw_only=True):
    """Where a forked game came from: its parent, the version it was forked at, and the hash of
    the parent's event at that version (the copied prefix), shown once the parent has ended (a
    hash covers hidden draws, which a few guesses could recover from it). `redealt`: forked from
    a running game, so dealt afresh from what its forker knew (it starts at version 1 with that
    state instead of a copy of the parent's events)."""

    parent: str
    at: int
    prefix_hash: str | None
    redealt: bool = False


class GameSummary(Struct, frozen=True, kw_only=True):
    """One game in the lobby."""

    game: str
    kind: str
    players: int
    status: Literal["open", "playing", "finished"]  # open: a human seat is still unclaimed
    version: int
    open_seats: list[int]
    created_at: int  # milliseconds since the epoch
    lineage: Lineage | None = None  # for forks


class GameDetail(GameSummary, frozen=True, kw_only=True):
    """A game's status: who is awaited for what, its seats, and the outcome once finished."""

    seats: list[SeatInfo]
    options: dict[str, Any]
    awaiting: Awaiting | None
    finished: bool
    outcome: dict[str, Any] | None
    commitment: str
    seed: str | None  # revealed when the game ends, so anyone can audit it


EVENT_OUT_REF = {"$ref": "#/components/schemas/EventOut"}


class EventOut(Struct, frozen=True, kw_only=True):
    """One event as the caller may see it: the envelope and the redacted domain event."""

    version: int
    type: str
    recorded_at: int
    seat: int | None
    command: str | None
    payload: dict[str, Any]
    hash: str | None  # the hash chain, shown once the game is finished (it would give away hidden draws)


class StreamMessage(Struct, frozen=True, kw_only=True):
    """One Server-Sent Event of stream_events (documentation only: the stream is text/event-stream)."""

    id: Annotated[str, Meta(pattern="^[0-9]+$", description="The event's version; send it back as Last-Event-ID.")]
    event: Literal["message"] = "message"
    data: Annotated[str, Meta(description="The event, as list_events gives it, in JSON.", extra_json_schema={
        "extra": {"content_media_type": "application/json", "content_schema": EVENT_OUT_REF}})]


class View(Struct, frozen=True, kw_only=True):
    """A view of the game at `version`: public, or with the caller's seat's private part (`you`)."""

    version: int
    seat: int | None
    view: dict[str, Any]


class ChoiceOut(Struct, frozen=True, kw_only=True):
    """One choice: `command` is a complete command to send as it is (POST /games/{id}/commands), or
    `next` a token for the choices that follow it (GET /games/{id}/options?after=<next>); `refers`
    names what it is about (a hex, a card, a tile ...), for drawing it."""

    key: str
    label: str
    command: dict[str, Any] | None = None
    next: str | None = None
    refers: dict[str, Any] = {}


class Choices(Struct, frozen=True, kw_only=True):
    """What the caller's seat may do now, as choices (`decision` is null when the game waits for
    another seat, and then there are none)."""

    version: int
    seat: int
    decision: str | None
    prompt: str
    choices: list[ChoiceOut]


class LegalOptions(Struct, frozen=True, kw_only=True):
    """What the caller's seat may do now (`awaited` is false when the game waits for another seat)."""

    version: int
    seat: int
    options: dict[str, Any]


class Health(Struct, frozen=True, kw_only=True):
    status: Literal["ok"]


class ForkRequest(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Fork at version `at` (where a command's events end) with these seats (as many as the game has)."""

    at: Annotated[int, Meta(ge=1, le=MAX_VERSION)]
    seats: Annotated[list[HumanSeat | AiSeat], Meta(min_length=2, max_length=4)]


class AuditCheck(Struct, frozen=True, kw_only=True):
    name: str
    ok: bool | None  # null: could not be run yet (e.g. the seed is secret until the game ends)
    detail: str
    first_failure: int | None


class AuditReport(Struct, frozen=True, kw_only=True):
    """The audit of a game: every check, and the story (redacted while the game is running)."""

    game: str
    ok: bool
    events: int
    first_failure: int | None
    checks: list[AuditCheck]
    story: list[str]


class Rejected(Struct, frozen=True, kw_only=True):
    """A refused command: when (ms), by which seat, the stable code; and, for the seat's own
    commands or once the game has ended, at which version, what and why (a refused command and
    its sentence can tell what a hand holds)."""

    at: int
    seat: int | None
    code: str
    version: int | None = None
    message: str | None = None
    command: dict[str, Any] | None = None


class HandToAi(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Hand a seat to the AI from now on (the game's admin token)."""

    level: AiLevel = "greedy"  # type: ignore[valid-type]


class SeatHanded(Struct, frozen=True, kw_only=True):
    seat: int
    level: str
