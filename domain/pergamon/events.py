"""Events: the facts the engine records. Every random outcome is written into the event that
reveals it, so replay needs no randomness (rules §11). Events never forbid unknown fields.

A figure is a seat number, or -1 for the tomb raider (vocabulary.TOMB_RAIDER). VP amounts are
`None` in an event redacted for a viewer who may not see them (vp_visibility "secret", §10)."""

from __future__ import annotations

import msgspec

from .commands import PergamonOptions


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    pass


class PergamonGameCreated(_Event, frozen=True, kw_only=True, tag="game_created"):
    """The game is set up (§3); `first_player` was drawn when the option was "random" (R1)."""

    options: PergamonOptions
    first_player: int


class RoundStarted(_Event, frozen=True, kw_only=True, tag="round_started"):
    """Round `round` begins; seats will place their figures in `placement_order` (§5.2, §8.1)."""

    round: int
    first_player: int
    placement_order: list[int]


class FindsDrawn(_Event, frozen=True, kw_only=True, tag="finds_drawn"):
    """Phase 1: `tiles` drawn (sorted by tile date), `unseen` tiles of the stack to the box
    unseen (R7); `arranger` is awaited to order them (variant 2), or None."""

    round: int
    tiles: list[int]
    unseen: int
    arranger: int | None = None


class FindsArranged(_Event, frozen=True, kw_only=True, tag="finds_arranged"):
    """Variant 2: the first player's order of this round's finds."""

    seat: int
    order: list[int]


class FindsLaidOut(_Event, frozen=True, kw_only=True, tag="finds_laid_out"):
    """Each tile of `tiles` went to the end of the gallery at the same index of `galleries`."""

    tiles: list[int]
    galleries: list[int]


class FundingBacksDrawn(_Event, frozen=True, kw_only=True, tag="funding_backs_drawn"):
    """Phase 2: the backs ("bag" or "chest") of this round's two funding cards, in draw order."""

    backs: list[str]


class TombRaiderPlaced(_Event, frozen=True, kw_only=True, tag="tomb_raider_placed"):
    space: int


class FundingSpaceChosen(_Event, frozen=True, kw_only=True, tag="funding_space_chosen"):
    seat: int
    space: int


class FundingRevealed(_Event, frozen=True, kw_only=True, tag="funding_revealed"):
    """The values of this round's two funding cards, in draw order."""

    values: list[int]


class FundsPaidOut(_Event, frozen=True, kw_only=True, tag="funds_paid_out"):
    """The payout in action order (right-most figure first): (figure, coins) pairs (§5.2)."""

    payouts: list[tuple[int, int]]


class TurnStarted(_Event, frozen=True, kw_only=True, tag="turn_started"):
    """A figure's turn in phase 3 begins."""

    figure: int


class Excavated(_Event, frozen=True, kw_only=True, tag="excavated"):
    seat: int
    gallery: int
    cost: int
    tiles: list[int]


class ExcavationSkipped(_Event, frozen=True, kw_only=True, tag="excavation_skipped"):
    """The seat excavated nothing; `automatic` when no gallery qualified (R28)."""

    seat: int
    automatic: bool = False


class TombRaiderExcavated(_Event, frozen=True, kw_only=True, tag="tomb_raider_excavated"):
    """The tomb raider paid `cost` from its purse; the gallery's tiles went to the box (§5.3.4)."""

    gallery: int
    cost: int
    tiles: list[int]


class TombRaiderIdle(_Event, frozen=True, kw_only=True, tag="tomb_raider_idle"):
    """The tomb raider could excavate nothing (R22)."""


class Exhibited(_Event, frozen=True, kw_only=True, tag="exhibited"):
    """A new collection: `numeral` (the lowest free pair, R16), its row, polish, value and museum
    space. `broken_up` is the seat's collection broken up first (R17); `pushed_off` lists the
    (seat, numeral) collections pushed off space 1 (R14). The seat gains `vp`."""

    seat: int
    numeral: int
    tiles: list[int]
    polish: int
    value: int
    space: int
    broken_up: int | None = None
    pushed_off: list[tuple[int, int]] = []
    vp: int | None = 1
    secret: bool = False  # the game keeps VP secret: `vp` is redacted for other seats


class ExhibitingFinished(_Event, frozen=True, kw_only=True, tag="exhibiting_finished"):
    """The seat exhibits nothing more this turn; `automatic` when no row could be formed (R28)."""

    seat: int
    automatic: bool = False


class Stored(_Event, frozen=True, kw_only=True, tag="stored"):
    """Storage (§5.3.3): `discard` went to the box, `fee` coins paid; `automatic` with n <= 3."""

    seat: int
    discard: list[int] = []
    fee: int = 0
    automatic: bool = False


class MarkersScored(_Event, frozen=True, kw_only=True, tag="markers_scored"):
    """Evaluation: each seat's VP from its markers (§5.4 step 1)."""

    round: int
    points: list[int | None]
    secret: bool = False


class AwardGiven(_Event, frozen=True, kw_only=True, tag="award_given"):
    """Evaluation: the oldest exhibited object of `object_type` (dated `date`) earns its owners `vp`
    each; no winners when none is exhibited (R19)."""

    round: int
    object_type: str
    date: int | None = None
    winners: list[int] = []
    vp: int | None = 2
    secret: bool = False


class MarkersDropped(_Event, frozen=True, kw_only=True, tag="markers_dropped"):
    """Every museum marker moved down `drop` spaces; `removed` (seat, numeral) were broken up."""

    round: int
    drop: int
    removed: list[tuple[int, int]] = []


class Bonus(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    date: int
    vp: int | None


class FinalBonusGiven(_Event, frozen=True, kw_only=True, tag="final_bonus_given"):
    """Round 12: 3 / 2 / 1 VP for the three oldest exhibited objects (R20)."""

    bonuses: list[Bonus] = []
    secret: bool = False


class RoundEnded(_Event, frozen=True, kw_only=True, tag="round_ended"):
    """The round is over: `next_first_player` (R23); variant 1's order spaces 1..N (§8.1)."""

    round: int
    next_first_player: int
    order_spaces: list[int] = []


class PergamonGameEnded(_Event, frozen=True, kw_only=True, tag="game_ended"):
    """Final VP, each seat's place (1 = first; tied seats share, R21) and the winners."""

    scores: list[int]
    places: list[int]
    winners: list[int]


Event = (
    PergamonGameCreated
    | RoundStarted
    | FindsDrawn
    | FindsArranged
    | FindsLaidOut
    | FundingBacksDrawn
    | TombRaiderPlaced
    | FundingSpaceChosen
    | FundingRevealed
    | FundsPaidOut
    | TurnStarted
    | Excavated
    | ExcavationSkipped
    | TombRaiderExcavated
    | TombRaiderIdle
    | Exhibited
    | ExhibitingFinished
    | Stored
    | MarkersScored
    | AwardGiven
    | MarkersDropped
    | FinalBonusGiven
    | RoundEnded
    | PergamonGameEnded
)
