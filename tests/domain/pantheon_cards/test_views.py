"""Views and redaction (rules §22): over random games no view or event a viewer receives names a
card another seat holds secretly (dealt or drawn from the deck, taken with Spies), a sealed war
commitment, or the cards Creation removed from others' hands; R30 (commitments sealed) and R40
(hand sizes and piles public, no hand limit); the outcome."""

import random

import msgspec

from domain.pantheon_cards import commands as cmd
from domain.pantheon_cards import events as ev
from domain.pantheon_cards.decide import apply
from domain.pantheon_cards.random_play import random_command
from domain.pantheon_cards.views import outcome, public_view, redact, seat_view
from domain.rng import SeededRng

from .scenario import A, B, C, Tw, W, col, given, god, of, run

SECRET_SOURCES = ("deck", "extra", "chaos")


def _named(value) -> set[str]:
    text = msgspec.json.encode(value).decode()
    return {
        part
        for part in text.replace('"', " ").replace(",", " ").replace("[", " ").replace("]", " ").split()
        if "." in part
    }


def _update_secrets(secret: list[set[str]], state, event) -> None:
    if isinstance(event, ev.CardDealt | ev.CardDrawn) and (
        not isinstance(event, ev.CardDrawn) or event.source in SECRET_SOURCES
    ):
        secret[event.seat].add(event.card)
    if isinstance(event, ev.SpiedCardTaken):
        secret[event.spy].add(event.card)
    for seat, cards in enumerate(secret):
        cards &= set(state.hands[seat])


def test_no_view_or_event_names_another_seats_secret_card():
    for index in range(16):
        players = 3 + index % 4
        rnd, rng = random.Random(index), SeededRng(f"views-{index}".encode())
        create = cmd.PantheonCardsCreateGame(options=cmd.PantheonCardsOptions(players=players, game_length="short"))
        state, events = apply(None, create, rng)
        secret: list[set[str]] = [set() for _ in range(players)]
        batches = [events]
        while True:
            for e in batches.pop():
                before = [set(s) for s in secret]
                for viewer in [None, *range(players)]:
                    shown = _named(redact(e, viewer))
                    for seat in range(players):
                        if seat == viewer or (
                            isinstance(e, ev.HandSpied | ev.SpiedCardTaken) and viewer in (e.spy, e.target)
                        ):
                            continue
                        # a card leaving the hand in this event is public from now on (played, discarded...)
                        still = before[seat] & set(state.hands[seat])
                        assert not (shown & still), (type(e).__name__, viewer, seat, shown & still)
                if isinstance(e, ev.CreationCleared):
                    for viewer in [None, *range(players)]:
                        hands = redact(e, viewer).hands
                        assert all(h is None for s, h in enumerate(hands) if s != viewer)
                if isinstance(e, ev.WarCommitted):
                    assert redact(e, None).columns is None and redact(e, e.seat).columns == e.columns
            _update_secrets(secret, state, ev.TurnStarted(seat=0, turn=0))
            for viewer in range(players):
                view = _named(seat_view(state, viewer))
                spied = state.spied if state.spy == viewer else -1
                for seat in range(players):
                    if seat not in (viewer, spied):
                        assert not (view & secret[seat]), (viewer, seat, view & secret[seat])
            assert not (_named(public_view(state)) & set().union(*secret))
            if state.finished:
                break
            state, events = apply(state, random_command(state, state.awaiting, rnd), rng)
            for e in events:
                _update_secrets(secret, state, e)
            batches.append(events)


def test_r30_commitments_are_sealed_the_attacker_first_then_the_defender_then_both_revealed():
    state = given(
        col(A, 1, W(100, 1), temple=Tw(1)),
        col(A, 2, W(10, 1), temple=Tw(2)),
        col(B, 1, W(50, 1), temple=Tw(3)),
        col(B, 2, W(10, 2), temple=Tw(4)),
        hands={A: ["civ.holy_war.1"]},
    )
    state, _ = run(state, cmd.PlayCivilization(seat=A, card="civ.holy_war.1", target=B))
    assert state.awaiting == A and state.decision == "commit_war_columns"
    state, events = run(state, cmd.CommitWarColumns(seat=A, columns=["0:2"]))
    [sealed] = of(events, ev.WarCommitted)
    assert redact(sealed, B).columns is None and redact(sealed, None).columns is None
    assert redact(sealed, A).columns == ["0:2"]
    assert seat_view(state, B).war.columns == [[], []] and seat_view(state, B).you.war_commitment is None
    assert seat_view(state, A).you.war_commitment == ["0:2"] and public_view(state).war.committed == [True, False]
    assert state.awaiting == B
    state, events = run(state, cmd.CommitWarColumns(seat=B, columns=["1:1", "1:2"]))
    assert of(events, ev.WarDecksFormed)[0].columns == [["0:2"], ["1:1", "1:2"]]
    assert public_view(state).war.columns == [["0:2"], ["1:1", "1:2"]]


def test_r40_hand_sizes_and_piles_are_public_and_there_is_no_hand_limit():
    hand = [W(10, n) for n in range(1, 10)]
    state = given(
        col(A, 1, W(100, 1), temple=Tw(1), god=god("zeus")),
        hands={B: hand},
        general=[W(50, 1), W(50, 2)],
        gods=[god("ra")],
    )
    view = public_view(state)
    assert (
        view.seats[B].hand_size == 9
        and view.general_discard == [W(50, 1), W(50, 2)]
        and view.god_discard == [god("ra")]
    )
    assert not (_named(view) & set(hand)) and seat_view(state, B).you.hand == sorted(hand)
    assert not (_named(seat_view(state, C)) & set(hand))


def test_the_outcome_names_winners_scores_and_whether_it_is_a_draw():
    state = given(col(A, 1, W(10, 1), temple=Tw(1), god=god("zeus")), hands={B: [W(10, 3)]}, turn=300)
    assert outcome(state) is None
    state, _ = run(state, cmd.EndTurn(seat=A))
    result = outcome(state)
    assert result.winners == [A] and result.scores == [2, 0, 0, 0] and not result.draw and result.reason == "turn_limit"
