"""Plain English for the choice labels: cards, sacrifices, gods, loot and bonus tiles, hexes.

The map has no hex names, so a hex is named after the nation whose start hex is nearest and
numbered row by row within it ("Roma, hex 3"), with what is on it."""

from __future__ import annotations

import functools

from domain.words import and_list, player_name

from .board import NATIONS, Board, hex_distance, load_board
from .components import Effect, GodsTile
from .rules import board_of, components_of
from .state import State
from .vocabulary import MONEY_VALUE

CARD_NAMES = {
    "movement": "Movement",
    "priest": "Priest",
    "dancer": "Dancer",
    "temple": "Temple",
    "offering": "Offering",
    "money": "Money 1",
    "money_2": "Special money 2",
    "money_3": "Special money 3",
    "money_4": "Special money 4",
    "money_5": "Special money 5",
}

GOD_BENEFITS = {
    "surparit": "also take the top tile of the gods stack",
    "plaesiris": "take 2 half gods",
    "taksator": "take the top special money card",
    "depraccus": "draw 2 cards at every epoch's preparation",
    "vinthrad": "+1 step in every movement",
    "gaiviles": "one jump in every movement",
    "stonkus": "+{money} money in every buying",
    "gadicea": "+1 card in every drawing action",
    "pietalte": "scores your best sacrifice tile's level at each scoring",
    "traitera": "spend it after an action to take one more action",
}


def plural(n: int, word: str) -> str:
    """'1 foot', '2 feet', '3 cards'."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {'feet' if word == 'foot' else word + 's'}"


def cards_phrase(counts: dict[str, int]) -> str:
    """'2 Priest and 1 Dancer cards', or 'no cards'."""
    parts = [f"{n} {CARD_NAMES[card]}" for card, n in counts.items() if n]
    if not parts:
        return "no cards"
    words = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    return words + (" card" if sum(counts.values()) == 1 else " cards")


def money_phrase(counts: dict[str, int]) -> str:
    """The money these cards are worth, with the cards: '5 money (2 Money 1 and 1 Special money 3 cards)'."""
    return f"{sum(MONEY_VALUE[c] * n for c, n in counts.items())} money ({cards_phrase(counts)})"


def god_name(tile: GodsTile) -> str:
    """'Surparit (needs 3-2)': a gods tile as a person tells it from the other tiles of its god."""
    return f"{tile.god.capitalize()} (needs {'-'.join(str(n) for n in tile.requires)})"


def god_benefit(tile: GodsTile) -> str:
    """What the tile's god gives: 'also take the top tile of the gods stack'."""
    return GOD_BENEFITS[tile.god].format(money=tile.money)


def god_phrase(state: State, tile_id: str) -> str:
    """'Surparit (needs 3-2 sacrifices): also take the top tile of the gods stack'."""
    tile: GodsTile = components_of(state).gods[tile_id]
    need = "-".join(str(n) for n in tile.requires)
    extra = ", cards only" if tile.cards_only else ""
    return f"{tile.god.capitalize()} (needs {need} sacrifices{extra}): {god_benefit(tile)}"


def effect_phrase(effect: Effect) -> str:
    """What a loot or bonus tile gives, in words."""
    kind = effect.effect
    if kind == "reserve":
        joiner = " or " if effect.choice else " and "
        return "take " + joiner.join(
            p
            for p in (
                plural(effect.feet, "foot") if effect.feet else "",
                plural(effect.columns, "column") if effect.columns else "",
            )
            if p
        )
    return {
        "half_god": "take a half god",
        "gods_tile": "take the top gods tile",
        "sacrifice": f"{plural(effect.steps, 'sacrifice step')}",
        "draw": f"draw {plural(effect.cards, 'card')}",
        "money_card": "take the top special money card",
        "steps": f"+{effect.steps} step in every movement",
        "column": "place a column on any column site",
    }[kind]


@functools.cache
def hex_names(edition: str) -> tuple[str, ...]:
    """Every hex's name by index: 'Roma, hex 3' (its nearest start hex's nation, the first in
    NATIONS on a tie; numbered by row, then column, within that nation)."""
    return name_hexes(load_board(edition))


def name_hexes(board: Board) -> tuple[str, ...]:
    """The names of a board's hexes (as hex_names; 'Hex 7' on a board without start hexes)."""
    starts = [(nation, board.hexes[board.start_hex[nation]]) for nation in NATIONS if nation in board.start_hex]
    if not starts:
        return tuple(f"Hex {h.index + 1}" for h in board.hexes)
    region = [min(starts, key=lambda s: hex_distance(h, s[1]))[0] for h in board.hexes]
    numbered: dict[int, str] = {}
    for nation in NATIONS:
        ours = sorted((h for h in board.hexes if region[h.index] == nation), key=lambda h: (h.r, h.q))
        numbered |= {h.index: f"{nation.capitalize()}, hex {n}" for n, h in enumerate(ours, 1)}
    return tuple(numbered[h.index] for h in board.hexes)


def hex_name(state: State, index: int) -> str:
    """'Roma, hex 3'."""
    return hex_names(state.options.edition)[index]


def hex_name_at(state: State, hex: tuple[int, int]) -> str:
    """The name of the hex at these coordinates: 'Roma, hex 3'."""
    return hex_name(state, board_of(state).index_of[(hex[0], hex[1])])


def hex_phrase(state: State, index: int, seat: int) -> str:
    """'Roma, hex 3, loot: draw 2 cards' — the hex's name and what a player should know of it."""
    h = board_of(state).hexes[index]
    notes = []
    if h.column:
        notes.append("column site")
    elif h.water:
        notes.append("water")
    loot = state.loot_board.get(index)
    if loot is not None:
        notes.append(f"loot: {effect_phrase(components_of(state).loot[loot])}")
    others = sorted({code >> 1 for code in state.occupants.get(index, ()) if code >> 1 != seat})
    if others:
        notes.append("shared with " + and_list(player_name(o) for o in others))
    return hex_name(state, index) + "".join(f", {note}" for note in notes)
