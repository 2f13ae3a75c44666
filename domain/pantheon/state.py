"""The game state. It is a mutable working object for speed: `evolve` updates it in place and
`decide` works on a clone, so callers still see decide and replay as pure functions."""

from __future__ import annotations

import msgspec

from .commands import Options
from .events import Task
from .facts import CardStep


class SeatState(msgspec.Struct, kw_only=True):
    """One seat: score, hand, pieces, tiles and route."""

    score: int = 0
    hand: list[int]  # counts per vocabulary.CARDS
    feet: int  # personal reserve
    columns: int
    general_feet: int  # this colour still in the general reserve
    general_columns: int
    sacrifice: list[int] = msgspec.field(default_factory=lambda: [0, 0, 0, 0])
    gods: list[str] = []  # permanent tiles and held Traitera
    half_gods: list[int] = []
    # each half god as everybody saw it taken, in order: its value from the display, facts.LOW or HIGH
    half_gods_seen: list[int] = []
    half_god_sums: list[tuple[int, int]] = []  # at each scoring: how many half gods were held, their sum
    steps: int = 0  # from Steps loot and bonus tiles
    tiles: list[str] = []  # kept Steps loot tiles
    loot: list[str] = []  # loot taken this action, activated at its end
    bonus: str = ""  # the seat's bonus tile
    bonus_used: bool = False  # its effect has been resolved
    feet_on_board: list[int] = []
    columns_on_board: list[int] = []
    # the hexes of the route, ascending: a list, since a set's encoding follows its hash layout, which
    # decoding does not restore (a fork's first event, which holds the state, must export unchanged)
    route: list[int] = []


class State(msgspec.Struct, kw_only=True):
    """Everything about one game of Pantheon."""

    options: Options
    seats: list[SeatState]
    epoch: int = 0
    nation: str = ""
    nations_played: list[str] = []
    starting_seat: int = 0
    temple: int = -1  # hex index, -1 when no temple is on the board
    draw_pile: list[int]  # counts per card type: unordered until drawn
    discard: list[int]
    display: list[int]  # card type per slot, EMPTY_SLOT when empty
    special_money: list[int]  # public and ordered, top first
    gods_stack: list[str]  # unordered until drawn
    gods_board: list[str] = []
    gods_box: list[str] = []
    gods_revealed: int = 0  # gods tiles put on the board this epoch
    gallia_tile: str = ""  # a tile revealed by Gallia, waiting for the seat's decision
    half_gods_low: list[int]  # the shuffled 1-3 group, drawn first
    half_gods_high: list[int]
    half_god_display: list[int] = []
    half_gods_box: list[int] = []
    loot_bag: dict[str, int]
    loot_board: dict[int, str] = {}  # hex index -> loot tile
    loot_box: dict[str, int] = {}
    loot_revealed: int = 0
    bonus_pool: list[str] = []  # bonus tiles not yet owned by a seat
    occupants: dict[int, list[int]] = {}  # hex index -> codes seat * 2 + piece
    card_trace: list[CardStep] = []  # facts.py: every card's way since they last all lay in the pile
    agenda: list[Task] = []
    winners: list[int] = []
    finished: bool = False

    @property
    def players(self) -> int:
        return len(self.seats)


def _clone_seat(seat: SeatState) -> SeatState:
    c: SeatState = seat.__copy__()  # type: ignore[attr-defined]  # a C-speed shallow copy (not in msgspec's stubs)
    c.hand, c.sacrifice, c.gods, c.half_gods = seat.hand[:], seat.sacrifice[:], seat.gods[:], seat.half_gods[:]
    c.half_gods_seen, c.half_god_sums = seat.half_gods_seen[:], seat.half_god_sums[:]
    c.tiles, c.loot, c.route = seat.tiles[:], seat.loot[:], seat.route[:]
    c.feet_on_board, c.columns_on_board = seat.feet_on_board[:], seat.columns_on_board[:]
    return c


def clone(state: State) -> State:
    """A deep copy of the state (hand-written for speed: decide clones once per command).

    Every mutable field must be copied here; a test walks the fields to make sure none is shared."""
    c: State = state.__copy__()  # type: ignore[attr-defined]  # as above
    c.seats = [_clone_seat(seat) for seat in state.seats]
    c.nations_played, c.draw_pile, c.discard = state.nations_played[:], state.draw_pile[:], state.discard[:]
    c.display, c.special_money = state.display[:], state.special_money[:]
    c.gods_stack, c.gods_board, c.gods_box = state.gods_stack[:], state.gods_board[:], state.gods_box[:]
    c.half_gods_low, c.half_gods_high = state.half_gods_low[:], state.half_gods_high[:]
    c.half_god_display, c.half_gods_box = state.half_god_display[:], state.half_gods_box[:]
    c.loot_bag, c.loot_board, c.loot_box = dict(state.loot_bag), dict(state.loot_board), dict(state.loot_box)
    c.bonus_pool, c.agenda, c.winners = state.bonus_pool[:], state.agenda[:], state.winners[:]
    c.occupants = {index: codes[:] for index, codes in state.occupants.items()}
    c.card_trace = state.card_trace[:]  # of frozen steps
    return c
