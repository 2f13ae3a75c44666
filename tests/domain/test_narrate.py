"""Every event in words, for every registered game: random playouts at every player count give
each event kind a sentence for every viewer, with no id from the game's data files and nothing
that looks like a dump; a hidden draw reads as a card drawn for the others and names the card
for its owner."""

from __future__ import annotations

import json
import random
import re
from functools import cache
from importlib import resources

import msgspec
import pytest

from domain import games
from domain.kernel import SeatReissued, evolve, narrate, redact
from domain.rng import game_rng

DUMP = re.compile(r"\w+\(\w+=|\[\[|\{'|\"\w+\":")


@cache
def data_ids(kind: str) -> frozenset[str]:
    """Every id-like string of the game's data files: keys and values with '_', '-', '.' or ':'."""
    found: set[str] = set()

    def walk(value) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(key)
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)
        elif isinstance(value, str) and re.fullmatch(r"[a-z0-9]+([_.:-][a-z0-9]+)+", value):
            found.add(value)

    def json_files(folder):  # the editions' data and the game's names.json
        for child in folder.iterdir():
            if child.is_dir():
                yield from json_files(child)
            elif child.name.endswith(".json"):
                yield child

    for path in json_files(resources.files("domain") / kind / "data"):
        walk(json.loads(path.read_text()))
    return frozenset(found)


def playout(kind: str, players: int, seed: int):
    """(state before, event) for every event of one random game."""
    game, rnd = games.get(kind), random.Random(seed)
    decider, state, version = game.decider, decider_initial(game), 0
    command = game.create_command(msgspec.to_builtins(game.random_options(players, rnd)))
    while True:
        for event in decider.decide(state if version else None, command, game_rng(b"narrate", kind, version)):
            yield state, event
            state, version = evolve(decider, state, event), version + 1
        if decider.is_terminal(state):
            return
        command = game.random_command(state, decider.awaited(state).seat, rnd)


def decider_initial(game):
    return game.decider.initial_state()


def bad_words(kind: str, text: str) -> list[str]:
    words = set(re.findall(r"[A-Za-z0-9_.:-]+", text)) | {w.rstrip(".:") for w in re.findall(r"\S+", text)}
    problems = sorted(data_ids(kind) & words)
    if DUMP.search(text):
        problems.append("a dump")
    if re.search(r"\bseat \d", text) or not text.strip():
        problems.append("a seat number or no text")
    return problems


@pytest.mark.parametrize("kind", games.kinds())
def test_every_event_of_random_games_reads_as_words_for_every_viewer(kind):
    game = games.get(kind)
    kinds_seen: set[str] = set()
    for players in game.players:
        for state, event in playout(kind, players, seed=players):
            kinds_seen.add(type(event).__name__)
            for viewer in (None, *range(players)):
                text = narrate(game.decider, state, redact(game.decider, event, viewer), viewer)
                assert not bad_words(kind, text), (type(event).__name__, viewer, text)
    assert len(kinds_seen) >= 20  # the playouts reach most kinds of event


def test_the_data_id_check_catches_an_id():
    assert bad_words("pantheon", "took loot reserve_2_feet_or_2_columns") == ["reserve_2_feet_or_2_columns"]
    assert bad_words("pergamon", "Collection(numeral=2)") == ["a dump"]


def hidden_draw(kind: str, event_type: str):
    for players in games.get(kind).players:
        for state, event in playout(kind, players, seed=7):
            if type(event).__name__ == event_type and event.seat == 1 and getattr(event, "source", "deck") == "deck":
                return state, event
    raise AssertionError(f"no hidden draw of {event_type} by seat 1")


@pytest.mark.parametrize(("kind", "event_type"), [("pantheon", "CardsDrawn"), ("pantheon_cards", "CardDrawn")])
def test_a_hidden_draw_reads_as_a_card_drawn_for_others_and_names_the_card_for_its_owner(kind, event_type):
    decider = games.get(kind).decider
    state, event = hidden_draw(kind, event_type)
    for viewer in (None, 0, 2):
        text = narrate(decider, state, redact(decider, event, viewer), viewer)
        assert re.fullmatch(r"Player B drew (a card|\d+ cards)\b.*", text), text
    own = narrate(decider, state, redact(decider, event, 1), 1)
    assert own.startswith("You drew ") and "a card" not in own and not re.match(r"You drew \d+ cards", own), own


def test_a_platform_event_reads_as_words_and_names_you_for_your_own_seat():
    decider = games.default().decider
    assert narrate(decider, None, SeatReissued(seat=1), None).startswith("Player B's seat was handed")
    assert narrate(decider, None, SeatReissued(seat=1), 1).startswith("Your seat was handed")
