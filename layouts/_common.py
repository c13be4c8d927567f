"""Helpers shared by the layout readers: turning parsed tiles into a checked :class:`Layout`.

Every reader collects ``(position, line)`` pairs, the line being the 1-based line of the
file the tile came from (or ``None``), and hands them to :func:`build_layout`. That
function reports range errors, overlaps and odd counts as
:class:`~mjsat.fileio.InputFileError` naming the file and the offending line, before the
core :class:`~mjsat.board.Layout` constructor sees the tiles.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from mjsat.board import MAX_COORD, MAX_LEVEL, InvalidLayoutError, Layout, Position
from mjsat.fileio import InputFileError, parse_decimal
from mjsat.limits import MAX_TILES

__all__ = ["ParsedTile", "PathLike", "build_layout", "check_position", "check_tile_count", "default_name", "parse_int"]

PathLike = str | os.PathLike[str]
"""A file name as the readers accept it."""

ParsedTile = tuple[Position, int | None]
"""A tile read from a file: its ``(row, col, lev)`` and the line it came from."""


def default_name(path: PathLike) -> str:
    """The name a layout read from ``path`` gets by default: the file's stem.

    >>> default_name("/usr/share/games/xmahjongg/layouts/default"), default_name("<string>")
    ('default', '')
    """
    text = os.fspath(path)
    return "" if text.startswith("<") else Path(text).stem


def parse_int(path: PathLike, line: int | None, text: str, what: str) -> int:
    """``text`` as an integer (ASCII digits, an optional sign), or :class:`InputFileError`
    saying which field is not an integer.

    >>> parse_int("f", 1, "12", "row")
    12
    >>> parse_int("f", 3, "1.5", "row")
    Traceback (most recent call last):
    ...
    mjsat.fileio.InputFileError: f:3: row: expected an integer, got '1.5'

    An integer too long for any coordinate (more than :data:`~mjsat.fileio.MAX_DIGITS`
    digits) is refused here; :func:`check_position` checks the ranges.
    """
    return parse_decimal(path, line, text, what)


def check_tile_count(path: PathLike, count: int, line: int | None) -> None:
    """Raise :class:`InputFileError` when a reader holding ``count`` tiles would go past
    :data:`mjsat.limits.MAX_TILES` (called as tiles are read, before the layout is built)."""
    message = MAX_TILES.exceeded(count, "the layout", at_least=True)
    if message is not None:
        raise InputFileError(path, line, message)


def check_position(path: PathLike, line: int | None, pos: Position) -> None:
    """Raise :class:`InputFileError` unless ``pos`` lies in the core's coordinate range."""
    r, c, l = pos
    if not (0 <= r <= MAX_COORD and 0 <= c <= MAX_COORD):
        raise InputFileError(path, line, f"tile at (row={r}, col={c}, lev={l}): row and col must lie in 0..{MAX_COORD}")
    if not 0 <= l <= MAX_LEVEL:
        raise InputFileError(path, line, f"tile at (row={r}, col={c}, lev={l}): level must lie in 0..{MAX_LEVEL}")


def _where(line: int | None) -> str:
    return "" if line is None else f" (line {line})"


def build_layout(
    path: PathLike,
    tiles: Sequence[ParsedTile],
    *,
    name: str = "",
    block_any_higher: bool = False,
) -> Layout:
    """Check parsed tiles and build a :class:`Layout`, with file-and-line errors.

    Parameters
    ----------
    path : str or path-like
        The file the tiles came from (for messages only).
    tiles : sequence of ((row, col, lev), line)
        The tiles in file order with their 1-based line numbers (``None`` when unknown).
    name : str, optional
        The layout's name.
    block_any_higher : bool, optional
        GNOME's covering rule, passed on to :class:`Layout`.

    Returns
    -------
    Layout

    Raises
    ------
    InputFileError
        No tiles (an empty file, a byte-order mark alone, only comments), a coordinate
        out of range, two tiles that overlap (the error names the line of the second
        tile), or an odd number of tiles (the error names the last tile's line).

    Examples
    --------
    >>> build_layout("f", [((0, 0, 0), 1), ((0, 2, 0), 2)], name="two").level_counts()
    [2]
    >>> build_layout("f", [((0, 0, 0), 1), ((1, 1, 0), 2)])
    Traceback (most recent call last):
    ...
    mjsat.fileio.InputFileError: f:2: tile at (row=1, col=1, lev=0) overlaps the tile at (row=0, col=0, lev=0) (line 1) on level 0
    """
    if not tiles:
        raise InputFileError(path, None, "no tiles: an empty layout (a layout needs at least one pair)")
    message = MAX_TILES.exceeded(len(tiles), "the layout")
    if message is not None:
        raise InputFileError(path, tiles[-1][1], message)
    for pos, line in tiles:
        check_position(path, line, pos)
    if len(tiles) % 2:
        last = tiles[-1][1]
        raise InputFileError(path, last, f"odd number of tiles ({len(tiles)}): a layout needs an even number")
    try:
        return Layout([p for p, _ in tiles], name=name, block_any_higher=block_any_higher)
    except InvalidLayoutError as exc:
        if len(exc.tiles) != 2:  # pragma: no cover - the checks above come first
            raise InputFileError(path, None, str(exc)) from None
        (r0, c0, l), line0 = tiles[exc.tiles[0]]
        (r, c, _), line = tiles[exc.tiles[1]]
        raise InputFileError(
            path,
            line,
            f"tile at (row={r}, col={c}, lev={l}) overlaps the tile at "
            f"(row={r0}, col={c0}, lev={l}){_where(line0)} on level {l}",
        ) from None
