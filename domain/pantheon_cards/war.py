"""War (§16): declared by a power or a card, each side commits columns in secret, the fight, the
battle cards and the survivors. Emits into a `flow.Context` like the rest of the procedures."""

from __future__ import annotations

from . import events as ev
from .flow import (
    BATTLE_CARD,
    COMMIT,
    DAMAGE_UNDEFENDED,
    PLACE_SURVIVORS,
    Context,
    challenge,
    state_checks,
)
from .legal import (
    commit_options,
    undefended_targets,
)
from .rules import (
    card,
    find_column,
    has_worshipers,
    in_battle,
    seat_has,
    war_multiplier,
)

# -- war (§16) ---------------------------------------------------------------------------------


def war(ctx: Context, attacker: int, defender: int) -> bool:
    s = ctx.s
    if seat_has(s, defender, "wisdom") and challenge(ctx, [attacker, defender], "wisdom") == defender:
        return True  # R21: the war is off, the power or card spent
    if not has_worshipers(s, defender):
        ctx.emit(ev.WarDeclared(attacker=attacker, defender=defender, multipliers=[1, 1], undefended=True))
        if undefended_targets(ctx.s):
            return ctx.wait(attacker, DAMAGE_UNDEFENDED)
        ctx.emit(ev.WarEnded(victor=None))
        return True
    mult = [war_multiplier(s, attacker), war_multiplier(s, defender)]
    ctx.emit(ev.WarDeclared(attacker=attacker, defender=defender, multipliers=mult))
    return ask_commit(ctx, attacker)


def ask_commit(ctx: Context, seat: int) -> bool:
    options = commit_options(ctx.s, seat)
    if len(options) == 1:  # the only choice: committing it shows nothing (§23.1)
        return committed(ctx, seat, options)
    return ctx.wait(seat, COMMIT)


def committed(ctx: Context, seat: int, columns: list[str]) -> bool:
    war_ = ctx.s.war
    assert war_ is not None
    ctx.emit(ev.WarCommitted(seat=seat, columns=list(columns)))
    if seat == war_.attacker:
        return ask_commit(ctx, war_.defender)
    cols = [list(war_.committed[0]), list(war_.committed[1])]
    decks = []
    for side in (0, 1):
        cards: list[str] = []
        for column_id in cols[side]:
            col = find_column(ctx.s, column_id)
            assert col is not None
            cards += col.worshipers
        decks.append(cards)
    ctx.emit(ev.WarDecksFormed(columns=cols, decks=decks))
    if in_battle(ctx.s):  # no battle cards in the Battle of Pantheons (R32)
        return fight(ctx)
    return ctx.wait(war_.defender, BATTLE_CARD)


def fight(ctx: Context) -> bool:
    """W7-W8: reveal one random card per side until a side has no cards left."""
    while True:
        w = ctx.s.war
        assert w is not None
        pools = [w.decks[side] or sorted(w.survivors[side]) for side in (0, 1)]
        if not pools[0] or not pools[1]:
            break
        cards = [ctx.pick(pools[0]), ctx.pick(pools[1])]
        mult = [max(w.frozen[side], w.card[side]) for side in (0, 1)]
        values = [card(ctx.s, cards[side]).level * mult[side] for side in (0, 1)]
        ctx.emit(ev.WarCardsRevealed(cards=cards, values=values))
    w = ctx.s.war
    assert w is not None
    left = [bool(w.decks[side] or w.survivors[side]) for side in (0, 1)]
    victor = w.attacker if left[0] else w.defender if left[1] else None
    ctx.emit(ev.WarEnded(victor=victor))
    if victor is None:
        return war_over(ctx)
    return ctx.wait(victor, PLACE_SURVIVORS)


def war_over(ctx: Context) -> bool:
    state_checks(ctx)
    return True
