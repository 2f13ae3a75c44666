"""Render an edition's table as a standalone SVG document: the draw deck, the two discard piles
and one area per seat for its columns (temple, god, worshiper cards by level), with the card
counts of the edition. The card game has no board (rules §2), so this is the table a client draws
the view on; drawn from the component data, so a data change redraws it."""

from __future__ import annotations

from collections import Counter
from xml.sax.saxutils import escape

from domain.words import player_name

from .components import load_components
from .names import cards_glossary

PAPER, INK, CARD = "#f4ecd8", "#3a2f25", "#e6d6b0"
WIDTH, SEAT_H, MARGIN = 900.0, 150.0, 20.0


def _text(x: float, y: float, label: str, size: float = 12, weight: str = "normal") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" font-weight="{weight}" fill="{INK}" '
        f'text-anchor="middle" dominant-baseline="central">{escape(label)}</text>'
    )


def _box(x: float, y: float, w: float, h: float, cls: str, fill: str = CARD) -> str:
    return f'<rect class="{cls}" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="6" fill="{fill}" stroke="{INK}"/>'


def render_board(edition: str = "house-1", seats: int = 6) -> str:
    """The table for up to `seats` players (the edition's maximum by default)."""
    comps = load_components(edition)
    edition_name = cards_glossary(edition).value_name("edition", edition)
    counts = Counter(c.type for c in comps.cards.values())
    seats = min(seats, comps.constants["players_max"])
    height = MARGIN * 2 + 120 + seats * (SEAT_H + 10)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH:.0f} {height:.0f}" '
        f'width="{WIDTH:.0f}" height="{height:.0f}" class="pantheon-cards-table">',
        f'<rect width="100%" height="100%" fill="{PAPER}"/>',
        _text(WIDTH / 2, MARGIN + 8, f"Pantheon, the card game ({edition_name}): {len(comps.cards)} cards", 16, "bold"),
    ]
    piles = [
        ("deck", "Draw deck", f"{counts['god']} gods, {counts['temple']} temples"),
        ("general", "General discard pile", f"{counts['worshiper']} worshipers, {counts['civilization']} civilization"),
        ("gods", "God discard pile", "gods only"),
    ]
    for i, (cls, title, note) in enumerate(piles):
        x = MARGIN + i * 290
        parts += [_box(x, MARGIN + 30, 270, 70, f"pile pile-{cls}"), _text(x + 135, MARGIN + 52, title, 13, "bold")]
        parts.append(_text(x + 135, MARGIN + 76, note, 10))
    levels = comps.levels
    for s in range(seats):
        y = MARGIN + 120 + s * (SEAT_H + 10)
        parts += [
            _box(MARGIN, y, WIDTH - 2 * MARGIN, SEAT_H, f"seat seat-{s}", PAPER),
            _text(MARGIN + 40, y + 16, player_name(s), 13, "bold"),
        ]
        parts.append(_text(WIDTH - 120, y + 16, "hand · civilization cards in effect", 10))
        for k in range(6):
            x = MARGIN + 20 + k * 140
            parts.append(_box(x, y + 32, 120, SEAT_H - 44, f"column-slot column-slot-{s}-{k + 1}"))
            parts.append(_text(x + 60, y + 46, "temple · god", 10))
            parts.append(_text(x + 60, y + 66, "worshipers", 10))
            parts.append(_text(x + 60, y + 84, " / ".join(str(v) for v in levels[:3]), 9))
            parts.append(_text(x + 60, y + 98, " / ".join(str(v) for v in levels[3:]), 9))
    parts.append("</svg>")
    return "\n".join(parts)
