"""No read model of random games, at any version, shows a secret its viewer may not see."""

import json
from collections import Counter

import msgspec

from domain.pantheon import PANTHEON
from projections import GameFold
from projections.registry import projections_for
from tests.domain.pantheon.test_piles_and_views import scrambled

from .games import random_games

BOARD, SCORE, SUMMARY = projections_for("pantheon")


def test_board_views_of_random_games_at_every_version_depend_on_no_secret_but_the_viewers_own():
    caught = Counter()
    for events in random_games():
        fold = GameFold([BOARD])
        for version, event in enumerate(events, start=1):
            fold.apply(version, event)
            state = fold.models[0]
            public = BOARD.view(state)
            assert BOARD.view(scrambled(state)) == public  # other hands, half gods, undrawn items
            text = json.dumps(msgspec.to_builtins(public))
            assert '"hand"' not in text and '"you"' not in text
            assert (public.half_god_values is not msgspec.UNSET) == state.finished  # values are public once it ended
            for seat in range(state.players):
                assert BOARD.view(scrambled(state, keep=seat), seat) == BOARD.view(state, seat)
            if any(state.seats[0].hand) and BOARD.view(scrambled(state), 0) != BOARD.view(state, 0):
                caught["seat view"] += 1  # a public view that showed seat 0's hand would fail above
    assert caught["seat view"] > 1000, caught


def test_score_and_summary_views_are_the_same_when_folded_from_the_events_each_viewer_may_see():
    changed = 0
    for events in random_games():
        full = GameFold([SCORE, SUMMARY])
        redacted = {viewer: GameFold([SCORE, SUMMARY]) for viewer in (None, 0, 1)}
        for version, event in enumerate(events, start=1):
            full.apply(version, event)
            for viewer, fold in redacted.items():
                shown = PANTHEON.redact(event, viewer)
                changed += shown != event
                fold.apply(version, shown)
                assert msgspec.json.encode(fold.views()) == msgspec.json.encode(full.views()), (version, viewer)
    assert changed > 1000  # the redacted streams really lack the secrets
