"""Tile faces: the Mahjong set given to the groups of a deal.

A face is what a player sees on a tile; the rules know only groups, and two tiles match
when their groups are equal. :func:`assign_faces` gives each group one *kind* of the
Mahjong set, at random but the same for the same deal, and each tile a face of its
group's kind.

Face ids (what the page draws, what saves and messages may name):

* ``dots-1`` .. ``dots-9``, ``bamboo-1`` .. ``bamboo-9``, ``chars-1`` .. ``chars-9``
  (characters);
* ``wind-east``, ``wind-south``, ``wind-west``, ``wind-north``;
* ``dragon-red``, ``dragon-green``, ``dragon-white``;
* ``flower-1`` .. ``flower-4`` (plum, orchid, chrysanthemum, bamboo) and
  ``season-1`` .. ``season-4`` (spring, summer, autumn, winter).

That is 34 kinds of four equal tiles and two kinds whose four tiles differ yet match
each other (the flowers, the seasons): 36 kinds, :data:`KINDS`. A flower group's tiles
show ``flower-1``, ``flower-2``, ... in turn, and likewise the seasons. A board with
more than 36 groups uses the set again: the 37th group and later get a *variant*
number 2, 3, ... appended to the face id (``dots-3-2``), drawn with another colour and
a mark, so that every group keeps a face of its own.

>>> assign_faces([0, 0, 1, 1, 2, 2, 3, 3], seed=7)
['dots-1', 'dots-1', 'wind-south', 'wind-south', 'bamboo-1', 'bamboo-1', 'dots-5', 'dots-5']
>>> long_name("dots-3"), long_name("wind-east"), long_name("season-2-2")
('3 of dots', 'east wind', 'season 2 (summer), set 2')
>>> short_form("chars-7"), short_form("dragon-red"), short_form("bamboo-5-3")
('7m', 'Rd', '5|³')
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np

__all__ = [
    "KINDS",
    "FACE_STYLES",
    "assign_faces",
    "deal_faces_seed",
    "long_name",
    "short_form",
    "face_colour",
    "place_name",
]

_SUITS = ("dots", "bamboo", "chars")
_WINDS = ("east", "south", "west", "north")
_DRAGONS = ("red", "green", "white")
_FLOWERS = ("plum", "orchid", "chrysanthemum", "bamboo")
_SEASONS = ("spring", "summer", "autumn", "winter")

KINDS: tuple[str, ...] = (
    *(f"{s}-{n}" for s in _SUITS for n in range(1, 10)),
    *(f"wind-{w}" for w in _WINDS),
    *(f"dragon-{d}" for d in _DRAGONS),
    "flower",
    "season",
)
"""The 36 kinds: 34 faces of four equal tiles, then the flowers and the seasons."""

FACE_STYLES = ("faces", "numbers")
"""How interfaces label tiles: by face, or by group number."""

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_COLOURS = {
    "dots": "#1d4f9c",
    "bamboo": "#1f7a3a",
    "chars": "#b0201f",
    "wind": "#1d1d1d",
    "flower": "#8e2f8e",
    "season": "#b35c00",
}
_DRAGON_COLOURS = {"red": "#c0282d", "green": "#1f7a3a", "white": "#1d4f9c"}
_VARIANT_COLOURS = ("#006d77", "#6a4c93", "#7f5539", "#3a5a40")


def deal_faces_seed(groups: Sequence[int], seed: object = None) -> int:
    """The seed of a deal's faces: ``seed`` when it is an integer (the deal's seed, as a
    save file's ``meta`` says it: anything else there is ignored), else one read from the
    groups, so that the same deal always shows the same faces."""
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return int(seed) % 2**63
    return zlib.crc32(np.asarray(list(groups), dtype=np.int64).tobytes())


def assign_faces(groups: Sequence[int], *, seed: int) -> list[str]:
    """The face id of every tile of a deal whose tiles have ``groups``.

    The groups, in increasing order, take the kinds of a permutation of :data:`KINDS`
    drawn from ``seed``; the 37th group and later take them again with a variant number.
    Tiles of a flower (season) group show ``flower-1`` .. ``flower-4`` in turn.
    """
    labels = sorted({int(g) for g in groups})
    order = np.random.default_rng(seed).permutation(len(KINDS))
    kind_of: dict[int, tuple[str, int]] = {}
    for i, g in enumerate(labels):
        kind_of[g] = (KINDS[int(order[i % len(KINDS)])], i // len(KINDS) + 1)
    seen: dict[int, int] = {}
    faces = []
    for g in groups:
        kind, variant = kind_of[int(g)]
        if kind in ("flower", "season"):
            k = seen.get(int(g), 0)
            seen[int(g)] = k + 1
            kind = f"{kind}-{k % 4 + 1}"
        faces.append(kind if variant == 1 else f"{kind}-{variant}")
    return faces


def _parts(face: str) -> tuple[str, str, int]:
    """``(family, value, variant)`` of a face id: ``dots-3-2`` -> ``("dots", "3", 2)``."""
    bits = face.split("-")
    if len(bits) not in (2, 3) or bits[0] not in (*_SUITS, "wind", "dragon", "flower", "season"):
        raise ValueError(f"not a face id: {face!r}")
    variant = int(bits[2]) if len(bits) == 3 else 1
    return bits[0], bits[1], variant


def long_name(face: str) -> str:
    """The face in words: ``3 of dots``, ``east wind``, ``red dragon``, ``flower 2 (orchid)``."""
    family, value, variant = _parts(face)
    if family in _SUITS:
        name = f"{value} of {'characters' if family == 'chars' else family}"
    elif family == "wind":
        name = f"{value} wind"
    elif family == "dragon":
        name = f"{value} dragon"
    else:
        names = _FLOWERS if family == "flower" else _SEASONS
        name = f"{family} {value} ({names[int(value) - 1]})"
    return name if variant == 1 else f"{name}, set {variant}"


def short_form(face: str) -> str:
    """The face in at most four terminal cells, in characters every terminal font has:
    ``3●`` dots, ``5|`` bamboo, ``7m`` characters (*man*), ``E`` ``S`` ``W`` ``N`` winds,
    ``Rd`` ``Gd`` ``Wd`` dragons, ``Pl`` ``Or`` ``Ch`` ``Bm`` flowers, ``Sp`` ``Su`` ``Au``
    ``Wi`` seasons; a variant adds its number as a superscript."""
    family, value, variant = _parts(face)
    if family == "dots":
        text = f"{value}●"
    elif family == "bamboo":
        text = f"{value}|"
    elif family == "chars":
        text = f"{value}m"
    elif family == "wind":
        text = value[0].upper()
    elif family == "dragon":
        text = {"red": "Rd", "green": "Gd", "white": "Wd"}[value]
    else:
        names = _FLOWERS if family == "flower" else _SEASONS
        text = names[int(value) - 1][:2].title()
    return text if variant == 1 else text + str(variant).translate(_SUPERSCRIPT)


def face_colour(face: str) -> str:
    """The colour of a face's short form (``#rrggbb``); variants take colours of their own."""
    family, value, variant = _parts(face)
    if variant > 1:
        return _VARIANT_COLOURS[(variant - 2) % len(_VARIANT_COLOURS)]
    if family == "dragon":
        return _DRAGON_COLOURS[value]
    return _COLOURS[family]


def place_name(layout_positions: Sequence[Sequence[int]], bounds: Sequence[int], t: int, levels: int) -> str:
    """Where tile ``t`` stands, in words: ``row 2, column 5`` (and ``level 2`` on boards of
    several levels), counted in whole tiles from the top left, from 1."""
    r, c, lev = layout_positions[t]
    r0, c0 = bounds[0], bounds[1]
    text = f"row {(r - r0) // 2 + 1}, column {(c - c0) // 2 + 1}"
    return f"{text}, level {lev + 1}" if levels > 1 else text
