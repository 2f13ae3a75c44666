"""decide: check a command against the rules and the awaited decision, and return its events.
Each refusal is a DomainError with a stable code and a sentence naming the rule. The state given
is never changed: decide works on a copy (flow.Context)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.kernel import DomainError, Rng
from domain.words import player_name

from . import commands as cmd
from . import events as ev
from . import flow, powers
from .commands import NEW
from .components import load_components
from .evolve import evolve
from .flow import Context, refuse
from .legal import (
    battle_cards,
    civ_uses,
    commit_options,
    draw_sources,
    mischief_plays,
    plays,
    power_uses,
    remaining_survivors,
    undefended_targets,
)
from .rules import card, comps, locate, major_allowed
from .state import State
from .war import committed, fight, war_over


def decide(state: State | None, command: cmd.Command, rng: Rng) -> list[ev.Event]:
    """The events a command causes, or a DomainError."""
    return _run(state, command, rng, copy=True)[1]


def apply(state: State | None, command: cmd.Command, rng: Rng) -> tuple[State, list[ev.Event]]:
    """decide and evolve in one pass (for playouts and search): the new state and the events.
    The state given is not changed either (decide's copy is returned)."""
    return _run(state, command, rng, copy=True)


def _run(state: State | None, command: cmd.Command, rng: Rng, copy: bool) -> tuple[State, list[ev.Event]]:
    command = _validated(command)
    if isinstance(command, cmd.PantheonCardsCreateGame):
        return _create(state, command.options, rng)
    if state is None:
        raise DomainError("no_game", "There is no game yet: create it first.")
    if state.finished:
        raise DomainError("game_over", "The game is over.")
    decisions = _ANSWERS[type(command)]
    if state.decision not in decisions or state.awaiting != command.seat:
        if state.awaiting != command.seat:
            raise DomainError(
                "not_your_decision",
                f"The game is waiting for {player_name(state.awaiting)}, not {player_name(command.seat)}."
                if state.awaiting >= 0
                else "The game is waiting for no player now.",
            )
        raise DomainError(
            "wrong_decision",
            f"The game is waiting for a {state.decision} decision, not {command.__struct_config__.tag}.",
        )
    ctx = Context(state, rng, copy=copy)
    if HANDLERS[type(command)](ctx, command):
        flow.finish_power(ctx)
    return ctx.s, ctx.events


_PACK = msgspec.msgpack.Encoder()
_COMMAND = msgspec.msgpack.Decoder(cmd.Command)


def _validated(command: cmd.Command) -> cmd.Command:
    """The command with every field's type checked: a malformed command is a domain error."""
    try:
        checked: cmd.Command = _COMMAND.decode(_PACK.encode(command))
        return checked
    except (msgspec.ValidationError, msgspec.DecodeError, TypeError, OverflowError) as error:
        raise DomainError("malformed_command", f"The command is malformed: {error}.") from None


def _create(state: State | None, options: cmd.PantheonCardsOptions, rng: Rng) -> tuple[State, list[ev.Event]]:
    if state is not None:
        raise DomainError("game_exists", "This game has already been created.")
    if not 3 <= options.players <= 6:
        raise DomainError("invalid_players", "Pantheon is played by 3 to 6 players (rules §3, R39).")
    comps_ = load_components(options.edition)
    removed = comps_.removed(options.game_length)
    created = ev.PantheonCardsGameCreated(
        options=options, deck=comps_.constants["total_cards"] - removed, removed=removed
    )
    ctx = Context(evolve(None, created), rng, copy=False)
    ctx.events.append(created)
    flow.deal(ctx, 0)
    flow.start_turn(ctx, flow.choose_first_seat(ctx))
    return ctx.s, ctx.events


# -- answers ------------------------------------------------------------------------------------

_ANSWERS: dict[type, tuple[str, ...]] = {
    cmd.DrawCard: (flow.DRAW_CARD,),
    cmd.ChooseGodColumn: (flow.CHOOSE_GOD_COLUMN,),
    cmd.PlayCard: (flow.PLAY_CARD,),
    cmd.SkipPlay: (flow.PLAY_CARD,),
    cmd.EmployPower: (flow.SPECIAL_POWER, flow.BATTLE_TURN),
    cmd.PlayCivilization: (flow.SPECIAL_POWER,),
    cmd.RepairTemple: (flow.SPECIAL_POWER,),
    cmd.EndTurn: (flow.SPECIAL_POWER,),
    cmd.PassBattleTurn: (flow.BATTLE_TURN,),
    cmd.TakeSpiedCard: (flow.TAKE_SPIED_CARD,),
    cmd.MischiefPlay: (flow.MISCHIEF_PLAY,),
    cmd.DamageUndefendedTemple: (flow.DAMAGE_UNDEFENDED,),
    cmd.CommitWarColumns: (flow.COMMIT,),
    cmd.PlayBattleCard: (flow.BATTLE_CARD,),
    cmd.SkipBattleCard: (flow.BATTLE_CARD,),
    cmd.PlaceSurvivors: (flow.PLACE_SURVIVORS,),
    cmd.OrderDiscards: (flow.ORDER_DISCARDS,),
}


def _draw(ctx: Context, c: cmd.DrawCard) -> bool:
    if c.source not in draw_sources(ctx.s):
        raise refuse("empty_source", f"You cannot draw from the {c.source.replace('_', ' ')}: it is empty (§5.2).")
    flow.draw(ctx, c.seat, c.source)
    return False


def _choose_god_column(ctx: Context, c: cmd.ChooseGodColumn) -> bool:
    s = ctx.s
    if c.column not in s.attraction:
        raise refuse(
            "not_a_kept_column", f"The god may enter only one of your kept columns: {', '.join(s.attraction)} (§8)."
        )
    assert s.revealed is not None
    ctx.emit(ev.CardPlaced(player=s.active, seat=c.seat, card=s.revealed, column=c.column, source="revealed"))
    flow.state_checks(ctx)
    flow.begin_play(ctx)
    return False


def _play(ctx: Context, c: cmd.PlayCard) -> bool:
    s = ctx.s
    if c.card not in s.hands[c.seat]:
        raise refuse("not_in_hand", f"{c.card} is not in your hand.")
    if c not in plays(s, c.seat):
        kind = card(s, c.card).type
        if kind == "civilization":
            raise refuse("not_playable", "Civilization cards are not played in step 2; play them in step 3 (§5.3).")
        raise refuse("illegal_play", f"{c.card} cannot go to column {c.column!r}: see the legal plays of §5.3 (R44).")
    flow.placed(ctx, c.seat, c.seat, c.card, c.column, "hand")
    flow.state_checks(ctx)
    flow.begin_power(ctx)
    return False


def _skip_play(ctx: Context, c: cmd.SkipPlay) -> bool:
    raise refuse("must_play", "You have a legal play, so you must play a card in step 2 (R9).")


def _employ(ctx: Context, c: cmd.EmployPower) -> bool:
    s = ctx.s
    found = locate(s, c.god)
    if found is None or found[0] != c.seat or found[1].god != c.god:
        raise refuse("not_your_god", f"{c.god} is not a god of yours in play.")
    col = found[1]
    god = card(s, c.god)
    power = god.minor if c.slot == "minor" else god.major
    if comps(s).powers[power].constant:
        raise refuse(
            "constant_power", f"{comps(s).powers[power].name} is a constant power: it cannot be employed (§12)."
        )
    if c.slot == "major" and not major_allowed(s, col):
        raise refuse("major_not_allowed", f"{god.name}'s column is worth less than 2,000: no Major power (§7.3).")
    if c not in power_uses(s, c.seat, col, c.slot):
        raise refuse(
            "illegal_parameters", f"That is not a legal use of {comps(s).powers[power].name} now (rules §12.1, R18)."
        )
    ctx.emit(
        ev.PowerEmployed(
            seat=c.seat,
            god=c.god,
            slot=c.slot,
            power=power,
            mode=c.mode,
            target=c.target,
            target_god=c.target_god,
            worshiper=c.worshiper,
            temple=c.temple,
            column=c.column,
        )
    )
    return powers.employ(ctx, c.seat, col.id, power, c)


def _migration_check(s: State, subject: int, moves: list[cmd.Move]) -> list[tuple[str, str]]:
    """Migration (§14): 1 or 2 moves of the subject's worshiper cards, each to another of its
    columns or a new one, checked in order."""
    if not 1 <= len(moves) <= 2:
        raise refuse("illegal_parameters", "Migration moves 1 or 2 worshiper cards (§14).")
    where = {w: col.id for col in s.columns[subject] for w in col.worshipers}
    existing = {col.id for col in s.columns[subject]}
    fresh = 0
    out = []
    for m in moves:
        if m.worshiper not in where:
            raise refuse("illegal_parameters", f"{m.worshiper} is not a worshiper card in those columns (§14).")
        if m.destination == NEW:
            fresh += 1
            destination = f"{subject}:{s.opened[subject] + fresh}"
        elif m.destination in existing and m.destination != where[m.worshiper]:
            destination = m.destination
        else:
            raise refuse("illegal_parameters", f"{m.worshiper} cannot move to {m.destination!r} (§14).")
        where[m.worshiper] = destination
        existing.add(destination)
        out.append((m.worshiper, m.destination))
    return out


def _civ_checked(
    s: State,
    player: int,
    card_id: str,
    target: int | None,
    column: str | None,
    temple: str | None,
    moves: list[cmd.Move],
    via: int | None,
) -> list[tuple[str, str]]:
    c = card(s, card_id)
    legal = civ_uses(s, player, card_id, via)
    if c.effect == "migration":
        if not legal or target != (None if via is None else via) or column is not None or temple is not None:
            raise refuse("illegal_parameters", "Migration needs worshiper cards in play and moves only (§14).")
        return _migration_check(s, player if via is None else via, moves)
    probe = cmd.PlayCivilization(
        seat=player, card=card_id, target=target if via is None else via, column=column, temple=temple
    )
    if probe not in legal or moves:
        raise refuse("illegal_parameters", f"That is not a legal use of {c.name} now (rules §14, R18).")
    return []


def _civilization(ctx: Context, c: cmd.PlayCivilization) -> bool:
    s = ctx.s
    if c.card not in s.hands[c.seat]:
        raise refuse("not_in_hand", f"{c.card} is not in your hand.")
    x = card(s, c.card)
    if x.type != "civilization" or x.timing != "action":
        raise refuse("not_an_action_card", f"{c.card} is not a civilization card played in step 3 (§14).")
    moves = _civ_checked(s, c.seat, c.card, c.target, c.column, c.temple, c.moves, None)
    return powers.civilization(ctx, c.seat, c.card, "hand", c.target, c.column, c.temple, moves, None)


def _repair(ctx: Context, c: cmd.RepairTemple) -> bool:
    col = locate(ctx.s, c.temple)
    if col is None or col[0] != c.seat or col[1].temple != c.temple or not col[1].damaged:
        raise refuse("not_damaged", f"{c.temple} is not a damaged temple of yours (§10.4).")
    ctx.emit(ev.TempleRepaired(temples=[c.temple]))
    return True


def _end_turn(ctx: Context, c: cmd.EndTurn) -> bool:
    return True


def _pass(ctx: Context, c: cmd.PassBattleTurn) -> bool:
    return True


def _take_spied(ctx: Context, c: cmd.TakeSpiedCard) -> bool:
    s = ctx.s
    if c.card not in s.hands[s.spied]:
        raise refuse("not_in_spied_hand", f"{c.card} is not in the spied hand.")
    ctx.emit(ev.SpiedCardTaken(spy=c.seat, target=s.spied, card=c.card))
    return True


def _mischief_play(ctx: Context, c: cmd.MischiefPlay) -> bool:
    s = ctx.s
    x = s.revealed
    assert x is not None
    if c.target == c.seat or not 0 <= c.target < s.players:
        raise refuse("illegal_target", "You must play the card on another player (§15.4, R23).")
    kind = card(s, x).type
    if kind != "civilization":
        if c not in mischief_plays(s, c.seat, x):
            raise refuse(
                "illegal_play", f"{card(s, x).name} cannot go to that column of {player_name(c.target)} (§15.4)."
            )
        assert c.column is not None
        flow.placed(ctx, c.seat, c.target, x, c.column, "revealed")
        return True
    moves = _civ_checked(s, c.seat, x, c.target, c.column, c.temple, c.moves, c.target)
    return powers.civilization(ctx, c.seat, x, "revealed", c.target, c.column, c.temple, moves, c.target)


def _damage_undefended(ctx: Context, c: cmd.DamageUndefendedTemple) -> bool:
    if c.temple is not None:
        if c.temple not in undefended_targets(ctx.s):
            raise refuse("illegal_target", "Only a temple of the defender that Literature does not protect (§16 W2).")
        powers.damage(ctx, c.temple)
    ctx.emit(ev.WarEnded(victor=None))
    return war_over(ctx)


def _commit(ctx: Context, c: cmd.CommitWarColumns) -> bool:
    options = commit_options(ctx.s, c.seat)
    if not c.columns or len(set(c.columns)) != len(c.columns) or not set(c.columns) <= set(options):
        raise refuse("illegal_commitment", "Commit one or more of your columns holding worshiper cards (§16 W4, R30).")
    order = [col for col in options if col in c.columns]
    return committed(ctx, c.seat, order)


def _battle_card(ctx: Context, c: cmd.PlayBattleCard) -> bool:
    s = ctx.s
    if c.card not in battle_cards(s, c.seat):
        raise refuse("not_a_battle_card", f"{c.card} is not a battle card in your hand (§16 W6).")
    war = s.war
    assert war is not None
    ctx.emit(ev.BattleCardPlayed(seat=c.seat, card=c.card))
    if card(s, c.card).effect == "truce":
        ctx.emit(ev.WarEnded(victor=None, truce=True))
        return war_over(ctx)
    return _after_battle_card(ctx, c.seat)


def _skip_battle(ctx: Context, c: cmd.SkipBattleCard) -> bool:
    ctx.emit(ev.BattleCardSkipped(seat=c.seat))
    return _after_battle_card(ctx, c.seat)


def _after_battle_card(ctx: Context, seat: int) -> bool:
    war = ctx.s.war
    assert war is not None
    if seat == war.defender:
        return ctx.wait(war.attacker, flow.BATTLE_CARD)
    return fight(ctx)


def _place(ctx: Context, c: cmd.PlaceSurvivors) -> bool:
    s = ctx.s
    cards = remaining_survivors(s)
    own = {col.id for col in s.columns[c.seat]}
    if sorted(p.worshiper for p in c.placements) != cards:
        raise refuse("illegal_placement", "Give one destination for each of your remaining cards (§16 W8).")
    for p in c.placements:
        new = p.destination.startswith("new:") and p.destination[4:].isdigit() and int(p.destination[4:]) >= 1
        if p.destination not in own and not new:
            raise refuse("illegal_placement", f"{p.destination!r} is not a column of yours nor new:k (§16 W8).")
    ctx.emit(ev.SurvivorsPlaced(seat=c.seat, placements=list(c.placements)))
    return war_over(ctx)


def _order(ctx: Context, c: cmd.OrderDiscards) -> bool:
    s = ctx.s
    general = _ordered(s.pending_general, c.general, "general")
    gods = _ordered(s.pending_gods, c.gods, "god")
    ctx.emit(ev.DiscardsPlaced(general=general, gods=gods))
    flow.after_turn(ctx)
    return False


def _ordered(pending: list[str], order: list[str], pile: str) -> list[str]:
    if len(pending) < 2 and not order:
        return list(pending)
    if sorted(order) != sorted(pending):
        raise refuse("illegal_order", f"Order exactly this turn's pending cards for the {pile} pile (§18.3).")
    return list(order)


HANDLERS: dict[type, Callable[[Context, Any], bool]] = {
    cmd.DrawCard: _draw,
    cmd.ChooseGodColumn: _choose_god_column,
    cmd.PlayCard: _play,
    cmd.SkipPlay: _skip_play,
    cmd.EmployPower: _employ,
    cmd.PlayCivilization: _civilization,
    cmd.RepairTemple: _repair,
    cmd.EndTurn: _end_turn,
    cmd.PassBattleTurn: _pass,
    cmd.TakeSpiedCard: _take_spied,
    cmd.MischiefPlay: _mischief_play,
    cmd.DamageUndefendedTemple: _damage_undefended,
    cmd.CommitWarColumns: _commit,
    cmd.PlayBattleCard: _battle_card,
    cmd.SkipBattleCard: _skip_battle,
    cmd.PlaceSurvivors: _place,
    cmd.OrderDiscards: _order,
}
