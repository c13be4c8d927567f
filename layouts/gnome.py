"""Reader of GNOME Mahjongg ``.map`` files (many maps per file).

A file holds ``<map name=... scorename=...>`` elements inside ``<mahjongg>``. A map's
children place tiles in **whole-tile** units that may end in ``.5``:

* ``<tile x y [z]>`` one tile;
* ``<row y left right [z]>`` tiles at ``x = left, left+1, ..., right``;
* ``<column x top bottom [z]>`` tiles at ``y = top, ..., bottom``;
* ``<block left right top bottom [z]>`` a rectangle of tiles;
* ``<layer z>`` sets the default ``z`` of the elements inside it.

A tile at ``(x, y, z)`` is ``(row, col, lev) = (2y, 2x, z)`` on the half-tile grid.
Attribute and element names are case-insensitive (GNOME's g_markup reading). GNOME
blocks a tile from *any* higher level, so the layouts have ``block_any_higher=True``.

The parser is :mod:`xml.parsers.expat`, the standard-library parser under
:mod:`xml.etree`, used directly because it reports the line of every element.

>>> text = '<mahjongg><map name="Pair" scorename="pair"><row y="0" left="0" right="1"/></map></mahjongg>'
>>> layout = parse_gnome(text)
>>> layout.positions, layout.name, layout.block_any_higher
(((0, 0, 0), (0, 2, 0)), 'Pair', True)
"""

from __future__ import annotations

import dataclasses
from xml.parsers import expat

from mjsat.board import Layout
from mjsat.fileio import InputFileError, read_text

from ._common import ParsedTile, PathLike, build_layout, check_tile_count, parse_int

__all__ = ["GnomeMap", "parse_gnome_maps", "parse_gnome", "read_gnome", "read_gnome_maps", "select_map"]

_MAX_SPAN = 100_000
"""Largest number of tiles one ``row``/``column``/``block`` element may place."""


@dataclasses.dataclass(frozen=True)
class GnomeMap:
    """One map of a GNOME ``.map`` file.

    Attributes
    ----------
    name : str
        The display name (``name`` attribute), e.g. ``"Turtle"``.
    scorename : str
        The short name (``scorename`` attribute), e.g. ``"easy"``.
    layout : Layout
        The tiles, named ``name``, with ``block_any_higher=True``.
    line : int
        The line of the ``<map>`` element.
    """

    name: str
    scorename: str
    layout: Layout
    line: int


class _Builder:
    """Expat handlers collecting the maps of one file."""

    def __init__(self, path: PathLike, parser: expat.XMLParserType) -> None:
        self.path = path
        self.parser = parser
        self.maps: list[GnomeMap] = []
        self.stack: list[str] = []
        self.layer_z: int | None = None
        self.current: tuple[str, str, int] | None = None
        self.tiles: list[ParsedTile] = []

    # -- attribute helpers
    def _num(self, attrs: dict[str, str], key: str, tag: str) -> int:
        """An attribute in half-tile units (``2 * value``), required to be a multiple of 0.5."""
        line = self.parser.CurrentLineNumber
        if key not in attrs:
            raise InputFileError(self.path, line, f"<{tag}> needs the attribute {key!r}")
        text = attrs[key].strip()
        try:
            value = float(text)
        except ValueError:
            raise InputFileError(self.path, line, f"<{tag} {key}=...>: expected a number, got {text!r}") from None
        half = value * 2
        if half != half or abs(half) > 1e9 or half != int(half):  # NaN, huge, not x or x.5
            raise InputFileError(self.path, line, f"<{tag} {key}=...>: expected a multiple of 0.5, got {text!r}")
        return int(half)

    def _z(self, attrs: dict[str, str], tag: str) -> int:
        line = self.parser.CurrentLineNumber
        if "z" not in attrs:
            return 0 if self.layer_z is None else self.layer_z
        return parse_int(self.path, line, attrs["z"].strip(), f"<{tag} z=...>")

    def _span(self, lo: int, hi: int, tag: str) -> range:
        line = self.parser.CurrentLineNumber
        if hi < lo:
            raise InputFileError(self.path, line, f"<{tag}>: empty range {lo / 2:g}..{hi / 2:g}")
        if (hi - lo) // 2 + 1 > _MAX_SPAN:
            raise InputFileError(self.path, line, f"<{tag}>: range {lo / 2:g}..{hi / 2:g} is too long")
        return range(lo, hi + 1, 2)

    # -- expat handlers
    def start(self, tag: str, raw: dict[str, str]) -> None:
        tag = tag.lower()
        attrs = {k.lower(): v for k, v in raw.items()}
        line = self.parser.CurrentLineNumber
        parent = self.stack[-1] if self.stack else None
        self.stack.append(tag)
        if tag == "map":
            if self.current is not None:
                raise InputFileError(self.path, line, "<map> inside another <map>")
            name = attrs.get("name", "").strip()
            scorename = attrs.get("scorename", "").strip()
            if not name and not scorename:
                raise InputFileError(self.path, line, "<map> needs a 'name' or 'scorename' attribute")
            self.current = (name or scorename, scorename or name, line)
            self.tiles = []
            return
        if self.current is None:
            return  # <mahjongg> and anything outside a map
        if tag == "layer":
            if parent != "map":
                raise InputFileError(self.path, line, "<layer> must sit directly inside <map>")
            self.layer_z = self._z(attrs, tag)
            return
        z = self._z(attrs, tag)
        if tag == "tile":
            rows, cols = [self._num(attrs, "y", tag)], [self._num(attrs, "x", tag)]
        elif tag == "row":
            rows = [self._num(attrs, "y", tag)]
            cols = list(self._span(self._num(attrs, "left", tag), self._num(attrs, "right", tag), tag))
        elif tag == "column":
            cols = [self._num(attrs, "x", tag)]
            rows = list(self._span(self._num(attrs, "top", tag), self._num(attrs, "bottom", tag), tag))
        elif tag == "block":
            cols = list(self._span(self._num(attrs, "left", tag), self._num(attrs, "right", tag), tag))
            rows = list(self._span(self._num(attrs, "top", tag), self._num(attrs, "bottom", tag), tag))
            if len(rows) * len(cols) > _MAX_SPAN:
                raise InputFileError(self.path, line, "<block> is too large")
        else:
            raise InputFileError(
                self.path, line, f"unknown element <{tag}> in a map (expected layer, tile, row, column or block)"
            )
        check_tile_count(self.path, len(self.tiles) + len(rows) * len(cols), line)
        for r in rows:
            for c in cols:
                self.tiles.append(((r, c, z), line))

    def end(self, tag: str) -> None:
        tag = tag.lower()
        self.stack.pop()
        if tag == "layer":
            self.layer_z = None
        elif tag == "map" and self.current is not None:
            name, scorename, line = self.current
            layout = build_layout(self.path, self.tiles, name=name, block_any_higher=True)
            self.maps.append(GnomeMap(name, scorename, layout, line))
            self.current = None
            self.tiles = []


