"""Layouts shipped with mjsat, written as code.

Fixed layouts (:data:`SHIPPED`):

* ``turtle`` -- the classic 144-tile turtle (87/36/16/4/1 tiles per level);
* ``pyramid`` -- 20 tiles on 3 levels (4x3, 3x2 and 2x1 blocks, each centred on the
  one below with half-tile offsets);
* ``tiny`` -- 8 tiles: a 3x2 block and two tiles bridging it on level 1;
* ``cross`` -- 14 tiles: a plus of 7+7 tiles sharing the centre, one tile on the centre.

Parametric families (:func:`parametric`):

* ``rect-WxH`` -- ``W`` columns by ``H`` rows of whole tiles on one level (the
  Shisen-Sho boards), ``rect-WxHxD`` with ``D`` levels stacked exactly on each other;
* ``row-N`` -- a single row of ``N`` tiles.

Tiles are numbered bottom level first, then by row, then by column.

>>> shipped_layout("turtle").level_counts()
[87, 36, 16, 4, 1]
>>> len(shipped_layout("rect-4x3x2")), shipped_layout("row-6").bounds()
(24, (0, 0, 1, 11))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from mjsat.board import MAX_COORD, MAX_LEVEL, Layout, Position
from mjsat.limits import MAX_TILES as LIMIT_TILES, SizeLimitError

__all__ = [
    "SHIPPED",
    "FAMILIES",
    "EXAMPLES",
    "MAX_TILES",
    "turtle",
    "pyramid",
    "tiny",
    "cross",
    "rect",
    "row",
    "parametric",
    "shipped_layout",
    "is_shipped",
]

MAX_TILES = LIMIT_TILES
"""Largest number of tiles a parametric layout may have (:data:`mjsat.limits.MAX_TILES`,
``MJSAT_MAX_TILES``)."""


def _sorted(name: str, tiles: Iterable[Position]) -> Layout:
    return Layout(sorted(tiles, key=lambda p: (p[2], p[0], p[1])), name=name)


def _block(rows: Iterable[int], cols: Iterable[int], lev: int) -> list[Position]:
    """Whole-tile rows and columns (half-tile units: ``2 * row``) to positions."""
    cols = list(cols)
    return [(2 * r, 2 * c, lev) for r in rows for c in cols]


def turtle() -> Layout:
    """The classic 144-tile turtle (xmahjongg ``default``, GNOME "Turtle").

    Level 0 has eight rows of 12, 8, 10, 12, 12, 10, 8 and 12 tiles centred on whole-tile
    columns 1..12, one tile at column 0 and two at columns 13 and 14, these three half-way
    between rows 3 and 4. Levels 1, 2 and 3 are centred squares of 6x6, 4x4 and 2x2 tiles;
    the top tile sits centred on the 2x2 square.

    Returns
    -------
    Layout
        144 tiles, 87/36/16/4/1 per level, named ``"turtle"``.
    """
    spans = [(1, 12), (3, 10), (2, 11), (1, 12), (1, 12), (2, 11), (3, 10), (1, 12)]
    tiles: list[Position] = []
    for r, (c0, c1) in enumerate(spans):
        tiles += _block([r], range(c0, c1 + 1), 0)
    tiles += [(7, 0, 0), (7, 26, 0), (7, 28, 0)]  # the half-offset ends, row 3.5
    for lev, lo in ((1, 1), (2, 2), (3, 3)):
        side = 8 - 2 * lo  # 6, 4, 2
        tiles += _block(range(lo, lo + side), range(lo + 3, lo + 3 + side), lev)
    tiles.append((7, 13, 4))  # centred on the 2x2 of level 3: rows 3.5, col 6.5
    return _sorted("turtle", tiles)


def pyramid() -> Layout:
    """A 20-tile pyramid: 4x3 tiles, then 3x2 and 2x1 each centred on the level below.

    Returns
    -------
    Layout
        12/6/2 tiles per level, named ``"pyramid"``.
    """
    tiles: list[Position] = []
    for lev, (w, h) in enumerate(((4, 3), (3, 2), (2, 1))):
        tiles += [(2 * r + lev, 2 * c + lev, lev) for r in range(h) for c in range(w)]
    return _sorted("pyramid", tiles)


def tiny() -> Layout:
    """An 8-tile layout: 3x2 tiles with two tiles on level 1 bridging pairs of columns.

    Returns
    -------
    Layout
        6/2 tiles per level, named ``"tiny"``.
    """
    tiles = _block(range(2), range(3), 0) + [(1, 1, 1), (1, 3, 1)]
    return _sorted("tiny", tiles)


def cross() -> Layout:
    """A 14-tile plus sign: a row and a column of 7 tiles sharing the centre, one tile on top.

    Returns
    -------
    Layout
        13/1 tiles per level, named ``"cross"``.
    """
    tiles = set(_block([3], range(7), 0)) | set(_block(range(7), [3], 0))
    return _sorted("cross", [*tiles, (6, 6, 1)])


def rect(width: int, height: int, depth: int = 1) -> Layout:
    """``width`` x ``height`` whole tiles, ``depth`` levels stacked exactly on each other.

    Parameters
    ----------
    width, height : int
        Columns and rows of whole tiles (positive).
    depth : int, optional
        Number of levels (positive, default 1: a Shisen-Sho board).

    Returns
    -------
    Layout
        Named ``rect-WxH`` (``rect-WxHxD`` when ``depth > 1``).

    Raises
    ------
    ValueError
        A size is not positive, the number of tiles is odd or above :data:`MAX_TILES`, or
        the board does not fit the core's coordinate range.
    """
    if min(width, height, depth) <= 0:
        raise ValueError(f"rect: width, height and depth must be positive, got {width}x{height}x{depth}")
    n = width * height * depth
    if n % 2:
        raise ValueError(f"rect: {width}x{height}x{depth} = {n} tiles, an odd number; a layout needs pairs")
    if 2 * max(width, height) - 2 > MAX_COORD or depth - 1 > MAX_LEVEL:
        raise ValueError(
            f"rect: {width}x{height}x{depth} does not fit the coordinate range "
            f"(at most {MAX_COORD // 2 + 1} tiles a side, {MAX_LEVEL + 1} levels)"
        )
    too_many = MAX_TILES.exceeded(n, f"rect: {width}x{height}x{depth}")
    if too_many:
        raise SizeLimitError(too_many)
    name = f"rect-{width}x{height}" if depth == 1 else f"rect-{width}x{height}x{depth}"
    return Layout(
        [(2 * r, 2 * c, l) for l in range(depth) for r in range(height) for c in range(width)],
        name=name,
    )


def row(n: int) -> Layout:
    """A single row of ``n`` tiles (``n`` even and positive).

    Parameters
    ----------
    n : int
        Number of tiles.

    Returns
    -------
    Layout
        Named ``row-N``.

    Raises
    ------
    ValueError
        ``n`` is not positive and even, or too large.
    """
    if n <= 0 or n % 2:
        raise ValueError(f"row: the number of tiles must be positive and even, got {n}")
    if 2 * n - 2 > MAX_COORD:
        raise ValueError(f"row: {n} tiles do not fit the coordinate range")
    return Layout([(0, 2 * c, 0) for c in range(n)], name=f"row-{n}")


SHIPPED: dict[str, Callable[[], Layout]] = {
    "turtle": turtle,
    "pyramid": pyramid,
    "tiny": tiny,
    "cross": cross,
}
"""The fixed shipped layouts by name (builders, called on each request)."""

FAMILIES: dict[str, str] = {
    "rect-WxH": "W columns x H rows of whole tiles on one level (Shisen-Sho boards)",
    "rect-WxHxD": "the same with D levels stacked exactly on each other",
    "row-N": "a single row of N tiles",
}
"""The parametric families, pattern to description."""

EXAMPLES: tuple[str, ...] = ("rect-18x8", "rect-12x12", "rect-4x4x2", "row-8")
"""Instances of the families that :func:`mjsat.layouts.list_layouts` lists."""

_RECT = re.compile(r"rect-([0-9]+)x([0-9]+)(?:x([0-9]+))?")
_ROW = re.compile(r"row-([0-9]+)")


def parametric(spec: str) -> Layout | None:
    """The layout of a family name (``rect-12x8``, ``rect-4x4x2``, ``row-6``), else ``None``.

    Parameters
    ----------
    spec : str
        A layout name.

    Returns
    -------
    Layout or None

    Raises
    ------
    ValueError
        The name has a family's form but invalid parameters (odd tile count, zero).
    """
    if len(spec) > 40:
        return None
    m = _RECT.fullmatch(spec)
    if m:
        return rect(int(m[1]), int(m[2]), int(m[3] or 1))
    m = _ROW.fullmatch(spec)
    if m:
        return row(int(m[1]))
    return None


def is_shipped(spec: str) -> bool:
    """True iff ``spec`` names a fixed shipped layout or has the form of a family."""
    return spec in SHIPPED or bool(_RECT.fullmatch(spec) or _ROW.fullmatch(spec))


def shipped_layout(spec: str) -> Layout:
    """A shipped layout by name (fixed or parametric), freshly built.

    Parameters
    ----------
    spec : str
        ``turtle``, ``pyramid``, ``tiny``, ``cross``, ``rect-WxH``, ``rect-WxHxD`` or ``row-N``.

    Returns
    -------
    Layout

    Raises
    ------
    KeyError
        ``spec`` is no shipped name.
    ValueError
        A family name with invalid parameters.
    """
    if spec in SHIPPED:
        return SHIPPED[spec]()
    layout = parametric(spec)
    if layout is None:
        raise KeyError(spec)
    return layout
