"""Pantheon's choice trees: every legal command of the awaited seat, reached choice by choice
(`domain.choices`), so a client can play without knowing the rules.

Keys are short, stable strings: `move`, `buy`, `gain`, `draw` (the action), `cards:2` (movement
cards), `foot@16,5` / `column@15,3` / `jump@18,4` (a placement at axial q,r), `2xmoney+1xmoney_3`
or `none` (money cards played), `tile:priest:3`, `reserve:foot:2` (purchases), `done` (the
sequence so far), `pass`, `pile` / `slot:2` (a draw), a gods or bonus tile id, `2xpriest+1xdancer`
or `none` (sacrifice cards paid), a card name (discard), `foot:2` (exchange), a sacrifice kind,
`draw` / `reveal` (Gallia), `traitera`, `foot` / `column` (a reserve choice).

`refers` keys: `action`; `cards` and `steps` (movement cards and the steps they give); `money`
({card: count}) and `budget`; `piece` ("foot"/"column"), `hex` ([q, r]), `cost`, `jump` (a
placement); `kind` and `level` (a sacrifice tile), `count` (pieces); `slot` and `card` (a display
slot and its card), `pile` (the draw pile); `tile` (a gods or bonus tile id) and `payment`
({sacrifice kind: cards}); `choice` (Gallia); `give` (Aegyptus); `card` and `discarded` (a
discard); `done` with `placements` or `purchases` (how many); `pass`."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from domain.choices import ChoiceList, Entry, Menu, branch, follow, leaf

from . import commands as cmd
from .choice_sequences import buy_menu, movement_menu, placement_key, spend_menu
from .events import Task
from .flow import bonus_column_sites
from .labels import CARD_NAMES, cards_phrase, effect_phrase, god_phrase, hex_phrase, plural
from .names import bonus_name
from .rules import (
    board_of,
    components_of,
    coords_of,
    count_gods,
    money_of,
    payment_options,
    sacrifice_options,
    stonkus_money,
)
from .state import SeatState, State
from .vocabulary import CARDS, CARTAGO_MONEY, COLUMN, DRAW_ACTION_CARDS, EMPTY_SLOT, SACRIFICE_INDEX, Piece


def choices(state: State | None, seat: int, path: tuple[str, ...] = ()) -> ChoiceList:
    """The choices of `seat`'s awaited decision after following `path` (keys from the root);
    no choices when the seat is not awaited; DomainError `unknown_choice` for a path not in the tree."""
    if state is None or state.finished or not state.agenda or state.agenda[0].seat != seat:
        return follow(None, Menu("Nothing to decide: the game does not await this seat now.", []), path)
    task = state.agenda[0]
    return follow(task.kind, _ROOTS[task.kind](state, seat, task), path)


def _pass(seat: int, label: str) -> Entry:
    return leaf("pass", label, cmd.Pass(seat=seat), **{"pass": True})


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- the action -------------------------------------------------------------------------------


def _action(state: State, seat: int, task: Task) -> Menu:
    me = state.seats[seat]
    entries = [
        branch(
            "move",
            "Movement: take the big foot (1 step), play movement cards and place pieces",
            partial(movement_menu, state, seat, big_foot=True),
            action="move",
        )
    ]
    if money_of(me.hand) + stonkus_money(state, me):
        entries.append(
            branch(
                "buy",
                "Buying: play money cards, then buy sacrifice tiles, pieces or placements",
                partial(buy_menu, state, seat),
                action="buy",
            )
        )
    gods = _gods_entries(state, seat)
    if gods:
        entries.append(
            branch(
                "gain",
                "Gain a gods tile: make its sacrifice and take it from the board",
                partial(Menu, "Which gods tile do you gain?", gods),
                action="gain_god",
            )
        )
    picks = DRAW_ACTION_CARDS + count_gods(me, "gadicea")
    entries.append(
        branch(
            "draw",
            f"Drawing: take {plural(picks, 'card')}, one at a time, from the display or the pile",
            partial(_draw, state, seat, picks, picks),
            action="draw",
        )
    )
    return Menu("Choose your action.", entries)


def _gods_entries(state: State, seat: int) -> list[Entry]:
    """One choice per payable tile on the board: a leaf when it has one least payment."""
    entries = []
    for tile in state.gods_board:
        payments = _payments(state, seat, tile, first_only=False)
        label = f"{god_phrase(state, tile)}; +{plural(state.epoch, 'point')}"
        if len(payments) == 1:
            only = payments[0].choice
            pay = only.refers["payment"]
            entries.append(leaf(tile, f"{label}; pay {_payment_words(pay)}", only.command, tile=tile, payment=pay))
        elif payments:
            entries.append(branch(tile, label, partial(Menu, f"How do you pay for {tile}?", payments), tile=tile))
    return entries


def _payments(state: State, seat: int, tile: str, *, first_only: bool, verb: str = "") -> list[Entry]:
    """A leaf per least payment in sacrifice cards (the seat's tiles counted)."""
    entries = []
    for pay in payment_options(state.seats[seat], components_of(state).gods[tile], first_only):
        key = "+".join(f"{n}x{kind}" for kind, n in pay.items()) or "none"
        entries.append(
            leaf(
                key,
                _capital(f"{verb}{_payment_words(pay)}"),
                cmd.GainGod(seat=seat, tile=tile, sacrifice=pay),
                tile=tile,
                payment=pay,
            )
        )
    return entries


def _payment_words(pay: dict[str, int]) -> str:
    return cards_phrase(pay) if pay else "no cards (your sacrifice tiles cover it)"


def _draw(state: State, seat: int, left: int, total: int) -> Menu:
    entries = [
        leaf("pile", "Draw the top card of the draw pile (unseen)", cmd.DrawCard(seat=seat, slot=None), pile=True)
    ]
    for slot, card in enumerate(state.display):
        if card != EMPTY_SLOT:
            name = CARDS[card]
            entries.append(
                leaf(
                    f"slot:{slot}",
                    f"Take the card in display slot {slot} ({CARD_NAMES[name]})",
                    cmd.DrawCard(seat=seat, slot=slot),
                    slot=slot,
                    card=name,
                )
            )
    return Menu(f"Take card {total - left + 1} of {total}: from the display or the draw pile.", entries)


# --- the decisions after and around an action -------------------------------------------------


def _follow_up(state: State, seat: int, task: Task) -> Menu:
    menu = movement_menu(state, seat, big_foot=False, first=[_pass(seat, "Pass: do not move; draw 1 card instead")])
    return Menu(
        "Follow the movement without the big foot: how many movement cards do you play? Or pass and draw 1 card.",
        menu.entries,
    )


def _draw_task(state: State, seat: int, task: Task) -> Menu:
    total = max(task.n, DRAW_ACTION_CARDS + count_gods(state.seats[seat], "gadicea"))
    return _draw(state, seat, task.n, total)


def _extra_action(state: State, seat: int, task: Task) -> Menu:
    return Menu(
        "Spend a Traitera for one more action, or end your turn.",
        [
            leaf(
                "traitera", "Spend a Traitera (it goes to the box) and take one more action", cmd.UseTraitera(seat=seat)
            ),
            _pass(seat, "End your turn"),
        ],
    )


# --- nations, bonus and loot ------------------------------------------------------------------


def _gallia(state: State, seat: int, task: Task) -> Menu:
    entries = [
        leaf("draw", "Draw 2 cards from the draw pile", cmd.GalliaChoice(seat=seat, choice="draw"), choice="draw")
    ]
    if state.gods_stack or state.gods_box:
        entries.append(
            leaf(
                "reveal",
                "Reveal the top gods tile: you may gain it by paying only its first number",
                cmd.GalliaChoice(seat=seat, choice="reveal"),
                choice="reveal",
            )
        )
    return Menu("Gallia: draw 2 cards, or reveal the top gods tile.", entries)


def _gallia_gain(state: State, seat: int, task: Task) -> Menu:
    tile = task.item
    entries = _payments(state, seat, tile, first_only=True, verb=f"gain {tile}, paying ")
    entries.append(_pass(seat, f"Decline {tile} (it goes to the box)"))
    return Menu(f"Gallia revealed {god_phrase(state, tile)}. Gain it for its first number only, or decline.", entries)


def _discard(state: State, seat: int, task: Task, chosen: tuple[int, ...] = ()) -> Menu:
    """One card at a time, in card order (so each set of cards has one path); the last is a leaf."""
    hand, n = state.seats[seat].hand, task.n
    entries = []
    for card in range(chosen[-1] if chosen else 0, len(CARDS)):
        after = (*chosen, card)
        if after.count(card) > hand[card] or sum(hand[card:]) - chosen.count(card) < n - len(chosen):
            continue
        name, counts = CARDS[card], {CARDS[c]: after.count(c) for c in sorted(set(after))}
        label = f"Discard a {CARD_NAMES[name]} card"
        if len(after) == n:
            entries.append(
                leaf(
                    name,
                    f"{label} (discarding {cards_phrase(counts)})",
                    cmd.Discard(seat=seat, cards=counts),
                    card=name,
                    discarded=counts,
                )
            )
        else:
            entries.append(
                branch(name, label, partial(_discard, state, seat, task, after), card=name, discarded=counts)
            )
    return Menu(f"Discard {plural(n, 'card')} to keep 7: card {len(chosen) + 1} of {n}.", entries)


def _exchange(state: State, seat: int, task: Task) -> Menu:
    me = state.seats[seat]
    entries = []
    exchanges: tuple[tuple[Piece, Piece, int], ...] = (
        ("foot", "column", min(me.feet, me.general_columns)),
        ("column", "foot", min(me.columns, me.general_feet)),
    )
    for give, get, most in exchanges:
        entries += [
            leaf(
                f"{give}:{n}",
                f"Give back {plural(n, give)} for {plural(n, get)}",
                cmd.Exchange(seat=seat, give=give, count=n),
                give=give,
                count=n,
            )
            for n in range(1, most + 1)
        ]
    entries.append(_pass(seat, "Exchange nothing"))
    return Menu("Aegyptus: exchange feet for columns or columns for feet, one for one.", entries)


def _sacrifice(state: State, seat: int, task: Task) -> Menu:
    levels = state.seats[seat].sacrifice
    entries = []
    for kind in sacrifice_options(state.seats[seat]):
        have = levels[SACRIFICE_INDEX[kind]]
        label = (
            f"Raise your {kind.capitalize()} tile to level {have + 1}"
            if have
            else f"Take a level-1 {kind.capitalize()} tile"
        )
        entries.append(leaf(kind, label, cmd.ImproveSacrifice(seat=seat, kind=kind), kind=kind, level=have + 1))
    if task.item == "optional":
        entries.append(_pass(seat, "Improve nothing"))
    steps = f" ({plural(task.n, 'step')} left)" if task.n > 1 else ""
    return Menu(f"Sacrifice step{steps}: a new level-1 tile of a kind you lack, or one of yours a level up.", entries)


def _cartago(state: State, seat: int, task: Task) -> Menu:
    menu = spend_menu(state, seat, CARTAGO_MONEY, last=[_pass(seat, "Pass: spend nothing")])
    return Menu(
        f"Cartago: spend {CARTAGO_MONEY} money on sacrifice tiles or pieces for your reserve. {menu.prompt}",
        menu.entries,
    )


def _choose_bonus(state: State, seat: int, task: Task) -> Menu:
    bonus = components_of(state).bonus
    return Menu(
        "Choose your bonus tile (it acts after the preparation).",
        [
            leaf(
                tile,
                f"Bonus tile '{bonus_name(tile)}': {effect_phrase(bonus[tile])}",
                cmd.ChooseBonus(seat=seat, tile=tile),
                tile=tile,
            )
            for tile in state.bonus_pool
        ],
    )


def _bonus_column(state: State, seat: int, task: Task) -> Menu:
    board = board_of(state)
    entries = []
    for index in bonus_column_sites(state, seat):
        q, r = coords_of(board, index)
        entries.append(
            leaf(
                placement_key(COLUMN, (q, r)),
                f"Column on {hex_phrase(state, index, seat)}",
                cmd.PlaceColumn(seat=seat, hex=(q, r)),
                piece="column",
                hex=[q, r],
            )
        )
    return Menu("Place a column from the general reserve on any column site with room.", entries)


def _reserve_choices(me: SeatState) -> list[tuple[Piece, int]]:
    return [("foot", me.general_feet), ("column", me.general_columns)]


def _reserve_choice(state: State, seat: int, task: Task) -> Menu:
    me = state.seats[seat]
    return Menu(
        f"Take {plural(task.n, 'foot')} or {plural(task.n, 'column')} from the general reserve.",
        [
            leaf(
                piece,
                f"Take {plural(min(task.n, have), piece)}",
                cmd.ChooseReserve(seat=seat, piece=piece),
                piece=piece,
                count=min(task.n, have),
            )
            for piece, have in _reserve_choices(me)
        ],
    )


_ROOTS: dict[str, Callable[[State, int, Task], Menu]] = {
    "action": _action,
    "follow_up": _follow_up,
    "draw": _draw_task,
    "extra_action": _extra_action,
    "gallia": _gallia,
    "gallia_gain": _gallia_gain,
    "discard": _discard,
    "exchange": _exchange,
    "sacrifice": _sacrifice,
    "cartago": _cartago,
    "choose_bonus": _choose_bonus,
    "bonus_column": _bonus_column,
    "reserve_choice": _reserve_choice,
}
