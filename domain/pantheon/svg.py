"""Render the Pantheon map (and optionally pieces, temple and loot tiles) as a standalone SVG document."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from domain.pantheon.board import NATIONS, Board, Hex
from domain.pantheon.labels import name_hexes

Pieces = dict[int, list[tuple[int, str]]]  # hex -> [(seat, "foot" or "column")]

SIZE = 30.0  # hex radius (centre to corner) in px
MARGIN = 20.0
LEGEND_W = 150.0
WATER, LAND, EDGE = "#8cc0e6", "#ead9ab", "#8a7a5a"
NATION_COLORS = {
    "gallia": "#7a9c2e",
    "germania": "#7a5a3a",
    "graecia": "#d2508a",
    "aegyptus": "#c88a14",
    "persia": "#8d58a8",
    "iberia": "#d0702f",
    "roma": "#b83b3f",
    "cartago": "#2f8f7a",
}
SEAT_COLORS = ("#d62828", "#1f5fd6", "#f2c500", "#2a9d3a")
SQRT3 = math.sqrt(3)


def _center(h: Hex) -> tuple[float, float]:
    """Pixel centre of a pointy-top hex."""
    return SIZE * SQRT3 * (h.q + h.r / 2), SIZE * 1.5 * h.r


def _corners(x: float, y: float, radius: float = SIZE) -> str:
    pts = (
        (x + radius * math.cos(math.radians(60 * k - 30)), y + radius * math.sin(math.radians(60 * k - 30)))
        for k in range(6)
    )
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in pts)


def _text(x: float, y: float, label: str, size: float, cls: str, fill: str = "#222") -> str:
    return (
        f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" '
        f'text-anchor="middle" dominant-baseline="central">{escape(label)}</text>'
    )


def _pillar(x: float, y: float, scale: float, fill: str, cls: str) -> str:
    """A small Greek column: capital, shaft and base."""
    w, h, cap = 6 * scale, 14 * scale, 2 * scale
    return (
        f'<g class="{cls}" fill="{fill}" stroke="#333" stroke-width="0.8">'
        f'<rect x="{x - w:.1f}" y="{y - h / 2 - cap:.1f}" width="{2 * w:.1f}" height="{cap:.1f}"/>'
        f'<rect x="{x - w / 2:.1f}" y="{y - h / 2:.1f}" width="{w:.1f}" height="{h:.1f}"/>'
        f'<rect x="{x - w:.1f}" y="{y + h / 2:.1f}" width="{2 * w:.1f}" height="{cap:.1f}"/></g>'
    )


def _highlight(board: Board, active: str | None) -> list[str]:
    """Thick outlines around the active nation's start and loot hexes."""
    if active is None:
        return []
    return [
        f'<polygon class="active" points="{_corners(*_center(h))}" fill="none" stroke="#111" stroke-width="3"/>'
        for h in board.hexes
        if active in (h.start, h.loot)
    ]


def _hex_cell(h: Hex, name: str) -> str:
    """One hex (its name as its tooltip): terrain or nation tint, start label or loot mark, column-site symbol."""
    x, y = _center(h)
    nation = h.start or h.loot
    fill, opacity, out = (WATER if h.water else LAND), 1.0, []
    if nation is not None:
        fill, opacity = NATION_COLORS[nation], (1.0 if h.start else 0.55)
        out.append(f'<polygon points="{_corners(x, y)}" fill="{WATER if h.water else LAND}"/>')
    # data-q/data-r: the coordinates views and choices name a hex by, so a client finds it
    out.append(
        f'<polygon class="hex" data-index="{h.index}" data-q="{h.q}" data-r="{h.r}" '
        f'points="{_corners(x, y)}" fill="{fill}" fill-opacity="{opacity}" stroke="{EDGE}" stroke-width="0.8">'
        f"<title>{name}</title></polygon>"
    )
    if h.start is not None:
        out.append(_text(x, y + 6, h.start.capitalize(), 10, "start-label", "#fff"))
    elif h.mark is not None:
        out.append(_text(x, y - 12, str(h.mark), 12, "loot-mark"))
    if h.column:
        out.append(_pillar(x, y, 0.8, "#fbf8ef", "column-site"))
    return "".join(out)


