"""Pergamon's choice trees: every legal command of the awaited seat, reached choice by choice
(`domain.choices`), so a client can play without knowing the rules.

Keys: `tile:414` (the next find in a variant-2 arrangement), `space:7` (a funding space),
`gallery:3` / `skip` (excavation), `start:590` / `add:358` / `done` / `polish:2` / `break:1` /
`finish` (an exhibit: its row tile by tile from the left, then the polish, then the collection to
break up), `discard:244` / `done` (storage: tiles to discard in ascending id, then keep the rest).

`refers` keys: `tile` (a tile id), `tiles` (the row or the discard so far), `space`, `ask`,
`depth` (a funding space), `gallery`, `cost`, `polish`, `value` and `museum_space` (an exhibit's
value and target space), `numeral` (a collection), `fee` and `kept` (storage)."""

from __future__ import annotations

from functools import partial

from domain.choices import ChoiceList, Entry, Menu, branch, follow, leaf

from . import commands as cmd
from .labels import galleries_phrase, objects_phrase, plural, roman, tile_phrase
from .rules import base_value, components_of, excavatable, free_numerals, matches, max_polish, pairs, storage_fee
from .state import State
from .vocabulary import ARRANGE_FINDS, CHOOSE_FUNDING_SPACE, EXCAVATE, EXHIBIT, STORE


def choices(state: State | None, seat: int, path: tuple[str, ...] = ()) -> ChoiceList:
    """The choices of `seat`'s awaited decision after following `path` (keys from the root);
    no choices when the seat is not awaited; DomainError `unknown_choice` for a path not in the tree."""
    if state is None or state.finished or state.decision is None or state.awaiting != seat:
        return follow(None, Menu("Nothing to decide: the game does not await this seat now.", []), path)
    return follow(state.decision, _ROOTS[state.decision](state, seat), path)


# --- variant 2: arranging the finds -------------------------------------------------------------


def _arrange(state: State, seat: int, chosen: tuple[int, ...] = ()) -> Menu:
    comps = components_of(state)
    rest = [t for t in state.finds or [] if t not in chosen]
    low = min(comps.tiles[t].century for t in rest)
    entries = []
    for tile in (t for t in rest if comps.tiles[t].century == low):
        order = (*chosen, tile)
        after = sorted((t for t in rest if t != tile), key=lambda t: (comps.tiles[t].century, t))
        centuries = [comps.tiles[t].century for t in after]
        label = f"Tile {tile_phrase(comps, tile)} into the next free gallery"
        if len(set(centuries)) == len(centuries):
            full = [*order, *after]
            entries.append(
                leaf(
                    f"tile:{tile}",
                    f"{label}; the rest follow by century: {', '.join(map(str, full))}",
                    cmd.ArrangeFinds(seat=seat, order=full),
                    tile=tile,
                    tiles=full,
                )
            )
        else:
            entries.append(
                branch(f"tile:{tile}", label, partial(_arrange, state, seat, order), tile=tile, tiles=list(order))
            )
    slot = len(chosen) + 1
    return Menu(
        f"Arrange this round's finds: which tile goes into free gallery number {slot} "
        f"(tiles of one century in any order, older centuries later)?",
        entries,
    )


# --- funding and excavation ---------------------------------------------------------------------


def _spaces(state: State, seat: int) -> Menu:
    comps = components_of(state)
    taken = set(state.figures.values()) | {state.tomb_raider}
    entries = [
        leaf(
            f"space:{k}",
            f"Space {k}: asks {plural(s.ask, 'coin')}; may excavate {galleries_phrase(s.depth)}",
            cmd.ChooseFundingSpace(seat=seat, space=k),
            space=k,
            ask=s.ask,
            depth=s.depth,
        )
        for k, s in comps.track.items()
        if k not in taken
    ]
    return Menu("Place your figure on a free space of the research funds track.", entries)


def _excavate(state: State, seat: int) -> Menu:
    comps = components_of(state)
    entries = []
    for g in excavatable(state, seat):
        tiles = state.galleries[g - 1]
        entries.append(
            leaf(
                f"gallery:{g}",
                f"Excavate gallery {roman(g)} for {plural(g, 'coin')}: take "
                f"{', '.join(tile_phrase(comps, t) for t in tiles)}",
                cmd.Excavate(seat=seat, gallery=g),
                gallery=g,
                cost=g,
                tiles=list(tiles),
            )
        )
    entries.append(leaf("skip", "Excavate nothing this turn", cmd.SkipExcavation(seat=seat)))
    return Menu("Excavate one gallery, or skip.", entries)


# --- exhibiting ---------------------------------------------------------------------------------


