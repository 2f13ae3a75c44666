"""Views: what everybody may see (public), what one seat may see (seat view), and events redacted
for a viewer (rules §10). The state holds no secret; only VP are private, with vp_visibility
"secret", until the game ends (R26)."""

from __future__ import annotations

import msgspec

from . import events as ev
from .rules import base_value, components_of, objects
from .state import State
from .vocabulary import TOMB_RAIDER


def _vp_open(state: State) -> bool:
    return state.options.vp_visibility == "open" or state.finished


def _collection(state: State, seat: int, k) -> dict:
    comps = components_of(state)
    base = base_value(comps, k.tiles)
    return {"seat": seat, "numeral": k.numeral, "tiles": list(k.tiles), "space": k.space, "base_value": base,
            "value": k.value or base,
            "objects": [{"type": t, "date": d, "points": p} for t, d, p in objects(comps, k.tiles)]}


def _seat(state: State, i: int) -> dict:
    me = state.seats[i]
    used = {k.numeral for k in me.collections}
    return {"seat": i, "coins": me.coins, "vp": me.vp if _vp_open(state) else None, "loose": list(me.loose),
            "collections": [_collection(state, i, k) for k in me.collections],
            "free_pairs": [n for n in (1, 2, 3) if n not in used],
            "figure": state.figures.get(i)}


def awaiting(state: State) -> dict | None:
    if state.finished or state.decision is None:
        return None
    return {"seat": state.awaiting, "decision": state.decision}


def public_view(state: State) -> dict:
    """Everything every spectator may see."""
    comps = components_of(state)
    acting = state.action_order[state.turn] if 0 <= state.turn < len(state.action_order) else None
    view = {
        "edition": state.options.edition, "players": state.players,
        "options": msgspec.to_builtins(state.options), "round": state.round, "phase": state.phase,
        "first_player": state.first_player, "placement_order": list(state.placement_order),
        "action_order": list(state.action_order), "acting": acting, "awaiting": awaiting(state),
        "galleries": [list(g) for g in state.galleries], "finds": None if state.finds is None else list(state.finds),
        "calendar_stacks": comps.rounds - state.round,
        "unrevealed": list(state.unrevealed), "unseen_in_box": state.unseen_box, "box": list(state.box),
        "funding": {"backs": list(state.backs), "values": list(state.values), "past_values": list(state.past_values),
                    "unrevealed_values": {str(v + 1): n for v, n in enumerate(state.undrawn)}},
        "track": {str(space): seat for seat, space in sorted(state.figures.items())},
        "tomb_raider": ({"space": state.tomb_raider or None, "purse": state.purse} if state.players == 2 else None),
        "museum": {str(k.space): {"seat": i, "numeral": k.numeral} for i, s in enumerate(state.seats)
                   for k in s.collections},
        "seats": [_seat(state, i) for i in range(state.players)], "order_spaces": list(state.order_spaces),
        "finished": state.finished, "places": list(state.places), "winners": list(state.winners),
    }
    if acting == TOMB_RAIDER:
        view["acting"] = "tomb_raider"
    return view


def seat_view(state: State, seat: int) -> dict:
    """The public view plus this seat's own VP (the only thing that can be private, §10)."""
    view = public_view(state)
    view["you"] = {"seat": seat, "vp": state.seats[seat].vp}
    return view


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
        return msgspec.structs.replace(event, bonuses=[b if b.seat == viewer else msgspec.structs.replace(b, vp=None)
                                                       for b in event.bonuses])
    return event
