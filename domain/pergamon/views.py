"""Views: what everybody may see (public), what one seat may see (seat view), a finished game's
outcome, and events redacted for a viewer (rules §10). The state holds no secret; only VP are
private, with vp_visibility "secret", until the game ends (R26). The views are typed (the API
sends them as they are: they are its schema)."""

from __future__ import annotations

import msgspec
from msgspec import Struct

from domain.contract import UNSET, Maybe

from . import events as ev
from .commands import PergamonOptions
from .rules import base_value, components_of, objects
from .state import Collection, State
from .vocabulary import TOMB_RAIDER


class PergamonGameOptions(PergamonOptions, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The options a game records, as views show them (named apart from the options a creator chooses)."""


class PergamonOutcome(Struct, frozen=True, kw_only=True):
    """A finished game: the winners (seats), each seat's VP and place (1 = first; ties share)."""

    winners: list[int]
    scores: list[int]
    places: list[int]


class PergamonAwaiting(Struct, frozen=True, kw_only=True):
    seat: int
    decision: str


class PergamonObject(Struct, frozen=True, kw_only=True):
    """An object a collection completes: its type, its date (the older tile's) and its points."""

    type: str
    date: int
    points: int


class PergamonCollection(Struct, frozen=True, kw_only=True):
    """An exhibited row of tiles (ids, left to right) under marker pair `numeral`, on museum `space`."""

    seat: int
    numeral: int
    tiles: list[int]
    space: int
    base_value: int
    value: int
    objects: list[PergamonObject]


class PergamonSeatPublic(Struct, frozen=True, kw_only=True):
    """What everybody sees of a seat (`vp` null while the game keeps VP secret)."""

    seat: int
    coins: int
    vp: int | None
    loose: list[int]
    collections: list[PergamonCollection]
    free_pairs: list[int]
    figure: int | None


class PergamonFunding(Struct, frozen=True, kw_only=True):
    """This round's funding cards (backs, then values once revealed), earlier values, and how many
    cards of each value (by value) are still unrevealed."""

    backs: list[str]
    values: list[int]
    past_values: list[int]
    unrevealed_values: dict[str, int]


class PergamonTombRaider(Struct, frozen=True, kw_only=True):
    """The tomb raider of 2-player games: its funding space (null: not on the track) and purse."""

    space: int | None
    purse: int


class PergamonMarker(Struct, frozen=True, kw_only=True):
    seat: int
    numeral: int


class PergamonYou(Struct, frozen=True, kw_only=True):
    """The caller's own seat and its VP (visible to it even while VP are secret)."""

    seat: int
    vp: int


class PergamonView(Struct, frozen=True, kw_only=True):
    """The board as a spectator sees it; with a seat token also `you`. Tiles are ids (100 × century
    + number); `track` and `museum` are keyed by space; `acting` is a seat, "tomb_raider" or null."""

    edition: str
    players: int
    options: PergamonGameOptions
    round: int
    phase: str
    first_player: int
    placement_order: list[int]
    action_order: list[int]
    acting: int | str | None
    awaiting: PergamonAwaiting | None
    galleries: list[list[int]]
    finds: list[int] | None
    calendar_stacks: int
    unrevealed: list[int]
    unseen_in_box: int
    box: list[int]
    funding: PergamonFunding
    track: dict[str, int]
    tomb_raider: PergamonTombRaider | None
    museum: dict[str, PergamonMarker]
    seats: list[PergamonSeatPublic]
    order_spaces: list[int]
    finished: bool
    places: list[int]
    winners: list[int]
    you: Maybe[PergamonYou] = UNSET


def _vp_open(state: State) -> bool:
    return state.options.vp_visibility == "open" or state.finished


def _collection(state: State, seat: int, k: Collection) -> PergamonCollection:
    comps = components_of(state)
    base = base_value(comps, k.tiles)
    return PergamonCollection(
        seat=seat,
        numeral=k.numeral,
        tiles=list(k.tiles),
        space=k.space,
        base_value=base,
        value=k.value or base,
        objects=[PergamonObject(type=t, date=d, points=p) for t, d, p in objects(comps, k.tiles)],
    )


def _seat(state: State, i: int) -> PergamonSeatPublic:
    me = state.seats[i]
    used = {k.numeral for k in me.collections}
    return PergamonSeatPublic(
        seat=i,
        coins=me.coins,
        vp=me.vp if _vp_open(state) else None,
        loose=list(me.loose),
        collections=[_collection(state, i, k) for k in me.collections],
        free_pairs=[n for n in (1, 2, 3) if n not in used],
        figure=state.figures.get(i),
    )


def awaiting(state: State) -> PergamonAwaiting | None:
    if state.finished or state.decision is None:
        return None
    return PergamonAwaiting(seat=state.awaiting, decision=state.decision)


def _funding(state: State) -> PergamonFunding:
    return PergamonFunding(
        backs=list(state.backs),
        values=list(state.values),
        past_values=list(state.past_values),
        unrevealed_values={str(v + 1): n for v, n in enumerate(state.undrawn)},
    )


def _acting(state: State) -> int | str | None:
    acting = state.action_order[state.turn] if 0 <= state.turn < len(state.action_order) else None
    return "tomb_raider" if acting == TOMB_RAIDER else acting


def _view(state: State, you: Maybe[PergamonYou] = UNSET) -> PergamonView:
    comps = components_of(state)
    return PergamonView(
        edition=state.options.edition,
        players=state.players,
        options=PergamonGameOptions(**msgspec.structs.asdict(state.options)),
        round=state.round,
        phase=state.phase,
        first_player=state.first_player,
        placement_order=list(state.placement_order),
        action_order=list(state.action_order),
        acting=_acting(state),
        awaiting=awaiting(state),
        galleries=[list(g) for g in state.galleries],
        finds=None if state.finds is None else list(state.finds),
        calendar_stacks=comps.rounds - state.round,
        unrevealed=list(state.unrevealed),
        unseen_in_box=state.unseen_box,
        box=list(state.box),
        funding=_funding(state),
        track={str(space): seat for seat, space in sorted(state.figures.items())},
        tomb_raider=PergamonTombRaider(space=state.tomb_raider or None, purse=state.purse)
        if state.players == 2
        else None,
        museum={
            str(k.space): PergamonMarker(seat=i, numeral=k.numeral)
            for i, s in enumerate(state.seats)
            for k in s.collections
        },
        seats=[_seat(state, i) for i in range(state.players)],
        order_spaces=list(state.order_spaces),
        finished=state.finished,
        places=list(state.places),
        winners=list(state.winners),
        you=you,
    )


def public_view(state: State) -> PergamonView:
    """Everything every spectator may see."""
    return _view(state)


def seat_view(state: State, seat: int) -> PergamonView:
    """The public view plus this seat's own VP (the only thing that can be private, §10)."""
    return _view(state, PergamonYou(seat=seat, vp=state.seats[seat].vp))


def outcome(state: State | None) -> PergamonOutcome | None:
    """The winners, every seat's VP (`scores`) and place (R21), once the game is over."""
    if state is None or not state.finished:
        return None
    return PergamonOutcome(
        winners=list(state.winners), scores=[seat.vp for seat in state.seats], places=list(state.places)
    )


def redact(event: ev.Event, viewer: int | None) -> ev.Event:
    """The event as `viewer` (a seat, or None for a spectator) may see it: in a game with secret
    VP (the event's `secret`), other seats' VP amounts are None (R26)."""
    if not getattr(event, "secret", False):
        return event
    if isinstance(event, ev.Exhibited) and event.seat != viewer:
        return msgspec.structs.replace(event, vp=None)
    if isinstance(event, ev.MarkersScored):
        return msgspec.structs.replace(event, points=[p if i == viewer else None for i, p in enumerate(event.points)])
    if isinstance(event, ev.AwardGiven) and viewer not in event.winners:
        return msgspec.structs.replace(event, vp=None)
    if isinstance(event, ev.FinalBonusGiven):
        return msgspec.structs.replace(
            event, bonuses=[b if b.seat == viewer else msgspec.structs.replace(b, vp=None) for b in event.bonuses]
        )
    return event
