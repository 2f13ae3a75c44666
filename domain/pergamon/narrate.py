"""Every event in words, for one viewer: the move log's sentences ("Player B excavated gallery II
for 3 coins", "Round 7: the museum markers moved down 2 spaces; leaving the museum: Player A's
collection of a vase (value 4)"). Pure: `narrate(state, event, viewer)` reads the event as that
viewer may see it (VP already redacted) and, of the state before it, only public things: the
edition's tiles and the collections on show. Never an id, never a dump."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, assert_never

from domain.words import and_list, count, forked, own, player, players_of, sentence

from . import events as ev
from .components import Components, load_components
from .fork import PergamonForked
from .labels import roman
from .rules import objects
from .vocabulary import TOMB_RAIDER

AWARD_NAMES = {"mask": "masks", "bracelet": "bracelets", "jug": "jugs", "vase": "vases"}


def narrate(state: Any, event: ev.Event | PergamonForked, viewer: int | None) -> str:
    """The event in one or two plain sentences for `viewer` (a seat, None for a spectator)."""
    if isinstance(event, PergamonForked):
        return forked(event.seat, viewer)
    edition = event.options.edition if isinstance(event, ev.PergamonGameCreated) else state.options.edition
    return sentence(_text(load_components(edition), state, event, viewer))


def _text(comps: Components, state: Any, e: ev.Event, viewer: int | None) -> str:  # noqa: C901, PLR0911, PLR0912 - one case per event
    match e:
        case ev.PergamonGameCreated(options=o, first_player=first):
            secret = ", victory points kept secret" if o.vp_visibility == "secret" else ""
            return f"a game of Pergamon for {o.players} players began{secret}; {_who(first, viewer, False)} goes first"
        case ev.RoundStarted(round=r, first_player=first):
            return f"round {r} began; {_who(first, viewer, False)} is first player"
        case ev.FindsDrawn(tiles=tiles, unseen=unseen):
            text = f"new finds: {and_list(_tile(comps, t) for t in tiles)}"
            return text + (f"; {count(unseen, 'tile')} went to the box unseen" if unseen else "")
        case ev.FindsArranged(seat=seat):
            return f"{player(seat, viewer)} arranged this round's finds"
        case ev.FindsLaidOut(galleries=galleries):
            return f"the finds were laid out in {_galleries(sorted(set(galleries)))}"
        case ev.FundingBacksDrawn(backs=backs):
            return f"this round's funding cards show {and_list(f'a {b}' for b in backs)}"
        case ev.TombRaiderPlaced(space=space):
            return f"the tomb raider took funding space {space}"
        case ev.FundingSpaceChosen(seat=seat, space=space):
            return f"{player(seat, viewer)} chose funding space {space}"
        case ev.FundingRevealed(values=values):
            return f"the funding cards are worth {and_list(str(v) for v in values)} ({sum(values)} coins)"
        case ev.FundsPaidOut(payouts=payouts):
            paid = and_list(f"{_who(f, viewer, False)} {count(c, 'coin')}" for f, c in payouts if c)
            return f"funds paid out: {paid}" if any(c for _, c in payouts) else "nobody was paid any funds"
        case ev.TurnStarted(figure=figure):
            return f"{_who(figure, viewer, True)}'s turn" if figure != viewer else "your turn"
        case ev.Excavated(seat=seat, gallery=gallery, cost=cost, tiles=tiles):
            dug = and_list(_tile(comps, t) for t in tiles)
            return f"{player(seat, viewer)} excavated gallery {roman(gallery)} for {count(cost, 'coin')}: {dug}"
        case ev.ExcavationSkipped(seat=seat, automatic=automatic):
            why = " (no gallery was within reach)" if automatic else ""
            return f"{player(seat, viewer)} excavated nothing{why}"
        case ev.TombRaiderExcavated(gallery=gallery, cost=cost, tiles=tiles):
            return f"the tomb raider emptied gallery {roman(gallery)} for {count(cost, 'coin')} ({count(len(tiles), 'tile')} to the box)"
        case ev.TombRaiderIdle():
            return "the tomb raider could excavate nothing"
        case ev.Exhibited():
            return _exhibited(comps, state, e, viewer)
        case ev.ExhibitingFinished(seat=seat, automatic=automatic):
            why = " (no row of matching halves to show)" if automatic else ""
            return f"{player(seat, viewer)} finished exhibiting{why}"
        case ev.Stored(seat=seat, discard=discard, fee=fee):
            if not discard and not fee:
                return f"{player(seat, viewer)} stored all {own(seat, viewer)} tiles"
            gone = f"put {and_list(_tile(comps, t) for t in discard)} in the box" if discard else ""
            paid = f"paid {count(fee, 'coin')} for storage" if fee else ""
            return f"{player(seat, viewer)} {and_list([gone, paid])}"
        case ev.MarkersScored(round=r, points=scores):
            return f"round {r} evaluation: museum markers score {_scores(scores, viewer)}"
        case ev.AwardGiven():
            return _award(e, viewer)
        case ev.MarkersDropped():
            return _dropped(comps, state, e, viewer)
        case ev.FinalBonusGiven(bonuses=bonuses):
            given = and_list(
                f"{player(b.seat, viewer, start=False)} {_vp(b.vp)} for an object from {b.date}" for b in bonuses
            )
            return (
                f"final bonus for the oldest objects on show: {given}" if bonuses else "no final bonus: nothing on show"
            )
        case ev.RoundEnded(round=r, next_first_player=first):
            return f"round {r} ended; {_who(first, viewer, False)} will be first player"
        case ev.PergamonGameEnded(scores=scores, winners=winners):
            won = and_list(player(w, viewer, start=False) for w in winners)
            verb = "wins" if len(winners) == 1 and winners[0] != viewer else "win"
            final = and_list(f"{player(s, viewer, start=False)} {n} VP" for s, n in enumerate(scores))
            return f"the game is over: {won} {verb} ({final})"
        case _:
            assert_never(e)


def _who(figure: int, viewer: int | None, start: bool) -> str:
    if figure == TOMB_RAIDER:
        return "The tomb raider" if start else "the tomb raider"
    return player(figure, viewer, start=start)


def _tile(comps: Components, tile: int) -> str:
    t = comps.tiles[tile]
    return f"a {t.left}|{t.right} tile from century {t.century}"


def _galleries(galleries: Sequence[int]) -> str:
    names = and_list(roman(g) for g in galleries)
    return f"gallery {names}" if len(galleries) == 1 else f"galleries {names}"


def _vp(vp: int | None) -> str:
    return "a secret number of VP" if vp is None else f"+{vp} VP"


def _scores(scores: Sequence[int | None], viewer: int | None) -> str:
    return and_list(f"{player(s, viewer, start=False)} {_vp(p)}" for s, p in enumerate(scores))


def _collection(comps: Components, tiles: Sequence[int]) -> str:
    return and_list(f"a {kind} ({points})" for kind, _date, points in objects(comps, tiles))


def _exhibited(comps: Components, state: Any, e: ev.Exhibited, viewer: int | None) -> str:
    text = (
        f"{player(e.seat, viewer)} exhibited {_collection(comps, e.tiles)} as collection {roman(e.numeral)}, "
        f"value {e.value} (polish {e.polish}), on museum space {e.space} ({_vp(e.vp)})"
    )
    if e.broken_up is not None:
        text += f"; {own(e.seat, viewer)} collection {roman(e.broken_up)} was broken up first"
    if e.pushed_off:
        text += f"; pushed off the museum: {_removed(comps, state, e.pushed_off, viewer)}"
    return text


def _removed(comps: Components, state: Any, removed: Sequence[tuple[int, int]], viewer: int | None) -> str:
    parts = []
    for seat, numeral in removed:
        shown = next((c for c in state.seats[seat].collections if c.numeral == numeral), None)
        what = f" of {_collection(comps, shown.tiles)}" if shown is not None else ""
        parts.append(f"{players_of(seat, viewer)} collection {roman(numeral)}{what}")
    return and_list(parts)


def _award(e: ev.AwardGiven, viewer: int | None) -> str:
    kind = AWARD_NAMES.get(e.object_type, e.object_type)
    if not e.winners:
        return f"round {e.round}: nobody shows any {kind}, so no award"
    won = and_list(player(w, viewer, start=False) for w in e.winners)
    return f"round {e.round}: the award for the oldest of the {kind} (from {e.date}) goes to {won} ({_vp(e.vp)})"


def _dropped(comps: Components, state: Any, e: ev.MarkersDropped, viewer: int | None) -> str:
    text = f"round {e.round}: the museum markers moved down {count(e.drop, 'space')}"
    if e.removed:
        text += f"; leaving the museum: {_removed(comps, state, e.removed, viewer)}"
    return text
