"""Dealing what a seat has not seen so that it agrees with every public fact (facts.py): hands
that could have been drawn, given every card the seat saw taken, played and refilled, and half
gods that could have been drawn, given the stack groups and every sum a scoring published.

Both are constructive: the card trace is replayed, each card a seat played that it was not
known to hold is bound to one of its unseen draws from a pile that still had it (if none has,
earlier plays move to other draws along a short augmenting path), and what is left of each pile
is dealt to its remaining unseen draws (the last pile's rest is the draw pile); the
half gods behind a published sum are chosen among the value combinations that make it, weighted
by how many ways the unseen tiles give each."""

from __future__ import annotations

from collections.abc import Iterator
from math import comb, prod

from domain.forks import Shuffles

from ..facts import DRAW, HIGH, LOW, PILE, PLAY, REFILL, TAKE, UNSEEN, CardStep
from ..vocabulary import CARDS


class Unsolved(Exception):
    """The random choices met a dead end (the caller tries again)."""


Token = tuple[int, int, int]  # an unseen draw: (pile number, step index, position in the step)
Binding = tuple[int, int, int, Token]  # a play of an unseen draw: seat, step, card, the draw
_DEPTH = 3  # how many earlier plays one play may move to other draws


class _Cards:
    """The card trace replayed: each pile's cards not yet placed, each seat's known cards and
    unseen draws, and the trace being filled in."""

    def __init__(self, players: int, trace: list[CardStep]) -> None:
        self.seen = _seen_from_piles(trace)
        self.piles: list[list[int]] = []
        self.known = [[0] * len(CARDS) for _ in range(players)]
        self.tokens: list[list[Token]] = [[] for _ in range(players)]
        self.trace = trace
        self.filled: dict[int, list[int]] = {}  # the steps whose cards were filled in
        self.bound: list[Binding] = []

    def step(self, index: int, step: CardStep, rnd: Shuffles) -> None:
        if step.kind == PILE:  # the cards of this pile that will leave it unseen
            self.piles.append([n - seen for n, seen in zip(step.cards, self.seen[len(self.piles)])])
        elif step.kind == DRAW:
            for position, card in enumerate(step.cards):
                if card == UNSEEN:
                    self.tokens[step.seat].append((len(self.piles) - 1, index, position))
                else:
                    self.known[step.seat][card] += 1
        elif step.kind == TAKE:
            self.known[step.seat][step.cards[0]] += 1
        elif step.kind == PLAY:
            for card in step.cards:
                self.play(step.seat, card, index, rnd)

    def play(self, seat: int, card: int, step: int, rnd: Shuffles) -> None:
        if self.known[seat][card]:
            self.known[seat][card] -= 1
            return
        tokens = self.tokens[seat]
        fits = [k for k, (pile, _, _) in enumerate(tokens) if self.piles[pile][card] > 0]
        if fits:
            weights = [self.piles[tokens[k][0]][card] for k in fits]  # the piles with most of it left
            token = tokens.pop(fits[_weighted(weights, rnd)])
        else:
            found = self._acquire(seat, card, step, _DEPTH, set())
            if found is None:
                raise Unsolved
            token = found
            tokens.remove(token)
        self._bind(seat, card, step, token)

    def _bind(self, seat: int, card: int, step: int, token: Token) -> None:
        self.piles[token[0]][card] -= 1
        self.fill(token, card)
        self.bound.append((seat, step, card, token))

    def fill(self, token: Token, card: int) -> None:
        self.filled.setdefault(token[1], list(self.trace[token[1]].cards))[token[2]] = card

    def _unbind(self, b: int) -> Binding:
        seat, step, card, token = binding = self.bound.pop(b)
        self.piles[token[0]][card] += 1
        self.tokens[seat].append(token)
        return binding

    def _acquire(self, seat: int, card: int, before: int, depth: int, busy: set[Token]) -> Token | None:
        """An unbound draw of the seat made before step `before` whose pile can give `card`, made
        so by moving earlier plays to other draws if need be (an augmenting path, `depth` long)."""
        mine = [t for t in self.tokens[seat] if t[1] < before and t not in busy]
        for token in mine:
            if self.piles[token[0]][card] > 0:
                return token
        if depth == 0:
            return None
        for token in mine:  # its pile has none left: move a play of the card from that pile elsewhere
            if self._free(seat, card, token, depth, busy):
                return token
        for binding in list(self.bound):  # take a bound draw, moving its play
            if self._vacate(binding, seat, card, before, depth, busy):
                return binding[3]
        return None

    def _free(self, seat: int, card: int, token: Token, depth: int, busy: set[Token]) -> bool:
        """Make the token's pile give `card`: move a play of it from that pile to another draw."""
        for binding in list(self.bound):
            if token not in self.tokens[seat]:  # bound meanwhile by a move that did not help
                return False
            moved = binding[2] == card and binding[3][0] == token[0] and self._move(binding, depth - 1, busy | {token})
            if moved and self.piles[token[0]][card] > 0 and token in self.tokens[seat]:
                return True  # (a play may have moved within the pile: then it did not help)
        return False

    def _vacate(self, binding: Binding, seat: int, card: int, before: int, depth: int, busy: set[Token]) -> bool:
        """Unbind a draw of the seat that can give `card`, moving its play to another draw."""
        owner, _, played, held = binding
        if owner != seat or held[1] >= before or held in busy or self.piles[held[0]][card] + (played == card) <= 0:
            return False
        moved = self._move(binding, depth - 1, busy | {held})
        return moved and self.piles[held[0]][card] > 0 and held in self.tokens[seat]

    def _move(self, binding: Binding, depth: int, busy: set[Token]) -> bool:
        """Rebind a play to another draw of its seat (made before it), or leave it as it was."""
        if binding not in self.bound:  # moved meanwhile, deeper in this search
            return False
        seat, step, card, token = self._unbind(self.bound.index(binding))
        other = self._acquire(seat, card, step, depth, busy | {token})
        if other is None:
            self.tokens[seat].remove(token)
            self._bind(seat, card, step, token)
            return False
        self.tokens[seat].remove(other)
        self._bind(seat, card, step, other)
        return True

    def deal(self, rnd: Shuffles) -> tuple[list[list[int]], list[int]]:
        """Each pile's rest dealt to its unseen draws: every hand, and the draw pile."""
        hands = [known[:] for known in self.known]
        by_pile: list[list[tuple[int, Token]]] = [[] for _ in self.piles]
        for seat, tokens in enumerate(self.tokens):
            for token in tokens:
                by_pile[token[0]].append((seat, token))
        draw_pile = [0] * len(self.piles[-1])  # as long as the state's (it has room for 4 more)
        for number, (rest, waiting) in enumerate(zip(self.piles, by_pile)):
            cards = [c for c, n in enumerate(rest) for _ in range(n)]
            if len(cards) < len(waiting) or (number < len(self.piles) - 1 and len(cards) != len(waiting)):
                raise Unsolved
            rnd.shuffle(cards)
            for card, (seat, token) in zip(cards, waiting):
                hands[seat][card] += 1
                self.fill(token, card)
            for card in cards[len(waiting) :]:
                draw_pile[card] += 1
        return hands, draw_pile


