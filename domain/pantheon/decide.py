"""decide: check a command against the rules and the awaited decision, and return its events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.kernel import DomainError, Rng
from domain.words import player_name, seats_words

from . import commands as cmd
from . import events as ev
from .chance import Context, draw_cards, draw_god, refill_display
from .flow import advance, bonus_column_sites, god_benefit, seat_order
from .rules import (
    board_of,
    cards_from,
    check_payment,
    components_of,
    count_gods,
    hex_index,
    money_of,
    movement_steps,
    plan_placements,
    price_purchases,
    require_in_hand,
    stonkus_money,
)
from .state import State
from .vocabulary import (
    CARD_INDEX,
    CARDS,
    CARTAGO_MONEY,
    DRAW_ACTION_CARDS,
    EMPTY_SLOT,
    FOLLOW_UP_DECLINE_CARDS,
    GALLIA_CARDS,
    MAX_LEVEL,
    MONEY_CARDS,
    SACRIFICE_INDEX,
    god_of,
)

Task = ev.Task


def decide(state: State | None, command: cmd.Command, rng: Rng) -> list[ev.Event]:
    """The events a command causes, or a DomainError (the state is never changed)."""
    command = _validated(command)
    if isinstance(command, cmd.CreateGame):
        if state is not None:
            raise DomainError("game_exists", "This game has already been created.")
        return _create(command.options, rng)
    if state is None:
        raise DomainError("no_game", "Create the game before sending commands to it.")
    task = _awaited_task(state, command)
    handler = HANDLERS.get((task.kind, type(command)))
    if handler is None:
        raise DomainError(
            "wrong_command",
            f"{player_name(task.seat)} must now decide '{task.kind}'; a '{type(command).__struct_config__.tag}' command does not answer that.",
        )
    ctx = Context(state, rng)
    ctx.s.agenda.pop(0)
    handler(ctx, task, command)
    return _finish(ctx, state.agenda)


def apply(state: State | None, command: cmd.Command, rng: Rng) -> tuple[State, list[ev.Event]]:
    """decide and evolve in one pass, updating `state` itself: for callers that own the state
    and would evolve the events into it anyway (playouts, search). Same rules, same events;
    on a DomainError the state is as it was."""
    command = _validated(command)
    if state is None or isinstance(command, cmd.CreateGame):
        events = decide(state, command, rng)
        return _fold_into(state, events), events
    task = _awaited_task(state, command)
    handler = HANDLERS.get((task.kind, type(command)))
    if handler is None:
        return state, decide(state, command, rng)  # raises the wrong_command error
    agenda = state.agenda
    before = agenda[:]
    ctx = Context(state, rng, in_place=True)
    del agenda[0]
    try:
        handler(ctx, task, command)
    except DomainError:
        if ctx.events:
            raise RuntimeError("a rule was checked after an event was emitted") from None
        agenda.insert(0, task)
        raise
    advance(ctx)  # as _finish does (written out: once per command in playouts)
    if state.agenda != before:
        ctx.emit(ev.AgendaSet(tasks=state.agenda[:]))
    return state, ctx.events


def _fold_into(state: State | None, events: list[ev.Event]) -> State:
    from .evolve import evolve

    for event in events:
        state = evolve(state, event)
    assert state is not None, "a command causes events"
    return state


# msgpack, not JSON: JSON would turn a NaN or infinite float into null, which a field typed
# `int | None` (DrawCard.slot) accepts.
_PACK = msgspec.msgpack.Encoder()
_COMMAND = msgspec.msgpack.Decoder(cmd.Command)


def _validated(command: cmd.Command) -> cmd.Command:
    """The command with every field's type checked: a malformed command is a domain error."""
    try:
        checked: cmd.Command = _COMMAND.decode(_PACK.encode(command))
        return checked
    except (msgspec.ValidationError, msgspec.DecodeError, TypeError, OverflowError) as error:
        raise DomainError("malformed_command", f"The command is malformed: {error}.") from None


