"""Pergamon's words for its ids (domain.glossary): the options and kinds of objects names.json
writes out, and every tile and gallery of the edition's data."""

from __future__ import annotations

import functools

from domain.glossary import Glossary, Term, TermGroup, glossary, read_words, written_groups

from .components import Components, load_components
from .labels import roman, tile_phrase

WORDS = read_words(__package__)
_CENTURIES = {1: "1st", 2: "2nd", 3: "3rd"}


def _century(c: int) -> str:
    return _CENTURIES.get(c, f"{c}th")


def _tiles(comps: Components) -> TermGroup:
    terms = [
        Term(
            id=str(t.id),
            name=tile_phrase(comps, t.id),
            description=f"A find dated {t.id} (the {_century(t.century)} century before Christ): "
            f"the right half of a {t.left} on its left edge, the left half of a {t.right} on its right edge.",
        )
        for t in comps.tiles.values()
    ]
    return TermGroup(group="tiles", name="Tiles", terms=terms)


def _galleries(comps: Components) -> TermGroup:
    terms = [
        Term(
            id=str(g),
            name=f"Gallery {roman(g)}",
            description=f"Excavating it costs {g} {'coin' if g == 1 else 'coins'}; it holds up to 4 tiles.",
        )
        for g in range(1, 6)
    ]
    return TermGroup(group="galleries", name="Galleries", terms=terms)


@functools.cache
def pergamon_glossary(edition: str = "house-1") -> Glossary:
    """Every word Pergamon uses for its ids in this edition."""
    comps = load_components(edition)
    return glossary("pergamon", WORDS, [*written_groups(WORDS), _tiles(comps), _galleries(comps)])
