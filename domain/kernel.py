"""The game-agnostic kernel: what every game package provides, the platform's own events, and
folding events into state."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Union

import msgspec

from domain.words import players_of, sentence


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


class PlatformEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """A fact of the platform, not of any game's rules, recorded in a game's log among its own
    events: no command decides it (the service appends it), every fold passes over it (it changes
    no game's state), it hides nothing (every viewer sees it whole), and no game's event has its tag."""


class SeatReissued(PlatformEvent, frozen=True, kw_only=True, tag="seat_reissued"):
    """The game's admin replaced a seat's token by a one-time invite code: the old token stopped
    working, and whoever claims the seat with the code holds it from then on."""

    seat: int


PLATFORM_EVENTS = (SeatReissued,)
PLATFORM_TYPES = frozenset(event.__struct_config__.tag for event in PLATFORM_EVENTS)


def logged_event_type(decider: Decider) -> Any:
    """Every event a game's log may hold: the game's own and the platform's (one tagged union)."""
    return Union[(decider.event_type, *PLATFORM_EVENTS)]  # noqa: UP007 - a union built at run time


def is_platform(event: Any) -> bool:
    return isinstance(event, PlatformEvent)


def evolve(decider: Decider, state: Any, event: Any) -> Any:
    """The game's `evolve`, passing over the platform's events."""
    return state if isinstance(event, PlatformEvent) else decider.evolve(state, event)


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
    if isinstance(event, PlatformEvent) or decider.narrate is None:
        tag = getattr(type(event), "__struct_config__", None)
        return (tag.tag if tag else type(event).__name__).replace("_", " ").capitalize() + "."
    return decider.narrate(state, event, viewer)


def fold(decider: Decider, events: Iterable[Any], state: Any = None) -> Any:
    """Replay: evolve every event into the state, starting from the initial state, passing over
    the platform's events. Never draws."""
    events = (e for e in events if not isinstance(e, PlatformEvent))
    if state is None:
        state = decider.initial_state()
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
