"""Layouts: tile positions on the half-tile grid and the tables the rules read.

A *layout* is a set of tile positions on the half-tile grid: a tile at ``(row, col, lev)``
covers the cells ``row..row+1`` x ``col..col+1`` on level ``lev``. Level 0 is the bottom,
rows go down and columns go right (the convention of xmahjongg, KMahjongg and GNOME
Mahjongg).

Every table derived from a layout is built once, on first use, and kept with the layout
(as python-chess builds its attack tables once): the relations (who covers whom, who
touches whom on which side), their reverses, the CSR arrays the numba kernels take, the
descendants of every tile, and whatever a part derives from them through
:meth:`Layout.memo`. The tables belong to the layout's content, not to the object: layouts
with the same positions and rule flags share one store (kept for the
:data:`SHARED_TABLES` most recently made such layouts beyond the ones alive), so a board
read from a file finds the tables a dealt board of the same layout built. Nothing else
caches by layout.

>>> lay = Layout([(0, 0, 0), (0, 2, 0), (0, 1, 1), (4, 0, 0)])
>>> lay.above[0], lay.below[2], lay.right[0]
((2,), (0, 1), (1,))
>>> lay.side_tables(("left", "right")).dependents[2]
(0, 1)
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from functools import cached_property
from typing import Any, TypeAlias, TypeVar

import numpy as np

__all__ = [
    "TileId",
    "GroupId",
    "Position",
    "Move",
    "MAX_COORD",
    "MAX_LEVEL",
    "RELATIONS",
    "SHARED_TABLES",
    "InvalidLayoutError",
    "SideTables",
    "Layout",
]

TileId: TypeAlias = int
"""Index of a tile in its layout (``0..n-1``)."""
GroupId: TypeAlias = int
"""A tile's group (face): two tiles match iff their groups are equal."""
Position: TypeAlias = tuple[int, int, int]
"""``(row, col, lev)`` in half-tile units."""
Move: TypeAlias = tuple[TileId, TileId]
"""A move removes two tiles; solvers and files write it as ``(a, b)`` with ``a < b``."""

MAX_COORD = 32766
"""Largest row or column accepted (the geometry arrays handed to numba are int16)."""
MAX_LEVEL = 126
"""Largest level accepted (int8 in the kernels)."""


class InvalidLayoutError(ValueError):
    """A layout breaks the geometry rules (overlap, odd size, coordinates out of range).

    ``tiles`` holds the indices of the tiles at fault (the two overlapping tiles, the
    tile out of range; empty for an odd count), so file readers can name their lines.
    """

    def __init__(self, message: str, tiles: Sequence[int] = ()) -> None:
        super().__init__(message)
        self.tiles: tuple[int, ...] = tuple(tiles)


RELATIONS: dict[str, tuple[tuple[tuple[int, int], ...], int]] = {
    "above": (((0, 0), (1, 0), (0, 1), (1, 1)), 1),
    "below": (((0, 0), (1, 0), (0, 1), (1, 1)), -1),
    "left": (((0, -1), (1, -1)), 0),
    "right": (((0, 2), (1, 2)), 0),
    "front": (((-1, 0), (-1, 1)), 0),
    "rear": (((2, 0), (2, 1)), 0),
}
"""The relations of a layout: name -> (cell offsets from a tile's top-left cell, level
offset). ``above`` of a tile are the tiles over any of its four cells one level up (any
level up with GNOME's rule, :attr:`Layout.block_any_higher`); ``left``/``right`` touch
its left/right side on its own level, ``front``/``rear`` its upper/lower side."""

SHARED_TABLES = 32
"""How many stores of tables (one per layout content: positions and rule flags) are kept
for layouts made later, least recently made first out; a living layout keeps its own."""

_SHARED: OrderedDict[tuple[bytes, bool], dict[Hashable, Any]] = OrderedDict()
_SHARED_LOCK = threading.Lock()


def _shared_tables(key: tuple[bytes, bool]) -> dict[Hashable, Any]:
    """The store of tables of the layouts whose content is ``key`` (made when new)."""
    with _SHARED_LOCK:
        tables = _SHARED.get(key)
        if tables is None:
            tables = _SHARED[key] = {}
            if len(_SHARED) > SHARED_TABLES:
                _SHARED.popitem(last=False)
        else:
            _SHARED.move_to_end(key)
        return tables