def _exhibit(state: State, seat: int) -> Menu:
    comps = components_of(state)
    starts = sorted({x for x, _ in pairs(comps, state.seats[seat].loose)})
    entries = [
        branch(
            f"start:{t}",
            f"Exhibit a row starting with {tile_phrase(comps, t)}",
            partial(_row, state, seat, (t,)),
            tile=t,
        )
        for t in starts
    ]
    entries.append(leaf("finish", "Exhibit nothing more this turn", cmd.FinishExhibiting(seat=seat)))
    return Menu("Exhibit a collection (a row of your loose tiles), or finish exhibiting.", entries)


def _row(state: State, seat: int, row: tuple[int, ...]) -> Menu:
    comps = components_of(state)
    entries = []
    if len(row) >= 2:
        entries.append(_done_entry(state, seat, row))
    for t in state.seats[seat].loose:
        if t not in row and matches(comps, row[-1], t):
            entries.append(
                branch(
                    f"add:{t}",
                    f"Add {tile_phrase(comps, t)} on the right: completes a "
                    f"{comps.tiles[t].left} of century {comps.tiles[row[-1]].century}",
                    partial(_row, state, seat, (*row, t)),
                    tile=t,
                    tiles=[*row, t],
                )
            )
    return Menu(f"Your row so far: {', '.join(map(str, row))}. Add a tile on the right, or exhibit the row.", entries)


def _done_entry(state: State, seat: int, row: tuple[int, ...]) -> Entry:
    comps = components_of(state)
    base = base_value(comps, row)
    label = f"Exhibit {', '.join(map(str, row))}: {objects_phrase(comps, row)}, worth {base}"
    if max_polish(state, seat, base) == 0 and free_numerals(state, seat):
        return leaf(
            "done",
            label,
            cmd.Exhibit(seat=seat, tiles=list(row)),
            tiles=list(row),
            polish=0,
            value=base,
            museum_space=min(base, 24),
        )
    return branch("done", label, partial(_polish, state, seat, row), tiles=list(row), value=base)


def _polish(state: State, seat: int, row: tuple[int, ...]) -> Menu:
    comps = components_of(state)
    base = base_value(comps, row)
    need_break = not free_numerals(state, seat)
    entries = []
    for p in range(max_polish(state, seat, base) + 1):
        value = base + p
        label = (
            f"Polish with {plural(p, 'coin')}: value {value}, museum space {min(value, 24)}"
            if p
            else f"No polish: value {value}, museum space {min(value, 24)}"
        )
        if need_break:
            entries.append(branch(f"polish:{p}", label, partial(_break, state, seat, row, p), polish=p, value=value))
        else:
            entries.append(
                leaf(
                    f"polish:{p}",
                    label,
                    cmd.Exhibit(seat=seat, tiles=list(row), polish=p),
                    polish=p,
                    value=value,
                    museum_space=min(value, 24),
                )
            )
    return Menu("How many coins do you spend on polish (each adds 1 to the value)?", entries)


def _break(state: State, seat: int, row: tuple[int, ...], polish: int) -> Menu:
    entries = [
        leaf(
            f"break:{k.numeral}",
            f"Break up your collection {roman(k.numeral)} "
            f"({', '.join(map(str, k.tiles))} on museum space {k.space}); its tiles go to the box",
            cmd.Exhibit(seat=seat, tiles=list(row), polish=polish, break_up=k.numeral),
            numeral=k.numeral,
        )
        for k in state.seats[seat].collections
    ]
    return Menu("All three of your marker pairs are in use: which collection do you break up?", entries)


# --- storage ------------------------------------------------------------------------------------


def _store(state: State, seat: int, discard: tuple[int, ...] = ()) -> Menu:
    comps, me = components_of(state), state.seats[seat]
    kept = len(me.loose) - len(discard)
    fee = storage_fee(comps, kept)
    entries = []
    if me.coins >= fee:
        what = f"Discard {', '.join(map(str, discard))} and keep" if discard else "Keep all"
        entries.append(
            leaf(
                "done",
                f"{what} {plural(kept, 'tile')} for {plural(fee, 'coin')}",
                cmd.Store(seat=seat, discard=list(discard)),
                tiles=list(discard),
                fee=fee,
                kept=kept,
            )
        )
    for i, t in enumerate(me.loose):
        later = len(me.loose) - i - 1  # tiles that could still be discarded after t
        if (not discard or t > discard[-1]) and me.coins >= storage_fee(comps, kept - 1 - later):
            entries.append(
                branch(
                    f"discard:{t}",
                    f"Discard {tile_phrase(comps, t)} to the box",
                    partial(_store, state, seat, (*discard, t)),
                    tile=t,
                    tiles=[*discard, t],
                )
            )
    return Menu(
        f"Storage: keeping loose tiles costs 1 coin for each started 3 above 3; you have {plural(me.coins, 'coin')}. "
        f"Choose tiles to discard (in ascending order), then keep the rest.",
        entries,
    )


_ROOTS = {ARRANGE_FINDS: _arrange, CHOOSE_FUNDING_SPACE: _spaces, EXCAVATE: _excavate, EXHIBIT: _exhibit, STORE: _store}
