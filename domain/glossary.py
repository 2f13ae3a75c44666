"""A game's words for its ids: every id a player meets (a god, a tile, a card, an option and its
values, a hex) with a display name and a one-line description, and a short summary of its rules.

Each game writes its words in `domain/<game>/data/names.json` (what a person wrote: the options,
the rules summary, the descriptions) and completes them from its component data (names.py); the
registry serves the result (`GET /kinds/{kind}`), so the labels, the log, the web client and any
other client say the same words."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from msgspec import Struct


class Term(Struct, frozen=True, kw_only=True):
    """One id and the words for it."""

    id: str  # as the API sends it (a hex as "q,r")
    name: str  # what a person reads: "Surparit", "Roma, hex 3"
    description: str  # one line: what it is or does


class TermGroup(Struct, frozen=True, kw_only=True):
    """The ids of one kind of thing ("gods", "bonus_tiles"), with the kind's own name."""

    group: str
    name: str
    terms: list[Term]


class OptionWords(Struct, frozen=True, kw_only=True):
    """A game option as the new-game form shows it: its name, what it changes and its values."""

    option: str  # the field of the create request's `options`
    name: str
    description: str
    values: list[Term]  # each value's id as the request sends it (`true`/`false` for yes/no)


class RulesSection(Struct, frozen=True, kw_only=True):
    """A part of the rules summary: a heading and its paragraphs (plain text)."""

    heading: str
    paragraphs: list[str]


class Glossary(Struct, frozen=True, kw_only=True):
    """Every word a game uses for its ids, and its rules in short."""

    kind: str
    name: str  # the game's name: "Pantheon, the card game"
    summary: str  # one line
    options: list[OptionWords]
    groups: list[TermGroup]
    rules: list[RulesSection]

    def group(self, group: str) -> TermGroup:
        """The group named `group` (KeyError if the game has none)."""
        for g in self.groups:
            if g.group == group:
                return g
        raise KeyError(group)

    def value_name(self, option: str, value: str) -> str:
        """The display name of an option's value ("House edition 1"; the value itself if unnamed)."""
        words = next((o for o in self.options if o.option == option), None)
        return next((v.name for v in words.values if v.id == value), value) if words else value

    def name_of(self, group: str, term: str) -> str:
        """The display name of `term` in `group` (the id itself if the glossary lacks it)."""
        return next((t.name for t in self.group(group).terms if t.id == term), term)


def read_words(package: str) -> dict[str, Any]:
    """A game's `data/names.json` (read once, at import, like its component data)."""
    text = resources.files(package).joinpath("data", "names.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def terms(entries: dict[str, dict[str, str]]) -> list[Term]:
    """{"id": {"name": …, "description": …}} as Terms, in the order written."""
    return [Term(id=i, name=e["name"], description=e["description"]) for i, e in entries.items()]


def written_groups(words: dict[str, Any]) -> list[TermGroup]:
    """The groups names.json writes out in full (`groups`: {group: {name, terms}})."""
    return [TermGroup(group=g, name=v["name"], terms=terms(v["terms"])) for g, v in words.get("groups", {}).items()]


def glossary(kind: str, words: dict[str, Any], groups: list[TermGroup]) -> Glossary:
    """A Glossary from names.json's `name`, `summary`, `options` and `rules`, with `groups`."""
    options = [
        OptionWords(option=o, name=v["name"], description=v["description"], values=terms(v["values"]))
        for o, v in words["options"].items()
    ]
    rules = [RulesSection(heading=s["heading"], paragraphs=s["paragraphs"]) for s in words["rules"]]
    return Glossary(
        kind=kind, name=words["name"], summary=words["summary"], options=options, groups=groups, rules=rules
    )
