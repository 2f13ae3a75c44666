"""A player that picks uniformly among the legal options at each building block (for playouts)."""

from __future__ import annotations

import random
from typing import Any, cast

from domain.contract import present

from . import commands as cmd
from .commands import Hex
from .options import PantheonBuyBlock, PantheonReserveOffer, PantheonTileOffer, buy_options, legal_options, money_cards
from .planner import Planner
from .rules import (
    can_pay,
    components_of,
    coords_of,
    count_gods,
    money_of,
    movement_steps,
    payment_options,
    sacrifice_supply,
    stonkus_money,
)
from .state import State
from .vocabulary import (
    CARDS,
    EMPTY_SLOT,
    MONEY_VALUE,
    MOVEMENT,
    GalliaPick,
    Piece,
    Sacrifice,
)


def _random_placements(planner: Planner, budget: int, rnd: random.Random) -> list[tuple[Piece, Hex, bool]]:
    """Place pieces one at a time, each uniformly among the possible ones or stopping."""
    board = planner.board
    placed: list[tuple[Piece, Hex, bool]] = []
    while budget > 0:
        targets = planner.targets()
        if budget < 2:  # a placement costs 1 or 2
            targets = [t for t in targets if t[2] <= budget]
        pick = rnd.randrange(len(targets) + 1)
        if pick == len(targets):
            break
        piece, index, cost, jump = targets[pick]
        planner.apply(piece, index, jump)
        budget -= cost
        placed.append(("column" if piece else "foot", coords_of(board, index), jump))
    return placed


def _placements(state: State, seat: int, budget: int, jumps: int, rnd: random.Random) -> list[cmd.Place]:
    planner = Planner(state, seat, jumps=jumps)
    return [cmd.Place(piece=p, hex=h, jump=j) for p, h, j in _random_placements(planner, budget, rnd)]


def _move(state: State, seat: int, rnd: random.Random, big_foot: bool) -> cmd.Move:
    me = state.seats[seat]
    cards = rnd.randrange(me.hand[MOVEMENT] + 1)  # randint(0, n) draws exactly this
    if not big_foot and movement_steps(me, cards, False) == 0:
        cards = 1
    steps = movement_steps(me, cards, big_foot)
    return cmd.Move(seat=seat, cards=cards, placements=_placements(state, seat, steps, count_gods(me, "gaiviles"), rnd))


def _purchases(
    tiles: list[PantheonTileOffer],
    offer: PantheonReserveOffer,
    budget: int,
    rnd: random.Random,
    placing: bool,
    state: State,
    seat: int,
) -> list[cmd.Purchase]:
    chosen: list[cmd.Purchase] = []
    levels: dict[str, int] = {}
    reserve = {"foot": offer.foot, "column": offer.column}
    while budget > 0:
        offers: list[tuple[str, Any]] = [
            ("tile", t) for t in tiles if t.cost <= budget and t.level > levels.get(t.kind, 0)
        ]
        offers += [("reserve", p) for p, n in reserve.items() if n > 0]
        pick = rnd.randrange(len(offers) + 1)
        if pick == len(offers):
            break
        kind, picked = offers[pick]
        if kind == "tile":
            chosen.append(cmd.SacrificeTile(kind=picked.kind, level=picked.level))
            levels[picked.kind] = picked.level
            tiles = [t for t in tiles if t.kind != picked.kind]
            budget -= picked.cost
        else:
            chosen.append(cmd.Reserve(piece=picked, count=1))
            reserve[picked] -= 1
            budget -= 1
    if placing and budget > 0:
        chosen += _buy_placements(state, seat, chosen, budget, rnd)
    return chosen


def _buy_placements(
    state: State, seat: int, chosen: list[cmd.Purchase], budget: int, rnd: random.Random
) -> list[cmd.Purchase]:
    planner = Planner(state, seat)
    for p in chosen:
        if isinstance(p, cmd.Reserve):
            planner.reserve[0 if p.piece == "foot" else 1] += p.count
    return [cmd.PlacePiece(piece=p, hex=h) for p, h, _ in _random_placements(planner, budget, rnd)]


def _buy(state: State, seat: int, options: PantheonBuyBlock, rnd: random.Random) -> cmd.Buy:
    money = {card: rnd.randrange(n + 1) for card, n in options.money_cards.items()}  # as randint(0, n)
    money = {c: n for c, n in money.items() if n}
    budget = sum(MONEY_VALUE[c] * n for c, n in money.items()) + options.stonkus
    if budget == 0:
        card = rnd.choice(sorted(options.money_cards))
        money, budget = {card: 1}, MONEY_VALUE[card] + options.stonkus
    priced = [t for t in options.sacrifice_tiles if t.cost <= budget]
    return cmd.Buy(
        seat=seat, money=money, purchases=_purchases(priced, options.reserve, budget, rnd, True, state, seat)
    )


