"""The effects of step 3: upgrades and downgrades (§9), damage (§10), the powers (§12-§13),
Mischief (§15) and civilization cards (§14). Each emits into a `flow.Context` and continues with
`flow.finish_power`, as flow.py explains."""

from __future__ import annotations

from . import events as ev
from .commands import NEW, EmployPower
from .flow import (
    MISCHIEF_PLAY,
    TAKE_SPIED_CARD,
    Context,
    challenge,
    choose_first_seat,
    deal,
    game_end,
    start_turn,
)
from .legal import (
    mischief_plays,
)
from .rules import (
    card,
    comps,
    find_column,
    in_battle,
    locate,
    next_column_id,
    owner,
    protected,
    seat_has,
)
from .war import war

# -- §9 upgrades and downgrades, §10 damage ---------------------------------------------------

UP, DOWN, DISCARD = 1, -1, 0


def change_levels(ctx: Context, items: list[tuple[str, int]]) -> None:
    """§9 for one effect: find every replacement first (the general pile's topmost card of the
    level, else a random unseen one), shuffle a searched pile, then swap (R14, R15)."""
    s = ctx.s
    levels = list(comps(s).levels)
    pile_taken: set[str] = set()
    unseen_taken: set[str] = set()
    deck = s.deck
    outcome: list[ev.Event] = []
    for card_id, delta in items:
        if delta == DISCARD:
            outcome.append(ev.CardDiscarded(card=card_id, reason="flood"))
            continue
        index = levels.index(card(s, card_id).level) + delta
        if not 0 <= index < len(levels):
            if delta == DOWN:
                outcome.append(ev.CardDiscarded(card=card_id, reason="downgraded"))
            continue
        level = levels[index]
        found = next((c for c in reversed(s.general) if c not in pile_taken and card(s, c).level == level), None)
        if found is not None:
            pile_taken.add(found)
            outcome.append(ev.WorshiperReplaced(card=card_id, replacement=found, source="general_discard"))
            continue
        # the unseen cards only while the game runs: the Battle uses the general pile alone (§19.4.2)
        searchable = deck >= 1 and not in_battle(s)
        pool = [c for c in s.unseen if c not in unseen_taken and card(s, c).level == level] if searchable else []
        if pool:
            found = ctx.pick(pool)
            unseen_taken.add(found)
            deck -= 1
            outcome.append(ev.WorshiperReplaced(card=card_id, replacement=found, source="unseen"))
        elif delta == DOWN:
            outcome.append(ev.CardDiscarded(card=card_id, reason="downgraded"))
    for event in outcome:
        ctx.emit(event)
    if pile_taken:
        rest = list(ctx.s.general)
        order = []
        while rest:
            order.append(rest.pop(ctx.rng.randbelow(len(rest))))
        ctx.emit(ev.DiscardPileShuffled(order=order))


def damage(ctx: Context, temple: str) -> None:
    """§10.2: an undamaged temple becomes damaged; a damaged one is discarded."""
    found = locate(ctx.s, temple)
    assert found is not None
    if found[1].damaged:
        ctx.emit(ev.CardDiscarded(card=temple, reason="destroyed"))
    else:
        ctx.emit(ev.TempleDamaged(temple=temple))


def shielded(ctx: Context, column_ids: list[str], user: int) -> set[str]:
    """Protection (§13, R19): one challenge per protected column before it is touched; the
    columns whose owner won."""
    safe = set()
    for column_id in column_ids:
        col = find_column(ctx.s, column_id)
        if col is not None and protected(ctx.s, col, user):  # noqa: SIM102 - two conditions told apart
            if challenge(ctx, [user, owner(column_id)], "protection") != user:
                safe.add(column_id)
    return safe


def famine(ctx: Context, user: int, target: int) -> None:
    """Sun, Weather's famine, Famine: Science first (R20), then Protection per column, then every
    worshiper card of the target downgraded."""
    s = ctx.s
    if target != user and seat_has(s, target, "science") and challenge(ctx, [user, target], "science") == target:
        return
    cols = [col.id for col in s.columns[target] if col.worshipers]
    safe = shielded(ctx, cols, user)
    items = [(w, DOWN) for col in ctx.s.columns[target] if col.id not in safe for w in col.worshipers]
    change_levels(ctx, items)


