"""The house-1 component data matches the components spec: counts, invariants, anchors and provenance."""

import copy
import json
from collections import Counter
from importlib import resources

import pytest

from domain.pergamon.components import Components, _read, load_components, validate
from domain.pergamon.vocabulary import TYPES

C = load_components("house-1")
RAW = _read("house-1")


def test_there_are_60_tiles_12_per_century_with_unique_ids_and_numbers():
    tiles = list(C.tiles.values())
    assert len(tiles) == 60
    assert Counter(t.century for t in tiles) == {c: 12 for c in range(1, 6)}
    assert len({t.id for t in tiles}) == 60 and len({t.number for t in tiles}) == 60
    assert all(t.id == 100 * t.century + t.number for t in tiles)


def test_each_century_holds_every_ordered_pair_of_different_types_once():
    for century in range(1, 6):
        pairs = Counter((t.left, t.right) for t in C.tiles.values() if t.century == century)
        assert set(pairs) == {(a, b) for a in TYPES for b in TYPES if a != b}
        assert set(pairs.values()) == {1}


def test_each_type_appears_15_times_on_each_edge_and_3_times_per_century():
    tiles = C.tiles.values()
    assert Counter(t.left for t in tiles) == {t: 15 for t in TYPES}
    assert Counter(t.right for t in tiles) == {t: 15 for t in TYPES}
    assert set(Counter((t.century, t.left) for t in tiles).values()) == {3}
    assert set(Counter((t.century, t.right) for t in tiles).values()) == {3}


def test_the_rulebook_anchors_hold():
    assert {414, 436, 485} <= set(C.tiles)
    assert C.tiles[463].left == "mask"
    assert {t.id for t in C.tiles.values() if t.century == 4 and t.right == "mask"} == {404, 428, 453}
    row = [C.tiles[i] for i in (590, 358, 453, 463)]
    objects = [(x.right, 100 * x.century + y.number, x.century) for x, y in zip(row, row[1:]) if x.right == y.left]
    assert objects == [("bracelet", 558, 5), ("vase", 353, 3), ("mask", 463, 4)]
    assert sum(points for *_, points in objects) == 12


def test_the_funding_cards_are_three_of_each_value_with_bag_and_chest_backs():
    assert C.card_copies == (3,) * 8 and sum(C.card_copies) == 24
    assert C.card_backs == ("bag",) * 4 + ("chest",) * 4
    assert sum(v * n for v, n in zip(range(1, 9), C.card_copies)) == 108


def test_the_track_has_13_spaces_matching_the_house_formula_and_rising():
    assert sorted(C.track) == list(range(1, 14))
    for k, space in C.track.items():
        assert space.ask == k // 2 and space.depth == min(max((k - 1) // 2, 1), 5)
    assert C.tomb_raider_spaces == {"bag_bag": 5, "bag_chest": 7, "chest_chest": 9}
    assert {s.space: s.symbol for s in C.track.values() if s.symbol} == {5: "bag_bag", 7: "bag_chest", 9: "chest_chest"}


def test_the_museum_has_24_spaces_scoring_ceil_of_a_quarter():
    assert C.museum_spaces == 24
    assert [C.vp(s) for s in range(1, 25)] == [-(-s // 4) for s in range(1, 25)]


def test_the_calendar_has_evaluations_in_rounds_5_7_9_12_with_their_awards_and_drops():
    evaluations = {r.round: (r.award, r.drop) for r in C.calendar.values() if r.evaluation}
    assert evaluations == {5: ("vase", 3), 7: ("jug", 4), 9: ("mask", 5), 12: ("bracelet", 0)}
    assert C.calendar[12].final_bonus == (3, 2, 1) and sum(r.stack for r in C.calendar.values()) == 60
    assert C.gallery_capacity == 4 and C.rounds == 12


def test_every_entry_states_its_provenance_and_every_list_its_source_section():
    for key in (
        "tiles",
        "funding_cards",
        "funding_track",
        "tomb_raider_spaces",
        "galleries",
        "calendar",
        "museum",
        "constants",
    ):
        assert RAW["sources"][key].startswith("§")
        assert all(entry["provenance"] in {"rulebook", "review", "house"} for entry in RAW[key])
    assert RAW["edition"] == "house-1"


@pytest.mark.parametrize("breakage", ["duplicate_number", "track_falls", "museum_short", "no_provenance"])
def test_the_validation_catches_a_broken_data_file(breakage):
    raw = copy.deepcopy(RAW)
    if breakage == "duplicate_number":
        raw["tiles"][1]["number"] = raw["tiles"][0]["number"]
        raw["tiles"][1]["id"] = 100 + raw["tiles"][0]["number"]
    elif breakage == "track_falls":
        raw["funding_track"][12]["ask"] = 0
    elif breakage == "museum_short":
        raw["museum"].pop()
    else:
        del raw["tiles"][5]["provenance"]
    broken = _rebuild(raw)
    assert validate(raw, broken)


def _rebuild(raw) -> Components:
    from domain.pergamon import components as mod

    original = mod._read
    mod._read = lambda edition: raw
    try:
        mod.load_components.cache_clear()
        with pytest.raises(ValueError):
            mod.load_components("house-1")
        return _unchecked(raw)
    finally:
        mod._read = original
        mod.load_components.cache_clear()


def _unchecked(raw) -> Components:
    from domain.pergamon import components as mod

    original = mod.validate
    mod.validate = lambda raw, comps: []
    mod.load_components.cache_clear()
    mod._read, read = (lambda edition: raw), mod._read
    try:
        return mod.load_components("house-1")
    finally:
        mod.validate, mod._read = original, read
        mod.load_components.cache_clear()


def test_the_data_file_ships_with_the_package():
    text = resources.files("domain.pergamon").joinpath("data/house-1/components.json").read_text("utf-8")
    assert json.loads(text)["edition"] == "house-1"


def _struct_names(union) -> set[str]:
    """Every Struct class name reachable from a type (nested fields included)."""
    import msgspec.inspect as mi

    seen: set[str] = set()

    def walk(info) -> None:
        if isinstance(info, mi.StructType):
            if info.cls.__name__ in seen:
                return
            seen.add(info.cls.__name__)
            for f in info.fields:
                walk(f.type)
        for attr in ("types", "item_type", "key_type", "value_type", "item_types"):
            inner = getattr(info, attr, None)
            for t in inner if isinstance(inner, tuple) else () if inner is None else (inner,):
                walk(t)

    walk(mi.type_info(union))
    return seen


def test_no_command_event_or_nested_class_name_is_shared_with_pantheon():
    from domain.pantheon import PANTHEON
    from domain.pergamon import PERGAMON

    ours = _struct_names(PERGAMON.command_type) | _struct_names(PERGAMON.event_type)
    theirs = _struct_names(PANTHEON.command_type) | _struct_names(PANTHEON.event_type)
    assert {"PergamonCreateGame", "PergamonGameCreated", "PergamonState", "Exhibited"} <= ours
    assert ours & theirs == set()
