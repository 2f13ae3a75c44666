"""The game state. It is a mutable working object for speed: `evolve` updates it in place and
`decide` works on a clone, so callers still see decide and replay as pure functions."""

from __future__ import annotations

import msgspec

from .commands import Options
from .events import Task


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
    steps: int = 0  # from Steps loot and bonus tiles
    tiles: list[str] = []  # kept Steps loot tiles
    loot: list[str] = []  # loot taken this action, activated at its end
    bonus: str = ""  # the seat's bonus tile
    bonus_used: bool = False  # its effect has been resolved
    feet_on_board: list[int] = []
    columns_on_board: list[int] = []
    route: set[int] = set()


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
    agenda: list[Task] = []
    winners: list[int] = []
    finished: bool = False

    @property
    def players(self) -> int:
        return len(self.seats)


_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(State)


def clone(state: State) -> State:
    """A deep copy of the state."""
    return _DECODER.decode(_ENCODER.encode(state))