def _awaited_task(state: State, command: Any) -> Task:
    if state.finished or not state.agenda:
        raise DomainError("game_over", "The game is over; it takes no more commands.")
    if not isinstance(command.seat, int) or not 0 <= command.seat < len(state.seats):
        raise DomainError("unknown_seat", seats_words(state.players))
    task = state.agenda[0]
    if command.seat != task.seat:
        raise DomainError(
            "not_your_turn", f"The game awaits {player_name(task.seat)}, not {player_name(command.seat)}."
        )
    return task


def _finish(ctx: Context, before: list[Task] | None) -> list[ev.Event]:
    advance(ctx)
    if before is None or ctx.s.agenda != before:
        ctx.emit(ev.AgendaSet(tasks=list(ctx.s.agenda)))
    return ctx.events


def _create(options: cmd.Options, rng: Rng) -> list[ev.Event]:
    if not 2 <= options.players <= 4:
        raise DomainError("bad_options", "Pantheon is played by 2 to 4 players.")
    ctx = Context(None, rng)
    ctx.emit(ev.GameCreated(options=options))
    comps = components_of(ctx.s)
    for seat in range(options.players):
        draw_cards(ctx, seat, comps.start_hand, "setup")
    refill_display(ctx)
    ctx.emit(ev.StartingSeatChosen(seat=rng.randbelow(options.players)))
    if options.bonus_tiles == "random":
        pool = list(ctx.s.bonus_pool)
        ctx.emit(ev.BonusTilesDealt(tiles=[pool.pop(rng.randbelow(len(pool))) for _ in range(options.players)]))
    ctx.s.agenda = [Task(kind="prepare")]
    return _finish(ctx, None)


# --- the four actions -----------------------------------------------------------------------


def _move(ctx: Context, task: Task, c: cmd.Move) -> None:
    s = ctx.s
    me = s.seats[c.seat]
    big_foot = task.kind == "action"
    if not 0 <= c.cards <= me.hand[CARD_INDEX["movement"]]:
        raise DomainError("cards_not_in_hand", "You do not hold that many movement cards.")
    steps = movement_steps(me, c.cards, big_foot)
    if not big_foot and steps == 0:
        raise DomainError("no_steps", "A follow-up move needs at least one step; pass to draw a card instead.")
    planner, costs = plan_placements(s, c.seat, c.placements, steps, jumps=count_gods(me, "gaiviles"))
    placed = [ev.Placed(piece=p.piece, hex=p.hex, cost=cost, jump=p.jump) for p, cost in zip(c.placements, costs)]
    ctx.emit(ev.Moved(seat=c.seat, cards=c.cards, big_foot=big_foot, steps=steps, placements=placed, loot=planner.loot))
    tasks = [Task(kind="loot", seat=c.seat, item=tile) for tile in planner.loot]
    if big_foot:
        tasks += [Task(kind="follow_up", seat=o) for o in seat_order(c.seat, s.players)[1:]]
    ctx.push(*tasks)


def _decline_follow_up(ctx: Context, task: Task, c: cmd.Pass) -> None:
    ctx.emit(ev.FollowUpDeclined(seat=c.seat))
    draw_cards(ctx, c.seat, FOLLOW_UP_DECLINE_CARDS, "follow_up_declined")


def _buy(ctx: Context, task: Task, c: cmd.Buy) -> None:
    s = ctx.s
    me = s.seats[c.seat]
    counts = cards_from(c.money, MONEY_CARDS, "money")
    require_in_hand(me, counts)
    budget = money_of(counts) + stonkus_money(s, me)
    if budget == 0:
        raise DomainError("no_money", "Buying needs money cards or a Stonkus.")
    costs, planner = price_purchases(s, c.seat, c.purchases, budget, placing=True)
    money = [CARDS[i] for i, n in enumerate(counts) for _ in range(n)]
    ctx.emit(
        ev.Bought(seat=c.seat, money=money, budget=budget, purchases=list(c.purchases), costs=costs, loot=planner.loot)
    )
    ctx.push(*[Task(kind="loot", seat=c.seat, item=tile) for tile in planner.loot])


