"""The project's own JSON layout format (read and write).

::

    {
      "format": "mjsat-layout",
      "version": 1,
      "name": "pair",
      "block_any_higher": false,
      "tiles": [
        [0, 0, 0],
        [0, 2, 0]
      ]
    }

``tiles`` lists ``[row, col, lev]`` in half-tile units, in tile-id order. ``name`` and
``block_any_higher`` are optional when reading (default ``""`` and ``false``); other
keys are ignored. The writer puts one tile per line, and errors name the line of the
offending tile.

>>> from mjsat.board import Layout
>>> text = layout_to_json(Layout([(0, 0, 0), (0, 2, 0)], name="pair"))
>>> parse_layout_json(text) == Layout([(0, 0, 0), (0, 2, 0)])
True
"""

from __future__ import annotations

import json
import re
from typing import Any

from mjsat.board import Layout
from mjsat.fileio import InputFileError, parse_json, read_text, write_text_atomic
from mjsat.limits import MAX_TILES

from ._common import ParsedTile, PathLike, build_layout

__all__ = [
    "FORMAT",
    "VERSION",
    "layout_to_json",
    "parse_layout_json",
    "read_layout_json",
    "write_layout_json",
]

FORMAT = "mjsat-layout"
"""The value of the ``format`` key."""
VERSION = 1
"""The version this module reads and writes."""


def layout_to_json(layout: Layout) -> str:
    """The JSON text of ``layout`` (one tile per line, ending in a newline).

    Parameters
    ----------
    layout : Layout

    Returns
    -------
    str
    """
    head = {
        "format": FORMAT,
        "version": VERSION,
        "name": layout.name,
        "block_any_higher": layout.block_any_higher,
    }
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    if layout.positions:
        lines.append('  "tiles": [')
        body = [f"    [{r}, {c}, {l}]" for r, c, l in layout.positions]
        lines.append(",\n".join(body))
        lines.append("  ]")
    else:
        lines.append('  "tiles": []')
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_layout_json(layout: Layout, path: PathLike) -> None:
    """Write ``layout`` to ``path`` in the JSON layout format, atomically.

    Parameters
    ----------
    layout : Layout
    path : str or path-like
    """
    write_text_atomic(path, layout_to_json(layout))


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _key_line(text: str, key: str) -> int | None:
    """The line of the first occurrence of ``"key":`` (a good guess for messages)."""
    m = re.search(rf'"{re.escape(key)}"\s*:', text)
    return _line_of(text, m.start()) if m else None


def _tile_lines(text: str, tiles: list[Any]) -> list[int | None]:
    """The line where each element of the ``tiles`` array starts (``None`` if not found)."""
    decoder = json.JSONDecoder()
    for m in re.finditer(r'"tiles"\s*:\s*(?=\[)', text):
        start = m.end()
        try:
            value, _ = decoder.raw_decode(text, start)
        except ValueError:
            continue
        if value != tiles:
            continue
        out: list[int | None] = []
        i = start + 1
        ws = re.compile(r"[\s,]*")
        for _ in tiles:
            i = ws.match(text, i).end()  # type: ignore[union-attr]
            out.append(_line_of(text, i))
            _, i = decoder.raw_decode(text, i)
        return out
    return [None] * len(tiles)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_layout_json(text: str, path: PathLike = "<string>") -> Layout:
    """Parse the JSON layout format.

    Parameters
    ----------
    text : str
        The file's content.
    path : str or path-like, optional
        The file name for error messages.

    Returns
    -------
    Layout

    Raises
    ------
    InputFileError
        Not JSON, not an object, a wrong ``format`` or ``version``, a tile that is not
        three integers, a coordinate out of range, overlapping tiles or an odd count.
    """
    data = parse_json(text, path)
    if not isinstance(data, dict):
        raise InputFileError(path, 1, "expected a JSON object")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise InputFileError(path, _key_line(text, "format") or 1, f'expected "format": {FORMAT!r}, got {fmt!r}')
    version = data.get("version")
    if not _is_int(version) or version != VERSION:
        raise InputFileError(
            path, _key_line(text, "version"), f"unsupported version {version!r} (this reader reads {VERSION})"
        )
    name = data.get("name", "")
    if not isinstance(name, str):
        raise InputFileError(path, _key_line(text, "name"), f'"name" must be a string, got {name!r}')
    bah = data.get("block_any_higher", False)
    if not isinstance(bah, bool):
        raise InputFileError(
            path, _key_line(text, "block_any_higher"), f'"block_any_higher" must be true or false, got {bah!r}'
        )
    raw = data.get("tiles")
    if not isinstance(raw, list):
        raise InputFileError(path, _key_line(text, "tiles"), '"tiles" must be a list of [row, col, lev]')
    message = MAX_TILES.exceeded(len(raw), "the layout")
    if message is not None:
        raise InputFileError(path, _key_line(text, "tiles"), message)
    lines = _tile_lines(text, raw)
    tiles: list[ParsedTile] = []
    for i, (t, line) in enumerate(zip(raw, lines)):
        if not isinstance(t, list) or len(t) != 3:
            got = f"{len(t)} values" if isinstance(t, list) else type(t).__name__
            raise InputFileError(path, line, f"tile {i}: expected [row, col, lev], got {got}")
        if not all(_is_int(v) for v in t):
            raise InputFileError(path, line, f"tile {i}: expected 3 integers, got {t!r}")
        tiles.append(((t[0], t[1], t[2]), line))
    return build_layout(path, tiles, name=name, block_any_higher=bah)


def read_layout_json(path: PathLike) -> Layout:
    """Read a layout in the JSON layout format (see :func:`parse_layout_json`).

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    Layout

    Raises
    ------
    InputFileError
        The file cannot be read or is malformed.
    """
    return parse_layout_json(read_text(path), path)
