"""The menus of step 3 (§5, §12-§14): the powers of a seat's gods with each use's parameters, the
civilization cards in hand, Migration's moves, repairs and the end of the turn; choices.py roots them."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from domain.choices import Entry, Menu, branch, leaf

from . import commands as cmd
from .commands import NEW
from .labels import column_phrase, power_name, seat_phrase, short
from .legal import (
    civ_uses,
    migration_moves,
    power_uses,
    repairs,
)
from .rules import card, find_column, locate, next_column_id
from .state import State


def params_key(command: Any, fields: tuple[str, ...]) -> str:
    return "|".join(f"{f}={getattr(command, f)}" for f in fields if getattr(command, f, None) not in (None, []))


_POWER_FIELDS = ("mode", "target", "target_god", "worshiper", "temple", "column")


def use_label(s: State, me: int, power: str, u: Any) -> str:
    """What one use of a power or card does, in words: 'God of Weather (famine) on Player B',
    'God of Death (attack) against Zeus of Player C', "Plague on Player B's column 2 (...)"."""
    mode = getattr(u, "mode", None)
    target = getattr(u, "target", None)
    parts: list[str] = []
    if getattr(u, "target_god", None):
        g = u.target_god
        found = locate(s, g)
        parts.append(
            ("against " if mode != "move" else "moving ")
            + short(s, g)
            + (f" of {seat_phrase(found[0], me)}" if found else "")
        )
    if getattr(u, "worshiper", None):
        found = locate(s, u.worshiper)
        parts.append(
            "on " + short(s, u.worshiper) + (f" in {column_phrase(s, found[1].id, me, False)}" if found else "")
        )
    if getattr(u, "temple", None):
        found = locate(s, u.temple)
        parts.append("on " + short(s, u.temple) + (f" of {column_phrase(s, found[1].id, me, False)}" if found else ""))
    if getattr(u, "column", None):
        parts.append(("to " if mode == "move" else "on ") + column_phrase(s, u.column, me))
    if target is not None and not getattr(u, "column", None) and not getattr(u, "temple", None):
        parts.append(f"on {seat_phrase(target, me)}")
    head = power + (f" ({mode})" if mode else "")
    return " ".join([head, *parts])


def _power_menu(s: State, seat: int, col_id: str, slot: str) -> Menu:
    col = find_column(s, col_id)
    assert col is not None and col.god is not None
    god = card(s, col.god)
    power = god.minor if slot == "minor" else god.major
    return Menu(
        f"{god.name}'s {slot.capitalize()} power, {power_name(s, power)}: choose its target.",
        [
            leaf(
                params_key(u, _POWER_FIELDS) or "use",
                f"Employ {god.name}'s {slot.capitalize()} power, " + use_label(s, seat, power_name(s, power), u),
                u,
                god=col.god,
            )
            for u in power_uses(s, seat, col, slot)
        ],
    )


def power_entries(s: State, seat: int) -> list[Entry]:
    out = []
    for col in s.columns[seat]:
        if col.god is None:
            continue
        god = card(s, col.god)
        for slot in ("minor", "major"):
            if power_uses(s, seat, col, slot):
                power = god.minor if slot == "minor" else god.major
                out.append(
                    branch(
                        f"power:{col.god}:{slot}",
                        f"Employ {god.name}'s {slot.capitalize()} power, {power_name(s, power)}",
                        partial(_power_menu, s, seat, col.id, slot),
                        god=col.god,
                    )
                )
    return out


_CIV_FIELDS = ("target", "column", "temple")


def migration_menu(s: State, make: Callable[[list[cmd.Move]], Any], subject: int, me: int, title: str) -> Menu:
    def second(first: cmd.Move) -> Menu:
        moves = [m for m in migration_moves(s, subject) if m.worshiper != first.worshiper]
        if first.destination == NEW:
            new_id = next_column_id(s, subject)
            moves += [
                cmd.Move(worshiper=w, destination=new_id)
                for c in s.columns[subject]
                for w in c.worshipers
                if w != first.worshiper
            ]
        entries = [leaf("done", f"{title}: move only {short(s, first.worshiper)}", make([first]))]
        entries += [
            leaf(
                f"move={m.worshiper}>{m.destination}", f"{title}: then move {_move_phrase(s, m, me)}", make([first, m])
            )
            for m in moves
        ]
        return Menu(f"{title}: a second move, or stop after one.", entries)

    return Menu(
        f"{title}: the first move.",
        [
            branch(f"move={m.worshiper}>{m.destination}", f"{title}: move {_move_phrase(s, m, me)}", partial(second, m))
            for m in migration_moves(s, subject)
        ],
    )


def _move_phrase(s: State, m: cmd.Move, me: int) -> str:
    where = (
        "a new column"
        if m.destination == NEW
        else (column_phrase(s, m.destination, me) if find_column(s, m.destination) else "the new column")
    )
    return f"{short(s, m.worshiper)} to {where}"


def _civ_menu(s: State, seat: int, card_id: str) -> Menu:
    name = card(s, card_id).name
    uses = civ_uses(s, seat, card_id)
    if card(s, card_id).effect == "migration":
        return migration_menu(
            s, lambda moves: cmd.PlayCivilization(seat=seat, card=card_id, moves=moves), seat, seat, f"Play {name}"
        )
    return Menu(
        f"Play {name}: choose its target.",
        [
            leaf(params_key(u, _CIV_FIELDS) or "play", f"Play {use_label(s, seat, name, u)}", u, card=card_id)
            for u in uses
        ],
    )


def special_power(s: State, seat: int) -> Menu:
    entries = power_entries(s, seat)
    for c in sorted({u.card for u in _civ_cards(s, seat)}):
        entries.append(branch(f"card:{c}", f"Play {card(s, c).name}", partial(_civ_menu, s, seat, c), card=c))
    entries += [
        leaf(f"repair:{r.temple}", f"Repair your damaged {short(s, r.temple)}", r, temple=r.temple)
        for r in repairs(s, seat)
    ]
    entries.append(leaf("end_turn", "End your turn without a special power", cmd.EndTurn(seat=seat)))
    return Menu("Step 3: employ a godly power, play a civilization card, repair a temple, or nothing.", entries)


def _civ_cards(s: State, seat: int) -> list[cmd.PlayCivilization]:
    return [
        u for c in sorted(set(s.hands[seat])) if card(s, c).type == "civilization" for u in civ_uses(s, seat, c)[:1]
    ]