def parse_gnome_maps(text: str, path: PathLike = "<string>") -> list[GnomeMap]:
    """Parse every map of a GNOME ``.map`` file.

    Parameters
    ----------
    text : str
        The file's content.
    path : str or path-like, optional
        The file name for error messages.

    Returns
    -------
    list of GnomeMap
        The maps in file order (possibly empty).

    Raises
    ------
    InputFileError
        The XML is malformed, an element lacks an attribute or has a bad value, an
        element is unknown, or a map's tiles overlap or are odd in number.
    """
    parser = expat.ParserCreate()
    builder = _Builder(path, parser)
    parser.StartElementHandler = builder.start
    parser.EndElementHandler = builder.end
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise InputFileError(path, exc.lineno, f"malformed XML: {expat.ErrorString(exc.code)}") from None
    return builder.maps


def _describe(maps: list[GnomeMap]) -> str:
    return ", ".join(f"{m.name!r} ({m.scorename})" for m in maps) or "none"


def select_map(maps: list[GnomeMap], map_name: str | None, path: PathLike = "<string>") -> GnomeMap:
    """The map called ``map_name`` (its ``name`` or ``scorename``, exact, then ignoring case).

    Parameters
    ----------
    maps : list of GnomeMap
        The maps of one file.
    map_name : str or None
        A map's ``name`` or ``scorename``; with ``None`` the file must have exactly one map.
    path : str or path-like, optional
        The file name for error messages.

    Returns
    -------
    GnomeMap

    Raises
    ------
    InputFileError
        No map matches, several do, or no name was given for a file of several maps; the
        message lists the maps of the file.
    """
    if map_name is None:
        if len(maps) == 1:
            return maps[0]
        if not maps:
            raise InputFileError(path, None, "the file has no <map>")
        raise InputFileError(
            path, None, f"the file has {len(maps)} maps; choose one by name or scorename (map_name): {_describe(maps)}"
        )
    for key in (lambda s: s, str.casefold):
        want = key(map_name.strip())
        hits = [m for m in maps if want in (key(m.name), key(m.scorename))]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            raise InputFileError(path, None, f"map name {map_name!r} is ambiguous: {_describe(hits)}")
    raise InputFileError(path, None, f"no map called {map_name!r}; the maps are: {_describe(maps)}")


def parse_gnome(text: str, path: PathLike = "<string>", map_name: str | None = None) -> Layout:
    """Parse one map of a GNOME ``.map`` file.

    Parameters
    ----------
    text : str
        The file's content.
    path : str or path-like, optional
        The file name for error messages.
    map_name : str, optional
        The map's ``name`` or ``scorename``; needed when the file has several maps.

    Returns
    -------
    Layout
        Named after the map's ``name``, with ``block_any_higher=True``.

    Raises
    ------
    InputFileError
        The file is malformed, or the map cannot be chosen (see :func:`select_map`).
    """
    return select_map(parse_gnome_maps(text, path), map_name, path).layout


def read_gnome_maps(path: PathLike) -> list[GnomeMap]:
    """Read every map of a GNOME ``.map`` file (see :func:`parse_gnome_maps`)."""
    return parse_gnome_maps(read_text(path), path)


def read_gnome(path: PathLike, map_name: str | None = None) -> Layout:
    """Read one map of a GNOME ``.map`` file.

    Parameters
    ----------
    path : str or path-like
    map_name : str, optional
        The map's ``name`` (e.g. ``"Turtle"``) or ``scorename`` (e.g. ``"easy"``); needed
        when the file has more than one map.

    Returns
    -------
    Layout

    Raises
    ------
    InputFileError
        The file cannot be read or is malformed, or the map cannot be chosen; with
        several maps and no ``map_name`` the message lists the maps.
    """
    return parse_gnome(read_text(path), path, map_name)
