"""Drawing from the hidden piles: each draw is a uniform pick made at the moment it is revealed.

These helpers work on the decide-side working copy through a context that emits events."""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel import Rng

from . import events as ev
from .evolve import _HANDLERS as EVOLVE
from .evolve import evolve
from .state import State, clone
from .vocabulary import CARDS, EMPTY_SLOT


class Context:
    """decide's working copy: emitted events are evolved into it at once."""

    __slots__ = ("s", "rng", "events")

    def __init__(self, state: State | None, rng: Rng, *, in_place: bool = False) -> None:
        # None only while a game is created: its first event makes the state (see `emit`)
        self.s: State = clone(state) if state is not None and not in_place else state  # type: ignore[assignment]
        self.rng = rng
        self.events: list[ev.Event] = []

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)
        if self.s is None:
            self.s = evolve(None, event)
        else:
            EVOLVE[type(event)](self.s, event)

    def push(self, *tasks: ev.Task) -> None:
        """Put tasks at the front of the agenda, in the given order."""
        self.s.agenda[0:0] = tasks


def pick_weighted(rng: Rng, counts: list[int]) -> int:
    """A uniform pick among the items of a multiset given as counts: the picked index."""
    r = rng.randbelow(sum(counts))
    for i, n in enumerate(counts):
        if r < n:
            return i
        r -= n
    raise AssertionError("unreachable")


def _refill_pile(ctx: Context, hands_too: bool) -> bool:
    s = ctx.s
    if sum(s.discard):
        ctx.emit(ev.DiscardReshuffled(count=sum(s.discard)))
        return True
    if hands_too and any(sum(seat.hand) for seat in s.seats):
        hands = [[CARDS[i] for i, n in enumerate(seat.hand) for _ in range(n)] for seat in s.seats]
        ctx.emit(ev.HandsReshuffled(counts=[len(h) for h in hands], hands=hands))
        return True
    return False


def draw_cards(ctx: Context, seat: int, n: int, reason: str) -> None:
    """Draw n cards from the draw pile into a hand, reshuffling as the rules say."""
    batch: list[str] = []
    pile = list(ctx.s.draw_pile)
    for _ in range(n):
        if not sum(pile):
            if batch:
                ctx.emit(ev.CardsDrawn(seat=seat, count=len(batch), cards=batch, reason=reason))
                batch = []
            if not _refill_pile(ctx, hands_too=True):
                break
            pile = list(ctx.s.draw_pile)
        i = pick_weighted(ctx.rng, pile)
        pile[i] -= 1
        batch.append(CARDS[i])
    if batch:
        ctx.emit(ev.CardsDrawn(seat=seat, count=len(batch), cards=batch, reason=reason))


def refill_display(ctx: Context) -> None:
    """Fill every empty display slot from the draw pile (the discard pile is reshuffled if need be)."""
    for slot, card in enumerate(ctx.s.display):
        if card != EMPTY_SLOT:
            continue
        if not sum(ctx.s.draw_pile) and not _refill_pile(ctx, hands_too=False):
            return
        i = pick_weighted(ctx.rng, ctx.s.draw_pile)
        ctx.emit(ev.DisplayRefilled(slot=slot, card=CARDS[i]))


def draw_god(ctx: Context, reveal: Callable[[str], ev.Event], in_use: str = "") -> str | None:
    """Draw the top gods tile (a uniform pick), rebuilding the stack from the box if empty;
    `in_use` (an immediate tile whose benefit this draw is) stays out of the new stack."""
    s = ctx.s
    if not s.gods_stack:
        kept = [in_use] if in_use in s.gods_box else []
        if len(s.gods_box) == len(kept):
            return None
        ctx.emit(ev.GodsStackRebuilt(count=len(s.gods_box) - len(kept), kept=kept))
    tile = s.gods_stack[ctx.rng.randbelow(len(s.gods_stack))]
    ctx.emit(reveal(tile))
    return tile


def pick_half_gods(state: State, rng: Rng, n: int) -> list[int]:
    """The top n half gods of the stack: the 1-3 group first, then the 4-6 group."""
    low, high = list(state.half_gods_low), list(state.half_gods_high)
    picked = []
    for _ in range(n):
        group = low or high
        if not group:
            break
        picked.append(group.pop(rng.randbelow(len(group))))
    return picked


def pick_from_bag(rng: Rng, bag: dict[str, int]) -> str | None:
    names = sorted(name for name, n in bag.items() if n)
    if not names:
        return None
    i = pick_weighted(rng, [bag[name] for name in names])
    bag[names[i]] -= 1
    return names[i]


__all__ = ["Context", "draw_cards", "refill_display", "draw_god", "pick_half_gods", "pick_from_bag"]
