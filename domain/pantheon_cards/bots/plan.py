"""Which unseen slot each card seen leaving a hand came from, chosen for a whole stretch of a
hand's life at once (from one deal to the next Creation): a bipartite matching of those cards to
the slots (each announced hand as one slot per card of each kind its count allows, each unseen
draw as one slot from the moment it was drawn), so that no later card finds no slot left.

A stretch in which a spy saw or took cards of the hand is left to the replay's own choices."""

from __future__ import annotations

from domain.forks import Shuffles

from ..facts import ANNOUNCED, CLEARED, DEALT, DRAWN, FROM_DECK, LEFT, MOVED, SPIED, TAKEN, UNSEEN, HandStep

GROUP = -1  # a card planned to come from the hand's announced slots


def plan(trace: list[HandStep], players: int, kinds: dict[str, str], rnd: Shuffles) -> dict[int, int]:
    """For each LEFT step of a card from an unseen slot: the step that drew its slot, or GROUP."""
    planned: dict[int, int] = {}
    for seat in range(players):
        start = 0
        for end in [i for i, s in enumerate(trace) if s.kind == CLEARED] + [len(trace)]:
            planned |= _stretch(trace, seat, start, end, kinds, rnd)
            start = end
    return planned


def _stretch(
    trace: list[HandStep], seat: int, start: int, end: int, kinds: dict[str, str], rnd: Shuffles
) -> dict[int, int]:
    known: set[str] = set()
    dealt, draws, plays, quota = 0, [], [], [0, 0]
    for i in range(start, end):
        step = trace[i]
        if step.kind in (SPIED, MOVED) and seat in (step.seat, step.target):
            return {}
        if step.seat != seat and step.kind != ANNOUNCED:
            continue
        card = step.cards[0] if step.cards else UNSEEN
        if step.kind in (DEALT, DRAWN, FROM_DECK, TAKEN) and card != UNSEEN:
            known.add(card)
        elif step.kind == DEALT:
            dealt += 1
        elif step.kind in (DRAWN, FROM_DECK):
            draws.append((i, step.kind == DRAWN))
        elif step.kind == ANNOUNCED:
            quota = [step.counts[seat], dealt - step.counts[seat]]
        elif step.kind == LEFT and card not in known:
            plays.append((i, card))
    return _match(plays, draws, quota, kinds, rnd)


def _match(
    plays: list[tuple[int, str]], draws: list[tuple[int, bool]], quota: list[int], kinds: dict[str, str], rnd: Shuffles
) -> dict[int, int]:
    """A matching of every play to a draw made before it that may be its card, or to the announced
    slots of its kind while their count lasts (a maximum flow); {} if there is none."""
    source, sink, first_draw = 0, 1, 2 + len(plays)
    worshipers, others = first_draw + len(draws), first_draw + len(draws) + 1
    capacity: dict[tuple[int, int], int] = {}
    for p, (at, card) in enumerate(plays):
        capacity[source, 2 + p] = 1
        capacity[2 + p, worshipers if kinds[card] == "worshiper" else others] = 1
        god = kinds[card] == "god"
        for d, (drawn, any_card) in enumerate(draws):
            if drawn < at and (any_card or not god):
                capacity[2 + p, first_draw + d] = 1
    for d in range(len(draws)):
        capacity[first_draw + d, sink] = 1
    capacity[worshipers, sink], capacity[others, sink] = quota
    flow = _max_flow(capacity, source, sink, rnd)
    if sum(flow.get((source, 2 + p), 0) for p in range(len(plays))) < len(plays):
        return {}
    planned = {}
    for (a, b), f in flow.items():
        if f > 0 and 2 <= a < first_draw:
            planned[plays[a - 2][0]] = draws[b - first_draw][0] if b < worshipers else GROUP
    return planned


def _max_flow(
    capacity: dict[tuple[int, int], int], source: int, sink: int, rnd: Shuffles
) -> dict[tuple[int, int], int]:
    """Edmonds-Karp on a small graph; the edges tried in a random order."""
    edges: dict[int, list[int]] = {}
    for a, b in capacity:
        edges.setdefault(a, []).append(b)
        edges.setdefault(b, []).append(a)
    for targets in edges.values():
        rnd.shuffle(targets)
    flow: dict[tuple[int, int], int] = {}

    def residual(a: int, b: int) -> int:
        return capacity.get((a, b), 0) - flow.get((a, b), 0) + flow.get((b, a), 0)

    while True:
        parent = {source: source}
        queue = [source]
        while queue and sink not in parent:
            a = queue.pop(0)
            for b in edges.get(a, []):
                if b not in parent and residual(a, b) > 0:
                    parent[b] = a
                    queue.append(b)
        if sink not in parent:
            return flow
        b = sink
        while b != source:
            a = parent[b]
            undo = min(flow.get((b, a), 0), 1)
            if undo:
                flow[b, a] -= 1
            else:
                flow[a, b] = flow.get((a, b), 0) + 1
            b = a
