"""The choice tree lists exactly what decide accepts, checked by brute force: every command of a
small decision (each slot, tile, payment, kind, hex, count ...), and at each level of a movement,
buying or Cartago spending every next step (each piece on each hex of the map, with or without a
jump; each sacrifice tile, reserve count and placement) after the steps chosen so far. As a prefix
of a legal movement or purchase list is legal too, every legal command is a path of the tree."""

import itertools
import json
import random

import pytest

from domain.kernel import DomainError
from domain.pantheon import PANTHEON
from domain.pantheon import commands as cmd
from domain.pantheon.board import load_board
from domain.pantheon.components import load_components
from domain.pantheon.vocabulary import CARDS, MONEY_CARDS, SACRIFICES
from domain.rng import SeededRng

from .helpers_choices import choices, normal, played, random_walk

HEXES = [(h.q, h.r) for h in load_board().hexes]
PIECES = ("foot", "column")


def _key(command) -> str:
    return json.dumps(normal(command), sort_keys=True)


def _accepted(state, commands) -> set[str]:
    found = set()
    for command in commands:
        try:
            PANTHEON.decide(state, command, SeededRng(b"complete"))
        except DomainError:
            continue
        found.add(_key(command))
    return found


def _leaves(state, seat, path=()) -> set[str]:
    found = set()
    for c in choices(state, seat, path).choices:
        found |= _leaves(state, seat, (*path, c.key)) if c.more else {_key(c.command)}
    return found


# --- small decisions ----------------------------------------------------------------------------


def _payments(state, seat, tile):
    hand = state.seats[seat].hand
    ranges = [range(min(hand[CARDS.index(kind)], 5) + 1) for kind in SACRIFICES]
    return [
        cmd.GainGod(seat=seat, tile=tile, sacrifice=dict(zip(SACRIFICES, counts)))
        for counts in itertools.product(*ranges)
    ]


def _discards(state, seat, n):
    hand = state.seats[seat].hand
    for counts in itertools.product(*(range(min(k, n) + 1) for k in hand)):
        if sum(counts) == n:
            yield cmd.Discard(seat=seat, cards=dict(zip(CARDS, counts)))


def _every_small_command(state, seat):
    task, s = state.agenda[0], seat
    pieces = [cmd.ChooseReserve(seat=s, piece=p) for p in PIECES]
    return {
        "draw": lambda: [cmd.DrawCard(seat=s, slot=slot) for slot in (None, -1, 0, 1, 2, 3, 4)],
        "extra_action": lambda: [cmd.UseTraitera(seat=s), cmd.Pass(seat=s)],
        "gallia": lambda: [cmd.GalliaChoice(seat=s, choice=c) for c in ("draw", "reveal")] + [cmd.Pass(seat=s)],
        "gallia_gain": lambda: _payments(state, s, task.item) + [cmd.Pass(seat=s)],
        "discard": lambda: list(_discards(state, s, task.n)),
        "exchange": lambda: (
            [cmd.Exchange(seat=s, give=p, count=n) for p in PIECES for n in range(13)] + [cmd.Pass(seat=s)]
        ),
        "sacrifice": lambda: [cmd.ImproveSacrifice(seat=s, kind=k) for k in SACRIFICES] + [cmd.Pass(seat=s)],
        "choose_bonus": lambda: [cmd.ChooseBonus(seat=s, tile=t) for t in load_components().bonus],
        "bonus_column": lambda: [cmd.PlaceColumn(seat=s, hex=h) for h in HEXES],
        "reserve_choice": lambda: pieces,
    }.get(task.kind)


