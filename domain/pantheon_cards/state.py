"""The game state (rules §1, §6, §20). A mutable working object for speed: `evolve` updates it in
place and `decide` works on a copy, so callers still see decide and replay as pure functions.

The state holds no decided secret: the draw deck is the set of `unseen` card ids and a count
(§20); hands are known to the state, and views redact them (§22)."""

from __future__ import annotations

import msgspec

from .commands import PantheonCardsOptions
from .facts import HandStep

# stages of a turn (§5) and of the game
SETUP, DRAW, PLAY, POWER, END, BATTLE, OVER = "setup", "draw", "play", "power", "end", "battle", "over"


class Column(msgspec.Struct, kw_only=True):
    """A column (§6): at most one temple (damaged or not) and one god, and worshiper cards in
    the order they arrived."""

    id: str
    temple: str | None = None
    damaged: bool = False
    god: str | None = None
    worshipers: list[str] = []


class War(msgspec.Struct, kw_only=True):
    """A war in progress (§16). `stage`: undefended | commit_attacker | commit_defender |
    battle_card_defender | battle_card_attacker | place_survivors. `frozen` holds each side's
    multiplier from W3, `card` each side's battle-card multiplier (1: none)."""

    attacker: int
    defender: int
    stage: str
    frozen: list[int] = msgspec.field(default_factory=lambda: [1, 1])  # attacker, defender
    card: list[int] = msgspec.field(default_factory=lambda: [1, 1])
    # column ids (the attacker's is sealed from the others until both commit)
    committed: list[list[str]] = msgspec.field(default_factory=lambda: [[], []])
    origins: dict[str, list[str]] = {}  # committed column id -> its worshiper cards before W5
    decks: list[list[str]] = msgspec.field(default_factory=lambda: [[], []])  # unordered; sorted
    survivors: list[list[str]] = msgspec.field(default_factory=lambda: [[], []])
    victor: int | None = None


class PantheonCardsState(msgspec.Struct, kw_only=True):
    """Everything about one game of Pantheon, the card game."""

    options: PantheonCardsOptions
    removed_count: int  # cards removed unseen at setup (§3): |unseen| = deck + removed_count
    deck: int
    unseen: list[str]  # sorted; no order is ever decided (§20)
    hands: list[list[str]]
    columns: list[list[Column]]
    opened: list[int]  # columns each seat has opened so far (ids are never reused, §6.1)
    in_effect: list[list[str]]  # civilization cards in effect in front of each seat
    general: list[str] = []  # general discard pile, bottom first
    gods: list[str] = []  # god discard pile, bottom first
    pending_general: list[str] = []  # this turn's discards (§18.2), in the order discarded
    pending_gods: list[str] = []
    removed: list[str] = []  # removed from the game, public (used civilization cards, Creation's board)
    removed_hands: list[list[str]] = []  # cards Creation removed from each seat's hand (its own secret)
    announced: list[int] = []  # the last announced worshiper counts in hand (§4.4, R43)
    turn: int = 0  # turns since setup (§5.5, R36)
    active: int = -1
    stage: str = SETUP
    decision: str | None = None
    awaiting: int = -1
    revealed: str | None = None  # a god drawn from the deck before it is placed, or Mischief's card
    attraction: list[str] = []  # kept columns the awaited seat chooses among (§8.6)
    mischief_victim: int = -1
    spy: int = -1  # Spies: the spying seat and the spied one while the card is chosen
    spied: int = -1
    war: War | None = None
    scores: list[int] = []  # at the game's end and after each battle turn
    tied: list[int] = []  # the Battle of Pantheons' tied set (§19.4)
    battle_turns: int = 0
    quiet_turns: int = 0  # consecutive battle turns without a score change (D2)
    finished: bool = False
    winners: list[int] = []
    draw: bool = False
    end_reason: str = ""
    hand_trace: list[HandStep] = []  # facts.py: every card's way into and out of the hands

    @property
    def players(self) -> int:
        return len(self.hands)


def _clone_column(column: Column) -> Column:
    c: Column = column.__copy__()  # type: ignore[attr-defined]  # a C-speed shallow copy (not in msgspec's stubs)
    c.worshipers = column.worshipers[:]
    return c


def _clone_war(war: War) -> War:
    c: War = war.__copy__()  # type: ignore[attr-defined]  # as above
    c.frozen, c.card = war.frozen[:], war.card[:]
    c.committed, c.decks, c.survivors = (
        [s[:] for s in war.committed],
        [d[:] for d in war.decks],
        [s[:] for s in war.survivors],
    )
    c.origins = {column: cards[:] for column, cards in war.origins.items()}
    return c


def clone(state: State) -> State:
    """A deep copy, written out (decide copies the state for every command, and a msgpack round
    trip took about a tenth of a random game's time). The hand trace's steps are frozen: the copy
    shares them. Every mutable field must be copied here; a test walks the fields to make sure
    none is shared."""
    c: State = state.__copy__()  # type: ignore[attr-defined]  # as above
    c.unseen, c.hands = state.unseen[:], [hand[:] for hand in state.hands]
    c.columns = [[_clone_column(column) for column in row] for row in state.columns]
    c.opened, c.in_effect = state.opened[:], [cards[:] for cards in state.in_effect]
    c.general, c.gods, c.pending_general, c.pending_gods = (
        state.general[:],
        state.gods[:],
        state.pending_general[:],
        state.pending_gods[:],
    )
    c.removed, c.removed_hands, c.announced = state.removed[:], [h[:] for h in state.removed_hands], state.announced[:]
    c.attraction, c.scores, c.tied, c.winners = state.attraction[:], state.scores[:], state.tied[:], state.winners[:]
    c.war = None if state.war is None else _clone_war(state.war)
    c.hand_trace = state.hand_trace[:]
    return c


State = PantheonCardsState