def _gain_god(ctx: Context, task: Task, c: cmd.GainGod) -> None:
    s = ctx.s
    if c.tile not in s.gods_board:
        raise DomainError("tile_not_on_board", f"{c.tile} is not face up on the board.")
    _pay_and_gain(ctx, c, "board", first_only=False)


def _pay_and_gain(ctx: Context, c: cmd.GainGod, source: str, *, first_only: bool) -> None:
    me = ctx.s.seats[c.seat]
    check_payment(me, components_of(ctx.s).gods[c.tile], c.sacrifice, first_only)
    cards = [kind for kind, n in sorted(c.sacrifice.items()) for _ in range(n)]
    ctx.emit(ev.GodGained(seat=c.seat, tile=c.tile, source=source, points=ctx.s.epoch, cards=cards))
    god_benefit(ctx, c.seat, c.tile, source)


def _draw_card(ctx: Context, task: Task, c: cmd.DrawCard) -> None:
    s = ctx.s
    left = DRAW_ACTION_CARDS + count_gods(s.seats[c.seat], "gadicea") if task.kind == "action" else task.n
    if c.slot is None:
        draw_cards(ctx, c.seat, 1, "draw_action")
    elif not 0 <= c.slot < len(s.display) or s.display[c.slot] == EMPTY_SLOT:
        raise DomainError("empty_slot", "There is no card in that display slot.")
    else:
        ctx.emit(ev.CardTaken(seat=c.seat, slot=c.slot, card=CARDS[s.display[c.slot]]))
        refill_display(ctx)
    if left > 1:
        ctx.push(Task(kind="draw", seat=c.seat, n=left - 1))


def _use_traitera(ctx: Context, task: Task, c: cmd.UseTraitera) -> None:
    tile = next(t for t in ctx.s.seats[c.seat].gods if god_of(t) == "traitera")
    ctx.emit(ev.TraiteraSpent(seat=c.seat, tile=tile))
    ctx.push(Task(kind="action", seat=c.seat), Task(kind="end_action", seat=c.seat, n=task.n - 1))


def _end_turn(ctx: Context, task: Task, c: cmd.Pass) -> None:
    ctx.push(Task(kind="turn", seat=(c.seat + 1) % ctx.s.players))


# --- nations, bonus and loot choices --------------------------------------------------------


def _gallia(ctx: Context, task: Task, c: cmd.GalliaChoice) -> None:
    if c.choice == "draw":
        draw_cards(ctx, c.seat, GALLIA_CARDS, "gallia")
        return
    tile = draw_god(ctx, lambda t: ev.GalliaRevealed(seat=c.seat, tile=t))
    if tile is None:
        raise DomainError("gods_stack_empty", "There is no gods tile left to reveal; draw 2 cards instead.")
    ctx.push(Task(kind="gallia_gain", seat=c.seat, item=tile))


def _gallia_gain(ctx: Context, task: Task, c: cmd.GainGod) -> None:
    if c.tile != task.item:
        raise DomainError("tile_not_offered", f"Gallia offers you {task.item}, not {c.tile}.")
    _pay_and_gain(ctx, c, "gallia", first_only=True)


def _gallia_decline(ctx: Context, task: Task, c: cmd.Pass) -> None:
    ctx.emit(ev.GalliaDeclined(seat=c.seat, tile=task.item))


def _discard(ctx: Context, task: Task, c: cmd.Discard) -> None:
    counts = cards_from(c.cards, CARDS, "known")
    require_in_hand(ctx.s.seats[c.seat], counts)
    if sum(counts) != task.n:
        raise DomainError("wrong_discard", f"Discard exactly {task.n} cards to keep 7.")
    ctx.emit(ev.CardsDiscarded(seat=c.seat, cards=[CARDS[i] for i, n in enumerate(counts) for _ in range(n)]))