def _weighted(weights: list[int], rnd: Shuffles) -> int:
    """An index picked with odds proportional to its weight."""
    r = rnd.randrange(sum(weights))
    for k, weight in enumerate(weights):
        if r < weight:
            return k
        r -= weight
    raise AssertionError("unreachable")


def _seen_from_piles(trace: list[CardStep]) -> list[list[int]]:
    """Per pile, the cards seen leaving it (refills, the viewer's draws): they must still be in it
    when they leave, so no unseen draw may take them, however early."""
    seen: list[list[int]] = []
    for step in trace:
        if step.kind == PILE:
            seen.append([0] * len(step.cards))
        elif step.kind in (REFILL, DRAW):
            for card in step.cards:
                if card != UNSEEN:
                    seen[-1][card] += 1
    return seen


def deal_cards(
    players: int, trace: list[CardStep], rnd: Shuffles, tries: int = 20
) -> tuple[list[list[int]], list[int], list[CardStep]]:
    """Every hand and the draw pile (counts per CARDS) and the trace with every card filled in."""
    for _ in range(tries):
        replay = _Cards(players, trace)
        try:
            for index, step in enumerate(trace):
                replay.step(index, step, rnd)
            hands, pile = replay.deal(rnd)
        except Unsolved:
            continue
        changed = replay.filled
        filled = [
            CardStep(kind=s.kind, seat=s.seat, cards=changed[i]) if i in changed else s for i, s in enumerate(trace)
        ]
        return hands, pile, filled
    raise Unsolved


def _groups(seen: list[int], sums: list[tuple[int, int]]) -> Iterator[tuple[list[int], int | None]]:
    """A seat's half gods cut at each scoring: the slots of each part, and the sum of its unseen
    values (None for the part after the last scoring)."""
    start, scored = 0, 0
    for held, total in sums:
        part = seen[start:held]
        yield list(range(start, held)), total - scored - sum(v for v in part if v > 0)
        start, scored = held, total
    yield list(range(start, len(seen))), None


