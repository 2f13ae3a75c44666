"""The card set of an edition (components spec §2-§10), loaded from the data files under
`data/<edition>/` and validated against the checks of components §11: names, pantheons, powers,
counts and multipliers are data, not code (a verified card list becomes a new edition).

Every record carries `provenance` ("rulebook" or "house"); the house edition is `house-1`."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

EDITIONS: tuple[str, ...] = ("house-1",)

# The powers and civilization effects the code implements (components §5, §9; rules §12, §14).
POWERS = frozenset(
    [
        "beauty",
        "chaos",
        "creation",
        "death",
        "earthquakes",
        "fertility",
        "fire",
        "home",
        "literature",
        "love",
        "mischief",
        "protection",
        "science",
        "sea",
        "song",
        "sun",
        "war",
        "weather",
        "wisdom",
    ]
)
EFFECTS = frozenset(
    [
        "famine",
        "plague",
        "damage_temple",
        "war",
        "harvest",
        "multiplier",
        "migration",
        "repair_all",
        "spies",
        "war_multiplier",
        "truce",
    ]
)


@dataclass(frozen=True, slots=True)
class Card:
    """One of the 108 cards. Fields a type does not use are empty: `name` for worshipers and
    temples, `level` 0 but for worshipers, `kind` ("wooden"/"stone") for temples only."""

    id: str
    type: str  # god | temple | worshiper | civilization
    name: str = ""
    pantheon: str = ""
    minor: str = ""
    major: str = ""
    kind: str = ""
    level: int = 0
    effect: str = ""
    timing: str = ""
    stays: bool = False
    multiplier: int | None = None
    provenance: str = "house"


@dataclass(frozen=True, slots=True)
class Power:
    id: str
    name: str
    constant: bool
    modes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Components:
    """All component data of one edition."""

    edition: str
    cards: dict[str, Card]  # by id, in data order
    powers: dict[str, Power]
    pantheons: dict[str, str]  # id -> name
    constants: dict[str, Any]

    @property
    def levels(self) -> tuple[int, ...]:
        return tuple(self.constants["levels"])

    def removed(self, game_length: str) -> int:
        value: int = self.constants[f"removed.{game_length}"]
        return value


def _read(edition: str, name: str) -> dict[str, Any]:
    if edition not in EDITIONS:
        raise ValueError(f"unknown Pantheon card edition {edition!r}")
    text = resources.files("domain.pantheon_cards").joinpath("data", edition, name).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    if data.get("edition") != edition:
        raise ValueError(f"{name} names edition {data.get('edition')!r}, not {edition!r}")
    return data


def raw_data(edition: str) -> dict[str, dict[str, Any]]:
    """The four data files of an edition as read (for the data tests)."""
    return {n: _read(edition, f"{n}.json") for n in ("edition", "pantheons", "powers", "cards")}


@functools.cache
def load_components(edition: str = "house-1") -> Components:
    """The validated component data of an edition (ValueError when the data breaks components §11)."""
    raw = raw_data(edition)
    fields = set(Card.__dataclass_fields__)
    comps = Components(
        edition=edition,
        cards={c["id"]: Card(**{k: v for k, v in c.items() if k in fields}) for c in raw["cards"]["cards"]},
        powers={
            p["id"]: Power(p["id"], p["name"], p["kind"] == "constant", tuple(p["modes"]))
            for p in raw["powers"]["powers"]
        },
        pantheons={p["id"]: p["name"] for p in raw["pantheons"]["pantheons"]},
        constants={c["key"]: c["value"] for c in raw["edition"]["constants"]},
    )
    problems = validate(raw, comps)
    if problems:
        raise ValueError(f"edition {edition}: " + "; ".join(problems))
    return comps


def validate(raw: dict[str, dict[str, Any]], comps: Components) -> list[str]:
    """Every check of components §11 the data breaks, as sentences."""
    problems: list[str] = []
    records = raw["cards"]["cards"]
    entries = [*records, *raw["powers"]["powers"], *raw["pantheons"]["pantheons"], *raw["edition"]["constants"]]
    if any(e.get("provenance") not in ("rulebook", "house") for e in entries):
        problems.append("every record names its provenance, rulebook or house")
    if len(records) != comps.constants["total_cards"] or len(comps.cards) != len(records):
        problems.append("108 cards, every id unique")
    cards = list(comps.cards.values())
    gods = [c for c in cards if c.type == "god"]
    if set(comps.powers) != POWERS:
        problems.append("the 19 powers of rules §12.1, no other")
    for g in gods:
        if g.minor == g.major or g.minor not in comps.powers or g.major not in comps.powers:
            problems.append(f"{g.id} has two different listed powers")
        elif comps.powers[g.minor].constant and comps.powers[g.major].constant:
            problems.append(f"{g.id} has two constant powers")
        if g.pantheon not in comps.pantheons:
            problems.append(f"{g.id}'s pantheon is listed")
    if {p for g in gods for p in (g.minor, g.major)} != set(comps.powers):
        problems.append("every power appears on a god")
    if any(sum(g.pantheon == p for g in gods) < 2 for p in comps.pantheons):
        problems.append("every pantheon has at least two gods")
    for c in cards:
        if c.type == "civilization":
            if c.effect not in EFFECTS:
                problems.append(f"{c.id}'s effect is implemented")
            if c.timing == "battle" and c.effect not in ("war_multiplier", "truce"):
                problems.append(f"{c.id}: a battle card multiplies or makes a truce")
            if c.stays and c.effect != "multiplier":
                problems.append(f"{c.id}: only a multiplier stays in effect")
        elif c.type == "temple" and c.kind not in ("wooden", "stone"):
            problems.append(f"{c.id} is wooden or stone")
        elif c.type == "worshiper" and c.level not in comps.levels:
            problems.append(f"{c.id}'s level is one of the five")
    for level in comps.levels:
        if not any(c.level == level for c in cards if c.type == "worshiper"):
            problems.append(f"level {level} has a copy")
    return problems
