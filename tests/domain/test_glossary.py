"""Every id a player meets has a name and a one-line description in its game's glossary: every
component of the data files, every hex, every option and each of its values."""

from __future__ import annotations

import typing

import msgspec
import pytest

from domain import games
from domain.glossary import Glossary
from domain.pantheon.board import load_board
from domain.pantheon.components import load_components as pantheon_components
from domain.pantheon.vocabulary import CARDS, NATIONS, SACRIFICES
from domain.pantheon_cards.components import load_components as cards_components
from domain.pergamon.components import load_components as pergamon_components

KINDS = sorted(games.GAMES)


def ids(glossary: Glossary, group: str) -> list[str]:
    return [t.id for t in glossary.group(group).terms]


def _option_values(tp: typing.Any) -> set[str]:
    """The values a create request may send for an option of this type, as the glossary writes
    them (a bool as `true`/`false`; a seat number is a seat, named as seats are, not listed)."""
    if tp is bool:
        return {"true", "false"}
    found: set[str] = set()
    for arg in typing.get_args(tp):
        if typing.get_origin(arg) is typing.Literal:
            found |= {str(v) for v in typing.get_args(arg)}
        elif arg not in (int, type(None)):
            found |= _option_values(arg)
    if typing.get_origin(tp) is typing.Literal:
        found |= {str(v) for v in typing.get_args(tp)}
    return found


@pytest.mark.parametrize("kind", KINDS)
def test_every_option_and_each_of_its_values_is_named(kind):
    game = games.get(kind)
    glossary = game.glossary(game.editions[0])
    fields = {f.name: f.type for f in msgspec.structs.fields(game.contract.options)}
    assert sorted(o.option for o in glossary.options) == sorted(fields)
    for option in glossary.options:
        assert {v.id for v in option.values} == _option_values(fields[option.option]), option.option


@pytest.mark.parametrize("kind", KINDS)
def test_every_name_and_description_is_one_line_of_words_and_names_are_unique_in_their_group(kind):
    game = games.get(kind)
    glossary = game.glossary(game.editions[0])
    terms = [t for g in glossary.groups for t in g.terms] + [v for o in glossary.options for v in o.values]
    for t in terms:
        assert t.name.strip() and "_" not in t.name and "\n" not in t.name, t
        assert t.description.endswith(".") and "\n" not in t.description and "_" not in t.description, t
    for g in glossary.groups:
        assert len({t.id for t in g.terms}) == len(g.terms), g.group
        assert len({t.name for t in g.terms}) == len(g.terms) or g.group in ("cards", "gods_tiles"), (
            g.group
        )  # identical copies
    assert glossary.rules and all(s.heading and s.paragraphs for s in glossary.rules)
    assert glossary.kind == kind


def test_pantheon_names_every_god_card_sacrifice_nation_tile_and_hex():
    glossary = games.get("pantheon").glossary("house-1")
    comps = pantheon_components("house-1")
    assert set(ids(glossary, "gods")) == {t.god for t in comps.gods.values()}
    assert ids(glossary, "gods_tiles") == list(comps.gods)
    assert ids(glossary, "cards") == list(CARDS)
    assert ids(glossary, "sacrifices") == list(SACRIFICES)
    assert set(ids(glossary, "nations")) == set(NATIONS)
    assert set(ids(glossary, "loot_tiles")) == set(comps.loot)
    assert set(ids(glossary, "bonus_tiles")) == set(comps.bonus)
    board = load_board("house-1")
    assert ids(glossary, "hexes") == [f"{h.q},{h.r}" for h in board.hexes]


def test_a_pantheon_hex_is_named_after_its_nearest_nation_and_numbered_row_by_row():
    glossary = games.get("pantheon").glossary("house-1")
    names = {t.id: t.name for t in glossary.group("hexes").terms}
    board = load_board("house-1")
    for nation, index in board.start_hex.items():
        h = board.hexes[index]
        assert names[f"{h.q},{h.r}"].startswith(f"{nation.capitalize()}, hex ")
    assert names["16,5"] == "Persia, hex 20" and names["0,0"] == "Gallia, hex 1"


def test_the_card_game_names_every_card_pantheon_power_and_civilization():
    glossary = games.get("pantheon_cards").glossary("house-1")
    comps = cards_components("house-1")
    assert ids(glossary, "cards") == list(comps.cards)
    assert set(ids(glossary, "pantheons")) == set(comps.pantheons)
    powers = {t.id: t.name for t in glossary.group("powers").terms}
    assert powers == {p.id: p.name for p in comps.powers.values()}  # the same words as the data's
    civs = {c.id.split(".")[1] for c in comps.cards.values() if c.type == "civilization"}
    assert set(ids(glossary, "civilizations")) == civs
    named = {t.id: t.name for t in glossary.group("cards").terms}
    assert named["god.zeus"] == "Zeus" and named["worshiper.500.03"] == "500 worshipers (card 3)"


def test_pergamon_names_every_tile_object_and_gallery():
    glossary = games.get("pergamon").glossary("house-1")
    comps = pergamon_components("house-1")
    assert ids(glossary, "tiles") == [str(t) for t in comps.tiles]
    assert ids(glossary, "types") == ["mask", "bracelet", "jug", "vase"]
    assert ids(glossary, "galleries") == ["1", "2", "3", "4", "5"]