def flood(ctx: Context, user: int, target: int) -> None:
    """Sea: per column, downgrade where there is a temple, discard where there is none."""
    cols = [col.id for col in ctx.s.columns[target] if col.worshipers]
    safe = shielded(ctx, cols, user)
    items = [
        (w, DOWN if col.temple else DISCARD)
        for col in ctx.s.columns[target]
        if col.id not in safe
        for w in col.worshipers
    ]
    change_levels(ctx, items)


def column_change(ctx: Context, user: int, column_id: str, delta: int) -> None:
    """Plenty, Harvest (up) and Plague (down, Protection applies): every card of one column."""
    if delta == DOWN and shielded(ctx, [column_id], user):
        return
    col = find_column(ctx.s, column_id)
    assert col is not None
    change_levels(ctx, [(w, delta) for w in col.worshipers])


def one_change(ctx: Context, user: int, worshiper: str, delta: int) -> None:
    """Fertility (up), Death's downgrade (Protection applies)."""
    found = locate(ctx.s, worshiper)
    assert found is not None
    if delta == DOWN and shielded(ctx, [found[1].id], user):
        return
    change_levels(ctx, [(worshiper, delta)])


# -- powers -----------------------------------------------------------------------------------


def employ(ctx: Context, user: int, god_column: str, power: str, c: EmployPower) -> bool:
    """The effect of an employed power (§12.1); the parameters were checked against legal.py.
    Returns True when the effect is complete (False: it awaits a seat, or Creation went on)."""
    s = ctx.s
    if power == "beauty":
        assert c.target_god is not None
        if c.mode == "discard":
            ctx.emit(ev.CardDiscarded(card=c.target_god, reason="beauty"))
        else:
            assert c.column is not None
            ctx.emit(ev.GodMoved(god=c.target_god, column=c.column))
    elif power == "chaos":
        assert c.target is not None
        for x in list(s.hands[c.target]):
            ctx.emit(ev.CardDiscarded(card=x, reason="chaos"))
        for _ in range(comps(s).constants["chaos_draw"]):
            if ctx.s.deck == 0 or in_battle(ctx.s):  # nothing is drawn in the Battle (§19.4.2)
                break
            ctx.emit(ev.CardDrawn(seat=c.target, source="chaos", card=ctx.pick(ctx.s.unseen)))
    elif power == "creation":
        return creation(ctx, user)
    elif power == "death":
        if c.mode == "downgrade":
            assert c.worshiper is not None
            one_change(ctx, user, c.worshiper, DOWN)
        else:
            assert c.target_god is not None
            found = locate(s, c.target_god)
            assert found is not None
            victim = found[0]
            if victim == user or challenge(ctx, [user, victim], "death") == user:
                ctx.emit(ev.CardDiscarded(card=c.target_god, reason="death"))
    elif power == "earthquakes":
        assert c.temple is not None
        damage(ctx, c.temple)
    elif power == "fertility":
        assert c.worshiper is not None
        one_change(ctx, user, c.worshiper, UP)
    elif power == "fire":
        assert c.temple is not None
        if card(s, c.temple).kind == "wooden":
            ctx.emit(ev.CardDiscarded(card=c.temple, reason="fire"))
        else:
            damage(ctx, c.temple)
    elif power == "love":
        assert c.worshiper is not None
        found = locate(s, c.worshiper)
        assert found is not None
        victim, col = found
        if victim == user or (challenge(ctx, [user, victim], "love") == user and not shielded(ctx, [col.id], user)):
            ctx.emit(ev.WorshiperMoved(card=c.worshiper, column=god_column))
    elif power == "mischief":
        assert c.target is not None
        return mischief(ctx, user, c.target)
    elif power in ("sun", "sea") or (power == "weather" and c.mode == "famine"):
        assert c.target is not None
        (flood if power == "sea" else famine)(ctx, user, c.target)
    elif power == "weather":
        assert c.column is not None
        column_change(ctx, user, c.column, UP)
    elif power == "war":
        assert c.target is not None
        return war(ctx, user, c.target)
    return True


