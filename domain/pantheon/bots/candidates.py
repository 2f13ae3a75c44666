"""Candidate commands for a seat's decision: sensible hand-built ones plus random legal ones."""

from __future__ import annotations

import random
from typing import cast

import msgspec

from domain.contract import present

from .. import commands as cmd
from ..commands import Hex
from ..options import legal_options
from ..planner import Planner
from ..random_play import random_command
from ..rules import (
    components_of,
    coords_of,
    count_gods,
    money_of,
    movement_steps,
    payment_options,
    stonkus_money,
)
from ..state import State
from ..vocabulary import (
    CARD_INDEX,
    COLUMN,
    EMPTY_SLOT,
    MAX_LEVEL,
    MONEY_CARDS,
    MOVEMENT,
    SACRIFICES,
    GalliaPick,
    Piece,
    Sacrifice,
)

_KEY = msgspec.json.Encoder()


def greedy_placements(
    state: State, seat: int, budget: int, rnd: random.Random, *, jumps: int = 0, reserve: tuple[int, int] = (0, 0)
) -> list[tuple[Piece, Hex, bool]]:
    """Place pieces one by one, preferring columns, loot and cheap hexes (ties broken at random)."""
    planner = Planner(state, seat, jumps=jumps)
    planner.reserve[0] += reserve[0]
    planner.reserve[1] += reserve[1]
    placed: list[tuple[Piece, Hex, bool]] = []
    while budget > 0:
        targets = [t for t in planner.targets() if t[2] <= budget]
        if not targets:
            break

        def worth(t: tuple[int, int, int, bool]) -> float:
            piece, index, cost, _ = t
            return 3 * (piece == COLUMN) + 2 * (index in state.loot_board) - cost + rnd.random()

        piece, index, cost, jump = max(targets, key=worth)
        planner.apply(piece, index, jump)
        budget -= cost
        placed.append(("column" if piece else "foot", coords_of(planner.board, index), jump))
    return placed


def _moves(state: State, seat: int, rnd: random.Random, big_foot: bool) -> list[cmd.Command]:
    me = state.seats[seat]
    found: list[cmd.Command] = []
    for cards in sorted({me.hand[MOVEMENT], (me.hand[MOVEMENT] + 1) // 2, 0}):
        steps = movement_steps(me, cards, big_foot)
        if steps == 0:
            continue
        placed = greedy_placements(state, seat, steps, rnd, jumps=count_gods(me, "gaiviles"))
        if placed:
            found.append(
                cmd.Move(seat=seat, cards=cards, placements=[cmd.Place(piece=p, hex=h, jump=j) for p, h, j in placed])
            )
    return found


def _buys(state: State, seat: int, rnd: random.Random) -> list[cmd.Command]:
    me = state.seats[seat]
    money = {c: me.hand[CARD_INDEX[c]] for c in MONEY_CARDS if me.hand[CARD_INDEX[c]]}
    budget = money_of(me.hand) + stonkus_money(state, me)
    if not money or not budget:
        return []
    comps = components_of(state)
    found: list[cmd.Command] = []
    for i, kind in enumerate(SACRIFICES):
        have = me.sacrifice[i]
        levels = [lv for lv in range(have + 1, MAX_LEVEL + 1) if comps.price(lv) - comps.price(have) <= budget]
        if levels:
            found.append(cmd.Buy(seat=seat, money=money, purchases=[cmd.SacrificeTile(kind=kind, level=levels[-1])]))
    columns = min(budget // 2, me.general_columns)
    reserve: list[cmd.Purchase] = [cmd.Reserve(piece="column", count=columns)] if columns else []
    placed = greedy_placements(state, seat, budget - columns, rnd, reserve=(0, columns))
    purchases = reserve + [cmd.PlacePiece(piece=p, hex=h) for p, h, _ in placed]
    if purchases:
        found.append(cmd.Buy(seat=seat, money=money, purchases=purchases))
    return found


def _action(state: State, seat: int, rnd: random.Random) -> list[cmd.Command]:
    me = state.seats[seat]
    gods = components_of(state).gods
    found: list[cmd.Command] = [
        cmd.GainGod(seat=seat, tile=tile, sacrifice=pay)
        for tile in state.gods_board
        for pay in payment_options(me, gods[tile])
    ]
    found += [
        cmd.DrawCard(seat=seat, slot=slot)
        for slot in [None] + [i for i, c in enumerate(state.display) if c != EMPTY_SLOT]
    ]
    return found + _moves(state, seat, rnd, True) + _buys(state, seat, rnd)


def _enumerated(state: State, seat: int, decision: str) -> list[cmd.Command]:
    """Every choice of the small decisions (besides the random samples)."""
    o = legal_options(state, seat)
    found: list[cmd.Command] = []
    if decision == "sacrifice":
        found += [cmd.ImproveSacrifice(seat=seat, kind=cast(Sacrifice, k)) for k in present(o.kinds)]
    elif decision == "gallia":
        found += [cmd.GalliaChoice(seat=seat, choice=cast(GalliaPick, c)) for c in present(o.choices)]
    elif decision == "gallia_gain":
        found += [cmd.GainGod(seat=seat, tile=present(o.tile), sacrifice=p) for p in present(o.payments)]
    elif decision == "choose_bonus":
        found += [cmd.ChooseBonus(seat=seat, tile=t) for t in present(o.tiles)]
    elif decision == "bonus_column":
        found += [cmd.PlaceColumn(seat=seat, hex=(q, r)) for q, r in present(o.hexes)]
    elif decision == "reserve_choice":
        found += [cmd.ChooseReserve(seat=seat, piece=cast(Piece, p)) for p in present(o.pieces)]
    elif decision == "extra_action":
        found += [cmd.UseTraitera(seat=seat)]
    elif decision == "draw":
        found += [cmd.DrawCard(seat=seat, slot=s) for s in [None, *present(o.display)]]
    return found


def candidates(state: State, seat: int, rnd: random.Random, samples: int = 4) -> list[cmd.Command]:
    """Distinct legal candidate commands for the seat awaited in `state` (never empty)."""
    decision = state.agenda[0].kind
    if decision == "action":
        found = _action(state, seat, rnd)
    elif decision == "follow_up":
        found = _moves(state, seat, rnd, False) + [cmd.Pass(seat=seat)]
    else:
        found = _enumerated(state, seat, decision)
    found += [random_command(state, seat, rnd) for _ in range(samples)]
    unique: dict[bytes, cmd.Command] = {}
    for command in found:
        unique.setdefault(_KEY.encode(command), command)
    return list(unique.values())
