"""Events: the facts the engine records (rules §21 suggests their names). Every random outcome
is written into the event that reveals it, so replay needs no randomness. A field that only some
viewers may see is None in the event as redacted for the others (views.redact, rules §22)."""

from __future__ import annotations

import msgspec

from .commands import PantheonCardsOptions, Placement


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    pass


class Roll(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    roll: int


class PantheonCardsGameCreated(_Event, frozen=True, kw_only=True, tag="game_created"):
    """Setup (§4.1): every card unseen, `deck` of them in the draw deck, `removed` never named."""

    options: PantheonCardsOptions
    deck: int
    removed: int


class CardDealt(_Event, frozen=True, kw_only=True, tag="card_dealt"):
    """A random unseen card into `seat`'s hand (setup, Creation's re-deal); deck −1."""

    seat: int
    card: str | None  # None for everyone but the seat


class WorshipersAnnounced(_Event, frozen=True, kw_only=True, tag="worshipers_announced"):
    """The engine's declaration of every seat's worshiper cards in hand (§4.4, R43)."""

    counts: list[int]


class ChallengeRolled(_Event, frozen=True, kw_only=True, tag="challenge_rolled"):
    """A challenge (§11): every round of rolls (only the tied highest roll again) and the winner.
    `reason`: first_seat, attraction, death, love, protection, science, wisdom."""

    reason: str
    seats: list[int]
    rounds: list[list[Roll]]
    winner: int


class TurnStarted(_Event, frozen=True, kw_only=True, tag="turn_started"):
    seat: int
    turn: int


class StepBegun(_Event, frozen=True, kw_only=True, tag="step_begun"):
    """The active seat's turn moves to step `step`: play (§5.3), power (§5.4) or end (§5.5)."""

    step: str


class CardDrawn(_Event, frozen=True, kw_only=True, tag="card_drawn"):
    """A card into `seat`'s hand. `source`: deck (step 1, not a god), extra (§5.1), chaos (§12.1)
    take a random unseen card (deck −1; only the seat sees it); general_discard and god_discard
    take the pile's top card (public)."""

    seat: int
    source: str
    card: str | None


class GodRevealed(_Event, frozen=True, kw_only=True, tag="god_drawn"):
    """Step 1 drew a god from the deck: it is revealed and attracted (§8), never in the hand."""

    seat: int
    card: str


class GodColumnsKept(_Event, frozen=True, kw_only=True, tag="god_columns_kept"):
    """§8 step 6: `seat` keeps several columns for the attracted god and chooses one."""

    seat: int
    god: str
    columns: list[str]


class CardPlaced(_Event, frozen=True, kw_only=True, tag="card_placed"):
    """A card enters `column` of `seat` (created if new): from `player`'s hand (step 2, Mischief)
    or the revealed god (attraction). `replaced`: the wooden temple a stone one displaced (R44)."""

    player: int
    seat: int
    card: str
    column: str
    source: str  # hand | revealed
    replaced: str | None = None


class PlaySkipped(_Event, frozen=True, kw_only=True, tag="play_skipped"):
    """Step 2 had no legal play (R9)."""

    seat: int


class PowerEmployed(_Event, frozen=True, kw_only=True, tag="power_employed"):
    """A godly power employed (§12) with its parameters; its effects follow as events."""

    seat: int
    god: str
    slot: str
    power: str
    mode: str | None = None
    target: int | None = None
    target_god: str | None = None
    worshiper: str | None = None
    temple: str | None = None
    column: str | None = None


class CivilizationPlayed(_Event, frozen=True, kw_only=True, tag="civilization_played"):
    """A civilization card played by `seat` (from its hand, or Mischief's revealed card): removed
    from the game, or in effect in front of `beneficiary` if it stays (§14)."""

    seat: int
    card: str
    source: str  # hand | revealed
    beneficiary: int
    target: int | None = None
    column: str | None = None
    temple: str | None = None


class TempleRepaired(_Event, frozen=True, kw_only=True, tag="temple_repaired"):
    temples: list[str]


class TempleDamaged(_Event, frozen=True, kw_only=True, tag="temple_damaged"):
    """An undamaged temple becomes damaged (a damaged one is discarded instead: CardDiscarded)."""

    temple: str


class CardDiscarded(_Event, frozen=True, kw_only=True, tag="card_discarded"):
    """A card from wherever it is (a column, a hand, a war, the revealed card) to the pending
    discards of its pile (§18.2), face up."""

    card: str
    reason: str


class WorshiperReplaced(_Event, frozen=True, kw_only=True, tag="worshiper_replaced"):
    """§9 swap: `replacement` (from the general pile or the unseen cards, deck −1) takes `card`'s
    place; `card` goes to pending discards."""

    card: str
    replacement: str
    source: str  # general_discard | unseen


class DiscardPileShuffled(_Event, frozen=True, kw_only=True, tag="discard_pile_shuffled"):
    """§9.3: the general pile's new order, bottom first (R14)."""

    order: list[str]


class GodMoved(_Event, frozen=True, kw_only=True, tag="god_moved"):
    """Beauty: the god to another column, and to that column's seat (R26)."""

    god: str
    column: str


class WorshiperMoved(_Event, frozen=True, kw_only=True, tag="worshiper_moved"):
    """Love, Migration: a worshiper card to the end of `column` (created if new)."""

    card: str
    column: str


class MischiefCardTaken(_Event, frozen=True, kw_only=True, tag="mischief_card_taken"):
    """§15.2: the random card taken from `victim`'s hand, revealed to everyone."""

    seat: int
    victim: int
    card: str


class HandSpied(_Event, frozen=True, kw_only=True, tag="hand_spied"):
    """Spies: `spy` sees `target`'s hand (only they two see it)."""

    spy: int
    target: int
    hand: list[str] | None


class SpiedCardTaken(_Event, frozen=True, kw_only=True, tag="spied_card_taken"):
    spy: int
    target: int
    card: str | None


class WarDeclared(_Event, frozen=True, kw_only=True, tag="war_declared"):
    """§16: a war begins (after W1). `multipliers`: the W3 frozen multipliers (attacker,
    defender); `undefended`: W2, the defender has no worshiper card in play."""

    attacker: int
    defender: int
    multipliers: list[int]
    undefended: bool = False


class WarCommitted(_Event, frozen=True, kw_only=True, tag="war_committed"):
    """W4: a side's committed columns, sealed (None) for everyone else until both are revealed."""

    seat: int
    columns: list[str] | None


class WarDecksFormed(_Event, frozen=True, kw_only=True, tag="war_decks_formed"):
    """W4-W5 revealed: both sides' committed columns and war decks (attacker, defender)."""

    columns: list[list[str]]
    decks: list[list[str]]


class BattleCardPlayed(_Event, frozen=True, kw_only=True, tag="battle_card_played"):
    seat: int
    card: str


class BattleCardSkipped(_Event, frozen=True, kw_only=True, tag="battle_card_skipped"):
    seat: int


class WarCardsRevealed(_Event, frozen=True, kw_only=True, tag="war_cards_revealed"):
    """W7: one random card of each side's war deck (attacker, defender) and their war values; a
    side whose deck was empty took its survivors back first. The lower card (both on a tie) is
    discarded; the higher survives."""

    cards: list[str]
    values: list[int]


class WarEnded(_Event, frozen=True, kw_only=True, tag="war_ended"):
    """W8: the victor (None: no victor), or a Truce (every committed card back where it was)."""

    victor: int | None
    truce: bool = False


class SurvivorsPlaced(_Event, frozen=True, kw_only=True, tag="survivors_placed"):
    seat: int
    placements: list[Placement]


class ColumnRemoved(_Event, frozen=True, kw_only=True, tag="column_removed"):
    """§17.2: an empty column ceases to exist."""

    column: str


class DiscardsPlaced(_Event, frozen=True, kw_only=True, tag="discards_placed"):
    """§18.3: the pending discards onto their piles, bottom first."""

    general: list[str]
    gods: list[str]


class CreationCleared(_Event, frozen=True, kw_only=True, tag="creation_cleared"):
    """§12.2: everything but the unseen cards removed from the game; each seat sees only what
    its own hand held (`hands[s]` None for the others)."""

    seat: int
    hands: list[list[str] | None]


class GameScored(_Event, frozen=True, kw_only=True, tag="game_scored"):
    """§19.2-19.3: the scores at the end; `tied` seats go to the Battle of Pantheons."""

    scores: list[int]
    tied: list[int]


class BattleTurnStarted(_Event, frozen=True, kw_only=True, tag="battle_turn_started"):
    """§19.4.1: a tied seat's battle turn."""

    seat: int


class BattleTurnEnded(_Event, frozen=True, kw_only=True, tag="battle_turn_ended"):
    """§19.4.3: the re-score after a battle turn and the new tied set."""

    seat: int
    scores: list[int]
    tied: list[int]
    changed: bool


class GameOver(_Event, frozen=True, kw_only=True, tag="game_over"):
    """The winner, or the seats sharing a draw (§19.4 D1-D3)."""

    winners: list[int]
    scores: list[int]
    draw: bool
    reason: str


class DecisionAwaited(_Event, frozen=True, kw_only=True, tag="decision_awaited"):
    """The engine waits for `seat` to take `decision` (§23.1); the next event ends the wait."""

    seat: int
    decision: str


Event = (
    PantheonCardsGameCreated
    | CardDealt
    | WorshipersAnnounced
    | ChallengeRolled
    | TurnStarted
    | StepBegun
    | CardDrawn
    | GodRevealed
    | GodColumnsKept
    | CardPlaced
    | PlaySkipped
    | PowerEmployed
    | CivilizationPlayed
    | TempleRepaired
    | TempleDamaged
    | CardDiscarded
    | WorshiperReplaced
    | DiscardPileShuffled
    | GodMoved
    | WorshiperMoved
    | MischiefCardTaken
    | HandSpied
    | SpiedCardTaken
    | WarDeclared
    | WarCommitted
    | WarDecksFormed
    | BattleCardPlayed
    | BattleCardSkipped
    | WarCardsRevealed
    | WarEnded
    | SurvivorsPlaced
    | ColumnRemoved
    | DiscardsPlaced
    | CreationCleared
    | GameScored
    | BattleTurnStarted
    | BattleTurnEnded
    | GameOver
    | DecisionAwaited
)
