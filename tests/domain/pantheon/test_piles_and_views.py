"""Cards and stacks (rules §9) and who sees what (§10): views, redacted events, and a leak check
over whole random games."""

import json
from collections import Counter

import msgspec
import pytest

from domain.pantheon import PANTHEON, views
from domain.pantheon import events as ev
from domain.pantheon.commands import DrawCard, GainGod, GalliaChoice, Move, Place
from domain.pantheon.state import State, clone
from domain.pantheon.views import redact
from domain.pantheon.vocabulary import CARDS
from service.cli.simulate import run

from .helpers_flow import (
    GODS_SORTED,
    agenda,
    between_epochs,
    drawn,
    first_action,
    half_gods_taken,
    in_preparation,
    run_tasks,
)
from .scenario import ScriptedRng, Task, after, given, then_error, turn_phase, when


def public_view(state: State) -> dict:
    """The public view as the API sends it (JSON-ready)."""
    return msgspec.to_builtins(views.public_view(state))


def seat_view(state: State, seat: int) -> dict:
    """A seat's view as the API sends it (JSON-ready)."""
    return msgspec.to_builtins(views.seat_view(state, seat))


DECK = ["movement"] * 16 + ["priest"] * 11 + ["dancer"] * 11 + ["temple"] * 11 + ["offering"] * 11 + ["money"] * 15
TO_LOOT = [Place(piece="foot", hex=(8, 4)), Place(piece="foot", hex=(7, 4))]  # (7, 4): a roma loot hex
FOLLOW = [Task(kind="follow_up", seat=1), Task(kind="end_action", seat=0, n=0)]
DRAWING = [Task(kind="draw", seat=0, n=2), Task(kind="end_action", seat=0, n=0)]


def cards_of(counts: list[int]) -> list[str]:
    return [CARDS[i] for i, n in enumerate(counts) for _ in range(n)]


# --- cards ------------------------------------------------------------------------------------


def test_drawing_from_an_empty_draw_pile_first_shuffles_the_discard_pile_into_a_new_draw_pile():
    state = given(turn_phase(2, hands={0: DECK}), ev.CardsDiscarded(seat=0, cards=["priest", "dancer", "dancer"]))
    events = when(state, DrawCard(seat=0), ScriptedRng(2))  # the new pile is priest, dancer, dancer
    assert events == [ev.DiscardReshuffled(count=3), drawn(0, ["dancer"], "draw_action"), ev.AgendaSet(tasks=DRAWING)]
    assert after(state, events).draw_pile[:3] == [0, 1, 1]


def test_with_draw_and_discard_piles_empty_every_hand_is_shuffled_into_a_new_draw_pile_and_the_draw_goes_on():
    state = given(turn_phase(2, hands={0: DECK[:-1]}))  # one money card is left in the draw pile
    hands = [cards_of(state.seats[0].hand), ["money"]]
    events = run_tasks(state, Task(kind="roma", seat=1, n=1), Task(kind="turn", seat=0), rng=ScriptedRng(0, 74))
    assert events == [
        drawn(1, ["money"], "roma"),
        ev.HandsReshuffled(counts=[74, 1], hands=hands),
        drawn(1, ["money"], "roma"),
        first_action(0),
    ]
    state = after(state, events)
    assert ([sum(s.hand) for s in state.seats], sum(state.draw_pile)) == ([0, 1], 74)


def test_a_draw_with_no_card_left_anywhere_gives_nothing():
    state = given(turn_phase(2, hands={0: DECK}))
    state.seats[0].hand = [0] * len(CARDS)  # cannot happen with 75 cards: the engine's guard
    assert when(state, DrawCard(seat=0)) == [ev.AgendaSet(tasks=DRAWING)]


def test_a_display_refill_shuffles_the_discard_pile_but_never_takes_the_hands():
    refills = [ev.DisplayRefilled(slot=i, card="movement") for i in range(4)]
    state = given(turn_phase(2, hands={0: DECK[4:]}), *refills)
    assert when(state, DrawCard(seat=0, slot=1)) == [
        ev.CardTaken(seat=0, slot=1, card="movement"),
        ev.AgendaSet(tasks=DRAWING),
    ]
    state = after(state, [ev.CardsDiscarded(seat=0, cards=["offering"])])
    assert when(state, DrawCard(seat=0, slot=1)) == [
        ev.CardTaken(seat=0, slot=1, card="movement"),
        ev.DiscardReshuffled(count=1),
        ev.DisplayRefilled(slot=1, card="offering"),
        ev.AgendaSet(tasks=DRAWING),
    ]


