"""Reader of KDE KMahjongg ``.layout`` files (``kmahjongg-layout-v1.0`` and ``v1.1``).

Line 1 is the magic string. Lines starting with ``#`` are comments. Version 1.1 has
header lines ``w<width>``, ``h<height>`` and ``d<depth>``; version 1.0 has the fixed
size 32 x 16 x 5. All other lines are joined and must give exactly
``width * height * depth`` characters, level-major, then row, then column. Only the
character ``1`` places a tile (its top-left half-cell); ``2``, ``3``, ``4``, ``.`` and
anything else are empty. Cell ``(x, y, z)`` maps to ``(row, col, lev) = (y, x, z)``.

>>> text = "kmahjongg-layout-v1.1\\nw4\\nh2\\nd1\\n1212\\n4343\\n"
>>> parse_kmahjongg(text, name="pair").positions
((0, 0, 0), (0, 2, 0))
"""

from __future__ import annotations

from mjsat.board import Layout
from mjsat.fileio import InputFileError, parse_decimal, read_text, text_lines

from ._common import ParsedTile, PathLike, build_layout, default_name

__all__ = ["MAGIC_V10", "MAGIC_V11", "V10_SHAPE", "MAX_CELLS", "parse_kmahjongg", "read_kmahjongg"]

MAGIC_V10 = "kmahjongg-layout-v1.0"
MAGIC_V11 = "kmahjongg-layout-v1.1"
V10_SHAPE = (32, 16, 5)
"""``(width, height, depth)`` of every version 1.0 file."""
MAX_CELLS = 10_000_000
"""Largest ``width * height * depth`` a version 1.1 header may declare."""


def _header(path: PathLike, lineno: int, line: str, dims: dict[str, int]) -> bool:
    """Read a ``w``/``h``/``d`` header line into ``dims``; False if it is not one."""
    key, value = line[:1], line[1:].strip()
    if key not in ("w", "h", "d") or not value.isascii() or not value.isdigit():
        return False
    if key in dims:
        raise InputFileError(path, lineno, f"header {key!r} given twice")
    n = parse_decimal(path, lineno, value, f"header {key!r}", 1, MAX_CELLS)
    dims[key] = n
    return True


def parse_kmahjongg(text: str, path: PathLike = "<string>", *, name: str | None = None) -> Layout:
    """Parse the text of a KMahjongg layout file.

    Parameters
    ----------
    text : str
        The file's content.
    path : str or path-like, optional
        The file name for error messages; its stem is the default name.
    name : str, optional
        The layout's name (default: the file's stem).

    Returns
    -------
    Layout

    Raises
    ------
    InputFileError
        Wrong magic line, missing or bad ``w``/``h``/``d`` headers (v1.1), a cell count
        other than ``width * height * depth``, overlapping tiles or an odd tile count.
    """
    lines = text_lines(text)
    magic = lines[0].strip() if lines else ""
    if magic not in (MAGIC_V10, MAGIC_V11):
        raise InputFileError(path, 1, f"expected the magic line {MAGIC_V10!r} or {MAGIC_V11!r}, got {magic[:40]!r}")
    dims: dict[str, int] = {}
    data: list[tuple[int, str]] = []
    for lineno, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip()
        if line.startswith("#"):
            continue
        if magic == MAGIC_V11 and not data and _header(path, lineno, line, dims):
            continue
        if line:
            data.append((lineno, line))
    if magic == MAGIC_V10:
        width, height, depth = V10_SHAPE
    else:
        missing = [k for k in ("w", "h", "d") if k not in dims]
        if missing:
            raise InputFileError(path, None, f"missing header line(s) {', '.join(missing)} (e.g. 'w32', 'h16', 'd5')")
        width, height, depth = dims["w"], dims["h"], dims["d"]
        if width * height * depth > MAX_CELLS:
            raise InputFileError(path, None, f"board {width}x{height}x{depth} is too large")
    total = width * height * depth
    tiles: list[ParsedTile] = []
    k = 0
    for lineno, line in data:
        if k + len(line) > total:
            raise InputFileError(path, lineno, f"more than {width}x{height}x{depth} = {total} cells")
        start = 0
        while (i := line.find("1", start)) >= 0:
            z, rest = divmod(k + i, width * height)
            y, x = divmod(rest, width)
            tiles.append(((y, x, z), lineno))
            start = i + 1
        k += len(line)
    if k != total:
        last = data[-1][0] if data else len(lines)
        raise InputFileError(path, last, f"expected {width}x{height}x{depth} = {total} cells, got {k}")
    return build_layout(path, tiles, name=default_name(path) if name is None else name)


def read_kmahjongg(path: PathLike, *, name: str | None = None) -> Layout:
    """Read a KMahjongg ``.layout`` file.

    Parameters
    ----------
    path : str or path-like
    name : str, optional
        The layout's name (default: the file's stem).

    Returns
    -------
    Layout

    Raises
    ------
    InputFileError
        The file cannot be read or is malformed (see :func:`parse_kmahjongg`).
    """
    return parse_kmahjongg(read_text(path), path, name=name)