def test_every_small_decision_lists_exactly_the_commands_decide_accepts():
    checked: dict[str, int] = {}
    for players in (2, 3, 4):
        for game in range(2):
            for ply, (state, _) in enumerate(played(f"small-{players}-{game}", players)):
                seat, kind = state.agenda[0].seat, state.agenda[0].kind
                if kind == "action" and ply % 6 == 0:  # every payment of every tile: many commands
                    gods = [c for tile in state.gods_board for c in _payments(state, seat, tile)]
                    tree = _leaves(state, seat, ("gain",)) if "gain" in _root_keys(state, seat) else set()
                    assert _accepted(state, gods) == tree
                    checked["gain_god"] = checked.get("gain_god", 0) + bool(tree)
                every = _every_small_command(state, seat) if kind != "action" else None
                if every is not None:
                    assert _accepted(state, every()) == _leaves(state, seat), kind
                    checked[kind] = checked.get(kind, 0) + 1
    assert {"gain_god", "draw", "sacrifice", "choose_bonus", "reserve_choice", "discard", "extra_action"} <= set(
        checked
    )


def _root_keys(state, seat):
    return [c.key for c in choices(state, seat, ()).choices]


# --- sequences ----------------------------------------------------------------------------------


def _next_steps(command):
    """The command with one more placement or purchase, for every placement or purchase there is."""
    if isinstance(command, cmd.Move):
        return [
            cmd.Move(
                seat=command.seat,
                cards=command.cards,
                placements=[*command.placements, cmd.Place(piece=p, hex=h, jump=j)],
            )
            for p in PIECES
            for h in HEXES
            for j in (False, True)
        ]
    purchases = (
        [cmd.SacrificeTile(kind=k, level=lv) for k in SACRIFICES for lv in range(1, 5)]
        + [cmd.Reserve(piece=p, count=n) for p in PIECES for n in range(1, 13)]
        + [cmd.PlacePiece(piece=p, hex=h) for p in PIECES for h in HEXES]
    )
    if isinstance(command, cmd.Spend):
        return [cmd.Spend(seat=command.seat, purchases=[*command.purchases, p]) for p in purchases]
    return [cmd.Buy(seat=command.seat, money=command.money, purchases=[*command.purchases, p]) for p in purchases]


def _starts(state, seat, decision):
    """Every movement card count and every money card combination, with nothing placed or bought."""
    hand = state.seats[seat].hand
    moves = [cmd.Move(seat=seat, cards=n) for n in range(hand[0] + 2)]
    if decision != "action":
        return moves
    held = [c for c in MONEY_CARDS if hand[CARDS.index(c)]]
    return moves + [
        cmd.Buy(seat=seat, money=dict(zip(held, counts)))
        for counts in itertools.product(*(range(hand[CARDS.index(c)] + 1) for c in held))
    ]


def _dones(state, seat, path):
    """The 'done' command right after each branch of this level."""
    found = set()
    for c in choices(state, seat, path).choices:
        if c.more:
            after = choices(state, seat, (*path, c.key)).choices
            found |= {_key(d.command) for d in after if d.key == "done"}
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_level_of_a_movement_or_buying_lists_exactly_the_next_steps_decide_accepts(players):
    rnd, levels = random.Random(players), 0
    for state, _ in played(f"levels-{players}", players):
        seat, decision = state.agenda[0].seat, state.agenda[0].kind
        if decision not in ("action", "follow_up", "cartago"):
            continue
        if decision != "cartago" and rnd.random() < 0.3:  # the first level: cards or money
            start = [] if decision == "follow_up" else ["move", "buy"]
            tree = (
                set().union(*(_dones(state, seat, (k,)) for k in start if k in _root_keys(state, seat)))
                if start
                else _dones(state, seat, ())
            )
            assert _accepted(state, _starts(state, seat, decision)) == tree
            levels += 1
            continue
        path, _ = random_walk(state, seat, rnd, deep=0.9)
        stops = [n for n in range(len(path)) if any(c.key == "done" for c in choices(state, seat, path[:n]).choices)]
        if not stops:
            continue
        at = path[: rnd.choice(stops)]
        here = next(c.command for c in choices(state, seat, at).choices if c.key == "done")
        assert _accepted(state, _next_steps(here)) == _dones(state, seat, at), (at, here)
        levels += 1
    assert levels > 60
