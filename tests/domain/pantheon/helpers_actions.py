"""Builders for the action tests: pieces, gods, tiles and cards put into a given, and scripted
draws. Most tests play in Persia, whose temple stands at (16, 4) with this neighbourhood:

    column sites (15, 3) (17, 2) (15, 6) at distance 2, (13, 5) (16, 7) at distance 3;
    loot hexes (18, 2) (18, 3) (17, 5), (18, 1) marked 3, (19, 1) marked 4.
"""

from __future__ import annotations

from domain.pantheon import commands as cmd
from domain.pantheon import events as ev
from domain.pantheon.state import State
from domain.pantheon.vocabulary import CARD_INDEX

from .scenario import ScriptedRng, Task, start_of, turn_phase

Hex = tuple[int, int]
PERSIA = start_of("persia")
assert PERSIA == (16, 4)


def persia(players: int = 2, *, seat: int = 0, hands: dict[int, list[str]] | None = None, **kwargs) -> list[ev.Event]:
    """A Persia turn phase in epoch 1 where `seat` chooses an action."""
    return turn_phase(players, nation="persia", seat=seat, hands=hands, **kwargs)


def foot(q: int, r: int, *, jump: bool = False) -> cmd.Place:
    return cmd.Place(piece="foot", hex=(q, r), jump=jump)


def column(q: int, r: int) -> cmd.Place:
    return cmd.Place(piece="column", hex=(q, r))


def move(seat: int, cards: int, *placements: cmd.Place) -> cmd.Move:
    return cmd.Move(seat=seat, cards=cards, placements=list(placements))


def moved(
    seat: int, cards: int, steps: int, *placements: ev.Placed, big_foot: bool = True, loot: list[str] | None = None
) -> ev.Moved:
    return ev.Moved(
        seat=seat, cards=cards, big_foot=big_foot, steps=steps, placements=list(placements), loot=loot or []
    )


def placed(piece: str, hex: Hex, cost: int = 1, jump: bool = False) -> ev.Placed:
    return ev.Placed(piece=piece, hex=hex, cost=cost, jump=jump)


def pieces(seat: int, *places: tuple[str, Hex]) -> ev.Moved:
    """An earlier follow-up move of this epoch that put these pieces on the board."""
    return ev.Moved(
        seat=seat, cards=0, big_foot=False, steps=len(places), placements=[placed(piece, hex) for piece, hex in places]
    )


def owns(seat: int, *tiles: str) -> list[ev.Event]:
    """The seat gained these gods tiles earlier (from loot, for no points)."""
    return [ev.GodGained(seat=seat, tile=tile, source="loot", points=0) for tile in tiles]


def levels(seat: int, **kinds: int) -> list[ev.Event]:
    """The seat owns sacrifice tiles at these levels."""
    return [ev.SacrificeImproved(seat=seat, kind=kind, level=level) for kind, level in kinds.items()]


def special_money(seat: int, *values: int) -> list[ev.Event]:
    """The seat took these special money cards, from the top of the ascending stack."""
    return [ev.SpecialMoneyTaken(seat=seat, value=value) for value in values]


def steps_tile(seat: int) -> list[ev.Event]:
    """The seat owns the Steps +1 bonus tile."""
    return [ev.BonusTileChosen(seat=seat, tile="steps_1"), ev.BonusActivated(seat=seat, tile="steps_1")]


def display(*cards: str) -> list[ev.Event]:
    """The card display shows these cards, slot 0 first."""
    return [ev.DisplayRefilled(slot=slot, card=card) for slot, card in enumerate(cards)]


def drawn(seat: int, reason: str, *cards: str) -> ev.CardsDrawn:
    return ev.CardsDrawn(seat=seat, count=len(cards), cards=list(cards), reason=reason)


def agenda(*tasks: Task) -> ev.AgendaSet:
    return ev.AgendaSet(tasks=list(tasks))


def action(seat: int, traitera: int = 0) -> list[Task]:
    """The tasks of a turn: choose an action, then the end of the action."""
    return [Task(kind="action", seat=seat), Task(kind="end_action", seat=seat, n=traitera)]


def follow_up(seat: int) -> Task:
    return Task(kind="follow_up", seat=seat)


def end_action(seat: int, traitera: int = 0) -> Task:
    return Task(kind="end_action", seat=seat, n=traitera)


def cards_rng(state: State, *cards: str) -> ScriptedRng:
    """A rng whose draws from the draw pile give these cards in order."""
    pile = list(state.draw_pile)
    values = []
    for card in cards:
        i = CARD_INDEX[card]
        values.append(sum(pile[:i]))
        pile[i] -= 1
    return ScriptedRng(*values)


def gods_rng(state: State, *tiles: str) -> ScriptedRng:
    """A rng whose draws from the gods stack give these tiles in order."""
    stack = list(state.gods_stack)
    values = []
    for tile in tiles:
        values.append(stack.index(tile))
        stack.remove(tile)
    return ScriptedRng(*values)