# --- stacks -----------------------------------------------------------------------------------


def test_an_empty_gods_stack_is_rebuilt_from_the_box():
    state = given(between_epochs(2, ("gallia",), before=(ev.GodsRevealed(tiles=GODS_SORTED),)))
    assert (state.gods_stack, len(state.gods_box)) == ([], 40)
    events = run_tasks(state, Task(kind="prepare"), rng=ScriptedRng(5, 0, 0, 0))  # roma
    assert events[:5] == [
        ev.NationRevealed(epoch=2, nation="roma"),
        ev.GodsStackRebuilt(count=40),
        ev.GodsRevealed(tiles=["depraccus-1"]),
        ev.GodsRevealed(tiles=["depraccus-2"]),
        ev.GodsRevealed(tiles=["depraccus-3"]),
    ]
    state = after(state, events)
    assert (len(state.gods_stack), state.gods_box) == (37, [])


def test_with_the_gods_stack_and_the_box_empty_a_gods_tile_loot_gives_nothing_and_gallia_cannot_reveal():
    loot = {(8, 3): "draw_2", (7, 4): "gods_tile", (9, 6): "draw_2"}
    state = given(turn_phase(2, gods=GODS_SORTED, hands={0: ["movement"]}, loot=loot))
    events = when(state, Move(seat=0, cards=1, placements=TO_LOOT))
    assert events[1:] == [ev.LootActivated(seat=0, tile="gods_tile"), ev.AgendaSet(tasks=FOLLOW)]
    state = agenda(given(in_preparation("gallia", 2, gods=tuple(GODS_SORTED))), Task(kind="gallia", seat=0, n=1))
    then_error(state, GalliaChoice(seat=0, choice="reveal"), "gods_stack_empty")


def test_a_gallia_reveal_with_an_empty_gods_stack_rebuilds_it_from_the_box_first():
    box = (
        ev.GalliaRevealed(seat=1, tile="stonkus-1"),
        ev.GalliaDeclined(seat=1, tile="stonkus-1"),
        ev.GalliaRevealed(seat=1, tile="vinthrad-2"),
        ev.GalliaDeclined(seat=1, tile="vinthrad-2"),
    )
    rest = [g for g in GODS_SORTED if g not in ("stonkus-1", "vinthrad-2")]
    state = given(in_preparation("gallia", 2, gods=tuple(rest), extra=box))
    state = agenda(state, Task(kind="gallia", seat=0, n=1), Task(kind="gallia", seat=1, n=1))
    assert (state.gods_stack, state.gods_box) == ([], ["stonkus-1", "vinthrad-2"])
    assert when(state, GalliaChoice(seat=0, choice="reveal"), ScriptedRng(1)) == [
        ev.GodsStackRebuilt(count=2),
        ev.GalliaRevealed(seat=0, tile="vinthrad-2"),
        ev.AgendaSet(tasks=[Task(kind="gallia_gain", seat=0, item="vinthrad-2"), Task(kind="gallia", seat=1, n=1)]),
    ]


EMPTY_MONEY = [ev.SpecialMoneyTaken(seat=1, value=v) for v in (2, 2, 3, 3, 4, 4, 5)]


def test_taksator_gives_only_its_points_when_the_special_money_stack_is_empty():
    state = given(turn_phase(2, gods=["taksator-2", "gadicea-1"], hands={0: ["priest", "dancer"] * 2}), *EMPTY_MONEY)
    assert when(state, GainGod(seat=0, tile="taksator-2", sacrifice={"priest": 2, "dancer": 2})) == [
        ev.GodGained(
            seat=0, tile="taksator-2", source="board", points=1, cards=["dancer", "dancer", "priest", "priest"]
        ),
        first_action(1),
    ]


def test_a_money_loot_tile_gives_nothing_when_the_special_money_stack_is_empty():
    loot = {(8, 3): "draw_2", (7, 4): "money_card", (9, 6): "draw_2"}
    state = given(turn_phase(2, hands={0: ["movement"]}, loot=loot), *EMPTY_MONEY)
    events = when(state, Move(seat=0, cards=1, placements=TO_LOOT))
    assert events[1:] == [ev.LootActivated(seat=0, tile="money_card"), ev.AgendaSet(tasks=FOLLOW)]


