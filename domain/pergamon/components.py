"""The edition's component data (components spec), loaded from its data file and validated:
values live in data, not code."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .vocabulary import TYPES

EDITIONS: tuple[str, ...] = ("house-1",)


@dataclass(frozen=True, slots=True)
class Tile:
    """One find tile: its left edge shows the right half of a `left` object, its right edge the
    left half of a `right` object (rules §1)."""

    id: int
    century: int
    number: int
    left: str
    right: str


@dataclass(frozen=True, slots=True)
class Space:
    """One funding track space: the coins it asks and the deepest gallery it may excavate."""

    space: int
    ask: int
    depth: int
    symbol: str | None


@dataclass(frozen=True, slots=True)
class Round:
    """One calendar round: whether it has an evaluation, its award type, drop and final bonus."""

    round: int
    stack: int
    evaluation: bool
    award: str | None
    drop: int
    final_bonus: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Components:
    """All component data of one edition."""

    edition: str
    tiles: dict[int, Tile]  # by id, ascending
    card_copies: tuple[int, ...]  # copies of values 1..8 (index value - 1)
    card_backs: tuple[str, ...]  # the back of values 1..8
    track: dict[int, Space]  # spaces 1..13
    tomb_raider_spaces: dict[str, int]  # "bag_bag" / "bag_chest" / "chest_chest" -> space
    gallery_capacity: int
    calendar: dict[int, Round]  # rounds 1..12
    museum_vp: tuple[int, ...]  # vp of spaces 1..24 (index space - 1)
    constants: dict[str, int]

    @property
    def rounds(self) -> int:
        return self.constants["rounds"]

    @property
    def museum_spaces(self) -> int:
        return len(self.museum_vp)

    def vp(self, space: int) -> int:
        return self.museum_vp[space - 1]


def _read(edition: str) -> dict[str, Any]:
    if edition not in EDITIONS:
        raise ValueError(f"unknown Pergamon edition {edition!r}")
    text = resources.files("domain.pergamon").joinpath("data", edition, "components.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@functools.cache
def load_components(edition: str = "house-1") -> Components:
    """The validated component data of an edition (ValueError when the file breaks a rule)."""
    raw = _read(edition)
    cards = sorted(raw["funding_cards"], key=lambda c: c["value"])
    comps = Components(
        edition=raw["edition"],
        tiles={
            t["id"]: Tile(t["id"], t["century"], t["number"], t["left"], t["right"])
            for t in sorted(raw["tiles"], key=lambda t: t["id"])
        },
        card_copies=tuple(c["copies"] for c in cards),
        card_backs=tuple(c["back"] for c in cards),
        track={s["space"]: Space(s["space"], s["ask"], s["depth"], s["symbol"]) for s in raw["funding_track"]},
        tomb_raider_spaces={t["backs"]: t["space"] for t in raw["tomb_raider_spaces"]},
        gallery_capacity=_one_capacity(raw["galleries"]),
        calendar={
            r["round"]: Round(r["round"], r["stack"], r["evaluation"], r["award"], r["drop"], tuple(r["final_bonus"]))
            for r in raw["calendar"]
        },
        museum_vp=tuple(m["vp"] for m in sorted(raw["museum"], key=lambda m: m["space"])),
        constants={c["name"]: c["value"] for c in raw["constants"]},
    )
    problems = validate(raw, comps)
    if problems:
        raise ValueError(f"edition {edition}: " + "; ".join(problems))
    return comps


def _one_capacity(galleries: list[dict[str, Any]]) -> int:
    capacities: set[int] = {g["capacity"] for g in galleries}
    if len(capacities) != 1 or [g["gallery"] for g in galleries] != [1, 2, 3, 4, 5]:
        raise ValueError("the galleries must be I..V with one capacity")
    for g in galleries:
        if g["cost"] != g["gallery"]:
            raise ValueError("excavating gallery g costs g coins (components §5)")
    return capacities.pop()


def _tile_problems(comps: Components) -> list[str]:
    tiles = list(comps.tiles.values())
    problems = []
    if len(tiles) != 60 or any(t.id != 100 * t.century + t.number for t in tiles):
        problems.append("60 tiles whose ids are their dates")
    if len({t.number for t in tiles}) != 60:
        problems.append("all 60 numbers differ")
    for century in range(1, 6):
        pairs = [(t.left, t.right) for t in tiles if t.century == century]
        if sorted(pairs) != sorted((a, b) for a in TYPES for b in TYPES if a != b):
            problems.append(f"century {century} holds each ordered pair of different types once")
    return problems


def validate(raw: dict[str, Any], comps: Components) -> list[str]:
    """Every rule of components §11 the data breaks, as sentences."""
    problems = _tile_problems(comps)
    if any(
        "provenance" not in entry
        for key in (
            "tiles",
            "funding_cards",
            "funding_track",
            "tomb_raider_spaces",
            "galleries",
            "calendar",
            "museum",
            "constants",
        )
        for entry in raw[key]
    ):
        problems.append("every entry names its provenance")
    track = [comps.track[s] for s in sorted(comps.track)]
    if [s.space for s in track] != list(range(1, 14)):
        problems.append("the track has spaces 1..13")
    if any(a.ask > b.ask or a.depth > b.depth for a, b in zip(track, track[1:])):
        problems.append("ask and depth never decrease from space 1 to 13")
    symbols = [s.space for s in track if s.symbol]
    if len(symbols) != 3 or sorted(comps.tomb_raider_spaces.values()) != symbols:
        problems.append("three distinct symbol spaces, the tomb raider's")
    if len(comps.museum_vp) != 24 or list(comps.museum_vp) != sorted(comps.museum_vp):
        problems.append("the museum has 24 spaces with non-decreasing vp")
    if sorted(comps.calendar) != list(range(1, comps.rounds + 1)):
        problems.append("one calendar entry per round")
    if sum(comps.card_copies) != 2 * comps.rounds:
        problems.append("two funding cards per round, no reshuffle")
    return problems
