"""Choice trees (domain.choices) for every decision kind of rules §23.1: every legal command of
the awaited seat, reached choice by choice, with labels a person understands.

Keys: `deck` / `general_discard` / `god_discard` (step 1); `column:<id>` (a column; `column:new`);
`card:<id>` (a card of a hand); `power:<god>:<minor|major>` then the use's parameters as
`name=value|…`; `repair:<temple>`; `end_turn`; `pass`; `move=<card>><column>` then `done` or a
second move (Migration); `temple:<id>` / `none` (an undefended defender); `add:<column>` / `done`
(a war commitment, columns in column order); `skip` (no battle card); `to:<column>` / `to:new:k`
(each survivor in id order); `general:<card>` / `gods:<card>` (discards, bottom first).

Survivors going to new columns are offered as new:1, new:2, … in order of first use; any other
numbering decide accepts places the cards the same way."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from domain.choices import ChoiceList, Menu, branch, follow, leaf
from domain.words import player_name

from . import commands as cmd
from . import flow
from .commands import NEW
from .labels import card_phrase, column_phrase, plural, short
from .legal import (
    battle_cards,
    commit_options,
    draw_sources,
    mischief_plays,
    plays,
    remaining_survivors,
    survivor_destinations,
    undefended_targets,
)
from .power_menus import migration_menu, params_key, power_entries, special_power, use_label
from .rules import card, column_value, find_column
from .state import State


def choices(state: State | None, seat: int, path: tuple[str, ...] = ()) -> ChoiceList:
    """The choices of `seat`'s awaited decision after following `path`; none when the seat is not
    awaited; DomainError `unknown_choice` for a path not in the tree."""
    if state is None or state.finished or state.decision is None or state.awaiting != seat:
        return follow(None, Menu("Nothing to decide: the game does not await this seat now.", []), path)
    return follow(state.decision, _ROOTS[state.decision](state, seat), path)


def _draw(s: State, seat: int) -> Menu:
    labels = {
        "deck": f"Draw the top card of the deck ({plural(s.deck, 'card')} left; a god is attracted at once)",
        "general_discard": f"Take {card_phrase(s, s.general[-1])} from the general discard pile" if s.general else "",
        "god_discard": f"Take {card_phrase(s, s.gods[-1])} from the god discard pile" if s.gods else "",
    }
    return Menu(
        "Step 1: draw a card.",
        [leaf(src, labels[src], cmd.DrawCard(seat=seat, source=src), source=src) for src in draw_sources(s)],  # type: ignore[arg-type]
    )


def _god_column(s: State, seat: int) -> Menu:
    god = s.revealed or ""
    return Menu(
        f"{short(s, god)} is attracted to one of your columns: which one?",
        [
            leaf(
                f"column:{c}",
                f"{short(s, god)} into {column_phrase(s, c, seat)}",
                cmd.ChooseGodColumn(seat=seat, column=c),
                column=c,
                card=god,
            )
            for c in s.attraction
        ],
    )


def _destination_label(s: State, card_id: str, column_id: str, receiver: int, me: int) -> str:
    if column_id == NEW:
        whose = "a new column of yours" if receiver == me else f"a new column of {player_name(receiver)}"
        return f"{card_phrase(s, card_id)} into {whose}"
    col = find_column(s, column_id)
    assert col is not None
    c = card(s, card_id)
    where = column_phrase(s, column_id, me)
    if c.type == "temple" and col.temple:
        return f"{short(s, card_id)} on {where} (replaces its {short(s, col.temple)}, which is discarded)"
    if c.type == "worshiper":
        after = column_value(s, col) + c.level * _mult(s, receiver)
        return f"{short(s, card_id)} on {where} (value {column_value(s, col):,} → {after:,})"
    return f"{card_phrase(s, card_id)} on {where}"


def _mult(s: State, seat: int) -> int:
    from .rules import multiplier

    return multiplier(s, seat)


def _play(s: State, seat: int) -> Menu:
    by_card: dict[str, list[str]] = {}
    for p in plays(s, seat):
        by_card.setdefault(p.card, []).append(p.column)

    def destinations(card_id: str) -> Menu:
        return Menu(
            f"Step 2: where does {short(s, card_id)} go?",
            [
                leaf(
                    f"column:{col}",
                    "Play " + _destination_label(s, card_id, col, seat, seat),
                    cmd.PlayCard(seat=seat, card=card_id, column=col),
                    card=card_id,
                    column=col,
                )
                for col in by_card[card_id]
            ],
        )

    return Menu(
        "Step 2: play one card from your hand into your columns.",
        [
            branch(f"card:{c}", f"Play {card_phrase(s, c)}", partial(destinations, c), card=c)
            for c, cols in by_card.items()
        ],
    )


def _battle_turn(s: State, seat: int) -> Menu:
    entries = power_entries(s, seat)
    entries.append(leaf("pass", "Pass this battle turn", cmd.PassBattleTurn(seat=seat)))
    return Menu("Battle of Pantheons: employ one power of one of your gods, or pass.", entries)


def _spied(s: State, seat: int) -> Menu:
    return Menu(
        f"Spies: take one card of {player_name(s.spied)}'s hand into yours.",
        [
            leaf(f"card:{c}", f"Take {card_phrase(s, c)}", cmd.TakeSpiedCard(seat=seat, card=c), card=c)
            for c in sorted(set(s.hands[s.spied]))
        ],
    )


def _mischief(s: State, seat: int) -> Menu:
    x = s.revealed or ""
    c = card(s, x)
    name = short(s, x)
    if c.effect == "migration":
        targets = sorted({p.target for p in mischief_plays(s, seat, x)})
        return Menu(
            f"Mischief: play {name} on another player.",
            [
                branch(
                    f"target={t}",
                    f"Play {name} on {player_name(t)}",
                    partial(
                        migration_menu,
                        s,
                        partial(_mischief_moves, seat, t),
                        t,
                        seat,
                        f"{name} on {player_name(t)}",
                    ),
                    seat=t,
                )
                for t in targets
            ],
        )
    entries = []
    for p in mischief_plays(s, seat, x):
        if c.type in ("worshiper", "temple", "god"):
            label = "Play " + _destination_label(s, x, p.column or NEW, p.target, seat)
        else:
            label = f"Play {use_label(s, seat, c.name, cmd.PlayCivilization(seat=seat, card=x, target=p.target, column=p.column, temple=p.temple))}"
        entries.append(leaf(params_key(p, ("target", "column", "temple")), label, p, seat=p.target, card=x))
    return Menu(f"Mischief took {card_phrase(s, x)} from your hand: you must play it on another player.", entries)


def _mischief_moves(seat: int, target: int, moves: list[cmd.Move]) -> cmd.MischiefPlay:
    return cmd.MischiefPlay(seat=seat, target=target, moves=moves)


def _undefended(s: State, seat: int) -> Menu:
    war = s.war
    assert war is not None
    entries = [
        leaf(
            f"temple:{t}",
            f"Damage {short(s, t)} of {player_name(war.defender)}",
            cmd.DamageUndefendedTemple(seat=seat, temple=t),
            temple=t,
        )
        for t in undefended_targets(s)
    ]
    entries.append(leaf("none", "Damage no temple", cmd.DamageUndefendedTemple(seat=seat, temple=None)))
    return Menu("The defender has no worshipers: you may damage one of its temples.", entries)


def _commit(s: State, seat: int, chosen: tuple[str, ...] = ()) -> Menu:
    options = commit_options(s, seat)
    start = options.index(chosen[-1]) + 1 if chosen else 0
    entries = [
        branch(f"add:{c}", f"Commit {column_phrase(s, c, seat)}", partial(_commit, s, seat, (*chosen, c)), column=c)
        for c in options[start:]
    ]
    if chosen:
        names = ", ".join(column_phrase(s, c, seat, False) for c in chosen)
        entries.insert(
            0,
            leaf(
                "done",
                f"Commit {names} (sealed until both sides have committed)",
                cmd.CommitWarColumns(seat=seat, columns=list(chosen)),
            ),
        )
    return Menu("War: commit one or more of your columns holding worshipers.", entries)


def _battle_card(s: State, seat: int) -> Menu:
    entries = [
        leaf(f"card:{c}", f"Play {card(s, c).name} before the battle", cmd.PlayBattleCard(seat=seat, card=c), card=c)
        for c in battle_cards(s, seat)
    ]
    entries.append(leaf("skip", "Play no battle card", cmd.SkipBattleCard(seat=seat)))
    return Menu("War: play one battle card before the battle, or none.", entries)


def _survivors(s: State, seat: int, placed: tuple[str, ...] = ()) -> Menu:
    cards = remaining_survivors(s)
    used_new = max([int(d[4:]) for d in placed if d.startswith("new:")], default=0)
    spots = [
        d for d in survivor_destinations(s, seat, len(cards)) if not d.startswith("new:") or int(d[4:]) <= used_new + 1
    ]
    worshiper = cards[len(placed)]
    entries = []
    for d in spots:
        where = f"new column {d[4:]}" if d.startswith("new:") else column_phrase(s, d, seat)
        label = f"Place {short(s, worshiper)} into {where}"
        dests = (*placed, d)
        if len(dests) == len(cards):
            command = cmd.PlaceSurvivors(
                seat=seat, placements=[cmd.Placement(worshiper=w, destination=x) for w, x in zip(cards, dests)]
            )
            entries.append(leaf(f"to:{d}", label, command, card=worshiper, column=d))
        else:
            entries.append(branch(f"to:{d}", label, partial(_survivors, s, seat, dests), card=worshiper, column=d))
    return Menu(f"Your war survivors: where does {short(s, worshiper)} go?", entries)


def _order(s: State, seat: int, general: tuple[str, ...] = (), gods: tuple[str, ...] = ()) -> Menu:
    pg, pd = s.pending_general, s.pending_gods
    doing_general = len(pg) > 1 and len(general) < len(pg)
    pile, done, pending = ("general", general, pg) if doing_general else ("gods", gods, pd)
    rest = [c for c in pending if c not in done]
    entries = []
    for c in sorted(set(rest)):
        g2, d2 = ((*general, c), gods) if doing_general else (general, (*gods, c))
        remaining = [x for x in rest if x != c]
        if len(remaining) == 1:  # the last card has one place
            g2, d2 = ((*g2, remaining[0]), d2) if doing_general else (g2, (*d2, remaining[0]))
        complete = len(g2) == (len(pg) if len(pg) > 1 else 0) and len(d2) == (len(pd) if len(pd) > 1 else 0)
        label = f"Lay {short(s, c)} next on the {'general' if doing_general else 'god'} discard pile"
        if complete:
            entries.append(
                leaf(f"{pile}:{c}", label, cmd.OrderDiscards(seat=seat, general=list(g2), gods=list(d2)), card=c)
            )
        else:
            entries.append(branch(f"{pile}:{c}", label, partial(_order, s, seat, g2, d2), card=c))
    return Menu(
        f"End of turn: order this turn's discards onto the {pile} pile, bottom first (the last is on top).", entries
    )


_ROOTS: dict[str, Callable[[State, int], Menu]] = {
    flow.DRAW_CARD: _draw,
    flow.CHOOSE_GOD_COLUMN: _god_column,
    flow.PLAY_CARD: _play,
    flow.SPECIAL_POWER: special_power,
    flow.BATTLE_TURN: _battle_turn,
    flow.TAKE_SPIED_CARD: _spied,
    flow.MISCHIEF_PLAY: _mischief,
    flow.DAMAGE_UNDEFENDED: _undefended,
    flow.COMMIT: _commit,
    flow.BATTLE_CARD: _battle_card,
    flow.PLACE_SURVIVORS: _survivors,
    flow.ORDER_DISCARDS: _order,
}
