"""Reading a layout file of any supported format, the format sniffed from name and content.

The rules, first match wins:

1. suffix ``.layout`` -- KMahjongg; ``.map`` -- GNOME; ``.json`` -- the JSON format;
2. text starting with ``kmahjongg-layout`` -- KMahjongg;
3. text starting with ``K`` -- Kyodai 3.0 (xmahjongg's own rule);
4. text starting with ``{`` -- JSON; with ``<`` -- GNOME;
5. anything else -- the plain xmahjongg format.

>>> sniff_format("0 0 0\\n0 2 0\\n", "default")
'xmahjongg'
>>> sniff_format("Kyodai 3.0\\n", "dragon"), sniff_format("", "x.layout")
('kyodai', 'kmahjongg')
"""

from __future__ import annotations

from pathlib import Path

from mjsat.board import Layout
from mjsat.fileio import read_text

from ._common import PathLike
from .gnome import parse_gnome
from .json_format import parse_layout_json
from .kmahjongg import parse_kmahjongg
from .xmahjongg import parse_kyodai, parse_xmahjongg

__all__ = ["FORMATS", "sniff_format", "parse_layout", "read_layout"]

FORMATS: tuple[str, ...] = ("xmahjongg", "kyodai", "kmahjongg", "gnome", "json")
"""The format names :func:`sniff_format` returns."""

_SUFFIXES = {".layout": "kmahjongg", ".map": "gnome", ".json": "json"}


def sniff_format(text: str, path: PathLike = "") -> str:
    """The format of a layout file from its name and content (one of :data:`FORMATS`).

    Parameters
    ----------
    text : str
        The file's content (only its start is looked at).
    path : str or path-like, optional
        The file name; its suffix decides first.

    Returns
    -------
    str
    """
    suffix = Path(path).suffix.lower()
    if suffix in _SUFFIXES:
        return _SUFFIXES[suffix]
    text = text.lstrip("\ufeff")
    if text.startswith("kmahjongg-layout"):
        return "kmahjongg"
    if text.startswith("K"):
        return "kyodai"
    head = text.lstrip()[:1]
    if head == "{":
        return "json"
    if head == "<":
        return "gnome"
    return "xmahjongg"


def parse_layout(
    text: str,
    path: PathLike = "<string>",
    *,
    map_name: str | None = None,
    fmt: str | None = None,
) -> Layout:
    """Parse a layout file's text in the given or sniffed format.

    Parameters
    ----------
    text : str
        The file's content.
    path : str or path-like, optional
        The file name (for sniffing, names and messages).
    map_name : str, optional
        For GNOME ``.map`` files: the map's ``name`` or ``scorename``.
    fmt : str, optional
        One of :data:`FORMATS`; sniffed by :func:`sniff_format` when omitted.

    Returns
    -------
    Layout

    Raises
    ------
    InputFileError
        The file is malformed.
    ValueError
        An unknown ``fmt``, or ``map_name`` given for a format other than GNOME's.
    """
    fmt = sniff_format(text, path) if fmt is None else fmt
    if fmt not in FORMATS:
        raise ValueError(f"unknown layout format {fmt!r} (known: {', '.join(FORMATS)})")
    if map_name is not None and fmt != "gnome":
        raise ValueError(f"{path}: map_name applies only to GNOME .map files, this is {fmt}")
    text = text.lstrip("\ufeff")
    if fmt == "gnome":
        return parse_gnome(text, path, map_name)
    if fmt == "json":
        return parse_layout_json(text, path)
    if fmt == "kmahjongg":
        return parse_kmahjongg(text, path)
    if fmt == "kyodai":
        return parse_kyodai(text, path)
    return parse_xmahjongg(text, path)


def read_layout(path: PathLike, *, map_name: str | None = None, fmt: str | None = None) -> Layout:
    """Read a layout file of any supported format (see :func:`parse_layout`).

    Parameters
    ----------
    path : str or path-like
    map_name : str, optional
        For GNOME ``.map`` files with several maps: the map's ``name`` or ``scorename``.
    fmt : str, optional
        Force a format instead of sniffing it.

    Returns
    -------
    Layout

    Raises
    ------
    InputFileError
        The file cannot be read or is malformed.
    ValueError
        See :func:`parse_layout`.
    """
    return parse_layout(read_text(path), path, map_name=map_name, fmt=fmt)
