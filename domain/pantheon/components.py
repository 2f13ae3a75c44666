"""The edition's component data, loaded from its data files (values live in data, not code)."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .vocabulary import CARDS, GODS


@dataclass(frozen=True, slots=True)
class GodsTile:
    """One gods tile: its id, its god and what it asks for."""

    id: str
    god: str
    kind: str  # immediate, permanent or held
    requires: tuple[int, ...]
    money: int = 0
    cards_only: bool = False
    needs: tuple[int, ...] = ()  # `requires`, largest first (what `rules.can_pay` compares)


@dataclass(frozen=True, slots=True)
class Effect:
    """What a loot or bonus tile does."""

    id: str
    effect: str
    feet: int = 0
    columns: int = 0
    choice: bool = False
    steps: int = 0
    cards: int = 0


@dataclass(frozen=True, slots=True)
class Components:
    """All component data of one edition."""

    edition: str
    action_cards: tuple[int, ...]  # counts in CARDS order
    special_money: tuple[int, ...]
    half_gods: tuple[int, ...]  # every half-god tile's value
    sacrifice_prices: tuple[int, ...]
    feet_per_colour: int
    columns_per_colour: int
    start_hand: int
    display_size: int
    start_material: dict[str, dict[int, tuple[int, int]]]
    gods: dict[str, GodsTile]
    loot: dict[str, Effect]
    loot_counts: dict[str, int]
    bonus: dict[str, Effect]

    def price(self, level: int) -> int:
        """What a sacrifice tile of this level costs (0 for no tile)."""
        return self.sacrifice_prices[level - 1] if level else 0


EDITIONS = ("house-1",)


def _effect(tile_id: str, data: dict[str, Any]) -> Effect:
    fields = {k: v for k, v in data.items() if k != "count"}
    return Effect(id=tile_id, **fields)


def _gods(data: dict[str, Any]) -> dict[str, GodsTile]:
    tiles = {}
    for god in GODS:
        spec = data[god]
        money = spec.get("money", [0] * len(spec["tiles"]))
        for n, (requires, value) in enumerate(zip(spec["tiles"], money, strict=True), start=1):
            needs = tuple(sorted(requires, reverse=True))
            tile = GodsTile(
                f"{god}-{n}", god, spec["kind"], tuple(requires), value, spec.get("cards_only", False), needs
            )
            tiles[tile.id] = tile
    return tiles


@functools.cache
def load_components(edition: str = "house-1") -> Components:
    """The component data of an edition."""
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}")
    text = resources.files(__package__).joinpath("data", edition, "components.json").read_text()
    data = json.loads(text)
    action = data["action_cards"]
    return Components(
        edition=edition,
        action_cards=tuple(action.get(card, 0) for card in CARDS),
        special_money=tuple(data["special_money"]),
        half_gods=tuple(int(v) for v, n in data["half_gods"].items() for _ in range(n)),
        sacrifice_prices=tuple(data["sacrifice_prices"]),
        feet_per_colour=data["pieces_per_colour"]["feet"],
        columns_per_colour=data["pieces_per_colour"]["columns"],
        start_hand=data["start_hand"],
        display_size=data["display_size"],
        start_material={
            name: {int(p): tuple(v) for p, v in per.items()} for name, per in data["start_material"].items()
        },
        gods=_gods(data["gods"]),
        loot={k: _effect(k, v) for k, v in data["loot_tiles"].items()},
        loot_counts={k: v["count"] for k, v in data["loot_tiles"].items()},
        bonus={k: _effect(k, v) for k, v in data["bonus_tiles"].items()},
    )
