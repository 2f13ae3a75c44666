"""Checks of the house-1 Pantheon map against every constraint of pantheon-components.md ("The map")."""

import itertools
import json
import math
import xml.etree.ElementTree as ET
from dataclasses import replace
from importlib import resources

import pytest

from domain.pantheon.board import (
    DIRECTIONS,
    NATIONS,
    Board,
    build_board,
    load_board,
    validate_board,
)
from domain.pantheon.svg import render_svg

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("house-1")


def pixel(board: Board, index: int) -> tuple[float, float]:
    h = board.hexes[index]
    return math.sqrt(3) * (h.q + h.r / 2), 1.5 * h.r


def start_xy(board: Board, nation: str) -> tuple[float, float]:
    return pixel(board, board.start_hex[nation])


def reachable(board: Board, start: int, allowed) -> set[int]:
    """Hexes reachable from start through allowed hexes, by coordinates (not the neighbour table)."""
    seen, todo = {start}, [start]
    while todo:
        h = board.hexes[todo.pop()]
        for dq, dr in DIRECTIONS:
            n = board.index_of.get((h.q + dq, h.r + dr))
            if n is not None and n not in seen and allowed(n):
                seen.add(n)
                todo.append(n)
    return seen


def with_hex(board: Board, index: int, **changes) -> Board:
    hexes = list(board.hexes)
    hexes[index] = replace(hexes[index], **changes)
    return build_board(board.edition, tuple(hexes))


# --- the shape ---------------------------------------------------------------------------------


def test_the_map_has_between_150_and_220_hexes(board):
    assert 150 <= len(board.hexes) <= 220


def test_hex_indices_follow_file_order_and_coordinates_are_unique(board):
    assert [h.index for h in board.hexes] == list(range(len(board.hexes)))
    assert len({(h.q, h.r) for h in board.hexes}) == len(board.hexes)


def test_the_map_is_one_connected_area(board):
    assert len(reachable(board, 0, lambda n: True)) == len(board.hexes)


def test_the_map_has_both_plenty_of_land_and_plenty_of_sea(board):
    water = sum(h.water for h in board.hexes)
    assert 0.2 < water / len(board.hexes) < 0.5


def test_each_hex_in_the_data_file_carries_at_most_one_special_role():
    text = resources.files("domain.pantheon").joinpath("data", "house-1", "map.json").read_text()
    for raw in json.loads(text)["hexes"]:
        assert sum(key in raw for key in ("start", "loot", "column")) <= 1, raw


# --- start hexes -------------------------------------------------------------------------------


def test_there_is_one_start_hex_per_nation_on_land(board):
    starts = [h for h in board.hexes if h.start is not None]
    assert sorted(h.start for h in starts) == sorted(NATIONS)
    assert not any(h.water for h in starts)


def test_start_hexes_are_pairwise_at_least_four_apart(board):
    for a, b in itertools.combinations(board.start_hex.values(), 2):
        assert board.distance(a, b) >= 4


def test_every_start_hex_has_at_least_four_plain_neighbours_to_leave_the_temple(board):
    for nation, start in board.start_hex.items():
        plain = [n for n in board.neighbors[start] if not board.hexes[n].column and board.hexes[n].start is None]
        assert len(plain) >= 4, nation


# --- loot hexes --------------------------------------------------------------------------------


def test_every_nation_has_five_loot_hexes_on_land_at_distance_two_or_three(board):
    assert sorted(board.loot_hexes) == sorted(NATIONS)
    for nation, loot in board.loot_hexes.items():
        assert len(loot) == 5, nation
        for index, _ in loot:
            assert not board.hexes[index].water
            assert 2 <= board.distance(board.start_hex[nation], index) <= 3


def test_every_nation_has_three_unmarked_loot_hexes_one_marked_3_and_one_marked_4(board):
    for nation, loot in board.loot_hexes.items():
        marks = [mark for _, mark in loot]
        assert marks.count(None) == 3 and marks.count(3) == 1 and marks.count(4) == 1, nation


def test_no_hex_serves_two_nations(board):
    served = [i for loot in board.loot_hexes.values() for i, _ in loot] + list(board.start_hex.values())
    assert len(served) == len(set(served)) == 48


def test_no_loot_hex_is_a_column_site(board):
    loot = {i for hexes in board.loot_hexes.values() for i, _ in hexes}
    assert not loot & set(board.column_sites)


def test_loot_hexes_are_reachable_from_their_start_without_crossing_column_sites(board):
    for nation, start in board.start_hex.items():
        reach = reachable(board, start, lambda n: not board.hexes[n].column)
        assert {i for i, _ in board.loot_hexes[nation]} <= reach, nation


@pytest.mark.parametrize("players, count", [(2, 3), (3, 4), (4, 5)])
def test_usable_loot_hexes_gives_three_four_or_five_hexes_for_two_three_or_four_players(board, players, count):
    for nation, loot in board.loot_hexes.items():
        usable = board.usable_loot_hexes(nation, players)
        assert len(usable) == count and list(usable) == sorted(usable)
        marks = {mark for i, mark in loot if i in usable}
        assert marks == {None, 3, 4}.intersection({None} | set(range(3, players + 1)))


