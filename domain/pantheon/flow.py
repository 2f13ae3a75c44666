"""The game's flow: the automatic steps of the agenda (preparation, loot, end of action, epoch,
scoring) and the benefits of gods and tiles. Decision tasks wait for a seat's command."""

from __future__ import annotations

from collections.abc import Callable

from . import events as ev
from .chance import Context, draw_cards, draw_god, pick_from_bag, pick_half_gods
from .components import Effect
from .rules import board_of, components_of, coords_of, count_gods, sacrifice_options
from .state import SeatState, State
from .vocabulary import (
    DEPRACCUS_CARDS,
    EPOCHS,
    GERMANIA_HAND,
    NATIONS,
    PHASE_END_POINTS,
    PLAESIRIS_HALF_GODS,
    ROMA_CARDS,
    SCORING_EPOCHS,
    column_points,
    god_of,
)

Task = ev.Task

DECISIONS = frozenset(
    {
        "action",
        "follow_up",
        "draw",
        "extra_action",
        "gallia",
        "gallia_gain",
        "discard",
        "exchange",
        "sacrifice",
        "cartago",
        "choose_bonus",
        "bonus_column",
        "reserve_choice",
    }
)


def seat_order(start: int, players: int) -> list[int]:
    """Seats clockwise from `start`."""
    return [(start + i) % players for i in range(players)]


# --- gods and tiles -------------------------------------------------------------------------


def gain_top_god(ctx: Context, seat: int, source: str, in_use: str = "") -> None:
    """Take the top gods tile of the stack without a sacrifice: points and benefit. `in_use` is
    the Surparit that draws it: already counted in the box, but not back there until used."""
    epoch = ctx.s.epoch
    tile = draw_god(ctx, lambda t: ev.GodGained(seat=seat, tile=t, source=source, points=epoch), in_use)
    if tile is not None:
        god_benefit(ctx, seat, tile, source)


def god_benefit(ctx: Context, seat: int, tile: str, source: str) -> None:
    """The immediate benefit of a gods tile just gained."""
    god = god_of(tile)
    if god == "surparit" and source != "surparit":
        gain_top_god(ctx, seat, "surparit", in_use=tile)
    elif god == "plaesiris":
        take_half_gods(ctx, seat, PLAESIRIS_HALF_GODS, from_display=source == "board")
    elif god == "taksator":
        take_special_money(ctx, seat)


def take_half_gods(ctx: Context, seat: int, n: int, *, from_display: bool) -> None:
    """Take n half gods: the highest of the display first if `from_display`, else the stack's top."""
    for _ in range(n):
        display = ctx.s.half_god_display
        if from_display and display:
            ctx.emit(ev.HalfGodTaken(seat=seat, source="display", value=max(display)))
            continue
        picked = pick_half_gods(ctx.s, ctx.rng, 1)
        if not picked:
            return
        ctx.emit(ev.HalfGodTaken(seat=seat, source="stack", value=picked[0]))


def take_special_money(ctx: Context, seat: int) -> None:
    if ctx.s.special_money:
        ctx.emit(ev.SpecialMoneyTaken(seat=seat, value=ctx.s.special_money[0]))


def gain_reserve(ctx: Context, seat: int, feet: int, columns: int) -> None:
    """Pieces from the general reserve, only what it still holds."""
    me = ctx.s.seats[seat]
    feet, columns = min(feet, me.general_feet), min(columns, me.general_columns)
    if feet or columns:
        ctx.emit(ev.ReserveGained(seat=seat, feet=feet, columns=columns))


def tile_effect(ctx: Context, seat: int, effect: Effect, *, loot: bool) -> None:
    """What a loot tile (at the end of the action) or a bonus tile (epoch 1) does."""
    kind = effect.effect
    me = ctx.s.seats[seat]
    if kind == "reserve" and effect.choice:
        if me.general_feet and me.general_columns:
            ctx.push(Task(kind="reserve_choice", seat=seat, n=effect.feet))
        else:
            gain_reserve(ctx, seat, effect.feet, effect.columns)
    elif kind == "reserve":
        gain_reserve(ctx, seat, effect.feet, effect.columns)
    elif kind == "half_god":
        take_half_gods(ctx, seat, 1, from_display=loot)
    elif kind == "gods_tile":
        gain_top_god(ctx, seat, "loot" if loot else "bonus")
    elif kind == "sacrifice":
        ctx.push(Task(kind="sacrifice", seat=seat, n=effect.steps))
    elif kind == "draw":
        draw_cards(ctx, seat, effect.cards, "loot")
    elif kind == "money_card":
        take_special_money(ctx, seat)
    elif kind == "column":
        ctx.push(Task(kind="bonus_column", seat=seat))


