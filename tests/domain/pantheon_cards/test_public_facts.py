"""Every hidden state a bot or a fork deals agrees with the public log (§22): replaying the log with
its hidden parts (the cards dealt and drawn unseen, spied hands and cards, the hands Creation
removed, a sealed war commitment) filled in from the dealt state gives back every event as the
viewer saw it, every announced worshiper count, every public hand size, and the dealt state."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.pantheon_cards import GAME
from domain.pantheon_cards import commands as cmd
from domain.pantheon_cards import events as ev
from domain.pantheon_cards.bots.knowledge import determinize, seat_knowledge
from domain.pantheon_cards.evolve import evolve
from domain.pantheon_cards.facts import DEALT, DRAWN, FROM_DECK, MOVED, TAKEN
from domain.pantheon_cards.random_play import random_command
from domain.pantheon_cards.rules import card
from domain.pantheon_cards.state import State
from domain.rng import SeededRng

DECIDER = GAME.decider


def _data(value) -> object:
    return msgspec.to_builtins(value, order="sorted")


def _game(players: int, seed: str, commands: int) -> list[list]:
    """The events of each command of a random game (until its end or `commands` commands)."""
    rnd, rng = random.Random(seed), SeededRng(seed.encode())
    create = cmd.PantheonCardsCreateGame(options=cmd.PantheonCardsOptions(players=players))
    state, events = DECIDER.apply(None, create, rng)
    batches = [events]
    while not state.finished and len(batches) < commands:
        state, events = DECIDER.apply(state, random_command(state, state.awaiting, rnd), rng)
        batches.append(events)
    return batches


def _filled(log: list, viewer: int | None, dealt: State) -> list:
    """The log with its hidden parts taken from the dealt state's hand trace, in order (and the
    commitments of a war from its decks, or for a war still sealed from the dealt state)."""
    into_hands = iter(s.cards[0] for s in dealt.hand_trace if s.kind in (DEALT, DRAWN, FROM_DECK, TAKEN))
    taken = iter(s.cards[0] for s in dealt.hand_trace if s.kind == MOVED)
    filled, attacker = [], -1
    for index, event in enumerate(log):
        if isinstance(event, ev.WarDeclared):
            attacker = event.attacker
        if isinstance(event, (ev.CardDealt, ev.CardDrawn)):
            event = msgspec.structs.replace(event, card=next(into_hands))
        elif isinstance(event, ev.SpiedCardTaken) and event.card is not None:
            event = msgspec.structs.replace(event, card=next(taken))
        elif isinstance(event, ev.WarCommitted) and event.seat != viewer:
            side = 0 if event.seat == attacker else 1
            event = msgspec.structs.replace(event, columns=_commitment(log[index:], side, dealt))
        filled.append(event)
    return filled


def _commitment(rest: list, side: int, dealt: State) -> list[str]:
    """The columns a side committed: those its war deck was formed from, or the dealt ones."""
    for event in rest:
        if isinstance(event, ev.WarDecksFormed):
            return list(event.columns[side])
        if isinstance(event, ev.WarDeclared):
            break
    assert dealt.war is not None, "a commitment with no war going on"
    return list(dealt.war.committed[side])


def _checked(state: State, event, index: int) -> list[str]:
    """What an event filled in breaks, before it is replayed."""
    problems = []
    if isinstance(event, ev.CardDrawn) and event.source == "deck" and card(state, event.card).type == "god":
        problems.append(f"event {index}: a god drawn unseen from the deck (§5.2 reveals them)")
    if isinstance(event, ev.WorshipersAnnounced):
        counts = [sum(card(state, c).type == "worshiper" for c in hand) for hand in state.hands]
        if counts != list(event.counts):
            problems.append(f"event {index}: the hands hold {counts} worshipers, {list(event.counts)} were announced")
    return problems


def public_log_problems(log: list, viewer: int | None, dealt: State) -> list[str]:
    """What in the public log (as `viewer` saw it) the dealt state contradicts."""
    problems, state, real = [], None, None
    for index, (event, mine) in enumerate(zip(log, _filled(log, viewer, dealt))):
        if isinstance(mine, ev.CreationCleared):
            mine = msgspec.structs.replace(mine, hands=[list(h) for h in state.hands])
        if isinstance(mine, ev.HandSpied) and mine.hand is not None:
            mine = msgspec.structs.replace(mine, hand=sorted(state.hands[mine.target]))
        problems += _checked(state, mine, index)
        try:
            state, real = evolve(state, mine), evolve(real, event)
        except ValueError:
            return [*problems, f"event {index}: {type(event).__name__} moves a card that is not there"]
        if [len(h) for h in state.hands] != [len(h) for h in real.hands] or state.deck != real.deck:
            problems.append(f"event {index}: the hand sizes or the deck differ")
        if _data(DECIDER.redact(mine, viewer)) != _data(DECIDER.redact(event, viewer)):
            problems.append(f"event {index}: {type(event).__name__} comes out otherwise")
    if _data(state) != _data(dealt):
        problems.append("the log replayed with the dealt cards does not end in the dealt state")
    return problems


def _points(batches: list[list], count: int) -> list[list]:
    """Logs ending after a command at `count` points spread over the game."""
    ends = [len(batches) * k // (count + 1) for k in range(1, count + 1)] + [len(batches) - 1]
    return [[e for batch in batches[:end] for e in batch] for end in ends]


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_bots_determinizations_agree_with_every_public_event(players):
    for seed in ("facts-a", "facts-b"):
        for log in _points(_game(players, seed, 400), 3):
            state = DECIDER.evolve_all(None, log)
            if state.finished:
                continue
            for viewer in (0, 1, None):
                knowledge = seat_knowledge(state, viewer)
                for n in range(2):
                    dealt = determinize(knowledge, random.Random(n))
                    assert public_log_problems(log, viewer, dealt) == [], (seed, len(log), viewer, n)


@pytest.mark.parametrize("players", [3, 5])
def test_a_forks_redeal_agrees_with_every_public_event(players):
    for log in _points(_game(players, "facts-fork", 400), 3):
        state = DECIDER.evolve_all(None, log)
        if state.finished:
            continue
        for viewer in (0, 2, None):
            [event] = DECIDER.decide(None, DECIDER.fork_command(state, viewer), SeededRng(bytes([viewer or 9])))
            assert public_log_problems(log, viewer, event.state) == [], (len(log), viewer)


def test_deals_after_a_creation_agree_with_both_announcements_and_the_removed_hands():
    batches = _game(4, "creation-6", 400)  # Creation clears the table at its 78th command
    assert any(isinstance(e, ev.CreationCleared) for batch in batches[:90] for e in batch)
    for end in (90, 110, 135):
        log = [e for batch in batches[:end] for e in batch]
        state = DECIDER.evolve_all(None, log)
        for viewer in (0, 3, None):
            for n in range(3):
                dealt = determinize(seat_knowledge(state, viewer), random.Random(n))
                assert public_log_problems(log, viewer, dealt) == [], (end, viewer, n)
            [event] = DECIDER.decide(None, DECIDER.fork_command(state, viewer), SeededRng(b"creation"))
            assert public_log_problems(log, viewer, event.state) == [], (end, viewer, "fork")
