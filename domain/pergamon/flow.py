"""The automatic steps between decisions (rules §4, §5, R28): laying out finds, drawing and
revealing funding cards, payouts, turns, the tomb raider, evaluations and round ends. `advance`
runs them until a seat is awaited for a real choice or the game is over."""

from __future__ import annotations

from domain.kernel import Rng

from . import events as ev
from .chance import draw_backs, draw_tiles, draw_values
from .components import Round
from .evolve import evolve
from .rules import (
    award,
    can_form_row,
    clockwise,
    components_of,
    excavatable,
    figures_on_track,
    final_bonuses,
    markers,
    payouts,
    ranking,
    seats_left_to_right,
    storage_fee,
    tomb_raider_target,
)
from .state import ROUND_END, SETUP, State, clone
from .vocabulary import BAG, EXCAVATE, EXCAVATION, EXHIBIT, FUNDING, LAYOUT, STORE, TOMB_RAIDER


class Context:
    """A decision in progress: the working state (a clone, or the caller's own state in place),
    the game's Rng and the events emitted so far (each evolved into the state at once)."""

    __slots__ = ("s", "rng", "events")

    def __init__(self, state: State, rng: Rng, in_place: bool = False) -> None:
        self.s = state if in_place else clone(state)
        self.rng = rng
        self.events: list[ev.Event] = []

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)
        self.s = evolve(self.s, event)


def advance(ctx: Context) -> None:
    """Run automatic steps until a seat must decide or the game is over."""
    while not ctx.s.finished:
        s = ctx.s
        if s.decision is not None:
            if not _automatic(ctx):
                return
        elif s.phase in (SETUP, ROUND_END):
            _start_round(ctx)
        elif s.phase == LAYOUT:
            _lay_out(ctx)
        elif s.phase == FUNDING:
            _fund(ctx)
        elif s.phase == EXCAVATION:
            _next_turn(ctx)
        else:
            raise AssertionError(f"no automatic step from phase {s.phase}")


def _automatic(ctx: Context) -> bool:
    """Take the awaited decision when there is no real choice (R28); False when there is one."""
    s, seat = ctx.s, ctx.s.awaiting
    if s.decision == EXCAVATE and not excavatable(s, seat):
        ctx.emit(ev.ExcavationSkipped(seat=seat, automatic=True))
    elif s.decision == EXHIBIT and not can_form_row(components_of(s), s.seats[seat].loose):
        ctx.emit(ev.ExhibitingFinished(seat=seat, automatic=True))
    elif s.decision == STORE and storage_fee(components_of(s), len(s.seats[seat].loose)) == 0:
        ctx.emit(ev.Stored(seat=seat, automatic=True))
    else:
        return False
    return True


def placement_order(s: State) -> list[int]:
    """Next round's placement order: variant 1 by order space (R24), else clockwise."""
    if s.options.variant_player_order and s.order_spaces:
        return list(s.order_spaces)
    return clockwise(s.first_player, s.players)


def _start_round(ctx: Context) -> None:
    s = ctx.s
    ctx.emit(ev.RoundStarted(round=s.round + 1, first_player=s.first_player, placement_order=placement_order(s)))


def _lay_out(ctx: Context) -> None:
    s, comps = ctx.s, components_of(ctx.s)
    if s.finds is None:
        tiles = draw_tiles(ctx.rng, s.unrevealed, sum(1 for g in s.galleries if len(g) < comps.gallery_capacity))
        centuries = [comps.tiles[t].century for t in tiles]
        arranger = s.first_player if s.options.variant_sorting and len(set(centuries)) < len(centuries) else None
        ctx.emit(
            ev.FindsDrawn(
                round=s.round, tiles=tiles, unseen=comps.calendar[s.round].stack - len(tiles), arranger=arranger
            )
        )
        return
    open_galleries = [g for g in range(1, 6) if len(s.galleries[g - 1]) < comps.gallery_capacity]
    ctx.emit(ev.FindsLaidOut(tiles=list(s.finds), galleries=open_galleries[: len(s.finds)]))


def _fund(ctx: Context) -> None:
    s, comps = ctx.s, components_of(ctx.s)
    if not s.backs:
        backs = draw_backs(ctx.rng, comps, s.undrawn, comps.constants["cards_per_round"])
        ctx.emit(ev.FundingBacksDrawn(backs=backs))
        if s.players == 2:
            key = "_".join(sorted(backs, key=lambda b: b != BAG))
            ctx.emit(ev.TombRaiderPlaced(space=comps.tomb_raider_spaces[key]))
        return
    values = draw_values(ctx.rng, comps, s.undrawn, s.backs)
    ctx.emit(ev.FundingRevealed(values=values))
    ctx.emit(ev.FundsPaidOut(payouts=payouts(comps, figures_on_track(ctx.s), sum(values))))


def _next_turn(ctx: Context) -> None:
    s = ctx.s
    if s.turn + 1 >= len(s.action_order):
        _end_round(ctx)
        return
    figure = s.action_order[s.turn + 1]
    ctx.emit(ev.TurnStarted(figure=figure))
    if figure == TOMB_RAIDER:
        gallery = tomb_raider_target(ctx.s)
        if gallery is None:
            ctx.emit(ev.TombRaiderIdle())
        else:
            ctx.emit(ev.TombRaiderExcavated(gallery=gallery, cost=gallery, tiles=list(ctx.s.galleries[gallery - 1])))


def _end_round(ctx: Context) -> None:
    s, comps = ctx.s, components_of(ctx.s)
    entry = comps.calendar[s.round]
    if entry.evaluation:
        _evaluate(ctx, entry)
    s = ctx.s
    order = seats_left_to_right(s)
    spaces = order if s.options.variant_player_order else []
    ctx.emit(ev.RoundEnded(round=s.round, next_first_player=order[0], order_spaces=spaces))
    if s.round == comps.rounds:
        places = ranking(ctx.s)
        ctx.emit(
            ev.PergamonGameEnded(
                scores=[seat.vp for seat in ctx.s.seats],
                places=places,
                winners=[i for i, p in enumerate(places) if p == 1],
            )
        )


def _evaluate(ctx: Context, entry: Round) -> None:
    award_type = entry.award
    assert award_type is not None, "an evaluation round has an award (components §3)"
    s, comps = ctx.s, components_of(ctx.s)
    points: list[int | None] = [sum(comps.vp(k.space) for k in seat.collections) for seat in s.seats]
    ctx.emit(ev.MarkersScored(round=s.round, points=points, secret=_secret(s)))
    date, winners = award(ctx.s, award_type)
    ctx.emit(
        ev.AwardGiven(
            round=s.round,
            object_type=award_type,
            date=date,
            winners=winners,
            vp=comps.constants["award_vp"],
            secret=_secret(s),
        )
    )
    if entry.drop:
        removed = [(seat, numeral) for space, seat, numeral in markers(ctx.s) if space - entry.drop < 1]
        ctx.emit(ev.MarkersDropped(round=s.round, drop=entry.drop, removed=removed))
    if entry.final_bonus:
        bonuses = final_bonuses(ctx.s, entry.final_bonus)
        ctx.emit(
            ev.FinalBonusGiven(
                bonuses=[ev.Bonus(seat=seat, date=d, vp=vp) for seat, d, vp in bonuses], secret=_secret(s)
            )
        )


def _secret(s: State) -> bool:
    return s.options.vp_visibility == "secret"
