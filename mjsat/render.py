"""Pictures of boards: an ASCII top view and level views, and SVG.

The SVG draws every present tile at its position, higher levels shifted up and left and
shaded darker, labelled with its group (name or number) and, when a solution is given,
the number of the move that removes it. ``board.meta["gadgets"]`` (a list of
``{"label": str, "tiles": [TileId, ...]}``, as the reductions write) is outlined and
labelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from mjsat.board import Board, Move
from mjsat.limits import MAX_PICTURE_CELLS

__all__ = ["ascii_board", "ascii_top_view", "ascii_levels", "svg_board"]

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _label(board: Board, t: int, width: int) -> str:
    g = board.groups[t]
    lab = board.names.get(g)
    if lab is None:
        lab = str(g)
    return lab[:width]


def _too_large(board: Board, rows: int, width: int) -> str | None:
    """The one line said instead of a picture of ``rows`` lines of ``width`` characters
    above :data:`mjsat.limits.MAX_PICTURE_CELLS`, else None."""
    message = MAX_PICTURE_CELLS.exceeded(rows * width, f"the picture ({rows:,} lines of {width:,})")
    if message is None:
        return None
    return f"(not drawn: {message}; draw it as SVG with -o FILE.svg)"


def ascii_top_view(board: Board) -> str:
    """Heights seen from above, one character per half-tile cell (``.`` empty).

    Heights 1 to 35 are one character (``1``-``9``, then ``a``-``z``); a board with more
    levels gets a column of decimal numbers per cell, separated by spaces.

    >>> from mjsat.board import Layout, MahjongBoard
    >>> print(ascii_top_view(MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 1, 1), (0, 5, 0)]), [0, 0, 1, 1])))
    1221.11
    1221.11
    >>> print(ascii_top_view(MahjongBoard(Layout([(0, 0, l) for l in range(40)]), [0] * 40)))
    40 40
    40 40
    """
    present = board.present_tiles()
    if not present:
        return "(empty)"
    r0, c0, r1, c1 = board.layout.bounds()
    top = 1 + max(board.layout.positions[t][2] for t in present)
    wide = top >= len(_DIGITS)
    cell = len(str(top)) + 1 if wide else 1
    too_large = _too_large(board, r1 - r0 + 1, (c1 - c0 + 1) * cell)
    if too_large:
        return too_large
    h = [[0] * (c1 - c0 + 1) for _ in range(r1 - r0 + 1)]
    for t in present:
        r, c, l = board.layout.positions[t]
        for dr in (0, 1):
            for dc in (0, 1):
                y, x = r - r0 + dr, c - c0 + dc
                h[y][x] = max(h[y][x], l + 1)
    if wide:
        width = cell - 1
        return "\n".join(" ".join(str(v).rjust(width) if v else ".".rjust(width) for v in row).rstrip() for row in h)
    return "\n".join("".join(_DIGITS[v] if v else "." for v in row).rstrip() for row in h)


def ascii_levels(board: Board) -> str:
    """Each level, bottom first: every present tile as ``[lab]`` at its position."""
    present = board.present_tiles()
    if not present:
        return "(empty)"
    r0, c0, r1, c1 = board.layout.bounds()
    width = max(len(_label(board, t, 3)) for t in present)
    cell = width + 2
    line_width = (c1 - c0 + 2) * cell // 2 + cell
    used_rows = len({(board.layout.positions[t][2], board.layout.positions[t][0]) for t in present})
    too_large = _too_large(board, used_rows, line_width)
    if too_large:
        return too_large
    by_level: dict[int, list[int]] = {}
    for t in present:
        by_level.setdefault(board.layout.positions[t][2], []).append(t)
    out: list[str] = []
    for lev in sorted(by_level):
        tiles = by_level[lev]
        rows: dict[int, list[str]] = {}
        for t in tiles:
            r, c, _ = board.layout.positions[t]
            line = rows.setdefault(r - r0, [" "] * line_width)
            x = (c - c0) * cell // 2
            text = "[" + _label(board, t, width).rjust(width) + "]"
            line[x : x + len(text)] = list(text)
        out.append(f"level {lev} ({len(tiles)} tile{'s' if len(tiles) != 1 else ''})")
        out.extend("".join(rows[r]).rstrip() for r in sorted(rows))
    return "\n".join(out)


def ascii_board(board: Board) -> str:
    """Top view with heights, then each level with group labels."""
    head = f"{board.game} board, {board.remaining()} of {len(board)} tiles"
    if board.layout.name:
        head += f", layout {board.layout.name}"
    return f"{head}\ntop view (height of each half-tile cell):\n{ascii_top_view(board)}\n{ascii_levels(board)}"


_FILLS = ("#fdf6e3", "#f3e2b3", "#e6c98a", "#d4ad63", "#c08f45", "#a87432", "#8c5c25")


def svg_board(
    board: Board,
    *,
    solution: Sequence[Move] | None = None,
    unit: int = 18,
    title: str | None = None,
) -> str:
    """An SVG picture of the present tiles of ``board``.

    Parameters
    ----------
    board : Board
    solution : list of moves, optional
        Write the number of the move removing each tile under its label.
    unit : int
        Pixels per half tile horizontally (a tile is ``2 * unit`` wide, ``2.6 * unit`` high).
    title : str, optional
    """
    present = board.present_tiles()
    lay = board.layout
    r0, c0, r1, c1 = lay.bounds() if present else (0, 0, 1, 1)
    ux, uy = unit, int(unit * 1.3)
    shift = max(3, unit // 4)
    levels = max(lay.levels, 1)
    pad = 10 + shift * levels
    width = (c1 - c0 + 1) * ux + 2 * pad
    top = 24 if title else 0
    height = (r1 - r0 + 1) * uy + 2 * pad + top
    move_no: dict[int, int] = {}
    for k, (a, b) in enumerate(solution or (), 1):
        move_no[a] = move_no[b] = k
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#2f4f3f"/>',
    ]
    if title:
        parts.append(f'<text x="{pad}" y="18" fill="#ffffff" font-size="14">{escape(title)}</text>')

    def xy(t: int) -> tuple[float, float]:
        r, c, l = lay.positions[t]
        return (pad + (c - c0) * ux - l * shift, top + pad + (r - r0) * uy - l * shift)

    order = sorted(present, key=lambda t: (lay.positions[t][2], lay.positions[t][0], -lay.positions[t][1]))
    fs = max(7, int(unit * 0.55))
    for t in order:
        x, y = xy(t)
        lev = lay.positions[t][2]
        fill = _FILLS[min(lev, len(_FILLS) - 1)]
        parts.append(
            f'<g><title>tile {t} group {escape(board.group_label(board.groups[t]))} '
            f'at {lay.positions[t]}</title>'
            f'<rect x="{x + shift:.1f}" y="{y + shift:.1f}" width="{2 * ux - 2}" height="{2 * uy - 2}" rx="3" fill="#1b2b22"/>'
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{2 * ux - 2}" height="{2 * uy - 2}" rx="3" '
            f'fill="{fill}" stroke="#5a4a2a" stroke-width="1"/>'
            f'<text x="{x + ux - 1:.1f}" y="{y + uy - 1:.1f}" font-size="{fs}" text-anchor="middle" '
            f'fill="#202020">{escape(_label(board, t, 6))}</text>'
        )
        if t in move_no:
            parts.append(
                f'<text x="{x + ux - 1:.1f}" y="{y + 2 * uy - 5:.1f}" font-size="{max(6, fs - 3)}" '
                f'text-anchor="middle" fill="#a01010">{move_no[t]}</text>'
            )
        parts.append("</g>")
    for gadget in board.meta.get("gadgets", []) or []:
        tiles = [t for t in gadget.get("tiles", []) if 0 <= t < len(lay)]
        if not tiles:
            continue
        boxes = [xy(t) for t in tiles]
        x0 = min(b[0] for b in boxes) - 3
        y0 = min(b[1] for b in boxes) - 3
        x1 = max(b[0] for b in boxes) + 2 * ux + 1
        y1 = max(b[1] for b in boxes) + 2 * uy + 1
        parts.append(
            f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" fill="none" '
            f'stroke="#ffd23f" stroke-width="1.5" stroke-dasharray="4 2"/>'
            f'<text x="{x0 + 2:.1f}" y="{y0 - 2:.1f}" font-size="{fs}" fill="#ffd23f">'
            f"{escape(str(gadget.get('label', '')))}</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
