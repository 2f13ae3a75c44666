"""The game-agnostic kernel: what every game package provides, the platform's own events, and
folding events into state."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeGuard, Union

import msgspec

from domain.words import player, players_of, sentence


class Rng(Protocol):
    """The only source of chance a decider may use."""

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        ...


class DomainError(Exception):
    """A command broke a rule: a stable machine code and a sentence naming the rule."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"DomainError({self.code!r}, {self.message!r})"


class Awaiting(msgspec.Struct, frozen=True):
    """Which seat the game waits for, and for which kind of decision (a msgspec Struct, not a
    frozen dataclass: made once per command in playouts, and four times faster to make)."""

    seat: int
    decision: str


@dataclass(frozen=True, slots=True)
class Bots:
    """A game's AI players, for the platform: what a seat may know (the only input a bot gets),
    a hash of that knowledge (recorded with every AI command), and a bot by name and parameters."""

    knowledge: Callable[[Any, int], Any]
    view_hash: Callable[[Any], str]
    make: Callable[..., Any]  # make(name, **params) -> an object with name, params, budget, choose()
    names: tuple[str, ...]  # weakest first


@dataclass(frozen=True, slots=True)
class Decider:
    """Everything the platform needs to host one game; a new game is a new instance of this."""

    kind: str
    initial_state: Callable[[], Any]
    decide: Callable[[Any, Any, Rng], list[Any]]
    evolve: Callable[[Any, Any], Any]
    awaited: Callable[[Any], Awaiting | None]
    legal_options: Callable[[Any, int], Any]
    public_view: Callable[[Any], Any]
    seat_view: Callable[[Any, int], Any]
    redact: Callable[[Any, int | None], Any]
    is_terminal: Callable[[Any], bool]
    outcome: Callable[[Any], Any]
    command_type: Any
    event_type: Any
    # decide and evolve in one pass on a state the caller owns (for playouts and search)
    apply: Callable[[Any, Any, Rng], tuple[Any, list[Any]]] | None = None
    # evolve many events at once (replay); the same result as evolving them one by one
    evolve_all: Callable[[Any, Iterable[Any]], Any] | None = None
    # the game's AI players (None: the game has no AI seats)
    bots: Bots | None = None
    # the command that starts a fork of a running game from what a viewer (a seat, or None for a
    # spectator) knows of its state, everything else dealt afresh (None: no forks of running games)
    fork_command: Callable[[Any, int | None], Any] | None = None
    # choices(state, seat, path) -> domain.choices.ChoiceList: the seat's awaited decision as a
    # tree of choices, at the end of `path` (keys from the root); every leaf is a command decide
    # accepts and every command it accepts is a leaf (up to zero counts); DomainError
    # `unknown_choice` for a path not in the tree (None: no choice trees, clients use legal_options)
    choices: Callable[[Any, int, tuple[str, ...]], Any] | None = None
    # scores(state, revealed) -> each seat's score now, as a spectator may see it (None where it is
    # secret), or every one when `revealed` (the game has ended): the audit's story (None: no scores)
    scores: Callable[[Any, bool], list[int | None]] | None = None
    # narrate(state, event, viewer) -> the event in plain words for `viewer` (a seat, None for a
    # spectator): `event` as redact gave it to that viewer, `state` the state before it (for the
    # names of components it refers to); seats are "Player A".. and "You" (None: the event's type)
    narrate: Callable[[Any, Any, int | None], str] | None = None
    # forfeit(state, seat) -> the state of the game ended at once with `seat` ranked last (a turn
    # clock ran out, `TimedOut`); None: the kernel's `forfeited`, by the conventions every game
    # keeps (its state's `finished`, `winners`, `options.players`, and `places` or `end_reason`)
    forfeit: Callable[[Any, int], Any] | None = None


class PlatformEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """A fact of the platform, not of any game's rules, recorded in a game's log among its own
    events: no command decides it (the service appends it), every fold passes over it (it changes
    no game's state), it hides nothing (every viewer sees it whole), and no game's event has its tag."""


class SeatReissued(PlatformEvent, frozen=True, kw_only=True, tag="seat_reissued"):
    """The game's admin replaced a seat's token by a one-time invite code: the old token stopped
    working, and whoever claims the seat with the code holds it from then on."""

    seat: int


class SeatNamed(PlatformEvent, frozen=True, kw_only=True, tag="seat_named"):
    """A seat's player chose the display name the game shows for the seat from then on (checked
    when it was given: domain.names); the log keeps every name a seat had, so a replay, a fork, an
    export and the audit tell each event with the names of its time."""

    seat: int
    name: str


class TimedOut(PlatformEvent, frozen=True, kw_only=True, tag="timed_out"):
    """A seat's clock ran out (`domain.clock`): the server's clock keeper saw the time `observed_ms`
    (the Redis clock, ms) past the seat's `deadline_ms` computed from the log. `then`: what the game's
    creator chose, `greedy` (the greedy AI plays the rest of that turn for the seat) or `forfeit`
    (the game ends at once, the seat ranked last)."""

    seat: int
    observed_ms: int
    deadline_ms: int
    then: str


