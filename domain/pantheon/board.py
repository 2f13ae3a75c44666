"""The Pantheon map: hexes, adjacency and the special hexes, loaded from the edition's data file."""

from __future__ import annotations

import functools
import itertools
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

NATIONS: tuple[str, ...] = (
    "gallia",
    "germania",
    "graecia",
    "aegyptus",
    "persia",
    "iberia",
    "roma",
    "cartago",
)
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
MIN_HEXES, MAX_HEXES = 150, 220
COLUMN_SITES = 28
LOOT_MARKS = (None, None, None, 3, 4)  # the marks of one nation's loot hexes, sorted as in _mark_key
_EDITION = re.compile(r"[a-z0-9][a-z0-9-]*")


@dataclass(frozen=True, slots=True)
class Hex:
    index: int
    q: int
    r: int
    water: bool
    start: str | None = None
    loot: str | None = None
    mark: int | None = None
    column: bool = False


@dataclass(frozen=True, slots=True)
class Board:
    edition: str
    hexes: tuple[Hex, ...]
    index_of: dict[tuple[int, int], int]
    neighbors: tuple[tuple[int, ...], ...]
    jumps: tuple[tuple[tuple[int, int], ...], ...]
    start_hex: dict[str, int]
    loot_hexes: dict[str, tuple[tuple[int, int | None], ...]]
    column_sites: tuple[int, ...]

    def distance(self, a: int, b: int) -> int:
        """Hex distance between the hexes with indices a and b."""
        return hex_distance(self.hexes[a], self.hexes[b])

    def usable_loot_hexes(self, nation: str, players: int) -> tuple[int, ...]:
        """Loot hexes in use with this many players: unmarked always, mark 3 from 3 players, mark 4 from 4 players (sorted)."""
        return tuple(i for i, mark in self.loot_hexes[nation] if mark is None or mark <= players)


def hex_distance(a: Hex, b: Hex) -> int:
    """Axial hex distance between two hexes."""
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def build_board(edition: str, hexes: tuple[Hex, ...]) -> Board:
    """Derive adjacency, jumps and the special-hex tables from a tuple of hexes."""
    index_of = {(h.q, h.r): h.index for h in hexes}
    neighbors, jumps = [], []
    for h in hexes:
        near, far = [], []
        for dq, dr in DIRECTIONS:
            over = index_of.get((h.q + dq, h.r + dr))
            target = index_of.get((h.q + 2 * dq, h.r + 2 * dr))
            if over is not None:
                near.append(over)
                if target is not None:
                    far.append((over, target))
        neighbors.append(tuple(near))
        jumps.append(tuple(far))
    loot: dict[str, list[tuple[int, int | None]]] = {}
    for h in hexes:
        if h.loot is not None:
            loot.setdefault(h.loot, []).append((h.index, h.mark))
    return Board(
        edition=edition,
        hexes=tuple(hexes),
        index_of=index_of,
        neighbors=tuple(neighbors),
        jumps=tuple(jumps),
        start_hex={h.start: h.index for h in hexes if h.start is not None},
        loot_hexes={n: tuple(sorted(v)) for n, v in loot.items()},
        column_sites=tuple(h.index for h in hexes if h.column),
    )


def _parse_hex(index: int, raw: dict[str, Any]) -> Hex:
    """One hex from its JSON object; raises ValueError on malformed data."""
    allowed = {"q", "r", "water", "start", "loot", "mark", "column"}
    if not isinstance(raw, dict) or not {"q", "r", "water"} <= raw.keys() <= allowed:
        raise ValueError(f"hex {index}: bad keys in {raw!r}")
    if not all(type(raw[k]) is int for k in ("q", "r")) or type(raw["water"]) is not bool:
        raise ValueError(f"hex {index}: q, r must be integers and water a boolean")
    for key, ok in (
        ("start", raw.get("start") in NATIONS),
        ("loot", raw.get("loot") in NATIONS),
        ("mark", raw.get("mark") in (None, 3, 4)),
        ("column", raw.get("column") is True),
    ):
        if key in raw and not ok:
            raise ValueError(f"hex {index}: bad {key} {raw[key]!r}")
    if "mark" in raw and "loot" not in raw or "loot" in raw and "mark" not in raw:
        raise ValueError(f"hex {index}: loot and mark go together")
    return Hex(
        index,
        raw["q"],
        raw["r"],
        raw["water"],
        raw.get("start"),
        raw.get("loot"),
        raw.get("mark"),
        raw.get("column", False),
    )


def load_board(edition: str = "house-1") -> Board:
    """The map of an edition from domain/pantheon/data/<edition>/map.json, loaded once per edition."""
    return _load(edition)


