"""The choice trees of commands built step by step: a movement (cards, then one placement at a
time, then done), a buying (money cards, then one purchase at a time, then done) and Cartago's
spending (one purchase at a time).

Every level lists exactly what the rules accept next, given the steps or money left, and a
"done" leaf whenever the sequence so far is a command; each placement or purchase costs at
least 1, so every tree is finite, and a command's placements or purchases in order are its path."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from domain.choices import Entry, Menu, branch, leaf

from . import commands as cmd
from .labels import hex_name_at, hex_phrase, money_phrase, plural
from .planner import Planner
from .rules import components_of, coords_of, count_gods, movement_steps, stonkus_money
from .state import SeatState, State
from .vocabulary import CARD_INDEX, MAX_LEVEL, MONEY_CARDS, MONEY_VALUE, MOVEMENT, SACRIFICES, Piece

PIECES: tuple[Piece, ...] = ("foot", "column")


def placement_key(piece: int, hex: tuple[int, int], jump: bool = False) -> str:
    """'foot@16,5', 'column@15,3' or 'jump@18,4' (a foot that jumps)."""
    return f"{'jump' if jump else PIECES[piece]}@{hex[0]},{hex[1]}"


# --- movement -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Moving:
    state: State
    seat: int
    cards: int
    steps: int
    planner: Planner
    placed: tuple[cmd.Place, ...] = ()
    spent: int = 0


def movement_menu(state: State, seat: int, *, big_foot: bool, first: Sequence[Entry] = ()) -> Menu:
    """How many movement cards to play (each choice leads to the placements), after `first`."""
    me = state.seats[seat]
    entries = list(first)
    for cards in range(me.hand[MOVEMENT] + 1):
        steps = movement_steps(me, cards, big_foot)
        if steps:
            label = f"Play {plural(cards, 'movement card') if cards else 'no movement card'}: {plural(steps, 'step')}"
            moving = _Moving(state, seat, cards, steps, Planner(state, seat, jumps=count_gods(me, "gaiviles")))
            entries.append(
                branch(
                    f"cards:{cards}",
                    label + _steps_detail(me, cards, big_foot),
                    partial(_placements, moving),
                    cards=cards,
                    steps=steps,
                )
            )
    return Menu("How many movement cards do you play? (Unused steps are lost.)", entries)


def _steps_detail(me: SeatState, cards: int, big_foot: bool) -> str:
    parts = [
        ("big foot", 1 if big_foot else 0),
        ("cards", 2 * cards),
        ("Vinthrad", count_gods(me, "vinthrad")),
        ("Steps tiles", me.steps),
    ]
    shown = [f"{name} {n}" for name, n in parts if n]
    return f" ({' + '.join(shown)})" if len(shown) > 1 else ""


def _placements(m: _Moving) -> Menu:
    left = m.steps - m.spent
    entries = []
    for piece, index, cost, jump in m.planner.targets(every_jump=True):
        if cost <= left:
            hex = coords_of(m.planner.board, index)
            entries.append(
                branch(
                    placement_key(piece, hex, jump),
                    _place_label(m, piece, index, cost, jump),
                    partial(_placed, m, piece, index, cost, jump),
                    piece=PIECES[piece],
                    hex=list(hex),
                    cost=cost,
                    jump=jump,
                )
            )
    move = cmd.Move(seat=m.seat, cards=m.cards, placements=list(m.placed))
    entries.append(leaf("done", _done_label(m), move, done=True, placements=len(m.placed)))
    return Menu(f"Place a piece ({left} of {plural(m.steps, 'step')} left), or stop here.", entries)


def _place_label(m: _Moving, piece: int, index: int, cost: int, jump: bool) -> str:
    verb = "Foot jumps to" if jump else f"{PIECES[piece].capitalize()} on"
    wasted = (
        " (uses a Gaiviles jump, though the hex is next to your route)" if jump and index in m.planner.frontier else ""
    )
    return f"{verb} {hex_phrase(m.state, index, m.seat)}: {plural(cost, 'step')}{wasted}"


def _placed(m: _Moving, piece: int, index: int, cost: int, jump: bool) -> Menu:
    planner = m.planner.copy()
    planner.apply(piece, index, jump)
    q, r = coords_of(planner.board, index)
    place = cmd.Place(piece=PIECES[piece], hex=(q, r), jump=jump)
    return _placements(_Moving(m.state, m.seat, m.cards, m.steps, planner, (*m.placed, place), m.spent + cost))


def _done_label(m: _Moving) -> str:
    cards = plural(m.cards, "movement card")
    if not m.placed:
        return f"Done: place nothing ({cards})"
    route = " → ".join(f"{p.piece}{' jumps to' if p.jump else ' on'} {hex_name_at(m.state, p.hex)}" for p in m.placed)
    return f"Done: {route} ({cards}, {m.spent} of {plural(m.steps, 'step')} used)"


# --- buying and spending ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Buying:
    state: State
    seat: int
    budget: int
    make: Callable[[list[cmd.Purchase]], cmd.Command]  # the command of a purchase list
    placing: bool
    planner: Planner
    levels: tuple[int, ...]
    general: tuple[int, int]
    purchases: tuple[cmd.Purchase, ...] = ()
    spent: int = 0


def buy_menu(state: State, seat: int) -> Menu:
    """Which money cards to play (each choice leads to the purchases)."""
    me = state.seats[seat]
    stonkus = stonkus_money(state, me)
    held = [c for c in MONEY_CARDS if me.hand[CARD_INDEX[c]]]
    offers = []
    for counts in itertools.product(*(range(me.hand[CARD_INDEX[c]] + 1) for c in held)):
        played = {c: n for c, n in zip(held, counts) if n}
        budget = sum(MONEY_VALUE[c] * n for c, n in played.items()) + stonkus
        if budget:
            offers.append((budget, "+".join(f"{n}x{c}" for c, n in played.items()) or "none", played))
    entries = []
    for budget, key, played in sorted(offers, key=lambda o: (o[0], o[1])):
        make = partial(_buy_command, seat, played)
        label = f"Play {money_phrase(played)}" if played else "Play no money card"
        label += f" + {stonkus} from Stonkus = {budget} money" if stonkus else ""
        entries.append(
            branch(key, label, partial(_first_purchases, state, seat, budget, make, True), money=played, budget=budget)
        )
    return Menu("Which money cards do you play? (No change is given.)", entries)


def _buy_command(seat: int, money: dict[str, int], purchases: list[cmd.Purchase]) -> cmd.Buy:
    return cmd.Buy(seat=seat, money=dict(money), purchases=purchases)


def spend_menu(state: State, seat: int, budget: int, *, last: Sequence[Entry]) -> Menu:
    """Cartago: purchases without placing, one at a time, then `last` (the pass)."""
    make = partial(_spend_command, seat)
    menu = _first_purchases(state, seat, budget, make, False)
    return Menu(menu.prompt, menu.entries + list(last))


def _spend_command(seat: int, purchases: list[cmd.Purchase]) -> cmd.Spend:
    return cmd.Spend(seat=seat, purchases=purchases)


def _first_purchases(
    state: State, seat: int, budget: int, make: Callable[[list[cmd.Purchase]], cmd.Command], placing: bool
) -> Menu:
    me = state.seats[seat]
    return _purchases(
        _Buying(
            state,
            seat,
            budget,
            make,
            placing,
            Planner(state, seat),
            tuple(me.sacrifice),
            (me.general_feet, me.general_columns),
        )
    )


def _purchases(b: _Buying) -> Menu:
    left = b.budget - b.spent
    entries = _tile_entries(b, left) + _reserve_entries(b, left)
    if b.placing:
        entries += _place_entries(b, left)
    entries.append(leaf("done", _buy_done_label(b), b.make(list(b.purchases)), done=True, purchases=len(b.purchases)))
    return Menu(f"Buy something ({left} of {b.budget} money left), or stop here.", entries)


def _tile_entries(b: _Buying, left: int) -> list[Entry]:
    comps = components_of(b.state)
    entries = []
    for i, kind in enumerate(SACRIFICES):
        have = b.levels[i]
        for level in range(have + 1, MAX_LEVEL + 1):
            cost = comps.price(level) - comps.price(have)
            if cost <= left:
                what = (
                    f"Raise your {kind.capitalize()} tile from level {have} to {level}"
                    if have
                    else f"Buy a level-{level} {kind.capitalize()} tile"
                )
                levels = tuple(level if k == i else v for k, v in enumerate(b.levels))
                after = _bought(b, cmd.SacrificeTile(kind=kind, level=level), cost, levels=levels)
                entries.append(
                    branch(f"tile:{kind}:{level}", f"{what}: {cost} money", after, kind=kind, level=level, cost=cost)
                )
    return entries


def _reserve_entries(b: _Buying, left: int) -> list[Entry]:
    entries = []
    for piece, name in enumerate(PIECES):
        for count in range(1, min(left, b.general[piece]) + 1):
            general = tuple(g - count if k == piece else g for k, g in enumerate(b.general))
            after = _bought(b, cmd.Reserve(piece=name, count=count), count, general=general, reserve=(piece, count))
            entries.append(
                branch(
                    f"reserve:{name}:{count}",
                    f"Take {plural(count, name)} from the general reserve into yours: {count} money",
                    after,
                    piece=name,
                    count=count,
                    cost=count,
                )
            )
    return entries


def _place_entries(b: _Buying, left: int) -> list[Entry]:
    entries = []
    for piece, index, cost, _ in b.planner.targets():
        if cost <= left:
            hex = coords_of(b.planner.board, index)
            after = _bought(b, cmd.PlacePiece(piece=PIECES[piece], hex=hex), cost, place=(piece, index))
            label = f"Place a {PIECES[piece]} on {hex_phrase(b.state, index, b.seat)}: {cost} money"
            entries.append(
                branch(placement_key(piece, hex), label, after, piece=PIECES[piece], hex=list(hex), cost=cost)
            )
    return entries


def _bought(
    b: _Buying,
    purchase: cmd.Purchase,
    cost: int,
    *,
    reserve: tuple[int, int] | None = None,
    place: tuple[int, int] | None = None,
    **changes: Any,
) -> Callable[[], Menu]:
    """The menu after this purchase (`changes`: new levels or general reserve), built only when
    followed; `reserve` (piece, count) and `place` (piece, hex index) change a copy of the planner."""

    def then() -> Menu:
        planner = b.planner if reserve is None and place is None else b.planner.copy()
        if reserve is not None:
            planner.reserve[reserve[0]] += reserve[1]
        if place is not None:
            planner.apply(*place)
        return _purchases(
            replace(b, planner=planner, purchases=(*b.purchases, purchase), spent=b.spent + cost, **changes)
        )

    return then


def _buy_done_label(b: _Buying) -> str:
    if not b.purchases:
        return "Done: buy nothing (the money is lost)"
    return f"Done: {'; '.join(_purchase_words(b.state, p) for p in b.purchases)} ({b.spent} of {b.budget} money spent)"


def _purchase_words(state: State, p: cmd.Purchase) -> str:
    if isinstance(p, cmd.SacrificeTile):
        return f"{p.kind.capitalize()} tile level {p.level}"
    if isinstance(p, cmd.Reserve):
        return f"{plural(p.count, p.piece)} to your reserve"
    return f"{p.piece} on {hex_name_at(state, p.hex)}"


__all__ = ["buy_menu", "movement_menu", "placement_key", "spend_menu"]