# --- column sites ------------------------------------------------------------------------------


def test_there_are_28_column_sites_all_on_land(board):
    assert len(board.column_sites) == 28
    assert not any(board.hexes[i].water for i in board.column_sites)


def test_no_column_site_is_adjacent_to_a_start_hex(board):
    for start in board.start_hex.values():
        assert all(board.distance(start, c) >= 2 for c in board.column_sites)


def test_no_column_site_is_adjacent_to_another_column_site(board):
    for a, b in itertools.combinations(board.column_sites, 2):
        assert board.distance(a, b) >= 2


def test_every_start_hex_has_at_least_three_column_sites_at_distance_two_to_four(board):
    for nation, start in board.start_hex.items():
        near = [c for c in board.column_sites if 2 <= board.distance(start, c) <= 4]
        assert len(near) >= 3, nation


# --- geography ---------------------------------------------------------------------------------


def test_iberia_is_the_westernmost_nation_and_persia_the_easternmost(board):
    xs = {n: start_xy(board, n)[0] for n in NATIONS}
    assert min(xs, key=xs.get) == "iberia"
    assert max(xs, key=xs.get) == "persia"


def test_gallia_lies_north_west_of_roma_and_germania_north_of_it(board):
    rx, ry = start_xy(board, "roma")
    gx, gy = start_xy(board, "gallia")
    assert gx < rx and gy < ry
    assert start_xy(board, "germania")[1] < ry
    assert abs(start_xy(board, "germania")[0] - rx) < abs(gx - rx)


def test_graecia_lies_east_of_roma_and_west_of_persia(board):
    assert start_xy(board, "roma")[0] < start_xy(board, "graecia")[0] < start_xy(board, "persia")[0]


def test_aegyptus_lies_south_east_and_cartago_south_west_of_roma(board):
    rx, ry = start_xy(board, "roma")
    ax, ay = start_xy(board, "aegyptus")
    cx, cy = start_xy(board, "cartago")
    assert ax > rx and ay > ry
    assert cx < rx and cy > ry


def test_roma_is_the_start_hex_nearest_the_centre_of_the_map(board):
    points = [pixel(board, i) for i in range(len(board.hexes))]
    mx = (min(p[0] for p in points) + max(p[0] for p in points)) / 2
    my = (min(p[1] for p in points) + max(p[1] for p in points)) / 2
    gap = {n: math.dist(start_xy(board, n), (mx, my)) for n in NATIONS}
    assert min(gap, key=gap.get) == "roma"


def test_the_middle_of_the_map_is_mostly_sea(board):
    points = [pixel(board, i) for i in range(len(board.hexes))]
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y0, y1 = min(p[1] for p in points), max(p[1] for p in points)
    w, h = x1 - x0, y1 - y0
    middle = [
        i for i, (x, y) in enumerate(points) if x0 + 0.2 * w <= x <= x1 - 0.2 * w and y0 + 0.4 * h <= y <= y1 - 0.2 * h
    ]
    assert sum(board.hexes[i].water for i in middle) > 0.5 * len(middle) > 20


def test_the_northern_and_southern_nations_are_parted_by_sea_on_the_straight_line(board):
    for north, south in [("roma", "cartago"), ("graecia", "aegyptus"), ("iberia", "cartago")]:
        (x0, y0), (x1, y1) = start_xy(board, north), start_xy(board, south)
        line = [(x0 + t / 20 * (x1 - x0), y0 + t / 20 * (y1 - y0)) for t in range(21)]
        between = {min(range(len(board.hexes)), key=lambda i: math.dist(pixel(board, i), p)) for p in line}
        assert any(board.hexes[i].water for i in between), (north, south)


# --- tables, distance, loader ------------------------------------------------------------------


def test_index_of_maps_every_coordinate_back_to_its_hex(board):
    assert len(board.index_of) == len(board.hexes)
    assert all(board.index_of[(h.q, h.r)] == h.index for h in board.hexes)


def test_neighbors_are_exactly_the_hexes_on_the_map_one_step_away(board):
    for h in board.hexes:
        steps = [(h.q + dq, h.r + dr) for dq, dr in DIRECTIONS]
        expected = {board.index_of[c] for c in steps if c in board.index_of}
        assert set(board.neighbors[h.index]) == expected
        assert all(board.distance(h.index, n) == 1 for n in board.neighbors[h.index])


def test_jumps_are_consistent_with_neighbors(board):
    for a, pairs in enumerate(board.jumps):
        for over, target in pairs:
            assert over in board.neighbors[a] and target in board.neighbors[over]
            assert board.distance(a, target) == 2
            ha, ho, ht = board.hexes[a], board.hexes[over], board.hexes[target]
            assert (ho.q - ha.q, ho.r - ha.r) == (ht.q - ho.q, ht.r - ho.r)
        q, r = board.hexes[a].q, board.hexes[a].r
        straight = [
            (dq, dr)
            for dq, dr in DIRECTIONS
            if (q + dq, r + dr) in board.index_of and (q + 2 * dq, r + 2 * dr) in board.index_of
        ]
        assert len(pairs) == len(straight)