# --- automatic tasks ------------------------------------------------------------------------


def _prepare(ctx: Context, task: Task) -> None:
    s = ctx.s
    left = [n for n in NATIONS if n not in s.nations_played]
    ctx.emit(ev.NationRevealed(epoch=s.epoch + 1, nation=left[ctx.rng.randbelow(len(left))]))
    for _ in range(s.players + 1):
        tile = draw_god(ctx, lambda t: ev.GodsRevealed(tiles=[t]))
        if tile is not None and god_of(tile) == "plaesiris":
            _display_half_gods(ctx, PLAESIRIS_HALF_GODS)
    _place_loot(ctx)
    order = seat_order(s.starting_seat, s.players)
    tasks = _trait_tasks(s.nation, order) + [Task(kind="temple"), Task(kind="depraccus")]
    if s.epoch == 1:
        tasks += _bonus_tasks(ctx, order)
    ctx.push(*tasks, Task(kind="turn", seat=s.starting_seat))


def _display_half_gods(ctx: Context, n: int) -> None:
    values = pick_half_gods(ctx.s, ctx.rng, n)
    if values:
        ctx.emit(ev.HalfGodsDisplayed(values=values))


def _place_loot(ctx: Context) -> None:
    s = ctx.s
    board = board_of(s)
    bag = dict(s.loot_bag)
    placed = []
    for index in board.usable_loot_hexes(s.nation, s.players):
        tile = pick_from_bag(ctx.rng, bag)
        if tile is not None:
            placed.append((coords_of(board, index), tile))
    ctx.emit(ev.LootPlaced(tiles=placed))
    half_gods = sum(1 for _, tile in placed if components_of(s).loot[tile].effect == "half_god")
    if half_gods:
        _display_half_gods(ctx, half_gods)


def _trait_tasks(nation: str, order: list[int]) -> list[Task]:
    per_seat = {
        "gallia": "gallia",
        "germania": "hand7",
        "graecia": "hand7",
        "aegyptus": "exchange",
        "iberia": "sacrifice",
        "roma": "roma",
        "cartago": "cartago",
    }
    if nation == "persia":
        return [Task(kind="persia")]
    item = "optional" if nation == "iberia" else ""
    return [Task(kind=per_seat[nation], seat=s, n=1, item=item) for s in order]


def _bonus_tasks(ctx: Context, order: list[int]) -> list[Task]:
    tasks = []
    if ctx.s.options.bonus_tiles == "draft":
        tasks = [Task(kind="choose_bonus", seat=s) for s in reversed(order)]
    return tasks + [Task(kind="bonus", seat=s) for s in order]


def _persia(ctx: Context, task: Task) -> None:
    ctx.emit(ev.SpecialMoneyResorted(order=sorted(ctx.s.special_money, reverse=True)))


def _hand7(ctx: Context, task: Task) -> None:
    size = sum(ctx.s.seats[task.seat].hand)
    if size > GERMANIA_HAND:
        ctx.push(Task(kind="discard", seat=task.seat, n=size - GERMANIA_HAND))
    elif size < GERMANIA_HAND:
        draw_cards(ctx, task.seat, GERMANIA_HAND - size, "hand_to_seven")


def _roma(ctx: Context, task: Task) -> None:
    draw_cards(ctx, task.seat, ROMA_CARDS, "roma")


def _temple(ctx: Context, task: Task) -> None:
    board = board_of(ctx.s)
    ctx.emit(ev.TemplePlaced(hex=coords_of(board, board.start_hex[ctx.s.nation])))


def _depraccus(ctx: Context, task: Task) -> None:
    for seat in seat_order(ctx.s.starting_seat, ctx.s.players):
        n = count_gods(ctx.s.seats[seat], "depraccus")
        if n:
            draw_cards(ctx, seat, DEPRACCUS_CARDS * n, "depraccus")


def _bonus(ctx: Context, task: Task) -> None:
    tile = ctx.s.seats[task.seat].bonus
    ctx.emit(ev.BonusActivated(seat=task.seat, tile=tile))
    tile_effect(ctx, task.seat, components_of(ctx.s).bonus[tile], loot=False)