def creation(ctx: Context, user: int) -> bool:
    """§12.2: clear everything but the unseen cards, end the turn, re-deal from the user's left,
    then the first seat again (or the end: an empty deck, the turn limit)."""
    s = ctx.s
    ctx.emit(ev.CreationCleared(seat=user, hands=[list(h) for h in s.hands]))
    deal(ctx, (user + 1) % s.players)
    if ctx.s.deck == 0:
        return game_end(ctx, "deck_empty")
    if ctx.s.turn >= comps(s).constants["turn_limit"]:
        return game_end(ctx, "turn_limit")
    return start_turn(ctx, choose_first_seat(ctx))


def mischief(ctx: Context, user: int, victim: int) -> bool:
    """§15: a random card of the victim's hand, revealed; the victim must play it on another
    seat if it can, else it is discarded."""
    s = ctx.s
    x = ctx.pick(sorted(s.hands[victim]))
    ctx.emit(ev.MischiefCardTaken(seat=user, victim=victim, card=x))
    if mischief_plays(ctx.s, victim, x):
        return ctx.wait(victim, MISCHIEF_PLAY)
    ctx.emit(ev.CardDiscarded(card=x, reason="mischief_unplayable"))
    return True


# -- civilization cards -----------------------------------------------------------------------


def civilization(
    ctx: Context,
    player: int,
    card_id: str,
    source: str,
    target: int | None,
    column: str | None,
    temple: str | None,
    moves: list[tuple[str, str]],
    via: int | None,
) -> bool:
    """§14: the card's effect by `player` (via Mischief: on seat `via`); checked by the caller."""
    s = ctx.s
    c = card(s, card_id)
    beneficiary = player if via is None else via
    ctx.emit(
        ev.CivilizationPlayed(
            seat=player,
            card=card_id,
            source=source,
            beneficiary=beneficiary,
            target=target if via is None else via,
            column=column,
            temple=temple,
        )
    )
    t = target if via is None else via
    if c.effect == "famine":
        assert t is not None
        famine(ctx, player, t)
    elif c.effect == "plague":
        assert column is not None
        column_change(ctx, player, column, DOWN)
    elif c.effect == "damage_temple":
        assert temple is not None
        damage(ctx, temple)
    elif c.effect == "war":
        assert t is not None
        return war(ctx, player, t)
    elif c.effect == "harvest":
        assert column is not None
        column_change(ctx, player, column, UP)
    elif c.effect == "migration":
        subject = beneficiary
        # through Mischief, moving T's cards out of a column is another seat's reduction (R19)
        sources = []
        for worshiper, _ in moves:
            found = locate(ctx.s, worshiper)
            if found is not None and found[1].id not in sources:
                sources.append(found[1].id)
        safe = shielded(ctx, sorted(sources, key=lambda i: int(i.split(":")[1])), player)
        for worshiper, destination in moves:
            found = locate(ctx.s, worshiper)
            if found is not None and found[1].id in safe:
                continue
            if destination == NEW:
                destination = next_column_id(ctx.s, subject)
            ctx.emit(ev.WorshiperMoved(card=worshiper, column=destination))
    elif c.effect == "repair_all":
        ctx.emit(
            ev.TempleRepaired(temples=[col.temple for col in s.columns[beneficiary] if col.damaged and col.temple])
        )
    elif c.effect == "spies":
        assert t is not None
        ctx.emit(ev.HandSpied(spy=player, target=t, hand=sorted(ctx.s.hands[t])))
        if len(ctx.s.hands[t]) == 1:  # one card: the only choice, and it shows nothing more
            ctx.emit(ev.SpiedCardTaken(spy=player, target=t, card=ctx.s.hands[t][0]))
            return True
        return ctx.wait(player, TAKE_SPIED_CARD)
    return True
