"""Legal options as building blocks (rules §23.1), for clients that do not follow the choice
trees: the awaited decision and, for it, the sources, cards, columns, gods, temples or seats it
may name. Typed: a decision's blocks set only its own fields. The complete answers are the
choice trees (choices.py)."""

from __future__ import annotations

from msgspec import Struct

from domain.contract import UNSET, Maybe

from . import flow
from .legal import (
    battle_cards,
    civ_commands,
    commit_options,
    draw_sources,
    mischief_plays,
    plays,
    power_commands,
    remaining_survivors,
    repairs,
    survivor_destinations,
    undefended_targets,
)
from .state import State


class PantheonCardsPlay(Struct, frozen=True, kw_only=True):
    """A card and the columns it may enter ("new": a new column)."""

    card: str
    columns: list[str]


class PantheonCardsPower(Struct, frozen=True, kw_only=True):
    """A god whose power in `slot` may be employed now, and how many legal uses it has."""

    god: str
    slot: str
    uses: int


class PantheonCardsBlocks(Struct, frozen=True, kw_only=True):
    """The awaited decision's building blocks (null `decision`: the seat is not awaited)."""

    decision: str | None
    seat: Maybe[int] = UNSET
    sources: Maybe[list[str]] = UNSET
    columns: Maybe[list[str]] = UNSET
    plays: Maybe[list[PantheonCardsPlay]] = UNSET
    powers: Maybe[list[PantheonCardsPower]] = UNSET
    cards: Maybe[list[str]] = UNSET
    temples: Maybe[list[str]] = UNSET
    targets: Maybe[list[int]] = UNSET
    survivors: Maybe[list[str]] = UNSET
    general: Maybe[list[str]] = UNSET
    gods: Maybe[list[str]] = UNSET


def legal_options(state: State | None, seat: int) -> PantheonCardsBlocks:
    """What `seat` may do now: only a null `decision` when it is not awaited."""
    if state is None or state.finished or state.decision is None or state.awaiting != seat:
        return PantheonCardsBlocks(decision=None)
    s, d = state, state.decision
    b = PantheonCardsBlocks
    if d == flow.DRAW_CARD:
        return b(decision=d, seat=seat, sources=draw_sources(s))
    if d == flow.CHOOSE_GOD_COLUMN:
        return b(decision=d, seat=seat, columns=list(s.attraction))
    if d == flow.PLAY_CARD:
        by_card: dict[str, list[str]] = {}
        for p in plays(s, seat):
            by_card.setdefault(p.card, []).append(p.column)
        return b(decision=d, seat=seat, plays=[PantheonCardsPlay(card=c, columns=cols) for c, cols in by_card.items()])
    if d in (flow.SPECIAL_POWER, flow.BATTLE_TURN):
        counts: dict[tuple[str, str], int] = {}
        for u in power_commands(s, seat):
            counts[(u.god, u.slot)] = counts.get((u.god, u.slot), 0) + 1
        powers = [PantheonCardsPower(god=g, slot=slot, uses=n) for (g, slot), n in counts.items()]
        if d == flow.BATTLE_TURN:
            return b(decision=d, seat=seat, powers=powers)
        return b(
            decision=d,
            seat=seat,
            powers=powers,
            cards=sorted({u.card for u in civ_commands(s, seat)}),
            temples=[r.temple for r in repairs(s, seat)],
        )
    if d == flow.TAKE_SPIED_CARD:
        return b(decision=d, seat=seat, cards=sorted(s.hands[s.spied]))
    if d == flow.MISCHIEF_PLAY:
        assert s.revealed is not None
        return b(
            decision=d,
            seat=seat,
            cards=[s.revealed],
            targets=sorted({p.target for p in mischief_plays(s, seat, s.revealed)}),
        )
    if d == flow.DAMAGE_UNDEFENDED:
        return b(decision=d, seat=seat, temples=undefended_targets(s))
    if d == flow.COMMIT:
        return b(decision=d, seat=seat, columns=commit_options(s, seat))
    if d == flow.BATTLE_CARD:
        return b(decision=d, seat=seat, cards=battle_cards(s, seat))
    if d == flow.PLACE_SURVIVORS:
        cards = remaining_survivors(s)
        return b(decision=d, seat=seat, survivors=cards, columns=survivor_destinations(s, seat, len(cards)))
    if d == flow.ORDER_DISCARDS:
        return b(decision=d, seat=seat, general=list(s.pending_general), gods=list(s.pending_gods))
    raise AssertionError(f"unknown decision {d}")
