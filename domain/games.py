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

from domain import pantheon, pergamon
from domain.contract import Contract
from domain.kernel import Decider
from domain.pantheon import contract as pantheon_contract
from domain.pantheon.board import load_board
from domain.pantheon.components import EDITIONS as PANTHEON_EDITIONS
from domain.pantheon.invariants import check_invariants as pantheon_invariants
from domain.pantheon.random_play import random_command as pantheon_random_command
from domain.pantheon.svg import render_svg
from domain.pergamon import contract as pergamon_contract
from domain.pergamon.components import EDITIONS as PERGAMON_EDITIONS
from domain.pergamon.invariants import check_invariants as pergamon_invariants
from domain.pergamon.random_play import random_command as pergamon_random_command
from domain.pergamon.random_play import random_options as pergamon_random_options
from domain.pergamon.svg import render_board as pergamon_board
from projections.pantheon import PANTHEON_PROJECTIONS
from projections.pantheon.score import PantheonScore
from projections.pergamon import PERGAMON_PROJECTIONS


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
    contract: Contract  # its types on the wire (HTTP), named after it

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
         render_board=lambda edition: render_svg(load_board(edition)), editions=PANTHEON_EDITIONS,
         contract=Contract(
             name="Pantheon", command=pantheon_contract.PantheonCommand, event=pantheon_contract.PantheonEvent,
             options=pantheon_contract.PantheonOptions, game_options=pantheon_contract.PantheonGameOptions,
             outcome=pantheon_contract.PantheonOutcome, view=pantheon_contract.PantheonView, score=PantheonScore,
             refers=pantheon_contract.PantheonRefers, blocks=pantheon_contract.PantheonBlocks,
             to_domain=pantheon_contract.to_domain, to_wire=pantheon_contract.to_wire)),
    Game(kind="pergamon", decider=pergamon.PERGAMON, engine="pergamon-engine/1", command_type=pergamon.Command,
         options_type=pergamon.PergamonOptions,
         players=(2, 3, 4), projections=PERGAMON_PROJECTIONS, random_options=pergamon_random_options,
         random_command=pergamon_random_command, invariants=pergamon_invariants,
         render_board=pergamon_board, editions=PERGAMON_EDITIONS,
         contract=Contract(
             name="Pergamon", command=pergamon_contract.PergamonCommand, event=pergamon_contract.PergamonEvent,
             options=pergamon_contract.PergamonOptions, game_options=pergamon_contract.PergamonGameOptions,
             outcome=pergamon_contract.PergamonOutcome, view=pergamon_contract.PergamonView,
             score=pergamon_contract.PergamonScore, refers=pergamon_contract.PergamonRefers,
             blocks=pergamon_contract.PergamonBlocks,
             to_domain=pergamon_contract.to_domain, to_wire=pergamon_contract.to_wire)),
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