@functools.cache
def _load(edition: str) -> Board:
    if not isinstance(edition, str) or not _EDITION.fullmatch(edition):
        raise ValueError(f"unknown edition {edition!r}")
    path = resources.files("domain.pantheon").joinpath("data", edition, "map.json")
    if not path.is_file():
        raise ValueError(f"unknown edition {edition!r}")
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("edition") != edition or data.get("orientation") != "pointy":
        raise ValueError(f"{edition}: map file names edition {data.get('edition')!r}")
    hexes = tuple(_parse_hex(i, raw) for i, raw in enumerate(data["hexes"]))
    if len({(h.q, h.r) for h in hexes}) != len(hexes):
        raise ValueError(f"{edition}: duplicate coordinates in the map")
    return build_board(edition, hexes)


def _connected(board: Board, allowed: set[int], start: int) -> set[int]:
    """Indices reachable from start through hexes in allowed."""
    seen, todo = {start}, [start]
    while todo:
        for b in board.neighbors[todo.pop()]:
            if b in allowed and b not in seen:
                seen.add(b)
                todo.append(b)
    return seen


def _check_shape(board: Board) -> list[str]:
    errors = []
    if board != build_board(board.edition, board.hexes):
        errors.append("derived tables do not match the hexes")
    if any(h.index != i for i, h in enumerate(board.hexes)):
        errors.append("hex indices are not 0..n-1 in order")
    if not MIN_HEXES <= len(board.hexes) <= MAX_HEXES:
        errors.append(f"{len(board.hexes)} hexes, want {MIN_HEXES}..{MAX_HEXES}")
    if board.hexes and len(_connected(board, set(range(len(board.hexes))), 0)) != len(board.hexes):
        errors.append("the map is not one connected area")
    for h in board.hexes:
        if sum((h.start is not None, h.loot is not None, h.column)) > 1:
            errors.append(f"hex {h.index} carries more than one special role")
        if h.mark is not None and h.loot is None:
            errors.append(f"hex {h.index} has a mark but is no loot hex")
    return errors


def _check_starts(board: Board) -> list[str]:
    errors = []
    starts = [h for h in board.hexes if h.start is not None]
    named = sorted(h.start for h in board.hexes if h.start is not None)
    if named != sorted(NATIONS):
        errors.append(f"start hexes {named} are not one per nation")
    errors += [f"start hex of {h.start} is water" for h in starts if h.water]
    for a, b in itertools.combinations(starts, 2):
        if hex_distance(a, b) < 4:
            errors.append(f"start hexes of {a.start} and {b.start} are closer than 4")
    for h in starts:
        plain = [n for n in board.neighbors[h.index] if not board.hexes[n].column and board.hexes[n].start is None]
        if len(plain) < 4:
            errors.append(f"start hex of {h.start} has only {len(plain)} plain neighbours")
    return errors


def _check_loot(board: Board) -> list[str]:
    errors = []
    free = {h.index for h in board.hexes if not h.column}
    for nation, start in board.start_hex.items():
        loot = [board.hexes[i] for i, _ in board.loot_hexes.get(nation, ())]
        marks = sorted((h.mark for h in loot), key=lambda m: (m is not None, m or 0))
        if tuple(marks) != LOOT_MARKS:
            errors.append(f"{nation} loot marks are {marks}, want {list(LOOT_MARKS)}")
        reach = _connected(board, free, start)
        for h in loot:
            if h.water:
                errors.append(f"loot hex {h.index} of {nation} is water")
            if not 2 <= board.distance(start, h.index) <= 3:
                errors.append(f"loot hex {h.index} of {nation} is not at distance 2..3")
            if h.index not in reach:
                errors.append(f"loot hex {h.index} of {nation} is walled off by column sites")
    errors += [f"loot hexes of unknown nation {n}" for n in board.loot_hexes if n not in board.start_hex]
    return errors


def _check_columns(board: Board) -> list[str]:
    errors = []
    sites = board.column_sites
    if len(sites) != COLUMN_SITES:
        errors.append(f"{len(sites)} column sites, want {COLUMN_SITES}")
    for i in sites:
        if board.hexes[i].water:
            errors.append(f"column site {i} is water")
        near = [board.hexes[n] for n in board.neighbors[i]]
        if any(n.start is not None for n in near):
            errors.append(f"column site {i} is adjacent to a start hex")
        if any(n.column for n in near):
            errors.append(f"column site {i} is adjacent to another column site")
    for nation, start in board.start_hex.items():
        count = sum(1 for i in sites if 2 <= board.distance(start, i) <= 4)
        if count < 3:
            errors.append(f"start hex of {nation} has {count} column sites at distance 2..4")
    return errors


def validate_board(board: Board) -> list[str]:
    """Human-readable violations of the map constraints; an empty list means the board is valid."""
    return _check_shape(board) + _check_starts(board) + _check_loot(board) + _check_columns(board)