_PAD = 2  # coordinates are shifted by this much in the cell keys, so offsets stay >= 0
_SPAN = MAX_COORD + 2 * _PAD + 2
_T = TypeVar("_T")


def _keys(lev: np.ndarray, row: np.ndarray, col: np.ndarray) -> np.ndarray:
    return (lev.astype(np.int64) * _SPAN + (row + _PAD)) * _SPAN + (col + _PAD)


def _rows_to_csr(mat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """CSR of the rows of ``mat`` (tile numbers, ``-1`` for none): sorted, without repeats."""
    if mat.shape[1] == 0:
        return np.zeros(mat.shape[0] + 1, np.int32), np.zeros(0, np.int32)
    mat = np.sort(mat, axis=1)
    keep = mat >= 0
    keep[:, 1:] &= mat[:, 1:] != mat[:, :-1]
    ptr = np.zeros(mat.shape[0] + 1, np.int32)
    np.cumsum(keep.sum(axis=1), out=ptr[1:])
    return ptr, mat[keep].astype(np.int32)


def _reverse_csr(ptr: np.ndarray, idx: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The reverse relation: ``u`` is in row ``o`` iff ``o`` is in row ``u``."""
    rows = np.repeat(np.arange(n, dtype=np.int32), np.diff(ptr))
    order = np.lexsort((rows, idx))
    rptr = np.zeros(n + 1, np.int32)
    np.cumsum(np.bincount(idx, minlength=n), out=rptr[1:])
    return rptr, rows[order].astype(np.int32)


def _tuples(ptr: np.ndarray, idx: np.ndarray) -> tuple[tuple[TileId, ...], ...]:
    values = idx.tolist()
    bounds = ptr.tolist()
    return tuple(tuple(values[bounds[i] : bounds[i + 1]]) for i in range(len(bounds) - 1))


class SideTables:
    """The tables of the Mahjong rules with one pair of sides (left/right or front/rear).

    A tile is free when no tile of ``above[t]`` is present and all of ``one[t]`` or all
    of ``two[t]`` is gone. The reverses say which tiles a removal concerns: ``t`` is in
    ``covered[o]`` when ``o`` is in ``above[t]``, likewise ``ones_of`` and ``twos_of``.
    Each table is built on first use and kept by the layout (:meth:`Layout.side_tables`).

    Attributes
    ----------
    sides : (str, str)
        The names of the two sides (``("left", "right")`` or ``("front", "rear")``).
    above, one, two, covered, ones_of, twos_of : tuple of tuple of int
    dependents : tuple of tuple of int
        For each tile the tiles whose freeness its removal can change (those it covers
        and those it touches on a side), sorted.
    csr : tuple of numpy.ndarray
        ``(ptr, idx)`` int32 CSR pairs of ``above, one, two, covered, ones_of, twos_of``, in
        that order: twelve arrays, the Mahjong tables of the numba kernels.
    """

    def __init__(self, layout: Layout, sides: tuple[str, str]) -> None:
        self.layout = layout
        self.sides = sides

    @property
    def above(self) -> tuple[tuple[TileId, ...], ...]:
        return self.layout.relation("above")

    @property
    def one(self) -> tuple[tuple[TileId, ...], ...]:
        return self.layout.relation(self.sides[0])

    @property
    def two(self) -> tuple[tuple[TileId, ...], ...]:
        return self.layout.relation(self.sides[1])

    @property
    def covered(self) -> tuple[tuple[TileId, ...], ...]:
        return self.layout.reverse("above")

    @property
    def ones_of(self) -> tuple[tuple[TileId, ...], ...]:
        return self.layout.reverse(self.sides[0])

    @property
    def twos_of(self) -> tuple[tuple[TileId, ...], ...]:
        return self.layout.reverse(self.sides[1])

    @cached_property
    def csr(self) -> tuple[np.ndarray, ...]:
        lay, (s1, s2) = self.layout, self.sides
        return (
            *lay.csr("above"), *lay.csr(s1), *lay.csr(s2),
            *lay.reverse_csr("above"), *lay.reverse_csr(s1), *lay.reverse_csr(s2),
        )  # fmt: skip

    @cached_property
    def dependents(self) -> tuple[tuple[TileId, ...], ...]:
        n = len(self.layout)
        csr = self.csr
        rows = np.concatenate([np.repeat(np.arange(n), np.diff(csr[k])) for k in (6, 8, 10)])
        vals = np.concatenate([csr[k] for k in (7, 9, 11)])
        m = max(n, 1)
        pairs = np.unique(rows.astype(np.int64) * m + vals)
        ptr = np.zeros(n + 1, np.int32)
        np.cumsum(np.bincount(pairs // m, minlength=n), out=ptr[1:])
        return _tuples(ptr, (pairs % m).astype(np.int32))

    def blocking(self, *, transitive: bool = True) -> np.ndarray:
        """Each tile's static blocking value (Stam's MaxBlock [St07]_, eqs. 1-3, on the
        layout as dealt): ``hor(t) + ver(t)``.

        ``hor(t)`` is half the difference of the lengths of ``t``'s two side chains (the
        tiles touching it on one side, those touching them on that side, and so on, every
        tile of the layout), floored; ``ver(t)`` sums ``hor(b) + 1`` over the tiles ``b``
        directly below ``t``, plus ``ver(b)`` when ``transitive`` (0 on the bottom level).
        The heuristic ``maxblock`` of :mod:`mjsat.play.heuristics` reads it.

        Returns
        -------
        numpy.ndarray
            ``int32[n]``, read-only, built once per layout, sides and reading.

        Notes
        -----
        :math:`O(n c)` for chains of ``c`` tiles, once; :math:`O(1)` after.

        References
        ----------
        .. [St07] T. Stam, "Solving Mahjong Solitaire Positions", Leiden University, 2007.

        Examples
        --------
        >>> row = Layout([(0, 2 * i, 0) for i in range(8)])
        >>> row.side_tables(("left", "right")).blocking().tolist()
        [3, 2, 1, 0, 0, 1, 2, 3]
        """

        def build() -> np.ndarray:
            lay = self.layout
            n = len(lay)
            hor = [abs(_chain_length(t, self.one, n) - _chain_length(t, self.two, n)) // 2 for t in range(n)]
            ver = [0] * n
            below = lay.below
            for t in sorted(range(n), key=lambda u: lay.positions[u][2]):
                ver[t] = sum(hor[b] + 1 + (ver[b] if transitive else 0) for b in below[t])
            out = np.array([h + v for h, v in zip(hor, ver)], dtype=np.int32)
            out.setflags(write=False)
            return out

        return self.layout.memo(("blocking", self.sides, bool(transitive)), build)

    def __repr__(self) -> str:
        return f"<SideTables {self.sides} of {len(self.layout)} tiles>"


def _chain_length(t: TileId, side: tuple[tuple[TileId, ...], ...], n: int) -> int:
    """The number of tiles reached from ``t`` through ``side`` (breadth first, ``t`` not
    counted)."""
    seen = bytearray(n)
    seen[t] = 1
    frontier = [t]
    count = 0
    while frontier:
        nxt = []
        for u in frontier:
            for o in side[u]:
                if not seen[o]:
                    seen[o] = 1
                    nxt.append(o)
        count += len(nxt)
        frontier = nxt
    return count


class Layout:
    """Tile positions on the half-tile grid with the relations the rules need.

    Parameters
    ----------
    positions : iterable of (row, col, lev)
        The tiles, in the order that defines their :data:`TileId`.
    name : str, optional
        A name for listings and pictures.
    block_any_higher : bool, optional (default=False)
        GNOME Mahjongg's rule: a tile is covered by an overlapping tile on *any* higher
        level, not only on ``lev+1``.

    Raises
    ------
    InvalidLayoutError
        Two tiles overlap on one level, the number of tiles is odd, or a coordinate is
        out of range.

    Notes
    -----
    The derived tables (:meth:`relation`: :attr:`above`, :attr:`below`, :attr:`left`,
    :attr:`right`, :attr:`front`, :attr:`rear`; their reverses; :meth:`side_tables`) are
    built once each, in :math:`O(n \\log n)` by binary searches in the sorted cell keys.
    """

    __slots__ = ("positions", "name", "block_any_higher", "_content", "_tables", "__dict__", "__weakref__")

    def __init__(
        self,
        positions: Iterable[Sequence[int]],
        *,
        name: str = "",
        block_any_higher: bool = False,
    ) -> None:
        pos, arr = self._validated(positions)
        if len(pos) % 2:
            raise InvalidLayoutError(f"a layout needs an even number of tiles, got {len(pos)}")
        self.positions: tuple[Position, ...] = pos
        self.name = name
        self.block_any_higher = bool(block_any_higher)
        self._check_overlaps(arr)
        # what the tables depend on: the positions in order, and the rule flag
        self._content = (b"" if arr is None else arr.tobytes(), self.block_any_higher)
        self._tables: dict[Hashable, Any] | None = None

    # -- construction helpers
    @staticmethod
    def _validated(positions: Iterable[Sequence[int]]) -> tuple[tuple[Position, ...], np.ndarray | None]:
        """The positions as int triples, with shape and range checked (vectorised), and
        as an ``(n, 3)`` array. An integer array of that shape is taken as it is."""
        if isinstance(positions, np.ndarray) and positions.dtype.kind in "iu" and positions.ndim == 2:
            rows: Any = positions
            arr: np.ndarray | None = positions.astype(np.int64, copy=False)
        else:
            rows = positions if isinstance(positions, (list, tuple)) else list(positions)
            arr = None
        if len(rows) == 0:
            return (), None
        if arr is None:
            try:
                arr = np.asarray(rows, dtype=np.int64)
            except (ValueError, TypeError, OverflowError):
                arr = None
        if arr is None or arr.ndim != 2 or arr.shape[1] != 3:
            for i, p in enumerate(rows):
                if len(p) != 3:
                    raise InvalidLayoutError(f"tile {i}: expected (row, col, lev), got {tuple(p)!r}", (i,))
                for v in p:
                    if isinstance(v, bool) or int(v) != v:
                        raise InvalidLayoutError(f"tile {i}: expected integers, got {tuple(p)!r}", (i,))
                r, c, l = (int(v) for v in p)
                if not (0 <= r <= MAX_COORD and 0 <= c <= MAX_COORD and 0 <= l <= MAX_LEVEL):
                    # beyond int64 too: refused here, before the array would overflow
                    what = f"row and col must lie in 0..{MAX_COORD}"
                    if 0 <= r <= MAX_COORD and 0 <= c <= MAX_COORD:
                        what = f"level must lie in 0..{MAX_LEVEL}"
                    raise InvalidLayoutError(f"tile {i} at {(r, c, l)}: {what}", (i,))
            arr = np.asarray([[int(v) for v in p] for p in rows], dtype=np.int64)
        bad_rc = (arr[:, :2] < 0) | (arr[:, :2] > MAX_COORD)
        if bad_rc.any():
            i = int(np.flatnonzero(bad_rc.any(axis=1))[0])
            r, c, l = (int(v) for v in arr[i])
            raise InvalidLayoutError(f"tile {i} at {(r, c, l)}: row and col must lie in 0..{MAX_COORD}", (i,))
        bad_l = (arr[:, 2] < 0) | (arr[:, 2] > MAX_LEVEL)
        if bad_l.any():
            i = int(np.flatnonzero(bad_l)[0])
            r, c, l = (int(v) for v in arr[i])
            raise InvalidLayoutError(f"tile {i} at {(r, c, l)}: level must lie in 0..{MAX_LEVEL}", (i,))
        return tuple(map(tuple, arr.tolist())), arr

    def _check_overlaps(self, arr: np.ndarray | None) -> None:
        """Raise on two tiles sharing a cell on one level (sorting cell keys: O(n log n))."""
        n = len(self.positions)
        if n < 2 or arr is None:
            return
        span = MAX_COORD + 2
        base = (arr[:, 2] * span + arr[:, 0]) * span + arr[:, 1]
        keys = np.concatenate([base, base + span, base + 1, base + span + 1])
        order = np.argsort(keys, kind="stable")
        dup = np.flatnonzero(keys[order][1:] == keys[order][:-1])
        if dup.size == 0:
            return
        pairs = sorted({tuple(sorted((int(order[k]) % n, int(order[k + 1]) % n))) for k in dup})
        o, t = min(pairs, key=lambda p: (p[1], p[0]))
        raise InvalidLayoutError(
            f"tiles {o} at {self.positions[o]} and {t} at {self.positions[t]} overlap on level {self.positions[t][2]}",
            (o, t),
        )

    def tile_at(self, row: int, col: int, lev: int) -> TileId | None:
        """The tile covering cell ``(row, col)`` on level ``lev``, if any (a binary search)."""
        keys, tiles = self._cell_index
        if not (-_PAD <= row <= MAX_COORD + _PAD and -_PAD <= col <= MAX_COORD + _PAD) or len(keys) == 0:
            return None
        k = int(_keys(np.array([lev]), np.array([row]), np.array([col]))[0])
        i = int(np.searchsorted(keys, k))
        return int(tiles[i]) if i < len(keys) and keys[i] == k else None

    @cached_property
    def _array(self) -> np.ndarray:
        """The positions as an ``(n, 3)`` int64 array."""
        return np.asarray(self.positions, dtype=np.int64).reshape(len(self.positions), 3)

    @property
    def _cell_index(self) -> tuple[np.ndarray, np.ndarray]:
        """The keys of every covered cell, sorted, and the tile covering each (built once)."""
        return self.memo(("cell-index",), self._build_cell_index)

    def _build_cell_index(self) -> tuple[np.ndarray, np.ndarray]:
        a = self._array
        if len(a) == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.int32)
        r, c, l = a[:, 0], a[:, 1], a[:, 2]
        keys = np.concatenate([_keys(l, r + dr, c + dc) for dr, dc in RELATIONS["above"][0]])
        tiles = np.tile(np.arange(len(a), dtype=np.int32), 4)
        order = np.argsort(keys, kind="stable")
        return keys[order], tiles[order]

    def _lookup(self, offsets: Sequence[tuple[int, int]], dls: Sequence[int]) -> np.ndarray:
        """``(n, len(offsets) * len(dls))`` tiles at the offset cells (``-1``: none, or the tile itself)."""
        a = self._array
        n = len(a)
        keys, tiles = self._cell_index
        cols = []
        for dl in dls:
            for dr, dc in offsets:
                q = _keys(a[:, 2] + dl, a[:, 0] + dr, a[:, 1] + dc)
                i = np.minimum(np.searchsorted(keys, q), max(len(keys) - 1, 0))
                hit = keys[i] == q if len(keys) else np.zeros(n, bool)
                col = np.where(hit, tiles[i] if len(keys) else -1, -1)
                col[col == np.arange(n)] = -1
                cols.append(col)
        return np.stack(cols, axis=1) if cols else np.zeros((n, 0), np.int64)

    def csr(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """The relation ``name`` of :data:`RELATIONS` as int32 CSR ``(ptr, idx)`` (built once).

        Notes
        -----
        Vectorised: one binary search per tile and cell offset in the sorted cell keys,
        :math:`O(n \\log n)`; with GNOME's rule ``above`` looks at every higher level.
        """

        def build() -> tuple[np.ndarray, np.ndarray]:
            offsets, dl = RELATIONS[name]
            dls = [dl]
            if name == "above" and self.block_any_higher:
                dls = list(range(1, max(self.levels, 1)))
            return _rows_to_csr(self._lookup(offsets, dls))

        return self.memo(("csr", name), build)

    def reverse_csr(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """The reverse of the relation ``name`` as CSR: ``u`` in row ``o`` iff ``o`` in row ``u`` of ``name``."""
        return self.memo(("reverse-csr", name), lambda: _reverse_csr(*self.csr(name), len(self)))

    def relation(self, name: str) -> tuple[tuple[TileId, ...], ...]:
        """The relation ``name`` of :data:`RELATIONS`: for each tile the related tiles, sorted."""
        return self.memo(("relation", name), lambda: _tuples(*self.csr(name)))

    def reverse(self, name: str) -> tuple[tuple[TileId, ...], ...]:
        """The reverse of the relation ``name`` (see :meth:`reverse_csr`) as tuples."""
        return self.memo(("reverse", name), lambda: _tuples(*self.reverse_csr(name)))

    @property
    def above(self) -> tuple[tuple[TileId, ...], ...]:
        """For each tile the tiles that cover it (``lev+1``, or any higher level)."""
        return self.relation("above")

    @property
    def below(self) -> tuple[tuple[TileId, ...], ...]:
        """For each tile the tiles it covers directly (``lev-1``)."""
        return self.relation("below")

    @property
    def left(self) -> tuple[tuple[TileId, ...], ...]:
        """For each tile the same-level tiles touching its left side."""
        return self.relation("left")

    @property
    def right(self) -> tuple[tuple[TileId, ...], ...]:
        """For each tile the same-level tiles touching its right side."""
        return self.relation("right")

    @property
    def front(self) -> tuple[tuple[TileId, ...], ...]:
        """For each tile the same-level tiles touching its upper (front) side."""
        return self.relation("front")

    @property
    def rear(self) -> tuple[tuple[TileId, ...], ...]:
        """For each tile the same-level tiles touching its lower (rear) side."""
        return self.relation("rear")

    def side_tables(self, sides: tuple[str, str]) -> SideTables:
        """The :class:`SideTables` of the Mahjong rules with the sides ``sides`` (built once).

        Parameters
        ----------
        sides : (str, str)
            ``("left", "right")`` (Mahjong) or ``("front", "rear")`` (transposed).
        """
        key = (str(sides[0]), str(sides[1]))
        if not all(k in RELATIONS for k in key):
            raise ValueError(f"sides must name relations of {tuple(RELATIONS)}, got {sides!r}")
        return self.memo(("sides", key), lambda: SideTables(self, key))

    @property
    def descendants(self) -> tuple[int, ...]:
        """For each tile the bit mask (bit ``u`` for tile ``u``) of the tiles it lies on,
        directly or through others (built once, level by level)."""
        return self.memo(("descendants",), self._build_descendants)

    def _build_descendants(self) -> tuple[int, ...]:
        covered = self.reverse("above")
        desc = [0] * len(self)
        for t in sorted(range(len(self)), key=lambda t: self.positions[t][2]):
            m = 0
            for u in covered[t]:
                m |= (1 << u) | desc[u]
            desc[t] = m
        return tuple(desc)

    @property
    def cell_covers(self) -> tuple[tuple[tuple[TileId, ...], ...], ...]:
        """For each tile, for each of its four cells, the tiles on higher levels over that cell
        (built once)."""
        return self.memo(("cell-covers",), self._build_cell_covers)

    def _build_cell_covers(self) -> tuple[tuple[tuple[TileId, ...], ...], ...]:
        a = self._array
        top = self.levels
        per_cell = []
        for dr, dc in RELATIONS["above"][0]:
            got = self._lookup(((dr, dc),), range(1, max(top, 1)))  # (n, levels-1)
            per_cell.append(got)
        out = []
        for t in range(len(a)):
            out.append(tuple(tuple(int(o) for o in m[t] if o >= 0) for m in per_cell))
        return tuple(out)

    def memo(self, key: Hashable, build: Callable[[], _T]) -> _T:
        """The table stored under ``key``, built by ``build()`` on first use.

        The one place derived data of a layout is kept (a part's own tables too: the
        parity encoding keeps its layout template here). The store is shared by every
        layout with the same positions and rule flags (:data:`SHARED_TABLES`), so
        ``build`` must depend on nothing else of the layout (not its name).
        """
        tables = self._tables
        if tables is None:
            tables = self._tables = _shared_tables(self._content)
        got = tables.get(key, _MISSING)
        if got is _MISSING:
            got = tables[key] = build()
        return got

    @cached_property
    def levels(self) -> int:
        """Number of levels (``max lev + 1``; 0 for an empty layout)."""
        return max((p[2] for p in self.positions), default=-1) + 1

    def level_counts(self) -> list[int]:
        """Number of tiles on each level, bottom first."""
        counts = Counter(p[2] for p in self.positions)
        return [counts.get(l, 0) for l in range(self.levels)]

    def bounds(self) -> tuple[int, int, int, int]:
        """``(min_row, min_col, max_row, max_col)`` of the covered cells (computed once)."""
        return self.memo(("bounds",), self._bounds)

    def _bounds(self) -> tuple[int, int, int, int]:
        if not self.positions:
            return (0, 0, -1, -1)
        rows = [p[0] for p in self.positions]
        cols = [p[1] for p in self.positions]
        return (min(rows), min(cols), max(rows) + 1, max(cols) + 1)

    def normalized(self) -> Layout:
        """The same layout translated so that its smallest row and column are 0."""
        r0, c0, _, _ = self.bounds()
        return Layout(
            [(r - r0, c - c0, l) for r, c, l in self.positions],
            name=self.name,
            block_any_higher=self.block_any_higher,
        )

    def is_columns(self) -> bool:
        """True iff the tiles stand in columns: every tile lies exactly on the one below
        it, and every tile covering it stands at its own row and column. Columns may touch
        side by side (a ``rect-WxHxD`` layout is columns); :meth:`stacks` lists them.

        >>> Layout([(0, 0, 0), (0, 0, 1), (0, 2, 0), (0, 2, 1)]).is_columns()
        True
        >>> Layout([(0, 0, 0), (0, 2, 0), (0, 1, 1), (0, 5, 0)]).is_columns()
        False

        Notes
        -----
        :math:`O(n)` over the relation tables, vectorised.
        """
        a = self._array
        if len(a) == 0:
            return True
        rc = a[:, 0] * _SPAN + a[:, 1]
        bptr, bidx = self.csr("below")
        nb = np.diff(bptr)
        upper = a[:, 2] > 0
        if np.any(upper & (nb != 1)):
            return False
        rows = np.repeat(np.arange(len(a)), nb)
        if np.any(rc[bidx] != rc[rows]):
            return False
        aptr, aidx = self.csr("above")
        rows = np.repeat(np.arange(len(a)), np.diff(aptr))
        return bool(np.all(rc[aidx] == rc[rows]))

    def is_isolated_stacks(self) -> bool:
        """True iff the tiles stand in columns (:meth:`is_columns`) and no two columns touch
        (kept with the layout's tables: the ``auto`` plan asks on every deal)."""
        return self.memo(("isolated-stacks",), self._is_isolated_stacks)

    def _is_isolated_stacks(self) -> bool:
        if any(self.csr(side)[0][-1] for side in ("left", "right", "front", "rear")):
            return False
        return self.is_columns()

    def stacks(self) -> list[list[TileId]]:
        """For a layout of columns (:meth:`is_columns`), the columns bottom to top, by position."""
        by_rc: dict[tuple[int, int], list[TileId]] = {}
        for t, (r, c, _lev) in enumerate(self.positions):
            by_rc.setdefault((r, c), []).append(t)
        return [sorted(ts, key=lambda t: self.positions[t][2]) for _, ts in sorted(by_rc.items())]

    # -- dunder
    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        """Positions, name and rules: a copy finds its tables in the shared store again."""
        return None, {k: getattr(self, k) for k in ("positions", "name", "block_any_higher", "_content")} | {
            "_tables": None
        }

    def __len__(self) -> int:
        return len(self.positions)

    def __iter__(self) -> Iterator[Position]:
        return iter(self.positions)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self.positions == other.positions and self.block_any_higher == other.block_any_higher

    def __hash__(self) -> int:
        return hash((self.positions, self.block_any_higher))

    def __repr__(self) -> str:
        extra = f", name={self.name!r}" if self.name else ""
        if self.block_any_higher:
            extra += ", block_any_higher=True"
        return f"Layout({[list(p) for p in self.positions]!r}{extra})"

    def same_shape(self, other: Layout) -> bool:
        """True iff the two layouts are equal up to translation and tile order."""
        return sorted(self.normalized().positions) == sorted(other.normalized().positions)


_MISSING: Any = object()
