"""The engine's procedures: setup (§4), the turn (§5), attraction (§8), challenges (§11), state checks
(§17), discards (§18) and the end with the Battle of Pantheons (§19); the effects of step 3 are in
powers.py, war (§16) in war.py. Each emits events into a `Context`, which evolves them into its working
state at once.

A procedure that must wait for a seat emits `decision_awaited` and returns False; the command
answering it continues the procedure (decide.py). `finish_power` is the one continuation of every
step-3 effect and battle turn, so nested effects (a Holy War played through Mischief) need no stack."""

from __future__ import annotations

from collections.abc import Sequence

from domain.kernel import DomainError, Rng

from . import events as ev
from .commands import NEW
from .evolve import evolve
from .legal import (
    draw_sources,
    has_legal_power,
    plays,
)
from .rules import (
    card,
    column_value,
    comps,
    find_column,
    next_column_id,
    owner,
    scores,
    top_seats,
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
