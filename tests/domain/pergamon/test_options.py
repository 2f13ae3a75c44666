"""Legal options as rules §9 reports them: full lists for every decision but `exhibit` (building
blocks) and `store` (fees per kept count)."""

import msgspec

from domain.pergamon import PERGAMON
from domain.pergamon import commands as cmd

from .scenario import A, B, exhibit, gallery, loose, new_game, run, turn_of


def _options(state, seat: int) -> dict:
    """The legal options as the API sends them (JSON-ready)."""
    return msgspec.to_builtins(PERGAMON.legal_options(state, seat))


def test_funding_options_list_every_free_space_with_its_ask_and_depth():
    state = new_game(2)
    options = _options(state, A)
    spaces = [s["space"] for s in options["spaces"]]
    assert state.tomb_raider not in spaces and len(spaces) == 12
    assert {"space": 11, "ask": 5, "depth": 5} in options["spaces"]


def test_exhibit_options_are_the_building_blocks():
    state = new_game(3)
    loose(state, A, [590, 358, 453, 463])
    for numeral, (tiles, space) in enumerate((([131, 140], 3), ([205, 103], 6), ([210, 177], 9)), start=1):
        exhibit(state, A, numeral, tiles, space)
    state = turn_of(state, A, space=11, coins=2)
    state.decision = "exhibit"
    options = _options(state, A)
    assert options["loose"] == [358, 453, 463, 590]
    assert sorted(map(tuple, options["pairs"])) == [(358, 453), (453, 463), (463, 453), (590, 358)]
    assert options["max_polish"]["12"] == 2 and options["max_polish"]["23"] == 1 and options["max_polish"]["24"] == 0
    assert options["polish_limit"] == 3 and options["break_up_required"] and options["break_up"] == [1, 2, 3]


def test_store_options_give_the_fee_per_kept_count_and_the_fewest_discards():
    state = new_game(3)
    loose(state, A, [103, 108, 112, 119, 124, 131, 140])
    state = turn_of(state, A, space=11, coins=1)
    state.decision = "store"
    options = _options(state, A)
    assert options["fees"]["7"] == 2 and options["fees"]["6"] == 1 and options["min_discard"] == 1


def test_excavate_options_list_the_qualifying_galleries_and_skip():
    state = new_game(3)
    gallery(state, 2, [])
    state = turn_of(state, B, space=8, coins=3)
    assert _options(state, B) == {"decision": "excavate", "seat": B, "galleries": [1, 3], "skip": True}
    after, _ = run(state, cmd.Excavate(seat=B, gallery=3))
    assert after.seats[B].coins == 0
