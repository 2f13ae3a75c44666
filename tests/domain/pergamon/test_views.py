"""What each seat may see (rules §10): the state holds no secret; with secret VP a seat's view,
its redacted events and its bot knowledge reveal nothing of other seats' VP (change them, the
view must not change), and everything becomes public at the end."""

import random

import msgspec
import pytest

from domain.pergamon import PERGAMON
from domain.pergamon import events as ev
from domain.pergamon.bots import seat_knowledge, view_hash
from domain.pergamon.commands import PergamonOptions
from domain.pergamon.playout import game_seed, play_game
from domain.pergamon.state import clone

from .scenario import A, B, new_game


def _public_view(state) -> dict:
    """The public view as the API sends it (JSON-ready)."""
    return msgspec.to_builtins(PERGAMON.public_view(state))


def _seat_view(state, seat: int) -> dict:
    """A seat's view as the API sends it (JSON-ready)."""
    return msgspec.to_builtins(PERGAMON.seat_view(state, seat))


def _game(secret: bool, index: int = 0, players: int = 3):
    options = PergamonOptions(players=players, vp_visibility="secret" if secret else "open")
    return play_game(game_seed("views", index), options, random.Random(index))


def _states(record):
    state = None
    for _, events in record.steps:
        for e in events:
            state = PERGAMON.evolve(state, e)
        yield clone(state)


def _perturbed(event, viewer):
    """The event with every other seat's VP amount changed (what the viewer may not see)."""
    other = lambda seat: seat != viewer  # noqa: E731
    if isinstance(event, ev.Exhibited) and other(event.seat):
        return msgspec.structs.replace(event, vp=99)
    if isinstance(event, ev.MarkersScored):
        return msgspec.structs.replace(event, points=[p if not other(i) else 77 for i, p in enumerate(event.points)])
    if isinstance(event, ev.AwardGiven) and viewer not in event.winners:
        return msgspec.structs.replace(event, vp=55)
    if isinstance(event, ev.FinalBonusGiven):
        return msgspec.structs.replace(
            event, bonuses=[b if not other(b.seat) else msgspec.structs.replace(b, vp=33) for b in event.bonuses]
        )
    return event


@pytest.mark.parametrize("viewer", [0, 1, 2, None])
def test_with_secret_vp_redacted_events_hide_other_seats_vp(viewer):
    record = _game(secret=True)
    changed = 0
    for event in record.events:
        other = _perturbed(event, viewer)
        changed += other != event
        assert PERGAMON.redact(event, viewer) == PERGAMON.redact(other, viewer)
    assert changed > 10


@pytest.mark.parametrize("viewer", [0, 1, 2])
def test_with_secret_vp_a_seat_view_and_its_knowledge_do_not_change_with_other_seats_vp(viewer):
    record = _game(secret=True, index=1)
    for state in list(_states(record))[:-1]:
        other = clone(state)
        for i, seat in enumerate(other.seats):
            if i != viewer:
                seat.vp += 13
        assert _seat_view(state, viewer) == _seat_view(other, viewer)
        assert view_hash(seat_knowledge(state, viewer)) == view_hash(seat_knowledge(other, viewer))
        assert _public_view(state) == _public_view(other)


def test_at_the_end_every_vp_is_public_even_when_secret():
    record = _game(secret=True, index=2)
    view = _public_view(record.state)
    assert [s["vp"] for s in view["seats"]] == [s.vp for s in record.state.seats]
    assert isinstance(record.events[-1], ev.PergamonGameEnded)
    assert PERGAMON.redact(record.events[-1], None) == record.events[-1]


def test_with_open_vp_every_view_is_the_public_view_and_no_event_is_redacted():
    record = _game(secret=False, index=3)
    for state in _states(record):
        public = _public_view(state)
        for seat in range(3):
            view = _seat_view(state, seat)
            you = view.pop("you")
            assert view == public and you["vp"] == state.seats[seat].vp
    for event in record.events:
        assert all(PERGAMON.redact(event, v) is event for v in (0, 1, 2, None))


def test_the_state_holds_no_secret_card_values_before_their_reveal():
    state = new_game(2)
    assert state.backs and state.values == [] and sum(state.undrawn) == 24
    assert _public_view(state)["funding"]["values"] == []


def test_the_public_view_shows_what_section_10_lists():
    state = new_game(2)
    view = _public_view(state)
    for key in (
        "round",
        "phase",
        "first_player",
        "awaiting",
        "galleries",
        "calendar_stacks",
        "unrevealed",
        "unseen_in_box",
        "funding",
        "track",
        "tomb_raider",
        "museum",
        "seats",
        "box",
    ):
        assert key in view
    assert view["awaiting"] == {"seat": A, "decision": "choose_funding_space"}
    assert len(view["unrevealed"]) == 55 and view["calendar_stacks"] == 11
    assert PERGAMON.awaited(state).seat == A and msgspec.to_builtins(PERGAMON.legal_options(state, B)) == {
        "decision": None
    }
