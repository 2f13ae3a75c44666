"""decide: check a command against the rules and the awaited decision, and return its events.
Each refusal is a DomainError with a stable code (rules §9) and a sentence naming the rule."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.kernel import DomainError, Rng
from domain.words import player_name, seats_words

from . import commands as cmd
from . import events as ev
from .evolve import evolve
from .flow import Context, advance
from .rules import (
    base_value,
    components_of,
    depth_of,
    free_numerals,
    polish_limit,
    push_down,
    row_refusal,
    storage_fee,
)
from .state import State
from .vocabulary import ARRANGE_FINDS, CHOOSE_FUNDING_SPACE, EXCAVATE, EXHIBIT, STORE


def decide(state: State | None, command: cmd.Command, rng: Rng) -> list[ev.Event]:
    """The events a command causes, or a DomainError (the state is never changed)."""
    command = _validated(command)
    if isinstance(command, cmd.PergamonCreateGame):
        return _create(state, command.options, rng)
    ctx = Context(_check_awaited(state, command), rng)
    HANDLERS[type(command)](ctx, command)
    advance(ctx)
    return ctx.events


def apply(state: State | None, command: cmd.Command, rng: Rng) -> tuple[State, list[ev.Event]]:
    """decide and evolve in one pass, updating `state` itself (for playouts and search); the
    same rules and events. On a DomainError the state is as it was: every check runs before
    the first event is emitted."""
    command = _validated(command)
    if isinstance(command, cmd.PergamonCreateGame):
        events = _create(state, command.options, rng)
        new = None
        for event in events:
            new = evolve(new, event)
        assert new is not None, "a created game has a state"
        return new, events
    ctx = Context(_check_awaited(state, command), rng, in_place=True)
    HANDLERS[type(command)](ctx, command)
    advance(ctx)
    return ctx.s, ctx.events


# msgpack, not JSON: a round trip that checks every field's type without turning floats into ints
_PACK = msgspec.msgpack.Encoder()
_COMMAND = msgspec.msgpack.Decoder(cmd.Command)


def _validated(command: cmd.Command) -> cmd.Command:
    """The command with every field's type checked: a malformed command is a domain error."""
    try:
        checked: cmd.Command = _COMMAND.decode(_PACK.encode(command))
        return checked
    except (msgspec.ValidationError, msgspec.DecodeError, TypeError, OverflowError) as error:
        raise DomainError("malformed_command", f"The command is malformed: {error}.") from None


_ANSWERS: dict[type, str] = {
    cmd.ArrangeFinds: ARRANGE_FINDS,
    cmd.ChooseFundingSpace: CHOOSE_FUNDING_SPACE,
    cmd.Excavate: EXCAVATE,
    cmd.SkipExcavation: EXCAVATE,
    cmd.Exhibit: EXHIBIT,
    cmd.FinishExhibiting: EXHIBIT,
    cmd.Store: STORE,
}


def _check_awaited(state: State | None, command: cmd.SeatCommand) -> State:
    """The state, if it awaits this command's seat and decision (else a DomainError)."""
    if state is None:
        raise DomainError("no_game", "Create the game before sending commands to it.")
    if state.finished:
        raise DomainError("game_over", "The game is over; it takes no more commands.")
    if not 0 <= command.seat < state.players:
        raise DomainError("not_your_turn", f"{seats_words(state.players)} It awaits {player_name(state.awaiting)}.")
    if command.seat != state.awaiting:
        raise DomainError(
            "not_your_turn", f"The game awaits {player_name(state.awaiting)}, not {player_name(command.seat)}."
        )
    if _ANSWERS[type(command)] != state.decision:
        tag = type(command).__struct_config__.tag
        raise DomainError(
            "wrong_decision",
            f"{player_name(state.awaiting)} must now decide '{state.decision}'; a '{tag}' command does not answer that (§9).",
        )
    return state


# --- creation (§2, §3) --------------------------------------------------------------------------


def _create(state: State | None, options: cmd.PergamonOptions, rng: Rng) -> list[ev.Event]:
    if state is not None:
        raise DomainError("game_exists", "This game has already been created.")
    if options.players not in (2, 3, 4):
        raise DomainError("bad_options", "Pergamon is played by 2 to 4 players (§2).")
    if options.variant_player_order and options.players == 2:
        raise DomainError("option_not_available", "Variant 1 (player order) is for 3 and 4 players only (§8.1, R24).")
    if options.first_seat != "random" and not 0 <= options.first_seat < options.players:
        raise DomainError("bad_options", f"first_seat must be 'random' or a seat 0..{options.players - 1} (R1).")
    first = rng.randbelow(options.players) if options.first_seat == "random" else options.first_seat
    ctx = Context.__new__(Context)
    ctx.s, ctx.rng, ctx.events = None, rng, []  # type: ignore[assignment]  # the first event makes the state
    ctx.emit(ev.PergamonGameCreated(options=options, first_player=first))
    advance(ctx)
    return ctx.events


# --- the decisions (§5, §8.2) -------------------------------------------------------------------


def _arrange(ctx: Context, c: cmd.ArrangeFinds) -> None:
    s, comps = ctx.s, components_of(ctx.s)
    drawn = s.finds or []
    if sorted(c.order) != sorted(drawn):
        raise DomainError("bad_arrangement", f"Arrange exactly this round's finds: {sorted(drawn)} (§8.2).")
    centuries = [comps.tiles[t].century for t in c.order]
    if centuries != sorted(centuries):
        raise DomainError(
            "bad_arrangement", "Centuries must not decrease: you order only tiles of the same century (R25)."
        )
    ctx.emit(ev.FindsArranged(seat=c.seat, order=list(c.order)))


