"""A pytest plugin that times the id scan (tests/web/idscan.py) inside the three whole-game browser
tests, printing `SCAN mid-game <kind> <s>` and `SCAN pages <kind> <s>`: what the scan adds to them.

    .venv/bin/python -m pytest -p bench.idscan_timer -s -p no:randomly \\
        tests/web/test_play.py::test_a_whole_game_against_the_ai_is_played_by_clicks_to_the_end_and_shows_the_final_scores \\
        tests/web/test_pergamon.py::test_a_whole_pergamon_game_against_the_ai_is_played_by_clicks_to_the_end \\
        tests/web/test_pantheon_cards.py::test_a_whole_three_player_card_game_against_two_ais_is_played_by_clicks_to_the_end
"""

from __future__ import annotations

import time
from typing import Any

import tests.web.idscan as idscan
import tests.web.test_pantheon_cards as cards
import tests.web.test_pergamon as pergamon
import tests.web.test_play as play

_scan, _assert = idscan.scan_played_game, idscan.assert_no_ids


def _timed_scan(page: Any, server: str, game: str, kind: str) -> None:
    start = time.monotonic()
    _scan(page, server, game, kind)
    print(f"SCAN pages {kind} {time.monotonic() - start:.2f}", flush=True)


def _timed_assert(page: Any, server: str, kind: str) -> None:
    start = time.monotonic()
    _assert(page, server, kind)
    print(f"SCAN mid-game {kind} {time.monotonic() - start:.2f}", flush=True)


for _module in (cards, pergamon, play):
    _module.scan_played_game, _module.assert_no_ids = _timed_scan, _timed_assert  # type: ignore[attr-defined]
