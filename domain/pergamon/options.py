"""Legal options as the engine reports them (rules §9): every choice in full, except `exhibit`,
which lists building blocks (the loose tiles, the object pairs, the polish cap per base value,
the break-up requirement), and `store`, whose 2^n discard sets are given as the fee for each
number of kept tiles and the fewest discards the seat can afford (RULINGS 17). The blocks are
typed (the API sends them as they are): a decision's blocks set only the fields of that decision."""

from __future__ import annotations

import itertools

from msgspec import Struct

from domain.contract import UNSET, Maybe

from .rules import components_of, excavatable, free_numerals, max_polish, pairs, polish_limit, storage_fee
from .state import State
from .vocabulary import ARRANGE_FINDS, CHOOSE_FUNDING_SPACE, EXCAVATE, EXHIBIT, STORE


class PergamonFundingSpace(Struct, frozen=True, kw_only=True):
    space: int
    ask: int
    depth: int


class PergamonBlocks(Struct, frozen=True, kw_only=True):
    """The awaited decision's building blocks (null `decision`: the seat is not awaited; only the
    keys of that decision are sent): see domain/pergamon/options.py."""

    decision: str | None
    seat: Maybe[int] = UNSET
    finds: Maybe[list[int]] = UNSET
    blocks: Maybe[list[list[int]]] = UNSET
    orders: Maybe[list[list[int]]] = UNSET
    spaces: Maybe[list[PergamonFundingSpace]] = UNSET
    galleries: Maybe[list[int]] = UNSET
    skip: Maybe[bool] = UNSET
    loose: Maybe[list[int]] = UNSET
    pairs: Maybe[list[list[int]]] = UNSET
    polish_limit: Maybe[int] = UNSET
    coins: Maybe[int] = UNSET
    max_polish: Maybe[dict[str, int]] = UNSET
    break_up_required: Maybe[bool] = UNSET
    break_up: Maybe[list[int]] = UNSET
    finish: Maybe[bool] = UNSET
    fees: Maybe[dict[str, int]] = UNSET
    min_discard: Maybe[int] = UNSET


def legal_options(state: State | None, seat: int) -> PergamonBlocks:
    """What `seat` may do now: only a null `decision` when it is not awaited."""
    if state is None or state.finished or state.decision is None or state.awaiting != seat:
        return PergamonBlocks(decision=None)
    build = {
        ARRANGE_FINDS: _arrange,
        CHOOSE_FUNDING_SPACE: _spaces,
        EXCAVATE: _excavate,
        EXHIBIT: _exhibit,
        STORE: _store,
    }[state.decision]
    return build(state, seat)


def _arrange(state: State, seat: int) -> PergamonBlocks:
    comps = components_of(state)
    blocks: dict[int, list[int]] = {}
    for t in state.finds or []:
        blocks.setdefault(comps.tiles[t].century, []).append(t)
    ordered = [blocks[c] for c in sorted(blocks)]
    orders = [
        list(itertools.chain(*parts)) for parts in itertools.product(*(itertools.permutations(b) for b in ordered))
    ]
    return PergamonBlocks(
        decision=state.decision, seat=seat, finds=list(state.finds or []), blocks=ordered, orders=orders
    )


def _spaces(state: State, seat: int) -> PergamonBlocks:
    comps = components_of(state)
    taken = set(state.figures.values()) | {state.tomb_raider}
    spaces = [PergamonFundingSpace(space=k, ask=s.ask, depth=s.depth) for k, s in comps.track.items() if k not in taken]
    return PergamonBlocks(decision=state.decision, seat=seat, spaces=spaces)


def _excavate(state: State, seat: int) -> PergamonBlocks:
    return PergamonBlocks(decision=state.decision, seat=seat, galleries=excavatable(state, seat), skip=True)


def _exhibit(state: State, seat: int) -> PergamonBlocks:
    comps, me = components_of(state), state.seats[seat]
    base_max = comps.constants["highest_museum_space"]
    return PergamonBlocks(
        decision=state.decision,
        seat=seat,
        loose=list(me.loose),
        pairs=[list(p) for p in pairs(comps, me.loose)],
        polish_limit=polish_limit(state),
        coins=me.coins,
        max_polish={str(base): max_polish(state, seat, base) for base in range(1, base_max + 1)},
        break_up_required=not free_numerals(state, seat),
        break_up=[k.numeral for k in me.collections] if not free_numerals(state, seat) else [],
        finish=True,
    )


def _store(state: State, seat: int) -> PergamonBlocks:
    comps, me = components_of(state), state.seats[seat]
    n = len(me.loose)
    return PergamonBlocks(
        decision=state.decision,
        seat=seat,
        loose=list(me.loose),
        coins=me.coins,
        fees={str(kept): storage_fee(comps, kept) for kept in range(n + 1)},
        min_discard=min(d for d in range(n + 1) if storage_fee(comps, n - d) <= me.coins),
    )
