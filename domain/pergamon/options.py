"""Legal options as the engine reports them (rules §9): every choice in full, except `exhibit`,
which lists building blocks (the loose tiles, the object pairs, the polish cap per base value,
the break-up requirement), and `store`, whose 2^n discard sets are given as the fee for each
number of kept tiles and the fewest discards the seat can afford (RULINGS 17)."""

from __future__ import annotations

import itertools

from .rules import components_of, excavatable, free_numerals, max_polish, pairs, polish_limit, storage_fee
from .state import State
from .vocabulary import ARRANGE_FINDS, CHOOSE_FUNDING_SPACE, EXCAVATE, EXHIBIT, STORE


def legal_options(state: State | None, seat: int) -> dict:
    """What `seat` may do now: {"decision": None} when it is not awaited."""
    if state is None or state.finished or state.decision is None or state.awaiting != seat:
        return {"decision": None}
    build = {ARRANGE_FINDS: _arrange, CHOOSE_FUNDING_SPACE: _spaces, EXCAVATE: _excavate, EXHIBIT: _exhibit,
             STORE: _store}[state.decision]
    return {"decision": state.decision, "seat": seat, **build(state, seat)}


def _arrange(state: State, seat: int) -> dict:
    comps = components_of(state)
    blocks: dict[int, list[int]] = {}
    for t in state.finds or []:
        blocks.setdefault(comps.tiles[t].century, []).append(t)
    ordered = [blocks[c] for c in sorted(blocks)]
    orders = [list(itertools.chain(*parts)) for parts in itertools.product(*(itertools.permutations(b) for b in ordered))]
    return {"finds": list(state.finds or []), "blocks": ordered, "orders": orders}


def _spaces(state: State, seat: int) -> dict:
    comps = components_of(state)
    taken = set(state.figures.values()) | {state.tomb_raider}
    return {"spaces": [{"space": k, "ask": s.ask, "depth": s.depth} for k, s in comps.track.items() if k not in taken]}


def _excavate(state: State, seat: int) -> dict:
    return {"galleries": excavatable(state, seat), "skip": True}


def _exhibit(state: State, seat: int) -> dict:
    comps, me = components_of(state), state.seats[seat]
    base_max = comps.constants["highest_museum_space"]
    return {
        "loose": list(me.loose), "pairs": [list(p) for p in pairs(comps, me.loose)],
        "polish_limit": polish_limit(state), "coins": me.coins,
        "max_polish": {str(base): max_polish(state, seat, base) for base in range(1, base_max + 1)},
        "break_up_required": not free_numerals(state, seat),
        "break_up": [k.numeral for k in me.collections] if not free_numerals(state, seat) else [],
        "finish": True,
    }


def _store(state: State, seat: int) -> dict:
    comps, me = components_of(state), state.seats[seat]
    n = len(me.loose)
    return {"loose": list(me.loose), "coins": me.coins,
            "fees": {str(kept): storage_fee(comps, kept) for kept in range(n + 1)},
            "min_discard": min(d for d in range(n + 1) if storage_fee(comps, n - d) <= me.coins)}
