"""A player that picks uniformly among the legal answers of the awaited decision, a kind of
answer first (for playouts, simulations and the random bot's fallback)."""

from __future__ import annotations

import random
from typing import Any

from . import commands as cmd
from . import flow
from .legal import (
    battle_cards,
    civ_commands,
    commit_options,
    draw_sources,
    migration_moves,
    mischief_plays,
    plays,
    power_commands,
    remaining_survivors,
    repairs,
    survivor_destinations,
    undefended_targets,
)
from .state import State


def _maybe_second_move(state: State, command: Any, subject: int, rnd: random.Random) -> Any:
    """Migration: half the time a second move of another worshiper card."""
    moves = list(command.moves)
    if not moves or rnd.random() < 0.5:
        return command
    more = [m for m in migration_moves(state, subject) if m.worshiper != moves[0].worshiper]
    if not more:
        return command
    return type(command)(
        **{**{f: getattr(command, f) for f in command.__struct_fields__}, "moves": [*moves, rnd.choice(more)]}
    )


def random_command(state: State, seat: int, rnd: random.Random) -> cmd.Command:
    """A random legal command of `seat` (which must be awaited)."""
    if state.awaiting != seat or state.decision is None:
        raise ValueError(f"seat {seat} is not awaited")
    d = state.decision
    if d == flow.DRAW_CARD:
        return cmd.DrawCard(seat=seat, source=rnd.choice(draw_sources(state)))  # type: ignore[arg-type]
    if d == flow.CHOOSE_GOD_COLUMN:
        return cmd.ChooseGodColumn(seat=seat, column=rnd.choice(state.attraction))
    if d == flow.PLAY_CARD:
        return rnd.choice(plays(state, seat))
    if d in (flow.SPECIAL_POWER, flow.BATTLE_TURN):
        kinds: list[list[Any]] = [
            [cmd.EndTurn(seat=seat) if d == flow.SPECIAL_POWER else cmd.PassBattleTurn(seat=seat)]
        ]
        kinds.append(power_commands(state, seat))
        if d == flow.SPECIAL_POWER:
            kinds += [civ_commands(state, seat), repairs(state, seat)]
        choice = rnd.choice(rnd.choice([k for k in kinds if k]))
        if isinstance(choice, cmd.PlayCivilization) and choice.moves:
            choice = _maybe_second_move(state, choice, seat, rnd)
        return choice  # type: ignore[no-any-return]
    if d == flow.TAKE_SPIED_CARD:
        return cmd.TakeSpiedCard(seat=seat, card=rnd.choice(sorted(state.hands[state.spied])))
    if d == flow.MISCHIEF_PLAY:
        assert state.revealed is not None
        play = rnd.choice(mischief_plays(state, seat, state.revealed))
        if play.moves:
            play = _maybe_second_move(state, play, play.target, rnd)
        return play
    if d == flow.DAMAGE_UNDEFENDED:
        return cmd.DamageUndefendedTemple(seat=seat, temple=rnd.choice([None, *undefended_targets(state)]))
    if d == flow.COMMIT:
        options = commit_options(state, seat)
        chosen = [c for c in options if rnd.random() < 0.5] or [rnd.choice(options)]
        return cmd.CommitWarColumns(seat=seat, columns=chosen)
    if d == flow.BATTLE_CARD:
        cards = battle_cards(state, seat)
        if cards and rnd.random() < 0.5:
            return cmd.PlayBattleCard(seat=seat, card=rnd.choice(cards))
        return cmd.SkipBattleCard(seat=seat)
    if d == flow.PLACE_SURVIVORS:
        cards = remaining_survivors(state)
        spots = survivor_destinations(state, seat, len(cards))
        return cmd.PlaceSurvivors(
            seat=seat, placements=[cmd.Placement(worshiper=w, destination=rnd.choice(spots)) for w in cards]
        )
    if d == flow.ORDER_DISCARDS:
        general, gods = list(state.pending_general), list(state.pending_gods)
        rnd.shuffle(general)
        rnd.shuffle(gods)
        return cmd.OrderDiscards(
            seat=seat, general=general if len(general) > 1 else [], gods=gods if len(gods) > 1 else []
        )
    raise ValueError(f"unknown decision {d}")


def random_options(players: int, rnd: random.Random) -> cmd.PantheonCardsOptions:
    """Options of a random game: any game length."""
    return cmd.PantheonCardsOptions(players=players, game_length=rnd.choice(["standard", "short", "long"]))