class ClockPaused(PlatformEvent, frozen=True, kw_only=True, tag="clock_paused"):
    """The server could not serve from `from_ms` to `to_ms` (the Redis clock, ms): a turn's clock
    does not count that time (it is given back)."""

    from_ms: int
    to_ms: int


PLATFORM_EVENTS = (SeatReissued, SeatNamed, TimedOut, ClockPaused)
PLATFORM_TYPES = frozenset(event.__struct_config__.tag for event in PLATFORM_EVENTS)


def logged_event_type(decider: Decider) -> Any:
    """Every event a game's log may hold: the game's own and the platform's (one tagged union)."""
    return Union[(decider.event_type, *PLATFORM_EVENTS)]  # noqa: UP007 - a union built at run time


def is_platform(event: Any) -> bool:
    return isinstance(event, PlatformEvent)


def evolve(decider: Decider, state: Any, event: Any) -> Any:
    """The game's `evolve`, passing over the platform's events but a forfeit (the game ends)."""
    if isinstance(event, PlatformEvent):
        return forfeited(decider, state, event.seat) if forfeits(event) else state
    return decider.evolve(state, event)


def forfeited(decider: Decider, state: Any, seat: int) -> Any:
    """The game ended at once with `seat` ranked last: the others ranked by their scores now."""
    if decider.forfeit is not None:
        return decider.forfeit(state, seat)
    players = state.options.players  # every game's options have `players`
    scores = decider.scores(state, True) if decider.scores else [0] * players
    winners, places = forfeit_ranking(scores, seat)
    changes: dict[str, Any] = {"finished": True, "winners": winners}
    if hasattr(state, "places"):
        changes["places"] = places
    if hasattr(state, "end_reason"):
        changes["end_reason"] = "time_out"
    return msgspec.structs.replace(state, **changes)


def forfeit_ranking(scores: Sequence[int | None], seat: int) -> tuple[list[int], list[int]]:
    """(winners, places) when `seat` forfeits: the others by these scores (ties share a place,
    1 = first), the forfeiting seat last."""
    players = len(scores)
    order = sorted((s for s in range(players) if s != seat), key=lambda s: -(scores[s] or 0))
    best = scores[order[0]] or 0
    places = [0] * players
    for s in order:
        places[s] = 1 + sum(1 for o in order if (scores[o] or 0) > (scores[s] or 0))
    places[seat] = players
    return [s for s in order if (scores[s] or 0) == best], places


def forfeits(event: Any) -> TypeGuard[TimedOut]:
    """Whether `event` is a time-out that ends the game (the one platform event that changes a state)."""
    return isinstance(event, TimedOut) and event.then == "forfeit"


def redact(decider: Decider, event: Any, viewer: int | None) -> Any:
    """The event as `viewer` may see it: the game's `redact`; the platform's events are public."""
    return event if isinstance(event, PlatformEvent) else decider.redact(event, viewer)


def narrate(decider: Decider, state: Any, event: Any, viewer: int | None) -> str:
    """The event in words for `viewer`: the game's `narrate` of the event as `viewer` may see it
    (pass the redacted event), the platform's events here."""
    if isinstance(event, SeatReissued):
        return sentence(
            f"{players_of(event.seat, viewer)} seat was handed to a new player (its old token no longer works)"
        )
    if isinstance(event, SeatNamed):  # with the names before it (texts put names in): "Ann chose the name …"
        return f"{player(event.seat, viewer)} chose the name “{event.name}”."
    if isinstance(event, TimedOut):
        then = "the game ends" if event.then == "forfeit" else "the greedy AI plays that turn"
        return sentence(f"{players_of(event.seat, viewer)} time ran out: {then}")
    if isinstance(event, ClockPaused):
        seconds = max(1, round((event.to_ms - event.from_ms) / 1000))
        return f"The server was unavailable for {seconds} s; that time is given back to the clock."
    if isinstance(event, PlatformEvent) or decider.narrate is None:
        tag = getattr(type(event), "__struct_config__", None)
        return (tag.tag if tag else type(event).__name__).replace("_", " ").capitalize() + "."
    return decider.narrate(state, event, viewer)


def fold(decider: Decider, events: Iterable[Any], state: Any = None) -> Any:
    """Replay: evolve every event into the state, starting from the initial state, passing over
    the platform's events. Never draws."""
    if state is None:
        state = decider.initial_state()
    batch: list[Any] = []
    for event in events:
        if not isinstance(event, PlatformEvent):
            batch.append(event)
        elif forfeits(event):  # the game's events so far, then the end
            state = forfeited(decider, _fold_game(decider, batch, state), event.seat)
            batch = []
    return _fold_game(decider, batch, state)


def _fold_game(decider: Decider, events: list[Any], state: Any) -> Any:
    if decider.evolve_all is not None:
        return decider.evolve_all(state, events)
    evolve = decider.evolve
    for event in events:
        state = evolve(state, event)
    return state


def step(decider: Decider, state: Any, command: Any, rng: Rng) -> tuple[Any, Sequence[Any]]:
    """Decide a command and evolve its events: the new state and the events it produced."""
    events = decider.decide(state, command, rng)
    for event in events:
        state = decider.evolve(state, event)
    return state, events
