"""What a game package exports to be hosted: one `Game`, everything the domain brings of it (its
Decider and bots, its wire contract, its board drawing, the player counts and editions it allows,
a random player and its invariants). The registry `domain.games` lists these objects; a game's read
models are registered apart, in `projections.registry` (the domain never imports projections)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.contract import Contract
from domain.glossary import Glossary
from domain.kernel import Decider


@dataclass(frozen=True, slots=True)
class Game:
    """One hosted game. Conventions every game keeps: its command union has `create_game` with
    `options`, its options have `players`, and its `outcome` has `winners` and `scores`."""

    decider: Decider  # rules, views, redaction, outcome and (as `decider.bots`) its AI players
    engine: str  # the engine version recorded with every game of this kind
    players: tuple[int, ...]  # the numbers of players the game allows
    random_options: Callable[[int, random.Random], Any]  # options of a random game (simulate)
    random_command: Callable[[Any, int, random.Random], Any]  # a random legal command of a seat
    invariants: Callable[[Any], list[str]]  # every violated invariant of a state, as sentences
    render_board: Callable[[str], str]  # an edition's board as SVG
    editions: tuple[str, ...]  # the editions of its component data
    contract: Contract  # its types on the wire (HTTP), named after it
    glossary: Callable[[str], Glossary]  # an edition's words for every id, and the rules in short

    @property
    def kind(self) -> str:
        """The game's name in the API (`kind`), in its log and in every key of the registry."""
        return self.decider.kind

    @property
    def levels(self) -> tuple[str, ...]:
        """Its AI levels, weakest first (none without bots)."""
        return () if self.decider.bots is None else self.decider.bots.names

    def create_command(self, options: dict[str, Any]) -> Any:
        """The command that starts a game with these options (`players` included)."""
        return msgspec.convert({"type": "create_game", "options": options}, self.decider.command_type)