def _choose_space(ctx: Context, c: cmd.ChooseFundingSpace) -> None:
    s, comps = ctx.s, components_of(ctx.s)
    if c.space not in comps.track:
        raise DomainError("no_such_space", f"The funding track has spaces 1..{len(comps.track)} (§5.2).")
    if c.space == s.tomb_raider or c.space in s.figures.values():
        raise DomainError(
            "space_occupied", f"Space {c.space} already holds a figure; at most one figure stands on a space."
        )
    ctx.emit(ev.FundingSpaceChosen(seat=c.seat, space=c.space))


def _excavate(ctx: Context, c: cmd.Excavate) -> None:
    s = ctx.s
    depth = depth_of(s, c.seat)
    if not 1 <= c.gallery <= depth:
        raise DomainError("gallery_too_deep", f"From your space you may excavate galleries I to {depth} only (R11).")
    if not s.galleries[c.gallery - 1]:
        raise DomainError("gallery_empty", f"Gallery {c.gallery} holds no tile (R11).")
    if s.seats[c.seat].coins < c.gallery:
        raise DomainError(
            "insufficient_coins",
            f"Excavating gallery {c.gallery} costs {c.gallery} coins; you have {s.seats[c.seat].coins} (R11).",
        )
    ctx.emit(ev.Excavated(seat=c.seat, gallery=c.gallery, cost=c.gallery, tiles=list(s.galleries[c.gallery - 1])))


def _skip(ctx: Context, c: cmd.SkipExcavation) -> None:
    ctx.emit(ev.ExcavationSkipped(seat=c.seat))


def _check_polish(ctx: Context, c: cmd.Exhibit, base: int) -> None:
    s, comps = ctx.s, components_of(ctx.s)
    limit, top = polish_limit(s), comps.constants["highest_museum_space"]
    if c.polish < 0:
        raise DomainError("bad_polish", "Polish is a number of coins, 0 or more (§5.3.2).")
    if limit is not None and c.polish > limit:
        raise DomainError(
            "polish_over_limit", f"Polish is at most {limit} coins per collection before the last round (R15)."
        )
    if c.polish > 0 and base + c.polish > top:
        raise DomainError(
            "polish_beyond_24", f"Polish may not take the value above {top}: this row is worth {base} (R15)."
        )
    if c.polish > s.seats[c.seat].coins:
        raise DomainError(
            "insufficient_coins", f"You have {s.seats[c.seat].coins} coins, not {c.polish} to polish with."
        )


def _check_break_up(ctx: Context, c: cmd.Exhibit) -> None:
    s = ctx.s
    free = free_numerals(s, c.seat)
    if free and c.break_up is not None:
        raise DomainError(
            "break_up_not_allowed",
            "You have a free marker pair: a collection is broken up only when all three pairs are in use (R17).",
        )
    if not free and c.break_up is None:
        raise DomainError(
            "break_up_required", "All three of your marker pairs are in use: name the collection to break up (R17)."
        )
    if c.break_up is not None and c.break_up not in {k.numeral for k in s.seats[c.seat].collections}:
        raise DomainError("no_such_collection", f"You have no collection {c.break_up} to break up.")


def _exhibit(ctx: Context, c: cmd.Exhibit) -> None:
    s, comps = ctx.s, components_of(ctx.s)
    refusal = row_refusal(comps, c.tiles, s.seats[c.seat].loose)
    if refusal:
        raise DomainError(*refusal)
    base = base_value(comps, c.tiles)
    _check_polish(ctx, c, base)
    _check_break_up(ctx, c)
    value = base + c.polish
    space = min(value, comps.constants["highest_museum_space"])
    pushed = push_down(s, c.seat, space, c.break_up)
    freed = {n for seat, n in pushed if seat == c.seat} | ({c.break_up} if c.break_up is not None else set())
    numeral = min(set(free_numerals(s, c.seat)) | freed)
    ctx.emit(
        ev.Exhibited(
            seat=c.seat,
            numeral=numeral,
            tiles=list(c.tiles),
            polish=c.polish,
            value=value,
            space=space,
            broken_up=c.break_up,
            pushed_off=pushed,
            vp=comps.constants["exhibit_vp"],
            secret=s.options.vp_visibility == "secret",
        )
    )


def _finish(ctx: Context, c: cmd.FinishExhibiting) -> None:
    ctx.emit(ev.ExhibitingFinished(seat=c.seat))


def _store(ctx: Context, c: cmd.Store) -> None:
    s, comps = ctx.s, components_of(ctx.s)
    loose = s.seats[c.seat].loose
    if len(set(c.discard)) != len(c.discard):
        raise DomainError("duplicate_tile", "A tile may be discarded only once.")
    missing = [t for t in c.discard if t not in loose]
    if missing:
        raise DomainError("tile_not_loose", f"Tile {missing[0]} is not one of your loose tiles.")
    fee = storage_fee(comps, len(loose) - len(c.discard))
    if s.seats[c.seat].coins < fee:
        raise DomainError(
            "insufficient_coins",
            f"Keeping {len(loose) - len(c.discard)} tiles costs {fee} coins and you "
            f"have {s.seats[c.seat].coins}: discard more (R18).",
        )
    ctx.emit(ev.Stored(seat=c.seat, discard=sorted(c.discard), fee=fee))


HANDLERS: dict[type, Callable[[Context, Any], None]] = {
    cmd.ArrangeFinds: _arrange,
    cmd.ChooseFundingSpace: _choose_space,
    cmd.Excavate: _excavate,
    cmd.SkipExcavation: _skip,
    cmd.Exhibit: _exhibit,
    cmd.FinishExhibiting: _finish,
    cmd.Store: _store,
}