def _draw(state: State, seat: int, rnd: random.Random) -> cmd.DrawCard:
    sources = [None] + [i for i, card in enumerate(state.display) if card != EMPTY_SLOT]
    return cmd.DrawCard(seat=seat, slot=rnd.choice(sources))


# the action kinds to pick from, by whether the seat has money and whether it can pay for a god
_ACTIONS = (
    (("move", "draw"), ("move", "draw", "gain_god")),
    (("move", "draw", "buy"), ("move", "draw", "buy", "gain_god")),
)


def _action(state: State, seat: int, rnd: random.Random) -> cmd.Command:
    me = state.seats[seat]
    gods = components_of(state).gods
    stonkus = stonkus_money(state, me)
    budget = money_of(me.hand) + stonkus
    supply = sacrifice_supply(me)
    payable = (tile for tile in state.gods_board if can_pay(me, gods[tile], supply=supply))
    # whether any tile is payable decides the kinds; the list of them only matters for gain_god
    kind = rnd.choice(_ACTIONS[bool(budget)][next(payable, None) is not None])
    if kind == "move":
        return _move(state, seat, rnd, True)
    if kind == "draw":
        return _draw(state, seat, rnd)
    if kind == "buy":
        return _buy(state, seat, buy_options(state, seat, money_cards(state, seat), stonkus, budget, False), rnd)
    tiles = [tile for tile in state.gods_board if can_pay(me, gods[tile], supply=supply)]
    tile = rnd.choice(tiles)
    return cmd.GainGod(seat=seat, tile=tile, sacrifice=rnd.choice(payment_options(me, gods[tile])))


def random_command(state: State, seat: int, rnd: random.Random) -> cmd.Command:
    """A uniformly random legal command for the awaited seat."""
    d = state.agenda[0].kind
    if d == "action":
        return _action(state, seat, rnd)
    if d == "follow_up":
        if movement_steps(state.seats[seat], state.seats[seat].hand[MOVEMENT], False) and rnd.random() < 0.5:
            return _move(state, seat, rnd, False)
        return cmd.Pass(seat=seat)
    if d == "draw":
        return _draw(state, seat, rnd)
    o = legal_options(state, seat)
    if d == "extra_action":
        either: list[cmd.Command] = [cmd.UseTraitera(seat=seat), cmd.Pass(seat=seat)]
        return rnd.choice(either)
    if d == "gallia":
        return cmd.GalliaChoice(seat=seat, choice=cast(GalliaPick, rnd.choice(present(o.choices))))
    if d == "gallia_gain":
        choices: list[cmd.Command] = [
            cmd.GainGod(seat=seat, tile=present(o.tile), sacrifice=p) for p in present(o.payments)
        ]
        return rnd.choice(choices + [cmd.Pass(seat=seat)])
    if d == "discard":
        hand = [c for c in CARDS for _ in range(present(o.hand).get(c, 0))]
        chosen: dict[str, int] = {}
        for c in rnd.sample(hand, present(o.count)):
            chosen[c] = chosen.get(c, 0) + 1
        return cmd.Discard(seat=seat, cards=chosen)
    if d == "exchange":
        counts: dict[Piece, int] = {"foot": present(o.foot), "column": present(o.column)}
        gives = [g for g in counts if counts[g] > 0]
        if not gives or rnd.random() < 0.5:
            return cmd.Pass(seat=seat)
        give = rnd.choice(gives)
        return cmd.Exchange(seat=seat, give=give, count=rnd.randint(1, counts[give]))
    if d == "sacrifice":
        kinds: list[cmd.Command] = [cmd.ImproveSacrifice(seat=seat, kind=cast(Sacrifice, k)) for k in present(o.kinds)]
        return rnd.choice(kinds + ([cmd.Pass(seat=seat)] if o.optional else []))
    if d == "cartago":
        tiles, offer, budget = present(o.sacrifice_tiles), present(o.reserve), present(o.budget)
        return cmd.Spend(seat=seat, purchases=_purchases(tiles, offer, budget, rnd, False, state, seat))
    if d == "choose_bonus":
        return cmd.ChooseBonus(seat=seat, tile=rnd.choice(present(o.tiles)))
    if d == "bonus_column":
        q, r = rnd.choice(present(o.hexes))
        return cmd.PlaceColumn(seat=seat, hex=(q, r))
    if d == "reserve_choice":
        return cmd.ChooseReserve(seat=seat, piece=cast(Piece, rnd.choice(present(o.pieces))))
    raise AssertionError(f"no random choice for decision {d!r}")


def random_options(players: int, rnd: random.Random) -> cmd.Options:
    """Options of a random game (for simulations): starting material and bonus tiles at random."""
    return cmd.Options(
        players=players, start_material=rnd.choice(["bsw", "rulebook"]), bonus_tiles=rnd.choice(["draft", "random"])
    )
