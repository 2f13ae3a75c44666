"""The engine's procedures: setup (§4), the turn (§5), attraction (§8), upgrades and downgrades
(§9), damage (§10), challenges (§11), the powers (§12-§13), civilization cards (§14), Mischief
(§15), war (§16), state checks (§17), discards (§18) and the end with the Battle of Pantheons
(§19). Each emits events into a `Context`, which evolves them into its working state at once.

A procedure that must wait for a seat emits `decision_awaited` and returns False; the command
answering it continues the procedure (decide.py). `finish_power` is the one continuation of every
step-3 effect and battle turn, so nested effects (a Holy War played through Mischief) need no stack."""

from __future__ import annotations

from collections.abc import Sequence

from domain.kernel import DomainError, Rng

from . import events as ev
from .commands import NEW, EmployPower
from .evolve import evolve
from .legal import (
    commit_options,
    draw_sources,
    has_legal_power,
    mischief_plays,
    plays,
    undefended_targets,
)
from .rules import (
    card,
    column_value,
    comps,
    find_column,
    has_worshipers,
    in_battle,
    locate,
    next_column_id,
    owner,
    protected,
    scores,
    seat_has,
    top_seats,
    war_multiplier,
)
from .state import BATTLE, State, clone

# awaited decisions (§23.1); step 3 and a battle turn are one decision each, answered by any of
# their commands (employ_power, play_civilization, repair_temple, end_turn / pass_battle_turn)
DRAW_CARD, CHOOSE_GOD_COLUMN, PLAY_CARD = "draw_card", "choose_god_column", "play_card"
SPECIAL_POWER, BATTLE_TURN = "special_power", "battle_turn"
TAKE_SPIED_CARD, MISCHIEF_PLAY = "take_spied_card", "mischief_play"
DAMAGE_UNDEFENDED, COMMIT, BATTLE_CARD = "damage_undefended_temple", "commit_war_columns", "battle_card"
PLACE_SURVIVORS, ORDER_DISCARDS = "place_survivors", "order_discards"


class Context:
    """A decision in progress: the working state (a copy), the game's Rng and the events so far."""

    __slots__ = ("s", "rng", "events")

    def __init__(self, state: State, rng: Rng, copy: bool = True) -> None:
        self.s = clone(state) if copy else state
        self.rng = rng
        self.events: list[ev.Event] = []

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)
        self.s = evolve(self.s, event)

    def wait(self, seat: int, decision: str) -> bool:
        self.emit(ev.DecisionAwaited(seat=seat, decision=decision))
        return False

    def pick(self, items: Sequence[str]) -> str:
        return items[self.rng.randbelow(len(items))]


def refuse(code: str, message: str) -> DomainError:
    return DomainError(code, message)


# -- setup, first seat, turns ---------------------------------------------------------------


def deal(ctx: Context, first: int) -> None:
    """Five cards to each seat, one at a time, clockwise from `first`, until the deck runs out."""
    n = ctx.s.players
    for _ in range(comps(ctx.s).constants["deal_size"]):
        for k in range(n):
            if ctx.s.deck == 0:
                return
            ctx.emit(ev.CardDealt(seat=(first + k) % n, card=ctx.pick(ctx.s.unseen)))


def choose_first_seat(ctx: Context) -> int:
    """§4.4 (R43): announce the worshiper counts in hand; the fewest start, ties challenge."""
    s = ctx.s
    counts = [sum(card(s, c).type == "worshiper" for c in hand) for hand in s.hands]
    ctx.emit(ev.WorshipersAnnounced(counts=counts))
    fewest = [seat for seat, c in enumerate(counts) if c == min(counts)]
    return fewest[0] if len(fewest) == 1 else challenge(ctx, fewest, "first_seat")


def challenge(ctx: Context, seats: list[int], reason: str) -> int:
    """§11: everyone rolls; only the tied highest roll again, until one seat wins."""
    sides = comps(ctx.s).constants["challenge_die_sides"]
    rounds: list[list[ev.Roll]] = []
    contenders = list(seats)
    while True:
        rolls = [ev.Roll(seat=seat, roll=1 + ctx.rng.randbelow(sides)) for seat in contenders]
        rounds.append(rolls)
        best = max(r.roll for r in rolls)
        contenders = [r.seat for r in rolls if r.roll == best]
        if len(contenders) == 1:
            break
    ctx.emit(ev.ChallengeRolled(reason=reason, seats=list(seats), rounds=rounds, winner=contenders[0]))
    return contenders[0]


