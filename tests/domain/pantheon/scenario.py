"""Given/when/then helpers for Pantheon rule tests: build a state from events, decide a command."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from domain.kernel import DomainError, fold
from domain.pantheon import PANTHEON
from domain.pantheon import events as ev
from domain.pantheon.board import load_board
from domain.pantheon.commands import Options
from domain.pantheon.state import State, clone

Task = ev.Task
BOARD = load_board()


class ScriptedRng:
    """Returns the scripted values in order (each taken modulo the bound), then zeros."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def randbelow(self, n: int) -> int:
        return self.values.pop(0) % n if self.values else 0


def coords(index: int) -> tuple[int, int]:
    h = BOARD.hexes[index]
    return (h.q, h.r)


def start_of(nation: str) -> tuple[int, int]:
    return coords(BOARD.start_hex[nation])


def given(*events: ev.Event | Iterable[ev.Event]) -> State:
    """The state after these events (lists of events are flattened)."""
    flat: list = []
    for e in events:
        flat.extend(e if isinstance(e, list) else [e])
    return fold(PANTHEON, flat)


def when(state: State, command, rng=None) -> list[ev.Event]:
    """The events `command` causes; checks that deciding left the state untouched."""
    before = clone(state)
    events = PANTHEON.decide(state, command, rng or ScriptedRng())
    assert state == before, "decide changed the state"
    return events


def then_error(state: State, command, code: str, rng=None) -> DomainError:
    """Deciding `command` is refused with this code, and nothing changes."""
    before = clone(state)
    with pytest.raises(DomainError) as raised:
        PANTHEON.decide(state, command, rng or ScriptedRng())
    assert raised.value.code == code, raised.value
    assert state == before
    return raised.value


def after(state: State, events: list) -> State:
    """The state once these events are evolved (on a copy)."""
    state = clone(state)
    for e in events:
        state = PANTHEON.evolve(state, e)
    return state


def turn_phase(
    players: int = 2,
    *,
    nation: str = "roma",
    epoch: int = 1,
    seat: int = 0,
    hands: dict[int, list[str]] | None = None,
    gods: list[str] | None = None,
    loot: dict[tuple[int, int], str] | None = None,
    traitera: int = 0,
    options: Options | None = None,
) -> list[ev.Event]:
    """Events that lead to `seat` choosing an action in a turn phase of `nation`."""
    options = options or Options(players=players)
    events: list = [ev.GameCreated(options=options)]
    for s, cards in (hands or {}).items():
        events.append(ev.CardsDrawn(seat=s, count=len(cards), cards=list(cards), reason="test"))
    events += [ev.StartingSeatChosen(seat=seat)]
    for e in range(1, epoch):
        events.append(ev.NationRevealed(epoch=e, nation=_other_nation(nation, e)))
        events.append(ev.EpochEnded(epoch=e, next_starting_seat=seat))
    events.append(ev.NationRevealed(epoch=epoch, nation=nation))
    gods = ["surparit-1", "taksator-1", "gadicea-1"] if gods is None else gods
    if gods:
        events.append(ev.GodsRevealed(tiles=list(gods)))
    if loot is None:
        usable = BOARD.usable_loot_hexes(nation, options.players)
        loot = {coords(i): "draw_2" for i in usable}
    events.append(ev.LootPlaced(tiles=list(loot.items())))
    events.append(ev.TemplePlaced(hex=start_of(nation)))
    events.append(ev.AgendaSet(tasks=[Task(kind="action", seat=seat), Task(kind="end_action", seat=seat, n=traitera)]))
    return events


def _other_nation(nation: str, epoch: int) -> str:
    others = [
        n for n in ("gallia", "germania", "graecia", "aegyptus", "persia", "iberia", "roma", "cartago") if n != nation
    ]
    return others[epoch - 1]


def awaiting(state: State) -> tuple[int, str] | None:
    a = PANTHEON.awaited(state)
    return None if a is None else (a.seat, a.decision)
