"""Request and response bodies of the HTTP API (msgspec Structs, documented in the OpenAPI schema)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, Union

import msgspec
from msgspec import Meta, Struct

from domain import games
from domain.clock import ClockChoice
from domain.contract import tags
from domain.kernel import PLATFORM_EVENTS
from projections.registry import score_view

from .clocks import ClockStatus

MAX_VERSION = 2**31 - 1  # keeps stream ids and counters in Redis' range; no game gets near it

# The games this server hosts and their AI levels, from the registry (weakest level first).
GameKind = Literal[games.kinds()]  # type: ignore[valid-type]
AiLevel = Literal[tuple(dict.fromkeys(level for game in games.GAMES.values() for level in game.levels))]  # type: ignore[valid-type]

CONTRACTS = {kind: game.contract for kind, game in games.GAMES.items()}


_BY_KIND: dict[str, dict[str, type]] = {}


def per_game(name: str, doc: str, fields: Callable[[str, games.Contract], list[tuple]], tagged: bool = True) -> Any:
    """One answer type per hosted game, named `<Game><name>` and tagged `kind=<its kind>` (unless
    it is only found inside such an answer): their union, which a second game grows (a `oneOf`
    discriminated by `kind`). `of_kind(name, kind)` gives one game's type."""
    made = _BY_KIND.setdefault(name, {})
    for kind, contract in CONTRACTS.items():
        tag: dict[str, Any] = {"tag_field": "kind", "tag": kind} if tagged else {}
        made[kind] = msgspec.defstruct(
            f"{contract.name}{name}", fields(kind, contract), kw_only=True, frozen=True, module=__name__, **tag
        )
        made[kind].__doc__ = doc
    return Union[tuple(made.values())]  # noqa: UP007


def of_kind(name: str, kind: str) -> type:
    """The answer type `name` (as given to per_game) of the game `kind`."""
    return _BY_KIND[name][kind]


# A display name as sent: checked by the server once normalised (NFC: a length here would count
# code points before it), so the schema bounds only what is read.
PlayerName = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=256,
        description="A display name: 1 to 24 characters once NFC-normalised, no control or direction-changing "
        "characters, not a label the clients use (`You`, `Player B`, `AI (strong)`), unique in the game "
        "whatever its case (422 `name_length`, `name_forbidden_character`, `name_reserved`, `name_taken`).",
    ),
]