def _loot(ctx: Context, task: Task) -> None:
    ctx.emit(ev.LootActivated(seat=task.seat, tile=task.item))
    tile_effect(ctx, task.seat, components_of(ctx.s).loot[task.item], loot=True)


def _turn(ctx: Context, task: Task) -> None:
    traitera = count_gods(ctx.s.seats[task.seat], "traitera")
    ctx.push(Task(kind="action", seat=task.seat), Task(kind="end_action", seat=task.seat, n=traitera))


def phase_over(s: State) -> bool:
    """The last loot tile or the last gods tile has left the board this epoch."""
    return bool((s.loot_revealed and not s.loot_board) or (s.gods_revealed and not s.gods_board))


def _end_action(ctx: Context, task: Task) -> None:
    s = ctx.s
    if phase_over(s):
        ctx.emit(ev.TurnPhaseEnded(seat=task.seat, points=PHASE_END_POINTS))
        ctx.push(Task(kind="end_epoch", seat=task.seat))
    elif task.n and count_gods(s.seats[task.seat], "traitera"):
        ctx.push(Task(kind="extra_action", seat=task.seat, n=task.n))
    else:
        ctx.push(Task(kind="turn", seat=(task.seat + 1) % s.players))


def _end_epoch(ctx: Context, task: Task) -> None:
    s = ctx.s
    epoch = s.epoch
    ctx.emit(ev.EpochEnded(epoch=epoch, next_starting_seat=(task.seat + 1) % s.players))
    if epoch in SCORING_EPOCHS:
        ctx.emit(ev.Scored(epoch=epoch, rows=[score_row(seat) for seat in s.seats]))
    if epoch == EPOCHS:
        _game_end(ctx)
    else:
        ctx.push(Task(kind="prepare"))


def score_row(seat: SeatState) -> ev.ScoreRow:
    """One seat's scoring: half gods, then columns, then Pietalte."""
    half = sum(seat.half_gods)
    columns = column_points(len(seat.columns_on_board))
    pietalte = count_gods(seat, "pietalte") * max(seat.sacrifice)
    return ev.ScoreRow(half_gods=half, columns=columns, pietalte=pietalte, total=half + columns + pietalte)


def _game_end(ctx: Context) -> None:
    seats = ctx.s.seats
    best = max((seat.score, len(seat.half_gods)) for seat in seats)
    winners = [i for i, seat in enumerate(seats) if (seat.score, len(seat.half_gods)) == best]
    ctx.emit(
        ev.GameEnded(
            scores=[seat.score for seat in seats], half_gods=[sorted(seat.half_gods) for seat in seats], winners=winners
        )
    )


AUTOMATIC: dict[str, Callable[[Context, Task], None]] = {
    "prepare": _prepare,
    "persia": _persia,
    "hand7": _hand7,
    "roma": _roma,
    "temple": _temple,
    "depraccus": _depraccus,
    "bonus": _bonus,
    "loot": _loot,
    "turn": _turn,
    "end_action": _end_action,
    "end_epoch": _end_epoch,
}


def _needless(ctx: Context, task: Task) -> bool:
    """A decision with nothing to decide: skipped (only ever on public information)."""
    s = ctx.s
    me = s.seats[task.seat]
    if task.kind == "sacrifice":
        return not sacrifice_options(me)
    if task.kind == "exchange":
        return not ((me.feet and me.general_columns) or (me.columns and me.general_feet))
    if task.kind == "bonus_column":
        return not me.general_columns or not bonus_column_sites(s, task.seat)
    return False


def bonus_column_sites(s: State, seat: int) -> list[int]:
    """Column sites with room for one more column of this seat."""
    board = board_of(s)
    return [
        i
        for i in board.column_sites
        if len(s.occupants.get(i, ())) < 2 and all(c >> 1 != seat for c in s.occupants.get(i, ()))
    ]


_MAYBE_NEEDLESS = frozenset({"sacrifice", "exchange", "bonus_column"})  # the kinds `_needless` may skip


def advance(ctx: Context) -> None:
    """Run automatic tasks until a seat must decide or the game is over."""
    agenda = ctx.s.agenda  # the tasks change it in place (Context.push), never replace it
    while agenda:
        task = agenda[0]
        kind = task.kind
        if kind in DECISIONS:
            if kind not in _MAYBE_NEEDLESS or not _needless(ctx, task):
                return
            agenda.pop(0)
            continue
        agenda.pop(0)
        AUTOMATIC[kind](ctx, task)
