"""Events: the facts the engine records. Every random outcome is written into the event that
reveals it, so replay needs no randomness. Events never forbid unknown fields."""

from __future__ import annotations

import msgspec

from .commands import Hex, Options, Purchase


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    pass


class GameCreated(_Event, frozen=True, kw_only=True, tag="game_created"):
    options: Options


class StartingSeatChosen(_Event, frozen=True, kw_only=True, tag="starting_seat_chosen"):
    seat: int


class CardsDrawn(_Event, frozen=True, kw_only=True, tag="cards_drawn"):
    """Cards from the draw pile into a hand; `cards` is private to the seat, `count` is public."""

    seat: int
    count: int
    cards: list[str] = []
    reason: str = ""


class DisplayRefilled(_Event, frozen=True, kw_only=True, tag="display_refilled"):
    slot: int
    card: str


class CardTaken(_Event, frozen=True, kw_only=True, tag="card_taken"):
    """A card taken from the display by the Drawing action."""

    seat: int
    slot: int
    card: str


class DiscardReshuffled(_Event, frozen=True, kw_only=True, tag="discard_reshuffled"):
    """The discard pile became the new draw pile."""

    count: int


class HandsReshuffled(_Event, frozen=True, kw_only=True, tag="hands_reshuffled"):
    """Draw and discard piles were empty: every hand went into the new draw pile."""

    counts: list[int]
    hands: list[list[str]] = []


class BonusTilesDealt(_Event, frozen=True, kw_only=True, tag="bonus_tiles_dealt"):
    tiles: list[str]  # per seat


class NationRevealed(_Event, frozen=True, kw_only=True, tag="nation_revealed"):
    epoch: int
    nation: str


class GodsStackRebuilt(_Event, frozen=True, kw_only=True, tag="gods_stack_rebuilt"):
    """The gods stack was empty: the box's gods tiles became the new stack, except `kept`
    (the Surparit whose benefit is drawing: it is still in use, not yet back in the box)."""

    count: int
    kept: list[str] = []


class GodsRevealed(_Event, frozen=True, kw_only=True, tag="gods_revealed"):
    tiles: list[str]


class HalfGodsDisplayed(_Event, frozen=True, kw_only=True, tag="half_gods_displayed"):
    values: list[int]


class LootPlaced(_Event, frozen=True, kw_only=True, tag="loot_placed"):
    tiles: list[tuple[Hex, str]]


class SpecialMoneyResorted(_Event, frozen=True, kw_only=True, tag="special_money_resorted"):
    order: list[int]


class CardsDiscarded(_Event, frozen=True, kw_only=True, tag="cards_discarded"):
    seat: int
    cards: list[str]


class PiecesExchanged(_Event, frozen=True, kw_only=True, tag="pieces_exchanged"):
    seat: int
    give: str
    count: int


class SacrificeImproved(_Event, frozen=True, kw_only=True, tag="sacrifice_improved"):
    seat: int
    kind: str
    level: int


class TemplePlaced(_Event, frozen=True, kw_only=True, tag="temple_placed"):
    hex: Hex


class BonusTileChosen(_Event, frozen=True, kw_only=True, tag="bonus_tile_chosen"):
    seat: int
    tile: str


class Placed(msgspec.Struct, frozen=True, kw_only=True):
    piece: str
    hex: Hex
    cost: int
    jump: bool = False


class Moved(_Event, frozen=True, kw_only=True, tag="moved"):
    """A Movement action or follow-up move: cards played, steps, placements and loot taken."""

    seat: int
    cards: int
    big_foot: bool
    steps: int
    placements: list[Placed] = []
    loot: list[str] = []


class FollowUpDeclined(_Event, frozen=True, kw_only=True, tag="follow_up_declined"):
    seat: int


class Bought(_Event, frozen=True, kw_only=True, tag="bought"):
    """A Buying action (or Cartago's 2 money): money played, purchases made, loot taken."""

    seat: int
    money: list[str]
    budget: int
    purchases: list[Purchase]
    costs: list[int]
    loot: list[str] = []


class GodGained(_Event, frozen=True, kw_only=True, tag="god_gained"):
    """A gods tile gained; `source` is board, gallia, loot, bonus or surparit."""

    seat: int
    tile: str
    source: str
    points: int
    cards: list[str] = []


class GalliaRevealed(_Event, frozen=True, kw_only=True, tag="gallia_revealed"):
    seat: int
    tile: str


class GalliaDeclined(_Event, frozen=True, kw_only=True, tag="gallia_declined"):
    seat: int
    tile: str


class HalfGodTaken(_Event, frozen=True, kw_only=True, tag="half_god_taken"):
    """A half god into a seat's hands; from the stack its value is private to that seat."""

    seat: int
    source: str  # display or stack
    value: int = 0


class SpecialMoneyTaken(_Event, frozen=True, kw_only=True, tag="special_money_taken"):
    seat: int
    value: int


class ReserveGained(_Event, frozen=True, kw_only=True, tag="reserve_gained"):
    seat: int
    feet: int
    columns: int


class LootActivated(_Event, frozen=True, kw_only=True, tag="loot_activated"):
    seat: int
    tile: str


class BonusActivated(_Event, frozen=True, kw_only=True, tag="bonus_activated"):
    seat: int
    tile: str


class ColumnPlaced(_Event, frozen=True, kw_only=True, tag="column_placed"):
    """A column from the general reserve placed by the column bonus tile."""

    seat: int
    hex: Hex


class TraiteraSpent(_Event, frozen=True, kw_only=True, tag="traitera_spent"):
    seat: int
    tile: str


class TurnPhaseEnded(_Event, frozen=True, kw_only=True, tag="turn_phase_ended"):
    seat: int
    points: int


class EpochEnded(_Event, frozen=True, kw_only=True, tag="epoch_ended"):
    epoch: int
    next_starting_seat: int


class ScoreRow(msgspec.Struct, frozen=True, kw_only=True):
    half_gods: int
    columns: int
    pietalte: int
    total: int


class Scored(_Event, frozen=True, kw_only=True, tag="scored"):
    epoch: int
    rows: list[ScoreRow]


class GameEnded(_Event, frozen=True, kw_only=True, tag="game_ended"):
    scores: list[int]
    half_gods: list[list[int]]
    winners: list[int]


class Task(msgspec.Struct, frozen=True, kw_only=True, array_like=True):
    """One entry of the agenda: what happens next, and for decisions which seat is awaited."""

    kind: str
    seat: int = -1
    n: int = 0
    item: str = ""


class AgendaSet(_Event, frozen=True, kw_only=True, tag="agenda_set"):
    """What the game does next after this command: the first decision task is awaited."""

    tasks: list[Task]


Event = (
    GameCreated
    | StartingSeatChosen
    | CardsDrawn
    | DisplayRefilled
    | CardTaken
    | DiscardReshuffled
    | HandsReshuffled
    | BonusTilesDealt
    | NationRevealed
    | GodsStackRebuilt
    | GodsRevealed
    | HalfGodsDisplayed
    | LootPlaced
    | SpecialMoneyResorted
    | CardsDiscarded
    | PiecesExchanged
    | SacrificeImproved
    | TemplePlaced
    | BonusTileChosen
    | Moved
    | FollowUpDeclined
    | Bought
    | GodGained
    | GalliaRevealed
    | GalliaDeclined
    | HalfGodTaken
    | SpecialMoneyTaken
    | ReserveGained
    | LootActivated
    | BonusActivated
    | ColumnPlaced
    | TraiteraSpent
    | TurnPhaseEnded
    | EpochEnded
    | Scored
    | GameEnded
    | AgendaSet
)