class HumanSeat(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type", tag="human"):
    """A seat for a person. `holder`: `anyone` may claim it (the first to do so gets its token);
    the `creator` takes it now (its token is in the answer, so nobody can take it in between); or
    it is reserved for whoever has its `invite` code (in the answer), such as a friend."""

    holder: Literal["anyone", "creator", "invite"] = "anyone"
    name: PlayerName | None = None  # the creator's name for a seat it takes now (`creator` only)


class AiSeat(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type", tag="ai"):
    """A seat played by the server's AI at some strength."""

    level: AiLevel = "random"  # type: ignore[valid-type]


def seats_type(players: tuple[int, ...]) -> Any:
    """A list of seats as long as one of these numbers of players (a game's allow a range)."""
    return Annotated[list[HumanSeat | AiSeat], Meta(min_length=min(players), max_length=max(players))]


# A fork's seats: as many as its game has (the write path checks), so as many as some hosted game allows.
FORK_PLAYERS = tuple(sorted({n for game in games.GAMES.values() for n in game.players}))
ForkSeats: Any = seats_type(FORK_PLAYERS)  # a type made at run time: mypy reads it as Any


def _create_request(kind: str, contract: games.Contract) -> type:
    """The request that creates a game of `kind`: its options typed (the default kind's `kind` may be left out),
    and as many seats as the game allows."""
    default = kind == games.DEFAULT_KIND
    players = games.get(kind).players
    made = msgspec.defstruct(
        "CreateGameRequest" if default else f"{contract.name}CreateGameRequest",
        [
            ("seats", seats_type(players)),
            ("kind", Literal[kind], kind) if default else ("kind", Literal[kind]),
            ("options", contract.options, contract.options()),
            # a human seat awaited this long without an answer is handed to the AI (greedy), so abandoned
            # games finish; null: never
            ("idle_seconds", Annotated[int, Meta(ge=10, le=30 * 24 * 3600)] | None, None),
            # each human seat's turn clock, and what a time-out does (docs/clocks.md); null: no clocks
            ("clock", ClockChoice | None, None),
        ],
        kw_only=True,
        frozen=True,
        forbid_unknown_fields=True,
        module=__name__,
    )
    made.__doc__ = (
        f"A new {contract.name} game: its kind, options and seats ({min(players)} to {max(players)}; the number of seats is the "
        "number of players)."
    )
    return made


class ByKind:
    """A request body a game's kind types (Annotated metadata): decoded as the type of the game's kind
    among `types` (`kind_from`: the game's, for commands; the body's `kind`, for a new game) by
    bodies.read; documented as `union`, the types of every game (an addition when a game is added). A
    union of every game's types cannot be decoded as such: two games may share a command's tag, and
    options are untagged."""

    def __init__(self, types: dict[str, Any], kind_from: Literal["game", "body"]) -> None:
        self.types, self.kind_from = types, kind_from
        self.union = Union[tuple(types.values())]  # noqa: UP007
        self.decoders = {kind: msgspec.json.Decoder(tp) for kind, tp in types.items()}  # made once, here
        self.tags = {kind: frozenset(tags(tp)) for kind, tp in types.items()}  # of a tagged union (commands)


CREATE_REQUESTS = {kind: _create_request(kind, contract) for kind, contract in CONTRACTS.items()}
CreateGameRequest = CREATE_REQUESTS[games.DEFAULT_KIND]
AnyCreateGameRequest = Annotated[Any, ByKind(CREATE_REQUESTS, "body")]
# The commands a client sends, over every hosted game (each game's commands without `seat`, which
# the token says; each game's union is tagged by `type`): decoded as the game's kind's.
AnyCommand = Annotated[Any, ByKind({kind: c.command for kind, c in CONTRACTS.items()}, "game")]


class SeatClaimed(Struct, frozen=True, kw_only=True):
    """A seat token, shown only this once: send it as `Authorization: Bearer <token>`."""

    seat: int
    token: str
    # the seat's name as recorded (null: none asked, or taken by another seat in the same instant)
    name: str | None = None


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
    kind: GameKind  # type: ignore[valid-type]
    admin_token: str
    version: int
    commitment: str  # sha256 of the secret seed, revealed when the game ends
    seats: list[SeatClaimed] = []
    invites: list[Invite] = []

    @classmethod
    def of(cls, created, kind: str) -> GameCreatedResponse:
        """The answer for a game of `kind` the service has just created (or forked)."""
        return cls(
            game=created.game,
            kind=kind,
            admin_token=created.admin_token,
            version=created.version,
            commitment=created.commitment,
            seats=[SeatClaimed(seat=s, token=t, name=created.names.get(s)) for s, t in sorted(created.tokens.items())],
            invites=[Invite(seat=s, code=c) for s, c in sorted(created.invites.items())],
        )


class ClaimRequest(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The invite code of a reserved seat (no body, or no code, for an open seat), and the name the
    claimer chooses for the seat (none: the seat is "Player B" until it is named)."""

    invite: Annotated[str, Meta(min_length=1, max_length=128)] | None = None
    name: PlayerName | None = None  # the seat's display name, chosen as it is claimed


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
    name: str | None = None  # the display name its player chose (untrusted text: show it as text)


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
    kind: GameKind  # type: ignore[valid-type]
    players: int
    status: Literal["open", "playing", "finished"]  # open: a human seat is still unclaimed
    version: int
    open_seats: list[int]
    created_at: int  # milliseconds since the epoch
    lineage: Lineage | None = None  # for forks


_SUMMARY_FIELDS = [
    (f.name, f.type, f.default) if f.default is not msgspec.NODEFAULT else (f.name, f.type)
    for f in msgspec.structs.fields(GameSummary)
    if f.name != "kind"
]
GameDetail = per_game(
    "GameDetail",
    "A game's status: who is awaited for what, its seats, and the outcome once finished.",
    lambda kind, c: (
        [f for f in _SUMMARY_FIELDS if len(f) == 2]
        + [
            ("seats", list[SeatInfo]),
            ("options", c.game_options),
            ("awaiting", Awaiting | None),
            ("finished", bool),
            ("outcome", c.outcome | None),
            ("commitment", str),
            # revealed when the game ends, so anyone can audit it
            ("seed", str | None),
        ]
        + [f for f in _SUMMARY_FIELDS if len(f) == 3]
        + [("clock", ClockStatus | None, None)]  # its turn clocks (null: none)
    ),
)


class Lobby(Struct, frozen=True, kw_only=True):
    """One page of the lobby, newest first; `next` is the cursor of the following page (null: none)."""

    games: list[GameSummary]
    next: str | None


EVENT_TEXT = Annotated[
    str,
    Meta(
        description="The event in plain words for the caller, as the web client's move log shows it "
        '("Player B drew a card", "You drew 1 Priest card"): built when read from the event as the '
        'caller may see it (after redaction), never stored; seats are "Player A", "Player B", ... '
        '(seat 0 is A) and "You" for the caller\'s own seat.',
        examples=["Player B drew 2 cards."],
    ),
]
EventOut = per_game(
    "EventOut",
    "One event as the caller may see it: the envelope and the redacted domain event "
    "(`payload`, tagged by its `type`), or a platform event that no command caused "
    "(`seat_reissued`, `timed_out`, `clock_paused`: `seat` and `command` are null).",
    lambda kind, c: [
        ("version", int),
        ("type", str),
        ("recorded_at", int),
        ("seat", int | None),
        ("command", str | None),
        ("payload", Union[(c.event, *PLATFORM_EVENTS)]),  # noqa: UP007
        ("text", EVENT_TEXT),
        # the hash chain, shown once the game is finished (it would give away hidden draws)
        ("hash", str | None),
    ],
    tagged=False,
)
Events = per_game(
    "Events",
    "Events after a version, oldest first: at most `limit`; `next` is the version to "
    "ask after (`?after=<next>`) for the following ones, null when these are the last.",
    lambda kind, c: [("events", list[of_kind("EventOut", kind)]), ("next", int | None)],  # type: ignore[misc]  # a type made at run time
)


ViewAnswer = per_game(
    "ViewAnswer",
    "A view of the game at `version`: public, or with the caller's seat's private part (`view.you`).",
    lambda kind, c: [("version", int), ("seat", int | None), ("view", c.view)],
)
ScoreAnswer = per_game(
    "ScoreAnswer",
    "Scores at `version`: totals, breakdown by source, timeline.",
    lambda kind, c: [("version", int), ("view", score_view(kind))],
)
Choice = per_game(
    "Choice",
    "One choice: `command` is a complete command to send as it is (POST "
    "/games/{id}/commands), or `next` a token for the choices that follow it (GET "
    "/games/{id}/options?after=<next>); `refers` names what it is about, for drawing it.",
    lambda kind, c: [
        ("key", str),
        ("label", str),
        ("command", c.command | None, None),
        ("next", str | None, None),
        ("refers", c.refers, msgspec.field(default_factory=c.refers)),
    ],
    tagged=False,
)
Choices = per_game(
    "Choices",
    "What the caller's seat may do now, as choices (`decision` is null when the game "
    "waits for another seat, and then there are none).",
    lambda kind, c: [
        ("version", int),
        ("seat", int),
        ("decision", str | None),
        ("prompt", str),
        ("choices", list[of_kind("Choice", kind)]),  # type: ignore[misc]  # a type made at run time
    ],
)
OptionBlocks = per_game(
    "OptionBlocks",
    "What the caller's seat may do now, as building blocks (`options.awaited` "
    "is false when the game waits for another seat).",
    lambda kind, c: [("version", int), ("seat", int), ("options", c.blocks)],
)


class Health(Struct, frozen=True, kw_only=True):
    status: Literal["ok"]


class ForkRequest(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Fork at version `at` (where a command's events end) with these seats (as many as the game has)."""

    at: Annotated[int, Meta(ge=1, le=MAX_VERSION)]
    seats: ForkSeats


class Rejected(Struct, frozen=True, kw_only=True):
    """A refused command: when (ms), by which seat, the stable code; and, for the seat's own
    commands or once the game has ended, at which version, what and why (a refused command and
    its sentence can tell what a hand holds)."""

    at: int
    seat: int | None
    code: str
    version: int | None = None
    message: str | None = None
    # as recorded, whatever its shape (it was refused): the game's command with its `seat`, or
    # {type, truncated} for one too long to keep
    command: (
        Annotated[
            dict[str, Any],
            Meta(
                description=(
                    "The refused command as recorded: the game's command with the seat that sent it, or `{type, truncated}` "
                    "(its length) when it was too long to keep."
                )
            ),
        ]
        | None
    ) = None