def start_turn(ctx: Context, seat: int) -> bool:
    """§5.1-5.2: the extra card for an empty hand, then step 1."""
    s = ctx.s
    ctx.emit(ev.TurnStarted(seat=seat, turn=s.turn + 1))
    if not s.hands[seat] and s.deck > 0:
        ctx.emit(ev.CardDrawn(seat=seat, source="extra", card=ctx.pick(s.unseen)))
    sources = draw_sources(ctx.s)
    if not sources:
        return begin_play(ctx)
    if len(sources) == 1:  # one source: drawing is compulsory and the outcome shows the source
        return draw(ctx, seat, sources[0])
    return ctx.wait(seat, DRAW_CARD)


def draw(ctx: Context, seat: int, source: str) -> bool:
    s = ctx.s
    if source == "deck":
        drawn = ctx.pick(s.unseen)
        if card(s, drawn).type == "god":
            ctx.emit(ev.GodRevealed(seat=seat, card=drawn))
            if not attract(ctx, seat, drawn):
                return False
        else:
            ctx.emit(ev.CardDrawn(seat=seat, source="deck", card=drawn))
    else:
        pile = s.general if source == "general_discard" else s.gods
        ctx.emit(ev.CardDrawn(seat=seat, source=source, card=pile[-1]))
    state_checks(ctx)
    return begin_play(ctx)


def attract(ctx: Context, drawer: int, god: str) -> bool:
    """§8: the god goes to the best godless column of any seat (value first, stone breaks ties)."""
    s = ctx.s
    candidates = [col for cols in s.columns for col in cols if col.god is None]
    if not candidates:
        ctx.emit(ev.CardDiscarded(card=god, reason="no_godless_column"))
        return True
    tier1 = [c for c in candidates if c.temple and c.worshipers]
    tier2 = [c for c in candidates if c.temple and not c.worshipers]
    if tier1:
        best = max(column_value(s, c) for c in tier1)
        kept = [c for c in tier1 if column_value(s, c) == best]
        stone = [c for c in kept if c.temple and card(s, c.temple).kind == "stone"]
        kept = stone if len(kept) > 1 and stone else kept
    elif tier2:
        stone = [c for c in tier2 if c.temple and card(s, c.temple).kind == "stone"]
        kept = stone or tier2
    else:
        best = max(column_value(s, c) for c in candidates)
        kept = [c for c in candidates if column_value(s, c) == best]
    seats = sorted({owner(c.id) for c in kept})
    winner = seats[0] if len(seats) == 1 else challenge(ctx, seats, "attraction")
    ids = [c.id for c in kept if owner(c.id) == winner]
    if len(ids) > 1:
        ctx.emit(ev.GodColumnsKept(seat=winner, god=god, columns=ids))
        return ctx.wait(winner, CHOOSE_GOD_COLUMN)
    ctx.emit(ev.CardPlaced(player=drawer, seat=winner, card=god, column=ids[0], source="revealed"))
    return True


def begin_play(ctx: Context) -> bool:
    """§5.3: step 2, skipped (publicly) only when no play is legal (R9)."""
    seat = ctx.s.active
    ctx.emit(ev.StepBegun(step="play"))
    if plays(ctx.s, seat):
        return ctx.wait(seat, PLAY_CARD)
    ctx.emit(ev.PlaySkipped(seat=seat))
    return begin_power(ctx)


def begin_power(ctx: Context) -> bool:
    ctx.emit(ev.StepBegun(step="power"))
    return ctx.wait(ctx.s.active, SPECIAL_POWER)


def placed(ctx: Context, player: int, seat: int, card_id: str, column_id: str, source: str) -> None:
    """A worshiper, temple or god into a column of `seat` ("new" opens one), replacing a wooden
    temple with a stone one (R44)."""
    s = ctx.s
    if column_id == NEW:
        column_id = next_column_id(s, seat)
    col = find_column(s, column_id)
    replaced = col.temple if col is not None and card(s, card_id).type == "temple" else None
    ctx.emit(ev.CardPlaced(player=player, seat=seat, card=card_id, column=column_id, source=source, replaced=replaced))


