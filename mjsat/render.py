"""Pictures of boards: an ASCII top view and level views, and SVG in two views.

* The **top view** (:func:`svg_top_view`) draws every present tile at its position,
  higher levels shifted up and left and shaded darker.
* The **side view** (:func:`svg_side_view`) is for layouts whose tiles stand in columns
  (:meth:`~mjsat.board.Layout.is_columns`: isolated stacks, ``rect-WxHxD``): the columns
  of each grid row form a band, and each column is drawn as a pile, its top tile at the
  top, so every tile of every stack is visible.

:func:`svg_board` draws either (``view="auto"`` takes the side view for columns of two
levels or more, see :func:`choose_view`). In both views each tile carries its group label
(name or number) and, when a solution is given, the number of the move that removes it;
``board.meta["gadgets"]`` (a list of ``{"label": str, "tiles": [TileId, ...]}``, as the
reductions write) is outlined and labelled, one outline per line of the picture the
gadget occupies; and when ``board.meta["supertile"]`` holds the 3 x 3 block of the
Shisen-Sho images (rows of letters, one ``a``; tiles numbered block by block, row by row,
as :mod:`mjsat.reductions.shisen` builds them), each block is outlined and its ``a`` tile
marked.

The functions are pure and return the SVG text. Its elements are named for pages that
highlight tiles (every id starts with ``id_prefix``, so several pictures fit in one page):

* each drawn tile is ``<g id="tile-N" class="tile" data-tile="N" data-group="G"
  data-label="..." data-level="L">`` (plus ``data-gadget="K ..."`` with the indices of
  its gadgets in ``meta["gadgets"]``, ``data-block`` for supertile tiles, and the class
  ``supertile-a`` on a block's ``a``), holding a ``<text class="label">``;
* each gadget is ``<g id="gadget-K" class="gadget" data-gadget="K" data-label="...">``
  with its outlines (``rect.gadget-outline``) and a ``<text class="gadget-label">``;
* each supertile block is ``<rect id="supertile-K" class="supertile" data-block="K"
  data-tile-a="N">``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from html import escape

from mjsat.board import Board, Move, TileId
from mjsat.limits import MAX_PICTURE_CELLS

__all__ = [
    "ascii_board",
    "ascii_top_view",
    "ascii_levels",
    "svg_board",
    "svg_top_view",
    "svg_side_view",
    "choose_view",
    "supertile_blocks",
    "VIEWS",
    "UnknownViewError",
    "NotInColumnsError",
]

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
_BACKGROUND = "#2f4f3f"
_GADGET = "#ffd23f"
_SUPERTILE = "#9fd3ff"
_MARK = "#c0392b"
_MARK_FILL = "#f6c9bd"

VIEWS: tuple[str, ...] = ("auto", "top", "side")
"""The views :func:`svg_board` draws (``--view`` of ``mjsat render``)."""


class UnknownViewError(ValueError):
    """A view name that is not one of :data:`VIEWS`."""


class NotInColumnsError(ValueError):
    """The side view of a layout whose tiles do not stand in columns."""


def choose_view(board: Board) -> str:
    """``"side"`` when the tiles stand in columns two levels high or more, else ``"top"``.

    >>> from mjsat.board import Layout, MahjongBoard
    >>> choose_view(MahjongBoard(Layout([(0, 0, 0), (0, 0, 1)]), [0, 0]))
    'side'
    >>> choose_view(MahjongBoard(Layout([(0, 0, 0), (0, 2, 0)]), [0, 0]))
    'top'
    """
    lay = board.layout
    return "side" if lay.levels >= 2 and lay.is_columns() else "top"


def supertile_blocks(board: Board) -> list[tuple[TileId, list[TileId]]]:
    """The supertile blocks of a Shisen-Sho image: ``(a tile, block tiles)`` per block.

    ``board.meta["supertile"]`` gives the block as rows of letters with one ``a``; the
    tiles are taken as numbered block by block, row by row in a block. The answer is
    empty when there is no such entry or the tiles do not stand that way (each block a
    full rectangle of whole-tile cells in the pattern's shape, equal letters of one block
    in one group).

    >>> from mjsat.reductions.shisen import shisen_from_stacks
    >>> board, main = shisen_from_stacks([[0], [0]])
    >>> board.meta["supertile"] = ["BaC", "DBE", "CED"]
    >>> [(a, block[0], block[-1]) for a, block in supertile_blocks(board)]
    [(1, 0, 8), (10, 9, 17)]

    Notes
    -----
    :math:`O(n)` for ``n`` tiles.
    """
    pattern = board.meta.get("supertile")
    if not isinstance(pattern, (list, tuple)) or not pattern or not all(isinstance(r, str) for r in pattern):
        return []
    h, w = len(pattern), len(pattern[0])
    cells = "".join(pattern)
    if w == 0 or any(len(r) != w for r in pattern) or cells.count("a") != 1:
        return []
    size = h * w
    n = len(board)
    if n == 0 or n % size:
        return []
    ia = cells.index("a")
    pos = board.layout.positions
    groups = board.groups
    out: list[tuple[TileId, list[TileId]]] = []
    for first in range(0, n, size):
        r0, c0, l0 = pos[first]
        letter_group: dict[str, int] = {}
        for k in range(size):
            t = first + k
            dy, dx = divmod(k, w)
            if pos[t] != (r0 + 2 * dy, c0 + 2 * dx, l0):
                return []
            if cells[k] != "a" and letter_group.setdefault(cells[k], groups[t]) != groups[t]:
                return []
        out.append((first + ia, list(range(first, first + size))))
    return out


@dataclasses.dataclass
class _Frame:
    """Where a view puts each drawn tile: the top-left corner of its face."""

    width: float
    height: float
    corner: dict[TileId, tuple[float, float]]
    order: list[TileId]
    face_w: float
    face_h: float
    shadow: float
    label_dy: float
    move_at: str  # "below": the move number under the label (top view); "right": beside it


def _drawn(board: Board, tiles: Iterable[TileId] | None) -> list[TileId]:
    if tiles is None:
        return board.present_tiles()
    n = len(board)
    return sorted({int(t) for t in tiles if 0 <= int(t) < n})


def _font(unit: int) -> int:
    return max(7, int(unit * 0.55))


def _top_frame(board: Board, tiles: list[TileId], unit: int, top: int, *, whole: bool) -> _Frame:
    lay = board.layout
    pos = lay.positions
    if not tiles:
        r0, c0, r1, c1 = 0, 0, 1, 1
    elif whole:
        r0, c0, r1, c1 = lay.bounds()
    else:
        r0, c0 = min(pos[t][0] for t in tiles), min(pos[t][1] for t in tiles)
        r1, c1 = max(pos[t][0] for t in tiles) + 1, max(pos[t][1] for t in tiles) + 1
    ux, uy = unit, int(unit * 1.3)
    shift = max(3, unit // 4)
    pad = 10 + shift * max(lay.levels, 1)
    corner: dict[TileId, tuple[float, float]] = {
        t: (pad + (pos[t][1] - c0) * ux - pos[t][2] * shift, top + pad + (pos[t][0] - r0) * uy - pos[t][2] * shift)
        for t in tiles
    }
    order = sorted(tiles, key=lambda t: (pos[t][2], pos[t][0], -pos[t][1]))
    return _Frame(
        width=(c1 - c0 + 1) * ux + 2 * pad,
        height=(r1 - r0 + 1) * uy + 2 * pad + top,
        corner=corner,
        order=order,
        face_w=2 * ux - 2,
        face_h=2 * uy - 2,
        shadow=shift,
        label_dy=uy - 1,
        move_at="below",
    )


def _side_frame(board: Board, tiles: list[TileId], unit: int, top: int) -> _Frame:
    lay = board.layout
    if not lay.is_columns():
        raise NotInColumnsError(
            "the side view needs tiles standing in columns (each tile exactly on the one below it); use the top view"
        )
    pos = lay.positions
    fs = _font(unit)
    ux = unit
    tile_h = max(fs + 8, int(unit * 1.25))
    label_space = fs + 8
    gap = max(6, unit // 2)
    pad = 10
    step = 2 * ux + max(4, unit // 3)  # columns side by side, whatever their distance on the grid
    rank = {c: k for k, c in enumerate(sorted({pos[t][1] for t in tiles}))}
    bands: dict[int, int] = {}  # grid row -> height of the band in tiles
    for t in tiles:
        r, _, l = pos[t]
        bands[r] = max(bands.get(r, 0), l + 1)
    base: dict[int, float] = {}  # grid row -> y of the band's bottom tile slot
    y = top + pad
    for r in sorted(bands):
        y += label_space
        base[r] = y + (bands[r] - 1) * tile_h
        y += bands[r] * tile_h + gap
    corner: dict[TileId, tuple[float, float]] = {
        t: (pad + rank[pos[t][1]] * step, base[pos[t][0]] - pos[t][2] * tile_h) for t in tiles
    }
    return _Frame(
        width=max(len(rank), 1) * step + 2 * pad,
        height=y - gap + pad,
        corner=corner,
        order=sorted(tiles, key=lambda t: (pos[t][0], pos[t][1], pos[t][2])),
        face_w=2 * ux - 2,
        face_h=tile_h - 2,
        shadow=2,
        label_dy=tile_h / 2 + fs / 3 - 1,
        move_at="right",
    )


def _pieces(boxes: list[tuple[float, float, float, float]], slack: float) -> list[tuple[float, float, float, float]]:
    """The boxes merged into one bounding box per band of y ranges that overlap or lie
    less than ``slack`` apart (the lines of a picture)."""
    out: list[list[float]] = []
    for x0, y0, x1, y1 in sorted(boxes, key=lambda b: b[1]):
        if out and y0 <= out[-1][3] + slack:
            cur = out[-1]
            cur[0], cur[2], cur[3] = min(cur[0], x0), max(cur[2], x1), max(cur[3], y1)
        else:
            out.append([x0, y0, x1, y1])
    return [(a, b, c, d) for a, b, c, d in out]


def _text(
    x: float, y: float, text: str, *, size: int, fill: str, cls: str, fit: float | None = None, anchor: str = "middle"
) -> str:
    squeeze = ""
    if fit is not None and len(text) * size * 0.6 > fit:
        squeeze = f' textLength="{fit:.1f}" lengthAdjust="spacingAndGlyphs"'
    return (
        f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
        f'fill="{fill}"{squeeze}>{escape(text)}</text>'
    )


def _compose(
    board: Board,
    frame: _Frame,
    *,
    solution: Sequence[Move] | None,
    unit: int,
    title: str | None,
    id_prefix: str,
    view: str,
) -> str:
    lay = board.layout
    pos = lay.positions
    fs = _font(unit)
    p = escape(id_prefix)
    width, height = int(round(frame.width)), int(round(frame.height))
    move_no: dict[int, int] = {}
    for k, (a, b) in enumerate(solution or (), 1):
        move_no[a] = move_no[b] = k
    gadgets = [g for g in board.meta.get("gadgets", []) or [] if isinstance(g, dict)]
    gadget_of: dict[int, list[int]] = {}
    for k, gadget in enumerate(gadgets):
        for t in gadget.get("tiles", []) or []:
            if t in frame.corner:
                gadget_of.setdefault(t, []).append(k)
    blocks = supertile_blocks(board)
    block_of = {t: k for k, (_, ts) in enumerate(blocks) for t in ts}
    a_tiles = {a for a, _ in blocks}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="mjsat-board {view}-view" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="{_BACKGROUND}"/>',
    ]
    if title:
        parts.append(f'<text class="title" x="10" y="18" fill="#ffffff" font-size="14">{escape(title)}</text>')
    fw, fh = frame.face_w, frame.face_h
    for t in frame.order:
        x, y = frame.corner[t]
        r, c, lev = pos[t]
        g = board.groups[t]
        label = _label(board, t, 10**6)
        cls = "tile supertile-a" if t in a_tiles else "tile"
        attrs = f'id="{p}tile-{t}" class="{cls}" data-tile="{t}" data-group="{g}" data-label="{escape(label)}" data-level="{lev}"'
        if t in gadget_of:
            attrs += f' data-gadget="{" ".join(map(str, gadget_of[t]))}"'
        if t in block_of:
            attrs += f' data-block="{block_of[t]}"'
        fill = _MARK_FILL if t in a_tiles else _FILLS[min(lev, len(_FILLS) - 1)]
        stroke = f'stroke="{_MARK}" stroke-width="2.5"' if t in a_tiles else 'stroke="#5a4a2a" stroke-width="1"'
        parts.append(
            f"<g {attrs}><title>tile {t} group {escape(board.group_label(g))} at {(r, c, lev)}</title>"
            f'<rect x="{x + frame.shadow:.1f}" y="{y + frame.shadow:.1f}" width="{fw}" height="{fh}" rx="3" fill="#1b2b22"/>'
            f'<rect class="face" x="{x:.1f}" y="{y:.1f}" width="{fw}" height="{fh}" rx="3" fill="{fill}" {stroke}/>'
        )
        if t in move_no and frame.move_at == "right":
            parts.append(
                _text(
                    x + 3,
                    y + frame.label_dy,
                    label,
                    size=fs,
                    fill="#202020",
                    cls="label",
                    fit=fw * 0.62,
                    anchor="start",
                )
            )
            parts.append(
                _text(
                    x + fw - 2,
                    y + frame.label_dy,
                    str(move_no[t]),
                    size=max(6, fs - 2),
                    fill="#a01010",
                    cls="move",
                    anchor="end",
                )
            )
        else:
            parts.append(_text(x + fw / 2, y + frame.label_dy, label, size=fs, fill="#202020", cls="label", fit=fw - 4))
            if t in move_no:
                parts.append(
                    _text(x + fw / 2, y + fh - 4, str(move_no[t]), size=max(6, fs - 3), fill="#a01010", cls="move")
                )
        parts.append("</g>")
    for k, (a, ts) in enumerate(blocks):
        drawn = [t for t in ts if t in frame.corner]
        if not drawn:
            continue
        x0 = min(frame.corner[t][0] for t in drawn) - 1
        y0 = min(frame.corner[t][1] for t in drawn) - 1
        x1 = max(frame.corner[t][0] for t in drawn) + fw + 1
        y1 = max(frame.corner[t][1] for t in drawn) + fh + 1
        parts.append(
            f'<rect id="{p}supertile-{k}" class="supertile" data-block="{k}" data-tile-a="{a}" x="{x0:.1f}" '
            f'y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" fill="none" stroke="{_SUPERTILE}" stroke-width="1.2"/>'
        )
    for k, gadget in enumerate(gadgets):
        drawn = [t for t in gadget.get("tiles", []) or [] if t in frame.corner]
        if not drawn:
            continue
        boxes = [
            (frame.corner[t][0], frame.corner[t][1], frame.corner[t][0] + fw, frame.corner[t][1] + fh) for t in drawn
        ]
        label = str(gadget.get("label", ""))
        parts.append(f'<g id="{p}gadget-{k}" class="gadget" data-gadget="{k}" data-label="{escape(label)}">')
        for i, (x0, y0, x1, y1) in enumerate(_pieces(boxes, fh / 2)):
            x0, y0, x1, y1 = x0 - 3, y0 - 3, x1 + frame.shadow + 2, y1 + frame.shadow + 2
            parts.append(
                f'<rect class="gadget-outline" x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" '
                f'fill="none" stroke="{_GADGET}" stroke-width="1.5" stroke-dasharray="4 2"/>'
            )
            if i == 0:
                parts.append(_text(x0 + 2, y0 - 3, label, size=fs, fill=_GADGET, cls="gadget-label", anchor="start"))
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def svg_top_view(
    board: Board,
    *,
    solution: Sequence[Move] | None = None,
    unit: int = 18,
    title: str | None = None,
    tiles: Iterable[TileId] | None = None,
    id_prefix: str = "",
) -> str:
    """The board seen from above: every drawn tile at its position, higher levels shifted
    up and left and shaded darker. Parameters as :func:`svg_board`.

    Notes
    -----
    :math:`O(n)` for ``n`` tiles, plus :math:`O(T)` for the gadgets' ``T`` tile entries.
    """
    drawn = _drawn(board, tiles)
    top = (24 if title else 0) + (_font(unit) + 2 if board.meta.get("gadgets") else 0)  # room for gadget labels
    frame = _top_frame(board, drawn, unit, top, whole=tiles is None)
    return _compose(board, frame, solution=solution, unit=unit, title=title, id_prefix=id_prefix, view="top")


def svg_side_view(
    board: Board,
    *,
    solution: Sequence[Move] | None = None,
    unit: int = 18,
    title: str | None = None,
    tiles: Iterable[TileId] | None = None,
    id_prefix: str = "",
) -> str:
    """The columns of the board seen from the side: each grid row of columns is a band,
    each column a pile with its top tile at the top (bottoms on the band's line), so every
    drawn tile is visible with its label. The grid columns in use stand side by side in
    their order, closer than on the grid. Parameters as :func:`svg_board`.

    Raises
    ------
    NotInColumnsError
        The tiles do not stand in columns (:meth:`~mjsat.board.Layout.is_columns`).

    Notes
    -----
    :math:`O(n)` for ``n`` tiles, plus :math:`O(T)` for the gadgets' ``T`` tile entries.
    """
    drawn = _drawn(board, tiles)
    frame = _side_frame(board, drawn, unit, 24 if title else 0)
    return _compose(board, frame, solution=solution, unit=unit, title=title, id_prefix=id_prefix, view="side")


_VIEW_FUNCTIONS: dict[str, Callable[..., str]] = {"top": svg_top_view, "side": svg_side_view}


def svg_board(
    board: Board,
    *,
    solution: Sequence[Move] | None = None,
    unit: int = 18,
    title: str | None = None,
    view: str = "auto",
    tiles: Iterable[TileId] | None = None,
    id_prefix: str = "",
) -> str:
    """An SVG picture of ``board`` (its present tiles, or ``tiles``).

    Parameters
    ----------
    board : Board
    solution : list of moves, optional
        Write the number of the move removing each tile beside its label.
    unit : int
        Pixels per half tile horizontally (a tile is ``2 * unit`` wide).
    title : str, optional
    view : {"auto", "top", "side"}
        ``auto`` is :func:`choose_view`: the side view for tiles in columns two levels
        high or more, else the top view.
    tiles : iterable of int, optional
        Draw these tiles (present or not) and crop the picture to them, e.g. one gadget
        of a reduction board; default: the present tiles, on the whole layout's frame.
    id_prefix : str
        Put before every element id (several pictures in one page).

    Raises
    ------
    UnknownViewError
        ``view`` is not one of :data:`VIEWS`.
    NotInColumnsError
        ``view="side"`` on tiles that do not stand in columns.
    """
    name = choose_view(board) if view == "auto" else view
    fn = _VIEW_FUNCTIONS.get(name)
    if fn is None:
        raise UnknownViewError(f"unknown view {view!r} (known: {', '.join(VIEWS)})")
    return fn(board, solution=solution, unit=unit, title=title, tiles=tiles, id_prefix=id_prefix)
