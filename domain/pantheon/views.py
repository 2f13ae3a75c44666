"""Views: what everybody may see (public), what one seat may see (seat view), and events
redacted for a viewer. Hands, half-god values and undrawn items never leak."""

from __future__ import annotations

import msgspec

from . import events as ev
from .rules import board_of, coords_of
from .state import State
from .vocabulary import CARDS, EMPTY_SLOT, SACRIFICES


def _counts(counts: list[int]) -> dict[str, int]:
    return {card: n for card, n in zip(CARDS, counts) if n}


def _seat_public(state: State, i: int) -> dict:
    seat = state.seats[i]
    return {
        "seat": i, "score": seat.score, "hand_size": sum(seat.hand),
        "feet": seat.feet, "columns": seat.columns,
        "general_feet": seat.general_feet, "general_columns": seat.general_columns,
        "sacrifice": {k: lv for k, lv in zip(SACRIFICES, seat.sacrifice) if lv},
        "gods": list(seat.gods), "half_gods": len(seat.half_gods), "steps": seat.steps,
        "tiles": list(seat.tiles), "bonus": seat.bonus or None, "bonus_used": seat.bonus_used,
        "columns_on_board": len(seat.columns_on_board),
    }


def _pieces(state: State) -> list[dict]:
    board = board_of(state)
    return [
        {"hex": list(coords_of(board, index)), "seat": code >> 1, "piece": "column" if code & 1 else "foot"}
        for index in sorted(state.occupants) for code in state.occupants[index]
    ]


def awaiting(state: State) -> dict | None:
    if state.finished or not state.agenda:
        return None
    task = state.agenda[0]
    return {"seat": task.seat, "decision": task.kind}


def public_view(state: State) -> dict:
    """Everything every spectator may see."""
    board = board_of(state)
    view = {
        "edition": state.options.edition, "players": state.players, "epoch": state.epoch,
        "nation": state.nation or None, "nations_played": list(state.nations_played),
        "starting_seat": state.starting_seat,
        "temple": list(coords_of(board, state.temple)) if state.temple >= 0 else None,
        "display": [None if c == EMPTY_SLOT else CARDS[c] for c in state.display],
        "draw_pile": sum(state.draw_pile), "discard": _counts(state.discard),
        "special_money": list(state.special_money),
        "gods_board": list(state.gods_board), "gods_stack": len(state.gods_stack),
        "gods_box": len(state.gods_box), "gallia_tile": state.gallia_tile or None,
        "half_god_display": sorted(state.half_god_display, reverse=True),
        "half_god_stack": len(state.half_gods_low) + len(state.half_gods_high),
        "loot": [{"hex": list(coords_of(board, i)), "tile": t} for i, t in sorted(state.loot_board.items())],
        "loot_bag": sum(state.loot_bag.values()),
        "bonus_pool": list(state.bonus_pool) if state.options.bonus_tiles == "draft" else [],
        "pieces": _pieces(state), "seats": [_seat_public(state, i) for i in range(state.players)],
        "awaiting": awaiting(state), "finished": state.finished, "winners": list(state.winners),
    }
    if state.finished:
        view["half_god_values"] = [sorted(seat.half_gods) for seat in state.seats]
    return view


def seat_view(state: State, seat: int) -> dict:
    """The public view plus this seat's own hand and half-god values."""
    view = public_view(state)
    me = state.seats[seat]
    view["you"] = {"seat": seat, "hand": _counts(me.hand), "half_gods": sorted(me.half_gods)}
    return view


def redact(event: ev.Event, viewer: int | None) -> ev.Event:
    """The event as `viewer` (a seat, or None for a spectator) may see it."""
    if isinstance(event, ev.CardsDrawn) and event.seat != viewer:
        return msgspec.structs.replace(event, cards=[])
    if isinstance(event, ev.HalfGodTaken) and event.source == "stack" and event.seat != viewer:
        return msgspec.structs.replace(event, value=0)
    if isinstance(event, ev.HandsReshuffled):
        hands = [h if i == viewer else [] for i, h in enumerate(event.hands)]
        return msgspec.structs.replace(event, hands=hands)
    return event