def _pieces(board: Board, pieces: Pieces) -> list[str]:
    out = []
    for index, stack in sorted(pieces.items()):
        x, y = _center(board.hexes[index])
        for k, (seat, kind) in enumerate(stack):
            px = x + (k - (len(stack) - 1) / 2) * 16
            color = SEAT_COLORS[seat]
            if kind == "column":
                out.append(_pillar(px, y, 1.0, color, f"piece column seat-{seat}"))
            else:
                out.append(
                    f'<circle class="piece foot seat-{seat}" cx="{px:.1f}" cy="{y + 4:.1f}" r="7" '
                    f'fill="{color}" stroke="#111" stroke-width="1.2"/>'
                )
    return out


def _overlays(board: Board, pieces: Pieces | None, temple: int | None, loot: dict[int, str] | None) -> list[str]:
    """Pieces, loot tiles and the temple, drawn above all hexes."""
    out = _pieces(board, pieces or {})
    for index, label in sorted((loot or {}).items()):
        x, y = _center(board.hexes[index])
        out.append(
            f'<rect x="{x - 16:.1f}" y="{y + 7:.1f}" width="32" height="12" rx="3" '
            f'fill="#fffbe8" stroke="#333" stroke-width="0.7"/>'
        )
        out.append(_text(x, y + 13, label[:6], 9, "loot-tile"))
    if temple is not None:
        x, y = _center(board.hexes[temple])
        out.append(
            f'<polygon class="temple" points="{x - 12:.1f},{y - 4:.1f} {x:.1f},{y - 16:.1f} '
            f'{x + 12:.1f},{y - 4:.1f}" fill="#fff" stroke="#111" stroke-width="1.5"/>'
        )
    return out


def _legend(x: float, active: str | None) -> list[str]:
    out = [f'<text x="{x:.1f}" y="{MARGIN + 10:.1f}" font-size="14" font-weight="bold" fill="#222">Nations</text>']
    for k, nation in enumerate(NATIONS):
        y = MARGIN + 32 + k * 22
        weight = "bold" if nation == active else "normal"
        out.append(
            f'<rect x="{x:.1f}" y="{y - 8:.1f}" width="16" height="16" fill="{NATION_COLORS[nation]}" '
            f'stroke="#333" stroke-width="0.7"/>'
        )
        out.append(
            f'<text class="legend" x="{x + 24:.1f}" y="{y + 5:.1f}" font-size="13" '
            f'font-weight="{weight}" fill="#222">{nation.capitalize()}</text>'
        )
    y = MARGIN + 32 + len(NATIONS) * 22 + 10
    out.append(_pillar(x + 8, y, 0.8, "#fbf8ef", "legend-column"))
    out.append(f'<text x="{x + 24:.1f}" y="{y + 5:.1f}" font-size="13" fill="#222">column site</text>')
    out.append(f'<text x="{x:.1f}" y="{y + 30:.1f}" font-size="11" fill="#444">pale hex: loot hex</text>')
    out.append(f'<text x="{x:.1f}" y="{y + 46:.1f}" font-size="11" fill="#444">3 / 4: from 3 / 4 players</text>')
    return out


def render_svg(
    board: Board,
    pieces: Pieces | None = None,
    temple: int | None = None,
    loot: dict[int, str] | None = None,
    active: str | None = None,
) -> str:
    """The board as an SVG document; pieces: hex -> [(seat, "foot"|"column")], loot: hex -> label."""
    xs = [_center(h)[0] for h in board.hexes]
    ys = [_center(h)[1] for h in board.hexes]
    dx, dy = MARGIN + SIZE - min(xs), MARGIN + SIZE - min(ys)
    width = max(xs) - min(xs) + 2 * (SIZE + MARGIN) + LEGEND_W
    height = max(max(ys) - min(ys) + 2 * (SIZE + MARGIN), MARGIN * 2 + 300)
    names = name_hexes(board)
    body = [_hex_cell(h, names[h.index]) for h in board.hexes] + _highlight(board, active)
    body += _overlays(board, pieces, temple, loot)
    legend = _legend(width - LEGEND_W, active)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, Arial, sans-serif">\n'
        f'<rect width="100%" height="100%" fill="#f7f3e8"/>\n'
        f'<g transform="translate({dx:.1f},{dy:.1f})">\n'
        + "\n".join(body)
        + "\n</g>\n"
        + "\n".join(legend)
        + "\n</svg>\n"
    )
