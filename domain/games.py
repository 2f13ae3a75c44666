"""The game registry: every game the server hosts, by kind, as its package exports it (`GAME`, a
`domain.plugin.Game`: what the domain brings of it).

`service/` gets a game only from here (a test checks that it imports no game package by name); a
game's read models are in the read-model registry `projections.registry`, which the shell puts
together with this one by kind. Adding a game is a package `domain/<game>/` that exports its
`GAME`, and one entry in `_GAMES` below (the first is the default)."""

from __future__ import annotations

from domain import pantheon, pantheon_cards, pergamon
from domain.contract import Contract
from domain.plugin import Game

_GAMES: tuple[Game, ...] = (pantheon.GAME, pergamon.GAME, pantheon_cards.GAME)
GAMES: dict[str, Game] = {game.kind: game for game in _GAMES}
DEFAULT_KIND = _GAMES[0].kind  # what a request or command that names no game means


def get(kind: str) -> Game:
    """The game of `kind` (KeyError for an unknown kind)."""
    return GAMES[kind]


def kinds() -> tuple[str, ...]:
    """Every hosted kind, the default first."""
    return tuple(GAMES)


def default() -> Game:
    """The game a request or command that names none means."""
    return GAMES[DEFAULT_KIND]


__all__ = ["DEFAULT_KIND", "GAMES", "Contract", "Game", "default", "get", "kinds"]