# --- views ------------------------------------------------------------------------------------


def scrambled(state: State, keep: int | None = None) -> State:
    """The state with every secret changed but `keep`'s hand and half gods: other hands (same
    sizes), half-god values (same counts, unless the game is over), and what is still undrawn."""
    s = clone(state)
    for i, seat in enumerate(s.seats):
        if i != keep:
            seat.hand = seat.hand[1:] + seat.hand[:1]
            if not s.finished:
                seat.half_gods = [7 - v for v in seat.half_gods]
    s.draw_pile = s.draw_pile[1:] + s.draw_pile[:1]
    s.gods_stack = ["undrawn"] * len(s.gods_stack)
    s.half_gods_low, s.half_gods_high = [9] * len(s.half_gods_low), [9] * len(s.half_gods_high)
    s.loot_bag = {"undrawn": sum(s.loot_bag.values())}
    return s


def secrets() -> State:
    return given(
        turn_phase(3, hands={0: ["movement", "priest", "priest"], 1: ["money"] * 4, 2: ["dancer"]}),
        *half_gods_taken(0, 3, 5),
        ev.HalfGodsDisplayed(values=[2]),
        ev.HalfGodTaken(seat=1, source="display", value=2),
    )


def test_the_public_view_shows_hand_sizes_and_half_god_counts_but_no_hand_half_god_value_or_undrawn_item():
    state = secrets()
    view = public_view(state)
    assert [(s["hand_size"], s["half_gods"]) for s in view["seats"]] == [(3, 2), (4, 1), (1, 0)]
    assert (view["draw_pile"], view["gods_stack"], view["half_god_stack"], view["loot_bag"]) == (67, 37, 18, 36)
    assert "you" not in view and "half_god_values" not in view and '"hand"' not in json.dumps(view)
    assert public_view(scrambled(state)) == view


def test_a_seat_view_adds_only_that_seats_hand_and_half_god_values():
    state = secrets()
    assert seat_view(state, 0) == {
        **public_view(state),
        "you": {"seat": 0, "hand": {"movement": 1, "priest": 2}, "half_gods": [3, 5]},
    }
    assert seat_view(state, 1)["you"] == {"seat": 1, "hand": {"money": 4}, "half_gods": [2]}
    for seat in range(3):
        assert seat_view(scrambled(state, keep=seat), seat) == seat_view(state, seat)
        assert seat_view(scrambled(state), seat) != seat_view(state, seat)  # the check can fail


def test_half_god_values_become_public_when_the_game_ends():
    state = after(secrets(), [ev.GameEnded(scores=[0, 0, 0], half_gods=[[3, 5], [2], []], winners=[0, 1, 2])])
    assert public_view(state)["half_god_values"] == [[3, 5], [2], []]


def test_drawn_cards_are_shown_only_to_the_drawing_seat():
    event = drawn(1, ["priest", "money"], "roma")
    assert redact(event, 1) == event
    assert redact(event, 0) == redact(event, None) == ev.CardsDrawn(seat=1, count=2, cards=[], reason="roma")


def test_a_half_god_from_the_stack_is_shown_only_to_its_owner_and_one_from_the_display_to_everybody():
    stack = ev.HalfGodTaken(seat=2, source="stack", value=5)
    assert redact(stack, 2) == stack
    assert redact(stack, 0) == redact(stack, None) == ev.HalfGodTaken(seat=2, source="stack", value=0)
    display = ev.HalfGodTaken(seat=2, source="display", value=5)
    assert redact(display, 0) == redact(display, None) == display


def test_a_hand_reshuffle_shows_each_viewer_only_its_own_former_hand():
    event = ev.HandsReshuffled(counts=[2, 1], hands=[["priest", "money"], ["dancer"]])
    assert redact(event, 0) == ev.HandsReshuffled(counts=[2, 1], hands=[["priest", "money"], []])
    assert redact(event, 1) == ev.HandsReshuffled(counts=[2, 1], hands=[[], ["dancer"]])
    assert redact(event, None) == ev.HandsReshuffled(counts=[2, 1], hands=[[], []])


