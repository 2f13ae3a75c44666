"""Pantheon's words for its ids (domain.glossary): the groups names.json writes out (gods, action
cards, sacrifice tiles, nations, loot and bonus tiles) and those built from the edition's data
(every gods tile, every hex by nation)."""

from __future__ import annotations

import functools

from domain.glossary import Glossary, Term, TermGroup, glossary, read_words, written_groups

from .board import load_board
from .components import load_components
from .labels import god_benefit, god_name, hex_names

WORDS = read_words(__package__)
_BONUS = WORDS["groups"]["bonus_tiles"]["terms"]


def bonus_name(tile: str) -> str:
    """A bonus tile's name: '2 feet and 1 column'."""
    return str(_BONUS[tile]["name"])


def _gods_tiles(edition: str) -> TermGroup:
    tiles = load_components(edition).gods.values()
    terms = [
        Term(
            id=t.id,
            name=god_name(t),
            description=f"Gained with {'-'.join(map(str, t.requires))} sacrifices"
            + (", cards only" if t.cards_only else "")
            + f": {god_benefit(t)}.",
        )
        for t in tiles
    ]
    return TermGroup(group="gods_tiles", name="Gods tiles", terms=terms)


def _hexes(edition: str) -> TermGroup:
    board, names = load_board(edition), hex_names(edition)
    terms = []
    for h in board.hexes:
        what = (
            "column site"
            if h.column
            else "start hex"
            if h.start
            else "loot hex"
            if h.loot
            else "water"
            if h.water
            else "land"
        )
        terms.append(Term(id=f"{h.q},{h.r}", name=names[h.index], description=f"A hex of the map ({what})."))
    return TermGroup(group="hexes", name="Hexes", terms=terms)


@functools.cache
def pantheon_glossary(edition: str = "house-1") -> Glossary:
    """Every word Pantheon uses for its ids in this edition."""
    return glossary("pantheon", WORDS, [*written_groups(WORDS), _gods_tiles(edition), _hexes(edition)])
