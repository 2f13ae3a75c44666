"""Commands: what a seat (or the platform, for creating a game) asks the engine to do. Tags are
the decision kinds of rules §23.1; names another game could share carry the game's name.

Card and column ids are strings: a card's id from the components file (`worshiper.500.03`), a
column's id `"<seat>:<n>"` (rules §6.1); `"new"` names a new column of the seat receiving a card."""

from __future__ import annotations

from typing import Literal

import msgspec

NEW = "new"


class PantheonCardsOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Game options, fixed at creation (rules §3)."""

    players: int
    game_length: Literal["standard", "short", "long"] = "standard"
    edition: Literal["house-1"] = "house-1"


class _Command(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class _SeatCommand(_Command, frozen=True, kw_only=True):
    seat: int


class Move(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One worshiper card to a destination column (an id of the owner's, or "new")."""

    worshiper: str
    destination: str


class Placement(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A war survivor to one of the victor's columns or to `new:k` (cards with the same k share
    one new column; rules §16 W8)."""

    worshiper: str
    destination: str


class PantheonCardsCreateGame(_Command, frozen=True, kw_only=True, tag="create_game"):
    """Set the game up: deal, announce the worshiper counts, choose the first seat (rules §4)."""

    options: PantheonCardsOptions


class DrawCard(_SeatCommand, frozen=True, kw_only=True, tag="draw_card"):
    """Step 1 (§5.2): draw from the deck or take the top card of a discard pile."""

    source: Literal["deck", "general_discard", "god_discard"]


class ChooseGodColumn(_SeatCommand, frozen=True, kw_only=True, tag="choose_god_column"):
    """§8 step 6: the column of yours an attracted god enters."""

    column: str


class PlayCard(_SeatCommand, frozen=True, kw_only=True, tag="play_card"):
    """Step 2 (§5.3): a card from your hand into one of your columns or a new one ("new"). A stone
    temple played on a column with a wooden temple replaces it (R44)."""

    card: str
    column: str


class SkipPlay(_SeatCommand, frozen=True, kw_only=True, tag="skip_play"):
    """Step 2 when no card of your hand can be played (R9)."""


class EmployPower(_SeatCommand, frozen=True, kw_only=True, tag="employ_power"):
    """Step 3 or a battle turn (§5.4, §12): one non-constant power of one of your gods. Which of
    the target fields a power needs is in rules §12.1: `target` a seat, `target_god` a god,
    `worshiper`, `temple`, `column` (ids), `mode` for Beauty, Death and Weather."""

    god: str
    slot: Literal["minor", "major"]
    mode: str | None = None
    target: int | None = None
    target_god: str | None = None
    worshiper: str | None = None
    temple: str | None = None
    column: str | None = None


class PlayCivilization(_SeatCommand, frozen=True, kw_only=True, tag="play_civilization"):
    """Step 3 (§14): an `action` civilization card from your hand with its parameters."""

    card: str
    target: int | None = None
    column: str | None = None
    temple: str | None = None
    moves: list[Move] = []


class RepairTemple(_SeatCommand, frozen=True, kw_only=True, tag="repair_temple"):
    """Step 3 (§10.4): one damaged temple of yours becomes undamaged."""

    temple: str


class EndTurn(_SeatCommand, frozen=True, kw_only=True, tag="end_turn"):
    """Step 3: no special power this turn."""


class PassBattleTurn(_SeatCommand, frozen=True, kw_only=True, tag="pass_battle_turn"):
    """A battle turn of the Battle of Pantheons (§19.4) without a power."""


class TakeSpiedCard(_SeatCommand, frozen=True, kw_only=True, tag="take_spied_card"):
    """Spies (§14): the card of the spied hand you take into yours."""

    card: str


class MischiefPlay(_SeatCommand, frozen=True, kw_only=True, tag="mischief_play"):
    """§15 step 4: the Mischief victim plays the revealed card on seat `target`: a worshiper,
    temple or god into `column` (an id of the target's, or "new"); a civilization card with
    the parameters it needs via Mischief (§14): `column`, `temple` or `moves`."""

    target: int
    column: str | None = None
    temple: str | None = None
    moves: list[Move] = []


class DamageUndefendedTemple(_SeatCommand, frozen=True, kw_only=True, tag="damage_undefended_temple"):
    """§16 W2: damage one temple of the undefended defender, or decline (None)."""

    temple: str | None = None


class CommitWarColumns(_SeatCommand, frozen=True, kw_only=True, tag="commit_war_columns"):
    """§16 W4: one or more of your columns holding worshiper cards, sealed until both committed."""

    columns: list[str]


class PlayBattleCard(_SeatCommand, frozen=True, kw_only=True, tag="play_battle_card"):
    """§16 W6: a `battle` civilization card from your hand before the battle."""

    card: str


class SkipBattleCard(_SeatCommand, frozen=True, kw_only=True, tag="skip_battle_card"):
    """§16 W6: no battle card."""


class PlaceSurvivors(_SeatCommand, frozen=True, kw_only=True, tag="place_survivors"):
    """§16 W8: a destination for every remaining card of the victor."""

    placements: list[Placement]


class OrderDiscards(_SeatCommand, frozen=True, kw_only=True, tag="order_discards"):
    """§18.3: the order, bottom first, in which this turn's pending discards are laid on each pile
    that receives two or more (leave a list empty for a pile that receives fewer)."""

    general: list[str] = []
    gods: list[str] = []


Command = (
    PantheonCardsCreateGame
    | DrawCard
    | ChooseGodColumn
    | PlayCard
    | SkipPlay
    | EmployPower
    | PlayCivilization
    | RepairTemple
    | EndTurn
    | PassBattleTurn
    | TakeSpiedCard
    | MischiefPlay
    | DamageUndefendedTemple
    | CommitWarColumns
    | PlayBattleCard
    | SkipBattleCard
    | PlaceSurvivors
    | OrderDiscards
)

CreateGame = PantheonCardsCreateGame
Options = PantheonCardsOptions