@pytest.mark.parametrize(
    "event",
    [
        ev.CardTaken(seat=0, slot=2, card="priest"),
        ev.DisplayRefilled(slot=2, card="money"),
        ev.CardsDiscarded(seat=0, cards=["money"]),
        ev.SpecialMoneyTaken(seat=0, value=3),
        ev.GalliaRevealed(seat=0, tile="stonkus-2"),
        ev.HalfGodsDisplayed(values=[4]),
        ev.GodGained(
            seat=0, tile="pietalte-1", source="board", points=2, cards=["priest"] * 3 + ["dancer"] * 2 + ["temple"]
        ),
    ],
)
def test_public_events_are_the_same_for_every_viewer(event):
    assert [redact(event, v) for v in (None, 0, 1)] == [event] * 3


# --- no leak in whole games -------------------------------------------------------------------

# Fields whose card names are public: cards face up in the display, or played face up; and a
# sacrifice tile's kind, which shares its name with a card.
PUBLIC_CARDS = {
    ("display_refilled", "card"),
    ("card_taken", "card"),
    ("cards_discarded", "cards"),
    ("bought", "money"),
    ("god_gained", "cards"),
    ("sacrifice_improved", "kind"),
}


def event_leaks(payload: bytes, viewer: int | None, hands_before: list[list[int]], state: State) -> list[str]:
    """Private data of seats other than `viewer` in an event's JSON: card names attributed to a
    seat that are (or, for a reshuffle, were) in that seat's actual hand, outside the fields of
    cards played face up; a half god's value from the stack that the seat actually holds."""
    data = json.loads(payload)
    kind, leaks = data["type"], []
    for field, value in data.items():
        if kind == "hands_reshuffled" and field == "hands":
            owned = list(enumerate(value))
        elif "seat" in data and (kind, field) not in PUBLIC_CARDS:
            values = value if isinstance(value, list) else [value]
            owned = [(data["seat"], [v for v in values if v in CARDS])]
        else:
            continue
        for seat, cards in owned:
            held = Counter(cards_of(state.seats[seat].hand)) | Counter(cards_of(hands_before[seat]))
            if seat != viewer and cards and not Counter(cards) - held:
                leaks.append(f"{kind}.{field} shows seat {seat}'s cards {cards}")
    if (
        kind == "half_god_taken"
        and data["source"] == "stack"
        and data["seat"] != viewer
        and data["value"] in state.seats[data["seat"]].half_gods
    ):
        leaks.append(f"half_god_taken shows seat {data['seat']}'s half god {data['value']}")
    return leaks


def private_for(event, viewer: int | None) -> bool:
    """Whether the unredacted event holds something `viewer` must not see."""
    if isinstance(event, ev.CardsDrawn):
        return event.seat != viewer and bool(event.cards)
    if isinstance(event, ev.HalfGodTaken):
        return event.source == "stack" and event.seat != viewer
    if isinstance(event, ev.HandsReshuffled):
        return any(hand for seat, hand in enumerate(event.hands) if seat != viewer)
    return False


def test_no_view_and_no_redacted_event_of_random_games_shows_private_data():
    _, records = run(games=6, players="mixed", seed="no-leaks")
    caught = Counter()
    for record in records:
        state = None
        for event in record.events:
            before = [list(seat.hand) for seat in state.seats] if state else []
            state = PANTHEON.evolve(state, event)
            for viewer in (None, *range(state.players)):
                shown = msgspec.json.encode(PANTHEON.redact(event, viewer))
                assert event_leaks(shown, viewer, before, state) == [], (type(event).__name__, viewer)
                if private_for(event, viewer):  # the check can fail: it catches the unredacted event
                    assert event_leaks(msgspec.json.encode(event), viewer, before, state), event
                    caught[type(event).__name__] += 1
            view = PANTHEON.public_view(state)
            assert '"hand"' not in msgspec.json.encode(view).decode()
            assert PANTHEON.public_view(scrambled(state)) == view
            for seat in range(state.players):
                assert PANTHEON.seat_view(scrambled(state, keep=seat), seat) == PANTHEON.seat_view(state, seat)
            if any(state.seats[0].hand) and PANTHEON.seat_view(scrambled(state), 0) != PANTHEON.seat_view(state, 0):
                caught["leaky view"] += 1  # a view showing seat 0's hand would fail the check above
        assert state.finished
    assert caught["CardsDrawn"] > 100 and caught["HalfGodTaken"] > 0 and caught["leaky view"] > 100, caught