def _exchange(ctx: Context, task: Task, c: cmd.Exchange) -> None:
    me = ctx.s.seats[c.seat]
    have, general = (me.feet, me.general_columns) if c.give == "foot" else (me.columns, me.general_feet)
    if not 1 <= c.count <= min(have, general):
        raise DomainError("bad_exchange", f"You can exchange at most {min(have, general)} {c.give} pieces now.")
    ctx.emit(ev.PiecesExchanged(seat=c.seat, give=c.give, count=c.count))


def _improve(ctx: Context, task: Task, c: cmd.ImproveSacrifice) -> None:
    level = ctx.s.seats[c.seat].sacrifice[SACRIFICE_INDEX[c.kind]]
    if level >= MAX_LEVEL:
        raise DomainError("max_level", f"Your {c.kind} tile is already at level 4.")
    ctx.emit(ev.SacrificeImproved(seat=c.seat, kind=c.kind, level=level + 1))
    if task.n > 1:
        ctx.push(Task(kind="sacrifice", seat=c.seat, n=task.n - 1, item=task.item))


def _decline(ctx: Context, task: Task, c: cmd.Pass) -> None:
    if task.kind == "sacrifice" and task.item != "optional":
        raise DomainError("not_optional", "This sacrifice step is not optional.")


def _cartago(ctx: Context, task: Task, c: cmd.Spend) -> None:
    costs, _ = price_purchases(ctx.s, c.seat, list(c.purchases), CARTAGO_MONEY, placing=False)
    ctx.emit(ev.Bought(seat=c.seat, money=[], budget=CARTAGO_MONEY, purchases=list(c.purchases), costs=costs))


def _choose_bonus(ctx: Context, task: Task, c: cmd.ChooseBonus) -> None:
    if c.tile not in ctx.s.bonus_pool:
        raise DomainError(
            "bonus_not_available", f"Bonus tile {c.tile!r} is not available; choose one of {ctx.s.bonus_pool}."
        )
    ctx.emit(ev.BonusTileChosen(seat=c.seat, tile=c.tile))


def _place_column(ctx: Context, task: Task, c: cmd.PlaceColumn) -> None:
    index = hex_index(board_of(ctx.s), c.hex)
    if index not in bonus_column_sites(ctx.s, c.seat):
        raise DomainError("no_room", "Choose a column site with room for your column.")
    ctx.emit(ev.ColumnPlaced(seat=c.seat, hex=c.hex))


def _choose_reserve(ctx: Context, task: Task, c: cmd.ChooseReserve) -> None:
    me = ctx.s.seats[c.seat]
    n = min(task.n, me.general_feet if c.piece == "foot" else me.general_columns)
    feet, columns = (n, 0) if c.piece == "foot" else (0, n)
    ctx.emit(ev.ReserveGained(seat=c.seat, feet=feet, columns=columns))


HANDLERS: dict[tuple[str, type], Callable[[Context, Task, Any], None]] = {
    ("action", cmd.Move): _move,
    ("follow_up", cmd.Move): _move,
    ("follow_up", cmd.Pass): _decline_follow_up,
    ("action", cmd.Buy): _buy,
    ("action", cmd.GainGod): _gain_god,
    ("action", cmd.DrawCard): _draw_card,
    ("draw", cmd.DrawCard): _draw_card,
    ("extra_action", cmd.UseTraitera): _use_traitera,
    ("extra_action", cmd.Pass): _end_turn,
    ("gallia", cmd.GalliaChoice): _gallia,
    ("gallia_gain", cmd.GainGod): _gallia_gain,
    ("gallia_gain", cmd.Pass): _gallia_decline,
    ("discard", cmd.Discard): _discard,
    ("exchange", cmd.Exchange): _exchange,
    ("exchange", cmd.Pass): _decline,
    ("sacrifice", cmd.ImproveSacrifice): _improve,
    ("sacrifice", cmd.Pass): _decline,
    ("cartago", cmd.Spend): _cartago,
    ("cartago", cmd.Pass): _decline,
    ("choose_bonus", cmd.ChooseBonus): _choose_bonus,
    ("bonus_column", cmd.PlaceColumn): _place_column,
    ("reserve_choice", cmd.ChooseReserve): _choose_reserve,
}