def test_distance_is_the_symmetric_axial_hex_distance(board):
    a, b = board.start_hex["iberia"], board.start_hex["persia"]
    ha, hb = board.hexes[a], board.hexes[b]
    expected = (abs(ha.q - hb.q) + abs(ha.r - hb.r) + abs(ha.q + ha.r - hb.q - hb.r)) // 2
    assert board.distance(a, b) == board.distance(b, a) == expected > 10
    assert board.distance(a, a) == 0


def test_the_special_hex_tables_match_the_hexes(board):
    assert {n: board.hexes[i].start for n, i in board.start_hex.items()} == {n: n for n in NATIONS}
    assert board.column_sites == tuple(sorted(h.index for h in board.hexes if h.column))
    for nation, loot in board.loot_hexes.items():
        assert [i for i, _ in loot] == sorted(i for i, _ in loot)
        assert all(board.hexes[i].loot == nation and board.hexes[i].mark == m for i, m in loot)


def test_load_board_is_cached_and_rejects_an_unknown_edition(board):
    assert load_board() is board
    for bad in ("house-99", "../data", ""):
        with pytest.raises(ValueError):
            load_board(bad)


# --- validate_board ----------------------------------------------------------------------------


def test_validate_board_accepts_the_shipped_map(board):
    assert validate_board(board) == []


def test_validate_board_reports_a_column_site_next_to_a_start_hex(board):
    index = next(n for n in board.neighbors[board.start_hex["roma"]] if board.hexes[n].start is None)
    errors = validate_board(with_hex(board, index, column=True))
    assert any("adjacent to a start hex" in e for e in errors)


@pytest.mark.parametrize(
    "breakage", ["start on water", "missing column", "loot too far", "mark changed", "loot on column"]
)
def test_validate_board_reports_each_kind_of_broken_board(board, breakage):
    roma = board.start_hex["roma"]
    loot = board.loot_hexes["roma"][0][0]
    far = next(
        h.index
        for h in board.hexes
        if h.start is None and h.loot is None and not h.column and board.distance(roma, h.index) > 6
    )
    mark = board.hexes[loot].mark
    broken = {
        "start on water": lambda: with_hex(board, roma, water=True),
        "missing column": lambda: with_hex(board, board.column_sites[0], column=False),
        "loot too far": lambda: with_hex(with_hex(board, loot, loot=None, mark=None), far, loot="roma", mark=mark),
        "mark changed": lambda: with_hex(board, loot, mark=4 if mark != 4 else None),
        "loot on column": lambda: with_hex(board, loot, column=True),
    }[breakage]()
    assert validate_board(broken) != []


def test_validate_board_reports_tables_that_do_not_match_the_hexes(board):
    hexes = tuple(replace(h, column=False) if h.index == board.column_sites[0] else h for h in board.hexes)
    assert any("derived tables" in e for e in validate_board(replace(board, hexes=hexes)))


# --- SVG ---------------------------------------------------------------------------------------


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == SVG + "svg"
    return root


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def test_the_svg_is_well_formed_and_labels_every_nation_on_its_start_hex(board):
    root = parse(render_svg(board))
    labels = {e.text for e in by_class(root, "start-label")}
    assert labels == {n.capitalize() for n in NATIONS}
    assert {e.text for e in by_class(root, "legend")} == {n.capitalize() for n in NATIONS}


def test_the_svg_draws_one_symbol_per_column_site_and_one_polygon_per_hex(board):
    root = parse(render_svg(board))
    assert len(by_class(root, "column-site")) == len(board.column_sites) == 28
    assert len(by_class(root, "hex")) == len(board.hexes)
    # a client finds a hex named by its coordinates (as views and choices name them)
    assert {(int(e.get("data-q")), int(e.get("data-r"))) for e in by_class(root, "hex")} == {
        (h.q, h.r) for h in board.hexes
    }


def test_the_svg_shows_the_marks_of_loot_hexes_and_colours_water(board):
    root = parse(render_svg(board))
    assert sorted(e.text for e in by_class(root, "loot-mark")) == ["3"] * 8 + ["4"] * 8
    fills = [e.get("fill") for e in by_class(root, "hex")]
    assert len(set(fills)) >= 10  # water, land, 8 nations


def test_the_svg_draws_pieces_temple_loot_tiles_and_the_active_nation(board):
    roma = board.start_hex["roma"]
    near = board.neighbors[roma]
    site = board.column_sites[0]
    pieces = {near[0]: [(0, "foot"), (1, "foot")], near[1]: [(2, "foot")], site: [(3, "column")]}
    loot = {i: "half" for i, _ in board.loot_hexes["roma"]}
    root = parse(render_svg(board, pieces=pieces, temple=roma, loot=loot, active="roma"))
    assert len(by_class(root, "foot")) == 3 and len(by_class(root, "seat-3")) == 1
    assert len(by_class(root, "temple")) == 1
    assert [e.text for e in by_class(root, "loot-tile")] == ["half"] * 5
    assert len(by_class(root, "active")) == 6
    assert len(by_class(parse(render_svg(board)), "active")) == 0
