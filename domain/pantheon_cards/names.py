"""Pantheon, the card game's words for its ids (domain.glossary): the powers, civilization cards
and temples names.json writes out, and every card and pantheon of the edition's data."""

from __future__ import annotations

import functools

from domain.glossary import Glossary, Term, TermGroup, glossary, read_words, written_groups

from .components import Card, Components, load_components

WORDS = read_words(__package__)
_CIVS = WORDS["groups"]["civilizations"]["terms"]


def card_name(card: Card) -> str:
    """'Zeus', 'wooden temple 1', '500 worshipers (card 3)', 'Famine' (as the choices' labels say)."""
    n = int(card.id.rsplit(".", 1)[1]) if card.type in ("temple", "worshiper") else 0
    if card.type == "temple":
        return f"{card.kind} temple {n}"
    if card.type == "worshiper":
        return f"{card.level:,} worshipers (card {n})"
    return card.name


def _card_description(comps: Components, card: Card) -> str:
    if card.type == "god":
        minor, major = (comps.powers[p].name for p in (card.minor, card.major))
        return f"A god of the {comps.pantheons[card.pantheon]} pantheon: Minor power {minor}, Major power {major}."
    if card.type == "temple":
        return f"A {card.kind} temple for one of your columns."
    if card.type == "worshiper":
        return f"Worshipers worth {card.level:,} in one of your columns."
    return str(_CIVS[card.id.split(".")[1]]["description"])


def _cards(comps: Components) -> TermGroup:
    terms = [Term(id=c.id, name=card_name(c), description=_card_description(comps, c)) for c in comps.cards.values()]
    return TermGroup(group="cards", name="Cards", terms=terms)


def _pantheons(comps: Components) -> TermGroup:
    terms = [
        Term(id=p, name=name, description=f"The {name} gods: a player whose gods are all {name} scores them double.")
        for p, name in comps.pantheons.items()
    ]
    return TermGroup(group="pantheons", name="Pantheons", terms=terms)


@functools.cache
def cards_glossary(edition: str = "house-1") -> Glossary:
    """Every word the card game uses for its ids in this edition."""
    comps = load_components(edition)
    return glossary("pantheon_cards", WORDS, [_cards(comps), _pantheons(comps), *written_groups(WORDS)])
