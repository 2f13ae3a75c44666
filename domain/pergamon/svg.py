"""Render an edition's Pergamon board as a standalone SVG document: the research funds track
(space 1 on the right, each with its ask and deepest gallery, the tomb raider's symbols), the
five galleries, the calendar (evaluations, awards, drops) and the museum's 24 spaces with their VP.
Drawn from the component data only, so a data change redraws the board."""

from __future__ import annotations

from xml.sax.saxutils import escape

from .components import Components, load_components
from .labels import plural, roman
from .names import pergamon_glossary

CELL, GAP, MARGIN = 46.0, 6.0, 20.0
PAPER, INK, STONE, GOLD = "#f4ecd8", "#3a2f25", "#d8c8a8", "#c9a227"
SYMBOLS = {"bag_bag": "bag+bag", "bag_chest": "bag+chest", "chest_chest": "chest+chest"}


def _text(x: float, y: float, label: str, size: float = 11, cls: str = "label", weight: str = "normal") -> str:
    return (
        f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" font-size="{size}" font-weight="{weight}" fill="{INK}" '
        f'text-anchor="middle" dominant-baseline="central">{escape(label)}</text>'
    )


def _box(x: float, y: float, w: float, h: float, cls: str, fill: str = STONE) -> str:
    return f'<rect class="{cls}" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="4" fill="{fill}" stroke="{INK}"/>'


def _track(comps: Components, y: float) -> list[str]:
    parts = [_text(MARGIN + 6.5 * (CELL + GAP), y - 12, "Research funds (space 1 on the right)", 13, "title", "bold")]
    spaces = sorted(comps.track)
    for i, k in enumerate(reversed(spaces)):
        s, x = comps.track[k], MARGIN + i * (CELL + GAP)
        parts += [
            _box(x, y, CELL, CELL, f"space space-{k}"),
            _text(x + CELL / 2, y + 10, str(k), 12, "number", "bold"),
            _text(x + CELL / 2, y + 25, f"{s.ask} c", 10),
            _text(x + CELL / 2, y + 38, f"I-{roman(s.depth)}", 9),
        ]
        if s.symbol:
            parts.append(_text(x + CELL / 2, y + CELL + 10, SYMBOLS.get(s.symbol, s.symbol), 8, "symbol"))
    return parts


def _galleries(comps: Components, y: float) -> list[str]:
    parts = [_text(MARGIN + 2.5 * (CELL + GAP), y - 12, "Excavation site", 13, "title", "bold")]
    for g in range(1, 6):
        x = MARGIN + (g - 1) * (CELL + GAP)
        parts += [
            _box(x, y, CELL, CELL * 1.6, f"gallery gallery-{g}"),
            _text(x + CELL / 2, y + 12, roman(g), 13, "number", "bold"),
            _text(x + CELL / 2, y + 32, plural(g, "coin"), 9),
            _text(x + CELL / 2, y + 48, f"max {comps.gallery_capacity}", 9),
        ]
    return parts


def _calendar(comps: Components, y: float) -> list[str]:
    parts = [_text(MARGIN + 6 * (CELL + GAP), y - 12, "Calendar", 13, "title", "bold")]
    for r in sorted(comps.calendar):
        entry, x = comps.calendar[r], MARGIN + (r - 1) * (CELL + GAP)
        parts += [
            _box(x, y, CELL, CELL, f"round round-{r}", GOLD if entry.evaluation else STONE),
            _text(x + CELL / 2, y + 10, str(r), 12, "number", "bold"),
        ]
        if entry.evaluation:
            parts.append(_text(x + CELL / 2, y + 25, entry.award or "", 9, "award"))
            parts.append(_text(x + CELL / 2, y + 38, f"-{entry.drop}" if entry.drop else "3/2/1", 9, "drop"))
    return parts


def _museum(comps: Components, y: float) -> list[str]:
    parts = [_text(MARGIN + 6 * (CELL + GAP), y - 12, "Pergamon museum", 13, "title", "bold")]
    for space in range(1, comps.museum_spaces + 1):
        row, col = divmod(space - 1, 12)
        x, yy = MARGIN + col * (CELL + GAP), y + row * (CELL + GAP)
        parts += [
            _box(x, yy, CELL, CELL, f"museum museum-{space}"),
            _text(x + CELL / 2, yy + 14, str(space), 12, "number", "bold"),
            _text(x + CELL / 2, yy + 32, f"{comps.vp(space)} VP", 9),
        ]
    return parts


def render_board(edition: str = "house-1") -> str:
    """The edition's board as an SVG document."""
    comps = load_components(edition)
    width = 2 * MARGIN + 13 * (CELL + GAP)
    parts = _track(comps, 40) + _galleries(comps, 150) + _calendar(comps, 260) + _museum(comps, 350)
    height = 350 + 2 * (CELL + GAP) + MARGIN
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" font-family="Georgia, serif">'
        f"<title>Pergamon board, {escape(pergamon_glossary(edition).value_name('edition', edition))}</title>"
        f'<rect width="100%" height="100%" fill="{PAPER}"/>' + "".join(parts) + "</svg>"
    )
