"""Chance, by the canonical procedures of rules §11, so audits and golden logs are stable. All
draws go through the game's Rng; each outcome is written into the event that reveals it."""

from __future__ import annotations

from domain.kernel import Rng

from .components import Components
from .vocabulary import BAG, CHEST


def draw_tiles(rng: Rng, unrevealed: list[int], k: int) -> list[int]:
    """k tiles from the unrevealed ones listed by ascending id, sorted by tile date."""
    pool = sorted(unrevealed)
    return sorted(pool.pop(rng.randbelow(len(pool))) for _ in range(k))


def _bag_and_chest(comps: Components, undrawn: list[int]) -> tuple[int, int]:
    bags = sum(n for n, back in zip(undrawn, comps.card_backs) if back == BAG)
    return bags, sum(undrawn) - bags


def draw_backs(rng: Rng, comps: Components, undrawn: list[int], count: int) -> list[str]:
    """The backs of `count` cards: a bag with chance B / (B + C), one at a time."""
    bags, chests = _bag_and_chest(comps, undrawn)
    backs = []
    for _ in range(count):
        if rng.randbelow(bags + chests) < bags:
            backs.append(BAG)
            bags -= 1
        else:
            backs.append(CHEST)
            chests -= 1
    return backs


def pick_weighted(rng: Rng, counts: list[int]) -> int:
    """A uniform pick among the items of a multiset given as counts: the picked index."""
    r = rng.randbelow(sum(counts))
    for i, n in enumerate(counts):
        if r < n:
            return i
        r -= n
    raise AssertionError("unreachable")


def draw_values(rng: Rng, comps: Components, undrawn: list[int], backs: list[str]) -> list[int]:
    """Each card's value: a uniform pick, copies counted, among the undrawn cards of its back."""
    left, values = undrawn[:], []
    for back in backs:
        counts = [n if b == back else 0 for n, b in zip(left, comps.card_backs)]
        index = pick_weighted(rng, counts)
        left[index] -= 1
        values.append(index + 1)
    return values
