"""Layouts: the shipped ones, the games' files, and the project's JSON format.

>>> from mjsat.layouts import load_layout
>>> turtle = load_layout("turtle")
>>> len(turtle), turtle.level_counts()
(144, [87, 36, 16, 4, 1])
>>> load_layout("rect-4x3").name
'rect-4x3'

A *spec* given to :func:`load_layout` is, in this order of precedence,

1. a shipped name: ``turtle``, ``pyramid``, ``tiny``, ``cross``, or a family
   ``rect-WxH``, ``rect-WxHxD``, ``row-N`` (see :mod:`mjsat.layouts.shipped`);
2. a path to a layout file of any supported format (xmahjongg plain or Kyodai 3.0,
   KMahjongg ``.layout``, GNOME ``.map``, JSON), the format sniffed by
   :func:`mjsat.layouts.files.sniff_format`;
3. the name of a layout discovered on the system (:func:`list_layouts`):
   ``xmahjongg:default``, ``kmahjongg:default``, ``gnome:easy`` (or ``gnome:Turtle``);
   without the ``source:`` prefix when only one source has the name.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from pathlib import Path

from mjsat.board import Layout

from ._common import PathLike
from .discover import PACKAGES, SOURCES, SYSTEM_DIRS, LayoutInfo, discover_layouts, load_info
from .files import FORMATS, parse_layout, read_layout, sniff_format
from .gnome import GnomeMap, read_gnome, read_gnome_maps
from .json_format import layout_to_json, read_layout_json, write_layout_json
from .kmahjongg import read_kmahjongg
from .shipped import EXAMPLES, FAMILIES, SHIPPED, is_shipped, rect, row, shipped_layout, turtle
from .xmahjongg import read_xmahjongg

__all__ = [
    "LayoutInfo",
    "GnomeMap",
    "SOURCES",
    "SYSTEM_DIRS",
    "FORMATS",
    "SHIPPED",
    "FAMILIES",
    "load_layout",
    "list_layouts",
    "shipped_infos",
    "discover_layouts",
    "read_layout",
    "parse_layout",
    "sniff_format",
    "read_xmahjongg",
    "read_kmahjongg",
    "read_gnome",
    "read_gnome_maps",
    "read_layout_json",
    "write_layout_json",
    "layout_to_json",
    "shipped_layout",
    "turtle",
    "rect",
    "row",
]


def shipped_infos() -> list[LayoutInfo]:
    """The fixed shipped layouts and a few instances of the parametric families."""
    return [LayoutInfo(name, "shipped", len(shipped_layout(name))) for name in (*SHIPPED, *EXAMPLES)]


def list_layouts(
    dirs: Iterable[PathLike] | None = None,
    *,
    extra_dirs: Iterable[PathLike] | None = None,
) -> list[LayoutInfo]:
    """The shipped layouts, then the layouts discovered on the system.

    Parameters
    ----------
    dirs : iterable of str or path-like, optional
        Where to discover game layouts (default :data:`SYSTEM_DIRS`); see
        :func:`mjsat.layouts.discover.discover_layouts`.
    extra_dirs : iterable of str or path-like, optional
        More places to search, besides ``dirs`` (their layouts win name clashes).

    Returns
    -------
    list of LayoutInfo
        The parametric families (``rect-WxH``, ``rect-WxHxD``, ``row-N``) appear through a
        few examples only; any parameters are accepted by :func:`load_layout`.
    """
    return shipped_infos() + discover_layouts(dirs, extra_dirs=extra_dirs)


def _match(spec: str, infos: list[LayoutInfo]) -> list[LayoutInfo]:
    """Discovered layouts answering to ``spec`` (full name, GNOME map name, bare name)."""

    def names(i: LayoutInfo) -> list[str]:
        bare = i.name.split(":", 1)[1]
        out = [i.name, bare]
        if i.map_name:
            out += [f"{i.source}:{i.map_name}", i.map_name]
        return out

    for key in (lambda s: s, str.casefold):
        want = key(spec)
        exact = [i for i in infos if key(i.name) == want]
        if exact:
            return exact[:1]
        hits = [i for i in infos if want in [key(n) for n in names(i)]]
        if hits:
            return hits
    return []


def _unknown(spec: str, infos: list[LayoutInfo]) -> ValueError:
    known = [i.name for i in infos]
    close = difflib.get_close_matches(spec, known, n=3, cutoff=0.6)
    hint = f" Did you mean {', '.join(close)}?" if close else ""
    source = spec.split(":", 1)[0]
    if source in PACKAGES and not any(i.source == source for i in infos):
        hint += f" No {source} layouts are installed (`apt-get install {PACKAGES[source]}`)."
    sample = [*SHIPPED, *FAMILIES]
    for source in SOURCES[1:]:
        sample += [i.name for i in infos if i.source == source][:2]
    more = " ..." if len(infos) > len(sample) else ""
    return ValueError(
        f"unknown layout {spec!r}: not a shipped name, not a file, not an installed layout."
        f"{hint} Known names include: {', '.join(sample)}{more} (`mjsat layouts` lists them all)"
    )


def load_layout(
    spec: str | os.PathLike[str],
    *,
    map_name: str | None = None,
    dirs: Iterable[PathLike] | None = None,
    extra_dirs: Iterable[PathLike] | None = None,
) -> Layout:
    """Load a layout by shipped name, file path, or discovered name.

    Parameters
    ----------
    spec : str or path-like
        See the module docstring for the order of precedence. A path-like object is
        always read as a file.
    map_name : str, optional
        For a GNOME ``.map`` file with several maps: the map's ``name`` or ``scorename``.
    dirs : iterable of str or path-like, optional
        Where to discover installed layouts (default :data:`SYSTEM_DIRS`).
    extra_dirs : iterable of str or path-like, optional
        More places to search, besides ``dirs``.

    Returns
    -------
    Layout

    Raises
    ------
    ValueError
        ``spec`` is unknown (the message lists some known names), ambiguous between
        sources, a family name with invalid parameters, or ``map_name`` was given for
        a layout that is not a GNOME map.
    InputFileError
        The file is malformed (a subclass of :class:`ValueError`).

    Examples
    --------
    >>> load_layout("pyramid").level_counts()
    [12, 6, 2]
    >>> load_layout("no-such-layout", dirs=[])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown layout 'no-such-layout': not a shipped name, ...
    """
    if not isinstance(spec, str):
        return read_layout(spec, map_name=map_name)
    if is_shipped(spec):
        if map_name is not None:
            raise ValueError(f"map_name applies only to GNOME maps, not to the shipped layout {spec!r}")
        return shipped_layout(spec)
    if spec and _is_file(spec):
        return read_layout(spec, map_name=map_name)
    infos = discover_layouts(dirs, extra_dirs=extra_dirs)
    hits = _match(spec, infos)
    if len(hits) > 1:
        raise ValueError(f"layout name {spec!r} is ambiguous: {', '.join(i.name for i in hits)}; use the full name")
    if not hits:
        raise _unknown(spec, shipped_infos() + infos)
    info = hits[0]
    if map_name is not None and info.source != "gnome":
        raise ValueError(f"map_name applies only to GNOME maps, not to {info.name!r}")
    return load_info(info)


def _is_file(spec: str) -> bool:
    """Whether ``spec`` names an existing file (a name the system cannot take, too long or
    with a NUL byte, names none: it is then looked up as a layout name)."""
    try:
        return Path(spec).exists() and not Path(spec).is_dir()
    except (OSError, ValueError):
        return False
