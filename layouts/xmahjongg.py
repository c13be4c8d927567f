"""Reader of xmahjongg layout files: the plain "young" format and Kyodai 3.0.

xmahjongg chooses the parser from the first byte of a file: ``K`` means Kyodai,
``k`` means KMahjongg (handed to :mod:`mjsat.layouts.kmahjongg`), anything else the
plain format.

Plain format
    One tile per line, ``row col lev`` as three integers in half-tile units. ``#``
    starts a comment; blank lines are skipped. Unlike xmahjongg, which silently ignores
    lines it cannot scan, this reader rejects any other line.

Kyodai 3.0
    Line 1 is ``Kyodai 3.0``, line 2 the board name, then 5 x 20 x 34 characters
    ``0``/``1`` (whitespace ignored), level-major, then row, then column. A ``1`` at
    ``(lev, row, col)`` is the top-left half-cell of a tile at ``(row, col, lev)``.

>>> layout = parse_xmahjongg("# two tiles\\n0 0 0\\n0 2 0\\n", name="pair")
>>> layout.positions, layout.name
(((0, 0, 0), (0, 2, 0)), 'pair')
"""

from __future__ import annotations

from mjsat.board import Layout
from mjsat.fileio import InputFileError, read_text, text_lines
from mjsat.limits import MAX_TILES

from ._common import ParsedTile, PathLike, build_layout, check_tile_count, default_name, parse_int

__all__ = [
    "KYODAI_MAGIC",
    "KYODAI_SHAPE",
    "parse_xmahjongg",
    "parse_kyodai",
    "read_xmahjongg",
]

KYODAI_MAGIC = "Kyodai 3.0"
"""The first line of a Kyodai 3.0 file."""
KYODAI_SHAPE = (5, 20, 34)
"""``(levels, rows, cols)`` of the Kyodai 3.0 grid."""


def parse_xmahjongg(text: str, path: PathLike = "<string>", *, name: str | None = None) -> Layout:
    """Parse the text of an xmahjongg layout file (plain, Kyodai or KMahjongg).

    Parameters
    ----------
    text : str
        The file's content.
    path : str or path-like, optional
        The file name for error messages; its stem is the default name.
    name : str, optional
        The layout's name; by default the Kyodai board name or the file's stem.

    Returns
    -------
    Layout

    Raises
    ------
    InputFileError
        A line is not three integers, a coordinate is out of range, tiles overlap, the
        count is odd, or a Kyodai file is malformed.
    """
    if text.startswith("K"):
        return parse_kyodai(text, path, name=name)
    if text.startswith("k"):
        from .kmahjongg import parse_kmahjongg

        return parse_kmahjongg(text, path, name=name)
    tiles: list[ParsedTile] = []
    limit = MAX_TILES.value
    for lineno, raw in enumerate(text_lines(text), start=1):
        line = raw.split("#", 1)[0]
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 3:
            raise InputFileError(path, lineno, f"expected 3 integers 'row col lev', got {len(fields)} fields")
        if len(tiles) == limit:
            check_tile_count(path, limit + 1, lineno)
        r = parse_int(path, lineno, fields[0], "row")
        c = parse_int(path, lineno, fields[1], "col")
        l = parse_int(path, lineno, fields[2], "lev")
        tiles.append(((r, c, l), lineno))
    return build_layout(path, tiles, name=default_name(path) if name is None else name)


def parse_kyodai(text: str, path: PathLike = "<string>", *, name: str | None = None) -> Layout:
    """Parse a Kyodai 3.0 layout (the format of xmahjongg's ``dragon``).

    Parameters
    ----------
    text : str
        The file's content.
    path : str or path-like, optional
        The file name for error messages.
    name : str, optional
        The layout's name; by default the board name on line 2 (or the file's stem).

    Returns
    -------
    Layout

    Raises
    ------
    InputFileError
        The magic line is not ``Kyodai 3.0``, a character is not ``0``/``1``, the grid
        does not have exactly 5 x 20 x 34 cells, or the tiles overlap or are odd in number.
    """
    lines = text_lines(text)
    magic = lines[0].strip() if lines else ""
    if magic != KYODAI_MAGIC:
        raise InputFileError(path, 1, f"expected the magic line {KYODAI_MAGIC!r}, got {magic[:40]!r}")
    if len(lines) < 2:
        raise InputFileError(path, None, "missing the board name line (line 2)")
    board_name = lines[1].strip()
    levels, rows, cols = KYODAI_SHAPE
    total = levels * rows * cols
    tiles: list[ParsedTile] = []
    k = 0
    for lineno, raw in enumerate(lines[2:], start=3):
        for ch in raw:
            if ch.isspace():
                continue
            if ch not in "01":
                raise InputFileError(path, lineno, f"expected '0' or '1', got {ch!r}")
            if k >= total:
                raise InputFileError(path, lineno, f"more than {levels}x{rows}x{cols} = {total} cells")
            if ch == "1":
                lev, rest = divmod(k, rows * cols)
                row, col = divmod(rest, cols)
                tiles.append(((row, col, lev), lineno))
            k += 1
    if k != total:
        raise InputFileError(path, len(lines), f"expected {levels}x{rows}x{cols} = {total} cells, got {k}")
    if name is None:
        name = board_name or default_name(path)
    return build_layout(path, tiles, name=name)


def read_xmahjongg(path: PathLike, *, name: str | None = None) -> Layout:
    """Read an xmahjongg layout file (plain format, Kyodai 3.0 or KMahjongg).

    Parameters
    ----------
    path : str or path-like
    name : str, optional
        The layout's name; by default the Kyodai board name or the file's stem.

    Returns
    -------
    Layout

    Raises
    ------
    InputFileError
        The file cannot be read or is malformed (see :func:`parse_xmahjongg`).
    """
    return parse_xmahjongg(read_text(path), path, name=name)
