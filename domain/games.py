"""The game registry: every game the server hosts, by kind, with everything the shell needs of it.

`service/` gets a game only from here (a test checks that it imports no game package by name).
Adding a game is a package `domain/<game>/` (its Decider, bots, data), its read models in
`projections/<game>/`, and one `Game(...)` entry in `_GAMES` below."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from domain import pantheon
from domain.kernel import Decider
from domain.pantheon.board import load_board
from domain.pantheon.components import EDITIONS as PANTHEON_EDITIONS
from domain.pantheon.invariants import check_invariants as pantheon_invariants
from domain.pantheon.random_play import random_command as pantheon_random_command
from domain.pantheon.svg import render_svg
from projections.pantheon import PANTHEON_PROJECTIONS


@dataclass(frozen=True, slots=True)
class Game:
    """One hosted game. Conventions every game keeps: its command union has `create_game` with
    `options`, its options have `players`, and its `outcome` has `winners` and `scores`."""

    kind: str
    decider: Decider  # rules, views, redaction, outcome and (as `decider.bots`) its AI players
    engine: str  # the engine version recorded with every game of this kind
    command_type: Any  # the commands seats send (the decider's command_type also has the platform's)
    options_type: type  # the game options (a msgspec Struct with `players`)
    players: tuple[int, ...]  # the numbers of players the game allows
    projections: tuple[Any, ...]  # its read models (projections.Projection)
    random_options: Callable[[int, random.Random], Any]  # options of a random game (simulate)
    random_command: Callable[[Any, int, random.Random], Any]  # a random legal command of a seat
    invariants: Callable[[Any], list[str]]  # every violated invariant of a state, as sentences
    render_board: Callable[[str], str]  # an edition's board as SVG
    editions: tuple[str, ...]  # the editions of its component data

    @property
    def levels(self) -> tuple[str, ...]:
        """Its AI levels, weakest first (none without bots)."""
        return () if self.decider.bots is None else self.decider.bots.names

    def create_command(self, options: dict) -> Any:
        """The command that starts a game with these options (`players` included)."""
        return msgspec.convert({"type": "create_game", "options": options}, self.decider.command_type)


def _pantheon_options(players: int, rnd: random.Random) -> Any:
    return pantheon.Options(players=players, start_material=rnd.choice(["bsw", "rulebook"]),
                            bonus_tiles=rnd.choice(["draft", "random"]))


_GAMES: tuple[Game, ...] = (
    Game(kind="pantheon", decider=pantheon.PANTHEON, engine="pantheon-engine/1", command_type=pantheon.Command,
         options_type=pantheon.Options,
         players=(2, 3, 4), projections=PANTHEON_PROJECTIONS, random_options=_pantheon_options,
         random_command=pantheon_random_command, invariants=pantheon_invariants,
         render_board=lambda edition: render_svg(load_board(edition)), editions=PANTHEON_EDITIONS),
)
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


def projections_for(kind: str) -> Sequence[Any]:
    """The read models of a game kind (KeyError for an unknown kind)."""
    return GAMES[kind].projections