# -- the end of an effect, of a turn, of the game ---------------------------------------------


def state_checks(ctx: Context) -> None:
    """§17: gods with neither temple nor worshiper are lost, empty columns cease to exist
    (columns committed to a war in progress wait, R33)."""
    s = ctx.s
    exempt = set() if s.war is None else set(s.war.committed[0] + s.war.committed[1])
    for cols in s.columns:
        for col in list(cols):
            if col.id in exempt:
                continue
            if col.god is not None and col.temple is None and not col.worshipers:
                ctx.emit(ev.CardDiscarded(card=col.god, reason="state_check"))
    for cols in s.columns:
        for col in list(cols):
            if col.id not in exempt and col.god is None and col.temple is None and not col.worshipers:
                ctx.emit(ev.ColumnRemoved(column=col.id))


def finish_power(ctx: Context) -> bool:
    """The end of a step-3 effect (or a battle turn), with everything it asked of other seats."""
    state_checks(ctx)
    if ctx.s.stage == BATTLE:
        return after_battle_turn(ctx)
    return end_turn(ctx)


def end_turn(ctx: Context) -> bool:
    """§5.5: pending discards onto their piles (ordered by the active seat while it matters)."""
    s = ctx.s
    ctx.emit(ev.StepBegun(step="end"))
    if s.deck > 0 and (len(s.pending_general) > 1 or len(s.pending_gods) > 1):
        return ctx.wait(s.active, ORDER_DISCARDS)
    ctx.emit(ev.DiscardsPlaced(general=list(s.pending_general), gods=list(s.pending_gods)))
    return after_turn(ctx)


def after_turn(ctx: Context) -> bool:
    s = ctx.s
    if s.deck == 0:
        return game_end(ctx, "deck_empty")
    if s.turn >= comps(s).constants["turn_limit"]:
        return game_end(ctx, "turn_limit")
    return start_turn(ctx, (s.active + 1) % s.players)


def game_end(ctx: Context, reason: str) -> bool:
    """§19.2-19.3: score; a single best seat wins, a tie goes to the Battle of Pantheons."""
    values = scores(ctx.s)
    best = top_seats(values)
    if len(best) == 1:
        ctx.emit(ev.GameOver(winners=best, scores=values, draw=False, reason=reason))
        return False
    ctx.emit(ev.GameScored(scores=values, tied=best))
    return next_battle_turn(ctx, ctx.s.active)


def next_battle_turn(ctx: Context, after: int) -> bool:
    """§19.4.1, D1, D3: the next tied seat clockwise after `after`, unless the battle is drawn."""
    s = ctx.s
    if s.battle_turns >= comps(s).constants["battle_turn_limit"]:
        return drawn(ctx, "battle_turn_limit")
    if not any(has_legal_power(s, seat) for seat in s.tied):
        return drawn(ctx, "no_power")
    n = s.players
    seat = next((after + k) % n for k in range(1, n + 1) if (after + k) % n in s.tied)
    ctx.emit(ev.BattleTurnStarted(seat=seat))
    return ctx.wait(seat, BATTLE_TURN)


def drawn(ctx: Context, reason: str) -> bool:
    ctx.emit(ev.GameOver(winners=list(ctx.s.tied), scores=scores(ctx.s), draw=True, reason=reason))
    return False


def after_battle_turn(ctx: Context) -> bool:
    """§19.4.3: discards placed, re-score every seat; a single best seat wins, else D2/D3 or on."""
    s = ctx.s
    ctx.emit(ev.DiscardsPlaced(general=list(s.pending_general), gods=list(s.pending_gods)))
    values = scores(s)
    best = top_seats(values)
    seat = s.active
    ctx.emit(ev.BattleTurnEnded(seat=seat, scores=values, tied=best, changed=values != s.scores))
    if len(best) == 1:
        ctx.emit(ev.GameOver(winners=best, scores=values, draw=False, reason="battle_of_pantheons"))
        return False
    if ctx.s.quiet_turns >= len(best):
        return drawn(ctx, "no_change")
    return next_battle_turn(ctx, seat)


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
