"""evolve: apply one recorded event to the state. It trusts history: no checks, no chance."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from typing import Any

from . import events as ev
from .board import load_board
from .commands import Reserve, SacrificeTile
from .components import load_components
from .evolve_cards import (
    card_taken,
    cards_drawn,
    discard_reshuffled,
    display_refilled,
    hands_reshuffled,
    play,
)
from .facts import PLAY, TAKE, half_god_seen, new_pile, note_cards
from .planner import chain_route
from .rules import board_of, components_of, route_at_epoch_start
from .state import SeatState, State
from .vocabulary import (
    CARD_INDEX,
    COLUMN,
    EMPTY_SLOT,
    FOOT,
    PIECE_CODE,
    SACRIFICE_INDEX,
    special_money_card,
)


def evolve(state: State | None, event: ev.Event) -> State:
    """The state after `event` (updated in place; the first event creates it)."""
    if state is None:
        assert isinstance(event, ev.GameCreated), "a game's first event creates it"
        return _created(event)
    _HANDLERS[type(event)](state, event)
    return state


def evolve_all(state: State | None, events: Iterable[ev.Event]) -> State | None:
    """Replay many events (the same as evolving them one by one, with less call overhead)."""
    handlers = _HANDLERS
    iterator = iter(events)
    if state is None:
        first = next(iterator, None)
        if first is None:
            return None
        assert isinstance(first, ev.GameCreated), "a game's first event creates it"
        state = _created(first)
    for event in iterator:
        handlers[type(event)](state, event)
    return state


def _created(event: ev.GameCreated) -> State:
    options = event.options
    comps = load_components(options.edition)
    feet, columns = comps.start_material[options.start_material][options.players]
    seats = [
        SeatState(
            hand=[0] * len(CARD_INDEX),
            feet=feet,
            columns=columns,
            general_feet=comps.feet_per_colour - feet,
            general_columns=comps.columns_per_colour - columns,
        )
        for _ in range(options.players)
    ]
    low = sorted(v for v in comps.half_gods if v <= 3)
    high = sorted(v for v in comps.half_gods if v > 3)
    state = State(
        options=options,
        seats=seats,
        draw_pile=list(comps.action_cards) + [0] * 4,
        discard=[0] * len(CARD_INDEX),
        display=[EMPTY_SLOT] * comps.display_size,
        special_money=sorted(comps.special_money),
        gods_stack=sorted(comps.gods),
        half_gods_low=low,
        half_gods_high=high,
        loot_bag=dict(comps.loot_counts),
        bonus_pool=sorted(comps.bonus),
    )
    new_pile(state)
    return state


def _idx(state: State, coords: tuple[int, int]) -> int:
    return load_board(state.options.edition).index_of[coords]


def _starting_seat(state: State, e: ev.StartingSeatChosen) -> None:
    state.starting_seat = e.seat


def _bonus_dealt(state: State, e: ev.BonusTilesDealt) -> None:
    for seat, tile in zip(state.seats, e.tiles):
        seat.bonus = tile
        state.bonus_pool.remove(tile)


def _nation_revealed(state: State, e: ev.NationRevealed) -> None:
    state.epoch = e.epoch
    state.nation = e.nation
    state.nations_played.append(e.nation)


def _gods_rebuilt(state: State, e: ev.GodsStackRebuilt) -> None:
    state.gods_stack = sorted(state.gods_stack + [t for t in state.gods_box if t not in e.kept])
    state.gods_box = [t for t in state.gods_box if t in e.kept]


def _gods_revealed(state: State, e: ev.GodsRevealed) -> None:
    for tile in e.tiles:
        state.gods_stack.remove(tile)
        state.gods_board.append(tile)
    state.gods_revealed += len(e.tiles)


def _take_half_god(state: State, source: str, value: int) -> None:
    if source == "display":
        state.half_god_display.remove(value)
    elif value in state.half_gods_low:
        state.half_gods_low.remove(value)
    else:
        state.half_gods_high.remove(value)


def _half_gods_displayed(state: State, e: ev.HalfGodsDisplayed) -> None:
    for value in e.values:
        _take_half_god(state, "stack", value)
        state.half_god_display.append(value)


def _loot_placed(state: State, e: ev.LootPlaced) -> None:
    for coords, tile in e.tiles:
        state.loot_bag[tile] -= 1
        state.loot_board[_idx(state, coords)] = tile
    state.loot_revealed += len(e.tiles)


def _money_resorted(state: State, e: ev.SpecialMoneyResorted) -> None:
    state.special_money = list(e.order)


def _cards_discarded(state: State, e: ev.CardsDiscarded) -> None:
    play(state, e.seat, e.cards)


def _pieces_exchanged(state: State, e: ev.PiecesExchanged) -> None:
    seat = state.seats[e.seat]
    if e.give == "foot":
        seat.feet -= e.count
        seat.general_feet += e.count
        seat.columns += e.count
        seat.general_columns -= e.count
    else:
        seat.columns -= e.count
        seat.general_columns += e.count
        seat.feet += e.count
        seat.general_feet -= e.count


def _sacrifice_improved(state: State, e: ev.SacrificeImproved) -> None:
    state.seats[e.seat].sacrifice[SACRIFICE_INDEX[e.kind]] = e.level


def _temple_placed(state: State, e: ev.TemplePlaced) -> None:
    state.temple = _idx(state, e.hex)
    for i, seat in enumerate(state.seats):
        seat.route = sorted(route_at_epoch_start(state, i, state.temple))


def _bonus_chosen(state: State, e: ev.BonusTileChosen) -> None:
    state.seats[e.seat].bonus = e.tile
    state.bonus_pool.remove(e.tile)


def _put_piece(state: State, seat_no: int, piece: int, index: int) -> None:
    seat = state.seats[seat_no]
    state.occupants.setdefault(index, []).append(seat_no * 2 + piece)
    (seat.feet_on_board if piece == FOOT else seat.columns_on_board).append(index)
    if piece == FOOT:
        seat.feet -= 1
        state.loot_board.pop(index, None)
    else:
        seat.columns -= 1


def _place_and_join(state: State, seat_no: int, piece: int, index: int) -> None:
    _put_piece(state, seat_no, piece, index)
    seat = state.seats[seat_no]
    if piece == FOOT and not seat.columns_on_board:  # no own column could be chained to it
        if index not in seat.route:
            bisect.insort(seat.route, index)
        return
    route = set(seat.route)
    # the seat's columns on the board are the hexes holding its column code (an invariant)
    chain_route(route, index, board_of(state).neighbors, set(seat.columns_on_board))
    seat.route = sorted(route)


def _moved(state: State, e: ev.Moved) -> None:
    seat = state.seats[e.seat]
    seat.hand[0] -= e.cards
    state.discard[0] += e.cards
    note_cards(state, PLAY, e.seat, [0] * e.cards)
    for p in e.placements:
        _place_and_join(state, e.seat, PIECE_CODE[p.piece], _idx(state, p.hex))
    seat.loot.extend(e.loot)


def _bought(state: State, e: ev.Bought) -> None:
    seat = state.seats[e.seat]
    play(state, e.seat, e.money)
    for p in e.purchases:
        if isinstance(p, SacrificeTile):
            seat.sacrifice[SACRIFICE_INDEX[p.kind]] = p.level
        elif isinstance(p, Reserve):
            if p.piece == "foot":
                seat.feet += p.count
                seat.general_feet -= p.count
            else:
                seat.columns += p.count
                seat.general_columns -= p.count
        else:
            _place_and_join(state, e.seat, PIECE_CODE[p.piece], _idx(state, p.hex))
    seat.loot.extend(e.loot)


def _god_gained(state: State, e: ev.GodGained) -> None:
    seat = state.seats[e.seat]
    if e.source == "board":
        state.gods_board.remove(e.tile)
    elif e.source == "gallia":
        state.gallia_tile = ""
    else:
        state.gods_stack.remove(e.tile)
    play(state, e.seat, e.cards)
    seat.score += e.points
    if components_of(state).gods[e.tile].kind == "immediate":
        state.gods_box.append(e.tile)
    else:
        seat.gods.append(e.tile)


def _gallia_revealed(state: State, e: ev.GalliaRevealed) -> None:
    state.gods_stack.remove(e.tile)
    state.gallia_tile = e.tile


def _gallia_declined(state: State, e: ev.GalliaDeclined) -> None:
    state.gallia_tile = ""
    state.gods_box.append(e.tile)


def _half_god_taken(state: State, e: ev.HalfGodTaken) -> None:
    seen = half_god_seen(state, e.source, e.value)
    _take_half_god(state, e.source, e.value)
    seat = state.seats[e.seat]
    seat.half_gods.append(e.value)
    seat.half_gods_seen.append(seen)


def _money_taken(state: State, e: ev.SpecialMoneyTaken) -> None:
    state.special_money.pop(0)
    card = CARD_INDEX[special_money_card(e.value)]
    state.seats[e.seat].hand[card] += 1
    note_cards(state, TAKE, e.seat, [card])


def _reserve_gained(state: State, e: ev.ReserveGained) -> None:
    seat = state.seats[e.seat]
    seat.feet += e.feet
    seat.general_feet -= e.feet
    seat.columns += e.columns
    seat.general_columns -= e.columns


def _loot_activated(state: State, e: ev.LootActivated) -> None:
    effect = components_of(state).loot[e.tile]
    seat = state.seats[e.seat]
    seat.loot.remove(e.tile)
    if effect.effect == "steps":
        seat.steps += effect.steps
        seat.tiles.append(e.tile)
    else:
        state.loot_box[e.tile] = state.loot_box.get(e.tile, 0) + 1


def _bonus_activated(state: State, e: ev.BonusActivated) -> None:
    effect = components_of(state).bonus[e.tile]
    seat = state.seats[e.seat]
    seat.bonus_used = True
    if effect.effect == "steps":
        seat.steps += effect.steps


def _column_placed(state: State, e: ev.ColumnPlaced) -> None:
    seat = state.seats[e.seat]
    seat.general_columns -= 1
    seat.columns += 1
    _put_piece(state, e.seat, COLUMN, _idx(state, e.hex))


def _traitera_spent(state: State, e: ev.TraiteraSpent) -> None:
    state.seats[e.seat].gods.remove(e.tile)
    state.gods_box.append(e.tile)


def _phase_ended(state: State, e: ev.TurnPhaseEnded) -> None:
    state.seats[e.seat].score += e.points


def _epoch_ended(state: State, e: ev.EpochEnded) -> None:
    for _seat_no, seat in enumerate(state.seats):
        seat.feet += len(seat.feet_on_board)
        seat.feet_on_board = []
        seat.route = []
    state.occupants = {
        index: kept for index, codes in state.occupants.items() if (kept := [c for c in codes if c & 1 == COLUMN])
    }
    state.gods_box.extend(state.gods_board)
    state.gods_board = []
    for tile in state.loot_board.values():
        state.loot_box[tile] = state.loot_box.get(tile, 0) + 1
    state.loot_board = {}
    state.half_gods_box.extend(state.half_god_display)
    state.half_god_display = []
    state.temple = -1
    state.gods_revealed = state.loot_revealed = 0
    state.starting_seat = e.next_starting_seat


def _scored(state: State, e: ev.Scored) -> None:
    for seat, row in zip(state.seats, e.rows):
        seat.score += row.total
        seat.half_god_sums.append((len(seat.half_gods), row.half_gods))


def _game_ended(state: State, e: ev.GameEnded) -> None:
    state.winners = list(e.winners)
    state.finished = True


def _agenda_set(state: State, e: ev.AgendaSet) -> None:
    state.agenda = list(e.tasks)


def _follow_up_declined(state: State, e: ev.FollowUpDeclined) -> None:
    pass


_HANDLERS: dict[type, Callable[[State, Any], None]] = {
    ev.StartingSeatChosen: _starting_seat,
    ev.CardsDrawn: cards_drawn,
    ev.DisplayRefilled: display_refilled,
    ev.CardTaken: card_taken,
    ev.DiscardReshuffled: discard_reshuffled,
    ev.HandsReshuffled: hands_reshuffled,
    ev.BonusTilesDealt: _bonus_dealt,
    ev.NationRevealed: _nation_revealed,
    ev.GodsStackRebuilt: _gods_rebuilt,
    ev.GodsRevealed: _gods_revealed,
    ev.HalfGodsDisplayed: _half_gods_displayed,
    ev.LootPlaced: _loot_placed,
    ev.SpecialMoneyResorted: _money_resorted,
    ev.CardsDiscarded: _cards_discarded,
    ev.PiecesExchanged: _pieces_exchanged,
    ev.SacrificeImproved: _sacrifice_improved,
    ev.TemplePlaced: _temple_placed,
    ev.BonusTileChosen: _bonus_chosen,
    ev.Moved: _moved,
    ev.FollowUpDeclined: _follow_up_declined,
    ev.Bought: _bought,
    ev.GodGained: _god_gained,
    ev.GalliaRevealed: _gallia_revealed,
    ev.GalliaDeclined: _gallia_declined,
    ev.HalfGodTaken: _half_god_taken,
    ev.SpecialMoneyTaken: _money_taken,
    ev.ReserveGained: _reserve_gained,
    ev.LootActivated: _loot_activated,
    ev.BonusActivated: _bonus_activated,
    ev.ColumnPlaced: _column_placed,
    ev.TraiteraSpent: _traitera_spent,
    ev.TurnPhaseEnded: _phase_ended,
    ev.EpochEnded: _epoch_ended,
    ev.Scored: _scored,
    ev.GameEnded: _game_ended,
    ev.AgendaSet: _agenda_set,
}