def _splits(avail: dict[int, int], values: tuple[int, int, int], n: int) -> Iterator[tuple[int, int, int]]:
    """Every way to take n tiles of these three values out of `avail`: how many of each."""
    a, b, c = (avail.get(v, 0) for v in values)
    for x in range(min(a, n) + 1):
        for y in range(min(b, n - x) + 1):
            if n - x - y <= c:
                yield x, y, n - x - y


def _combinations(avail: dict[int, int], lows: int, highs: int, total: int) -> list[tuple[dict[int, int], int]]:
    """Every choice of `lows` values 1-3 and `highs` values 4-6 summing to `total`, with how many
    ways the unseen tiles give it."""
    found = []
    for low in _splits(avail, (1, 2, 3), lows):
        for high in _splits(avail, (4, 5, 6), highs):
            chosen = {v: n for v, n in zip(range(1, 7), low + high) if n}
            if sum(v * n for v, n in chosen.items()) == total:
                found.append((chosen, prod(comb(avail.get(v, 0), n) for v, n in chosen.items())))
    return found


def _choose(options: list[tuple[dict[int, int], int]], rnd: Shuffles) -> Iterator[dict[int, int]]:
    """The options in a random order, each next one picked by its weight."""
    options = list(options)
    while options:
        r = rnd.randrange(sum(w for _, w in options))
        for k, (chosen, weight) in enumerate(options):
            if r < weight:
                yield chosen
                options.pop(k)
                break
            r -= weight


def _solve(parts: list[tuple[int, int, int]], avail: dict[int, int], rnd: Shuffles) -> list[dict[int, int]] | None:
    """Values for each (lows, highs, sum) part out of `avail`, or None."""
    if not parts:
        return []
    lows, highs, total = parts[0]
    for chosen in _choose(_combinations(avail, lows, highs, total), rnd):
        rest = {v: n - chosen.get(v, 0) for v, n in avail.items()}
        tail = _solve(parts[1:], rest, rnd)
        if tail is not None:
            return [chosen, *tail]
    return None


def deal_half_gods(
    seen: dict[int, list[int]], sums: dict[int, list[tuple[int, int]]], unseen: list[int], rnd: Shuffles
) -> tuple[dict[int, list[int]], list[int], list[int]]:
    """The half gods of the seats whose values are unseen (in the order taken), and the unseen
    values left for the stack, 1-3 and 4-6: `seen` and `sums` as facts.py notes them, `unseen`
    every value not seen."""
    slots = [(seat, slot_list, total) for seat in seen for slot_list, total in _groups(seen[seat], sums[seat])]
    scored = [(seat, s, t) for seat, s, t in slots if t is not None]
    parts = [(sum(seen[seat][i] == LOW for i in s), sum(seen[seat][i] == HIGH for i in s), t) for seat, s, t in scored]
    avail: dict[int, int] = {}
    for v in unseen:
        avail[v] = avail.get(v, 0) + 1
    solved = _solve([(lo, hi, t) for lo, hi, t in parts if t is not None], avail, rnd)
    if solved is None:
        raise Unsolved
    held = {seat: list(seen[seat]) for seat in seen}
    for (seat, s, _), chosen in zip(scored, solved):
        _place(held[seat], s, chosen, rnd)
        for v, n in chosen.items():
            avail[v] -= n
    rest = {seat: [i for i, v in enumerate(values) if v in (LOW, HIGH)] for seat, values in held.items()}
    low = [v for v, n in avail.items() if v <= 3 for _ in range(n)]
    high = [v for v, n in avail.items() if v > 3 for _ in range(n)]
    rnd.shuffle(low)
    rnd.shuffle(high)
    for seat, indices in rest.items():
        for i in indices:
            pool = low if held[seat][i] == LOW else high
            if not pool:
                raise Unsolved
            held[seat][i] = pool.pop()
    return held, sorted(low), sorted(high)


def _place(values: list[int], slots: list[int], chosen: dict[int, int], rnd: Shuffles) -> None:
    """The chosen values into the part's unseen slots, lows into the 1-3 draws, highs into the 4-6."""
    low = [v for v, n in chosen.items() if v <= 3 for _ in range(n)]
    high = [v for v, n in chosen.items() if v > 3 for _ in range(n)]
    rnd.shuffle(low)
    rnd.shuffle(high)
    for i in slots:
        if values[i] == LOW:
            values[i] = low.pop()
        elif values[i] == HIGH:
            values[i] = high.pop()
