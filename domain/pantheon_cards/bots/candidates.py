"""The commands a bot compares at a decision: every legal answer where there are few; where there
are many (step 3, war commitments, survivors, discard orders, Migration) a bounded set: the
passive answer, a random sample of the others, and some sensible ones."""

from __future__ import annotations

import itertools
import random
from typing import Any

from .. import commands as cmd
from .. import flow
from ..legal import (
    battle_cards,
    civ_commands,
    commit_options,
    draw_sources,
    mischief_plays,
    plays,
    power_commands,
    remaining_survivors,
    repairs,
    survivor_destinations,
    undefended_targets,
)
from ..random_play import random_command
from ..rules import card
from ..state import State

CAP = 24


def _bounded(options: list[Any], keep: list[Any], rnd: random.Random, cap: int) -> list[Any]:
    rest = [o for o in options if o not in keep]
    if len(rest) > cap:
        rest = rnd.sample(rest, cap)
    return keep + rest


def candidates(state: State, seat: int, rnd: random.Random, samples: int = 0) -> list[Any]:
    """The commands worth comparing for `seat`'s awaited decision (`samples` random ones added)."""
    d = state.decision
    out: list[Any]
    if d == flow.DRAW_CARD:
        out = [cmd.DrawCard(seat=seat, source=s) for s in draw_sources(state)]  # type: ignore[arg-type]
    elif d == flow.CHOOSE_GOD_COLUMN:
        out = [cmd.ChooseGodColumn(seat=seat, column=c) for c in state.attraction]
    elif d == flow.PLAY_CARD:
        out = _bounded(plays(state, seat), [], rnd, CAP)
    elif d == flow.SPECIAL_POWER:
        options = power_commands(state, seat) + civ_commands(state, seat) + repairs(state, seat)
        out = _bounded(options, [cmd.EndTurn(seat=seat)], rnd, CAP)
    elif d == flow.BATTLE_TURN:
        out = _bounded(power_commands(state, seat), [cmd.PassBattleTurn(seat=seat)], rnd, CAP)
    elif d == flow.TAKE_SPIED_CARD:
        out = [cmd.TakeSpiedCard(seat=seat, card=c) for c in sorted(set(state.hands[state.spied]))]
    elif d == flow.MISCHIEF_PLAY:
        assert state.revealed is not None
        out = _bounded(mischief_plays(state, seat, state.revealed), [], rnd, CAP)
    elif d == flow.DAMAGE_UNDEFENDED:
        out = [cmd.DamageUndefendedTemple(seat=seat, temple=t) for t in [None, *undefended_targets(state)]]
    elif d == flow.COMMIT:
        cols = commit_options(state, seat)
        subsets = [list(c) for n in range(1, len(cols) + 1) for c in itertools.combinations(cols, n)]
        out = [cmd.CommitWarColumns(seat=seat, columns=c) for c in _bounded(subsets, [cols], rnd, CAP)]
    elif d == flow.BATTLE_CARD:
        out = [cmd.SkipBattleCard(seat=seat)] + [
            cmd.PlayBattleCard(seat=seat, card=c) for c in battle_cards(state, seat)
        ]
    elif d == flow.PLACE_SURVIVORS:
        cards = remaining_survivors(state)
        out = [
            cmd.PlaceSurvivors(seat=seat, placements=[cmd.Placement(worshiper=w, destination=dest) for w in cards])
            for dest in survivor_destinations(state, seat, 1)
        ]
    elif d == flow.ORDER_DISCARDS:
        levels = lambda c: (card(state, c).level, c)  # noqa: E731 - a sort key
        general = sorted(state.pending_general, key=levels) if len(state.pending_general) > 1 else []
        gods = list(state.pending_gods) if len(state.pending_gods) > 1 else []
        # the smallest worshiper on top, or the largest: what the next seat may take
        out = [
            cmd.OrderDiscards(seat=seat, general=general[::-1], gods=gods),
            cmd.OrderDiscards(seat=seat, general=general, gods=gods),
        ]
    else:
        raise ValueError(f"seat {seat} is not awaited")
    for _ in range(samples):
        extra = random_command(state, seat, rnd)
        if extra not in out:
            out.append(extra)
    return out
