"""The board SVG is well-formed and drawn from the data: 13 track spaces, 5 galleries, 12 rounds
(4 evaluations) and 24 museum spaces; random options are valid options."""

import random
import xml.etree.ElementTree as ET

from domain.pergamon.random_play import random_options
from domain.pergamon.svg import render_board

NS = "{http://www.w3.org/2000/svg}"


def _classes(root, prefix):
    return [r.get("class") for r in root.iter(f"{NS}rect") if (r.get("class") or "").startswith(prefix)]


def test_the_board_draws_every_area_from_the_component_data():
    root = ET.fromstring(render_board("house-1"))
    assert len(_classes(root, "space ")) == 13 and len(_classes(root, "gallery ")) == 5
    assert len(_classes(root, "round ")) == 12 and len(_classes(root, "museum ")) == 24
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert texts.count("6 VP") == 4 and "bag+chest" in texts and "vase" in texts


def test_random_options_are_valid_for_each_player_count():
    rnd = random.Random(1)
    for players in (2, 3, 4) * 10:
        options = random_options(players, rnd)
        assert options.players == players and not (players == 2 and options.variant_player_order)
