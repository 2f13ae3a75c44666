"""Choice trees, game-agnostic: a seat's awaited decision as menus a client follows key by key,
each path ending in a complete command, so a client can play without knowing the rules.

A game builds its tree lazily from `Menu`s; `follow` walks a path of keys from the root and
returns the `ChoiceList` reached, or the DomainError `unknown_choice`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.kernel import DomainError


class Choice(msgspec.Struct, frozen=True, kw_only=True):
    """One choice: `command` is the complete command it plays (a leaf), or `more` says that
    appending `key` to the path gives the next ChoiceList. `refers` names what it is about
    (a hex, a card, a tile ...) in JSON-able values, for drawing it; each game documents its keys."""

    key: str  # stable among its siblings for a given state and path
    label: str  # plain words a person can read
    command: Any = None
    more: bool = False
    refers: dict[str, Any] = {}


class ChoiceList(msgspec.Struct, frozen=True, kw_only=True):
    """The choices at one point of a decision: its kind (None when the seat is not awaited),
    a sentence saying what is being chosen, and the choices."""

    decision: str | None
    prompt: str = ""
    choices: list[Choice] = []


@dataclass(frozen=True, slots=True)
class Entry:
    """A choice while the tree is built: `then` makes the menu behind a `more` choice."""

    choice: Choice
    then: Callable[[], Menu] | None = None


@dataclass(frozen=True, slots=True)
class Menu:
    """One level of a tree under construction."""

    prompt: str
    entries: list[Entry]


def leaf(key: str, label: str, command: Any, **refers: Any) -> Entry:
    """A choice that plays `command`."""
    return Entry(Choice(key=key, label=label, command=command, refers=refers))


def branch(key: str, label: str, then: Callable[[], Menu], **refers: Any) -> Entry:
    """A choice whose following choices `then` builds."""
    return Entry(Choice(key=key, label=label, more=True, refers=refers), then)


def follow(decision: str | None, root: Menu, path: Sequence[str]) -> ChoiceList:
    """The ChoiceList reached from `root` by the keys of `path`, or DomainError `unknown_choice`."""
    menu = root
    for depth, key in enumerate(path):
        entry = next((e for e in menu.entries if e.choice.key == key), None)
        if entry is None:
            raise DomainError("unknown_choice", f"There is no choice {key!r} at step {depth + 1} of this decision.")
        if entry.then is None:
            raise DomainError(
                "unknown_choice", f"Choice {key!r} at step {depth + 1} is a complete command; nothing follows it."
            )
        menu = entry.then()
    return ChoiceList(decision=decision, prompt=menu.prompt, choices=[e.choice for e in menu.entries])
