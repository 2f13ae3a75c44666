"""Views (rules §22): what everybody may see (public), what one seat may see (seat view), a
finished game's outcome, and events redacted for a viewer. Secret: a hand's contents (its owner;
the spy and the spied while Spies is played), cards drawn or dealt from the deck (the receiver),
a war commitment (its seat, until both sides have committed), the cards Creation removed from a
hand (their former owner). The unseen cards are never listed before the end (§20). The views are
typed (the API sends them as they are: they are its schema)."""

from __future__ import annotations

import msgspec
from msgspec import Struct

from domain.contract import UNSET, Maybe

from . import events as ev
from .commands import PantheonCardsOptions
from .rules import column_value, multiplier, printed, scores
from .state import State


class PantheonCardsGameOptions(PantheonCardsOptions, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The options a game records, as views show them (named apart from the options a creator chooses)."""


class PantheonCardsOutcome(Struct, frozen=True, kw_only=True):
    """A finished game: the winners (several: a drawn Battle of Pantheons), every seat's score
    (§19.2), whether it is a draw and why it ended."""

    winners: list[int]
    scores: list[int]
    draw: bool
    reason: str


class PantheonCardsAwaiting(Struct, frozen=True, kw_only=True):
    seat: int
    decision: str


class PantheonCardsColumn(Struct, frozen=True, kw_only=True):
    """A column (§6): its id `"<seat>:<n>"`, temple (damaged or not), god and worshiper cards in
    arrival order, with its printed and its multiplied value (§7.2)."""

    id: str
    temple: str | None
    damaged: bool
    god: str | None
    worshipers: list[str]
    printed: int
    value: int


class PantheonCardsSeat(Struct, frozen=True, kw_only=True):
    """What everybody sees of a seat: hand size (R40), the last announced worshiper count in hand
    (§4.4), columns, civilization cards in effect, multiplier and score."""

    seat: int
    hand_size: int
    announced_worshipers: int | None
    columns: list[PantheonCardsColumn]
    in_effect: list[str]
    multiplier: int
    score: int


class PantheonCardsWar(Struct, frozen=True, kw_only=True):
    """A war in progress (§16): sides (attacker, defender), the W3 multipliers and battle-card
    multipliers, the committed columns once both are revealed (before: `committed` says who has
    committed), the war decks (composition only) and survivors, the victor once known."""

    attacker: int
    defender: int
    stage: str
    multipliers: list[int]
    battle_card_multipliers: list[int]
    committed: list[bool]
    columns: list[list[str]]
    decks: list[list[str]]
    survivors: list[list[str]]
    victor: int | None


class PantheonCardsYou(Struct, frozen=True, kw_only=True):
    """The caller's own seat: its hand, the hand it spies (Spies), its sealed war commitment and
    the cards Creation removed from its hand."""

    seat: int
    hand: list[str]
    spied_hand: list[str] | None
    war_commitment: list[str] | None
    removed_from_hand: list[str]


class PantheonCardsView(Struct, frozen=True, kw_only=True):
    """The game as a spectator sees it; with a seat token also `you`. Cards are ids of the
    components file; piles are bottom first; `revealed` is a god being attracted or Mischief's card."""

    edition: str
    players: int
    options: PantheonCardsGameOptions
    turn: int
    active: int
    stage: str
    awaiting: PantheonCardsAwaiting | None
    deck: int
    removed_at_setup: int
    general_discard: list[str]
    god_discard: list[str]
    pending_general: list[str]
    pending_gods: list[str]
    removed: list[str]
    seats: list[PantheonCardsSeat]
    revealed: str | None
    mischief_victim: int | None
    attraction_columns: list[str]
    spies: list[int] | None
    war: PantheonCardsWar | None
    tied: list[int]
    battle_turns: int
    finished: bool
    winners: list[int]
    draw: bool
    unseen_at_end: list[str] | None
    you: Maybe[PantheonCardsYou] = UNSET


def _sealed(state: State) -> bool:
    return state.war is not None and state.war.stage in ("commit_attacker", "commit_defender")


def _war(state: State) -> PantheonCardsWar | None:
    w = state.war
    if w is None:
        return None
    sealed = _sealed(state)
    return PantheonCardsWar(
        attacker=w.attacker,
        defender=w.defender,
        stage=w.stage,
        multipliers=list(w.frozen),
        battle_card_multipliers=list(w.card),
        committed=[w.stage == "commit_defender" or not sealed, not sealed],
        columns=[[], []] if sealed else [list(c) for c in w.committed],
        decks=[sorted(d) for d in w.decks],
        survivors=[sorted(x) for x in w.survivors],
        victor=w.victor,
    )


def _seat(state: State, seat: int) -> PantheonCardsSeat:
    m = multiplier(state, seat)
    return PantheonCardsSeat(
        seat=seat,
        hand_size=len(state.hands[seat]),
        announced_worshipers=state.announced[seat] if state.announced else None,
        columns=[
            PantheonCardsColumn(
                id=c.id,
                temple=c.temple,
                damaged=c.damaged,
                god=c.god,
                worshipers=list(c.worshipers),
                printed=printed(state, c),
                value=column_value(state, c, seat),
            )
            for c in state.columns[seat]
        ],
        in_effect=list(state.in_effect[seat]),
        multiplier=m,
        score=scores(state)[seat],
    )


def _view(state: State, you: Maybe[PantheonCardsYou] = UNSET) -> PantheonCardsView:
    awaiting = None
    if not state.finished and state.decision is not None:
        awaiting = PantheonCardsAwaiting(seat=state.awaiting, decision=state.decision)
    return PantheonCardsView(
        edition=state.options.edition,
        players=state.players,
        options=PantheonCardsGameOptions(**msgspec.structs.asdict(state.options)),
        turn=state.turn,
        active=state.active,
        stage=state.stage,
        awaiting=awaiting,
        deck=state.deck,
        removed_at_setup=state.removed_count,
        general_discard=list(state.general),
        god_discard=list(state.gods),
        pending_general=list(state.pending_general),
        pending_gods=list(state.pending_gods),
        removed=list(state.removed),
        seats=[_seat(state, s) for s in range(state.players)],
        revealed=state.revealed,
        mischief_victim=state.mischief_victim if state.mischief_victim >= 0 else None,
        attraction_columns=list(state.attraction),
        spies=[state.spy, state.spied] if state.spy >= 0 else None,
        war=_war(state),
        tied=list(state.tied),
        battle_turns=state.battle_turns,
        finished=state.finished,
        winners=list(state.winners),
        draw=state.draw,
        unseen_at_end=list(state.unseen) if state.finished and state.deck == 0 else None,
        you=you,
    )


def public_view(state: State) -> PantheonCardsView:
    """Everything every spectator may see."""
    return _view(state)


def seat_view(state: State, seat: int) -> PantheonCardsView:
    """The public view plus what this seat alone knows (§22)."""
    w = state.war
    commitment = None
    if w is not None and seat in (w.attacker, w.defender):
        side = 0 if seat == w.attacker else 1
        if w.committed[side]:
            commitment = list(w.committed[side])
    spied = sorted(state.hands[state.spied]) if state.spy == seat and state.spied >= 0 else None
    you = PantheonCardsYou(
        seat=seat,
        hand=sorted(state.hands[seat]),
        spied_hand=spied,
        war_commitment=commitment,
        removed_from_hand=list(state.removed_hands[seat]),
    )
    return _view(state, you)


def outcome(state: State | None) -> PantheonCardsOutcome | None:
    """The winners, every seat's score, draw or not, once the game is over."""
    if state is None or not state.finished:
        return None
    return PantheonCardsOutcome(
        winners=list(state.winners), scores=scores(state), draw=state.draw, reason=state.end_reason
    )


def redact(event: ev.Event, viewer: int | None) -> ev.Event:
    """The event as `viewer` (a seat, or None for a spectator) may see it (§22)."""
    replace = msgspec.structs.replace
    if isinstance(event, ev.CardDealt) and event.seat != viewer:
        return replace(event, card=None)
    if isinstance(event, ev.CardDrawn) and event.seat != viewer and event.source in ("deck", "extra", "chaos"):
        return replace(event, card=None)
    if isinstance(event, ev.HandSpied) and viewer not in (event.spy, event.target):
        return replace(event, hand=None)
    if isinstance(event, ev.SpiedCardTaken) and viewer not in (event.spy, event.target):
        return replace(event, card=None)
    if isinstance(event, ev.WarCommitted) and event.seat != viewer:
        return replace(event, columns=None)
    if isinstance(event, ev.CreationCleared):
        return replace(event, hands=[h if seat == viewer else None for seat, h in enumerate(event.hands)])
    return event
