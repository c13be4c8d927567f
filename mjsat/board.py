"""The board model: layouts, boards, the rules of every game variant.

A *layout* is a set of tile positions on the half-tile grid: a tile at ``(row, col, lev)``
covers the cells ``row..row+1`` x ``col..col+1`` on level ``lev``. Level 0 is the bottom,
rows go down and columns go right (the convention of xmahjongg, KMahjongg and GNOME
Mahjongg). The relations the rules need (who covers whom, who touches whom) are derived
once per layout, as python-chess builds its attack tables once.

A *board* is a layout plus the group (face) of every tile plus the game. Tiles are
numbered ``0..n-1`` in the order of the layout: these numbers (:data:`TileId`) are what
move lists, board files and solvers speak of.

The games are subclasses of :class:`Board` overriding the rule hooks
:meth:`Board.is_free` and :meth:`Board.blocked_reason`:

* :class:`MahjongBoard` -- a tile is free iff no tile on ``lev+1`` overlaps it (any higher
  level with the layout's GNOME rule) and its left or its right side is untouched;
* :class:`TransposedMahjongBoard` -- the same with front and rear instead of left and right;
* :class:`ShisenShoBoard` -- two equal tiles go when a path of at most three axis-parallel
  segments through empty cells joins them; the path may run one cell outside the board;
* :class:`ShisenShoMahjongBoard` -- Shisen-Sho in three dimensions on the Mahjong grid
  (de Bondt (2020), section 4.1): a tile with nothing above it, paths of half-tile cells.

>>> layout = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)])
>>> board = MahjongBoard(layout, [0, 1, 1, 0])
>>> sorted(board.generate_legal_moves())
[(0, 3)]
>>> board = MahjongBoard(layout, [0, 0, 1, 1])
>>> sorted(board.generate_legal_moves())
[]

References
----------
.. [dB20] M. de Bondt, "Solving Shisen-Sho boards", arXiv:2010.09014, 2020.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from mjsat.layout import (
    MAX_COORD,
    MAX_LEVEL,
    GroupId,
    InvalidLayoutError,
    Layout,
    Move,
    Position,
    SideTables,
    TileId,
)

__all__ = [
    "TileId",
    "GroupId",
    "Position",
    "Move",
    "MAX_COORD",
    "MAX_LEVEL",
    "InvalidLayoutError",
    "InvalidBoardError",
    "IllegalMoveError",
    "Status",
    "Layout",
    "SideTables",
    "GridTables",
    "KINDS",
    "Board",
    "MahjongBoard",
    "TransposedMahjongBoard",
    "ShisenShoBoard",
    "ShisenShoMahjongBoard",
    "VARIANTS",
    "GAMES",
    "find_variant",
    "normalize_move",
]


class InvalidBoardError(ValueError):
    """A board's groups do not fit its layout (length, odd group, unknown game)."""


class IllegalMoveError(ValueError):
    """A move that the rules of the board's game forbid in the current position."""


class Status(enum.IntFlag):
    """Validity flags of a board, as :meth:`Board.status` reports them."""

    VALID = 0
    ODD_TILE_COUNT = 1 << 0
    ODD_GROUP = 1 << 1
    GROUPS_LENGTH = 1 << 2
    NOT_A_GRID = 1 << 3  # Shisen-Sho boards need tiles on a one-level grid of whole tiles


def normalize_move(a: int, b: int) -> Move:
    """Return the move ``(a, b)`` with its smaller tile first."""
    a, b = int(a), int(b)
    return (a, b) if a <= b else (b, a)


# --------------------------------------------------------------------------- boards


class _LegalMoves:
    """A lazy view of a board's legal moves (python-chess's ``LegalMoveGenerator``)."""

    def __init__(self, board: Board) -> None:
        self.board = board

    def __iter__(self) -> Iterator[Move]:
        return self.board.generate_legal_moves()

    def __contains__(self, move: object) -> bool:
        return isinstance(move, tuple) and len(move) == 2 and self.board.is_legal(move)

    def __bool__(self) -> bool:
        return any(True for _ in self.board.generate_legal_moves())

    def count(self) -> int:
        return sum(1 for _ in self.board.generate_legal_moves())

    def __repr__(self) -> str:
        return f"<LegalMoves {list(self)!r}>"


class Board:
    """A deal: a layout, the group of every tile, and the tiles still present.

    This base class holds what every game shares; subclasses give the rule hooks
    :meth:`is_free` and :meth:`blocked_reason`. Use :func:`find_variant` to get the class
    of a game by name.

    Parameters
    ----------
    layout : Layout
    groups : sequence of int
        The group of each tile; every group must have an even, non-zero number of tiles.
    names : mapping of int to str, optional
        Names of groups (for example the gadget roles of a reduction board).
    meta : mapping, optional
        Free-form provenance (seed, formula hash, ...) kept in board files.

    Notes
    -----
    :meth:`push` and :meth:`pop` are the fast make/unmake for search: ``push`` does not
    check legality. :meth:`play` checks and raises :class:`IllegalMoveError`.
    """

    game: ClassVar[str] = ""
    """The game's canonical name (a key of :data:`VARIANTS`)."""
    aliases: ClassVar[tuple[str, ...]] = ()
    """Other names :func:`find_variant` accepts."""
    kind: ClassVar[str] = ""
    """How two tiles of a group go together, one of :data:`KINDS`: ``"sides"`` (both tiles
    free: nothing on top, one side untouched), ``"grid-path"`` (a Shisen-Sho path on a
    one-level grid of whole tiles) or ``"cell-path"`` (a Shisen-Sho path of half-tile cells
    on the Mahjong grid). Consumers read it to pick their model of the rules."""
    sides: ClassVar[tuple[str, str] | None] = None
    """``"sides"`` games: the two relations of :data:`mjsat.layout.RELATIONS` whose
    tiles block a tile's sides (``("left", "right")``, transposed ``("front", "rear")``)."""

    def __init__(
        self,
        layout: Layout,
        groups: Sequence[int] | np.ndarray,
        *,
        names: Mapping[int, str] | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        if not isinstance(layout, Layout):
            layout = Layout(layout)
        self.layout = layout
        if isinstance(groups, np.ndarray) and groups.dtype.kind in "iu":
            self.groups: tuple[GroupId, ...] = tuple(groups.tolist())
        else:
            self.groups = tuple(map(int, groups))
        self.names: dict[int, str] = {int(k): str(v) for k, v in (names or {}).items()}
        self.meta: dict[str, Any] = dict(meta or {})
        status = self.status()
        if status:
            raise InvalidBoardError(self._status_message(status))
        self._present = bytearray(b"\x01") * len(layout)
        self._stack: list[Move] = []

    # -- validity
    def status(self) -> Status:
        """Validity flags; :attr:`Status.VALID` (0) for a valid board."""
        s = Status.VALID
        if len(self.groups) != len(self.layout):
            s |= Status.GROUPS_LENGTH
        if len(self.layout) % 2:
            s |= Status.ODD_TILE_COUNT
        if any(v % 2 for v in Counter(self.groups).values()):
            s |= Status.ODD_GROUP
        return s

    def is_valid(self) -> bool:
        return self.status() == Status.VALID

    def _status_message(self, status: Status) -> str:
        if status & Status.GROUPS_LENGTH:
            return f"{len(self.groups)} groups given for {len(self.layout)} tiles"
        if status & Status.ODD_GROUP:
            odd = sorted(g for g, v in Counter(self.groups).items() if v % 2)
            g = odd[0]
            return f"group {self.group_label(g)} has {self.groups.count(g)} tiles (an odd number)"
        if status & Status.NOT_A_GRID:
            return "Shisen-Sho needs one level of tiles on even rows and columns (a grid of whole tiles)"
        return f"invalid board ({status!r})"

    # -- basic queries
    def __len__(self) -> int:
        return len(self.layout)

    @property
    def n(self) -> int:
        """Number of tiles of the layout (present or not)."""
        return len(self.layout)

    def is_present(self, t: TileId) -> bool:
        return bool(self._present[t])

    @property
    def presence(self) -> bytearray:
        """The live presence array (1 = present), indexed by tile; read-only for callers.

        It changes in place with :meth:`push`, :meth:`pop` and :meth:`reset`, so a view
        (a player's, a kernel wrapper's) can share it instead of copying.
        """
        return self._present

    def present_tiles(self) -> list[TileId]:
        return [t for t in range(len(self.layout)) if self._present[t]]

    def remaining(self) -> int:
        """Number of tiles still on the board."""
        return len(self.layout) - 2 * len(self._stack)

    def is_solved(self) -> bool:
        """True when every tile has been removed."""
        return self.remaining() == 0

    @property
    def move_stack(self) -> list[Move]:
        """The moves played so far (a copy)."""
        return list(self._stack)

    def position_key(self) -> bytes:
        """A hashable key of the current position (which tiles are present)."""
        return bytes(self._present)

    def group_sizes(self) -> dict[GroupId, int]:
        return dict(Counter(self.groups))

    def group_members(self) -> dict[GroupId, list[TileId]]:
        out: dict[GroupId, list[TileId]] = {}
        for t, g in enumerate(self.groups):
            out.setdefault(g, []).append(t)
        return out

    def group_label(self, g: GroupId) -> str:
        return self.names.get(g, str(g))

    # -- rule hooks
    def rule_tables(self) -> Any:
        """The static tables of this game's rules on this layout (built once per layout).

        ``"sides"`` games give a :class:`~mjsat.layout.SideTables`, the path games a
        :class:`GridTables`; :attr:`kind` says which.
        """
        raise NotImplementedError  # pragma: no cover - abstract

    def is_free(self, t: TileId) -> bool:  # pragma: no cover - abstract
        """True iff tile ``t`` is present and may be taken in a move."""
        raise NotImplementedError

    def blocked_reason(self, a: TileId, b: TileId) -> str | None:  # pragma: no cover - abstract
        """Why the two present, equal tiles cannot go together now, or ``None``."""
        raise NotImplementedError

    # -- rules
    def illegal_reason(self, move: Sequence[int]) -> str | None:
        """Why ``move`` is illegal in the current position, or ``None`` when it is legal."""
        if len(move) != 2:
            return f"a move names two tiles, got {len(move)}"
        a, b = int(move[0]), int(move[1])
        n = len(self.layout)
        for t in (a, b):
            if not 0 <= t < n:
                return f"tile {t} does not exist (the board has tiles 0..{n - 1})"
        if a == b:
            return f"tile {a} named twice"
        for t in (a, b):
            if not self._present[t]:
                return f"tile {t} already gone"
        if self.groups[a] != self.groups[b]:
            return (
                f"groups differ: tile {a} is {self.group_label(self.groups[a])}, "
                f"tile {b} is {self.group_label(self.groups[b])}"
            )
        return self.blocked_reason(a, b)

    def is_legal(self, move: Sequence[int]) -> bool:
        return self.illegal_reason(move) is None

    def pair_path(self, move: Sequence[int]) -> list[tuple[float, float, int]] | None:
        """The path that joins the two tiles of a legal move, for pictures.

        Points are ``(row, col, lev)`` in the layout's half-tile units (a tile at
        ``(r, c, l)`` spans ``r..r+2`` x ``c..c+2``; its centre is ``(r + 1, c + 1)``),
        consecutive points differing in one coordinate. ``None`` when the move is not
        legal or the game's moves take no path (Mahjong Solitaire).
        """
        return None

    def generate_legal_moves(self) -> Iterator[Move]:
        """Yield every legal move ``(a, b)``, ``a < b``."""
        free: dict[GroupId, list[TileId]] = {}
        for t in range(len(self.layout)):
            if self._present[t] and self.is_free(t):
                free.setdefault(self.groups[t], []).append(t)
        for ts in free.values():
            for a, b in itertools.combinations(ts, 2):
                if self.blocked_reason(a, b) is None:
                    yield (a, b)

    @property
    def legal_moves(self) -> _LegalMoves:
        return _LegalMoves(self)

    def free_tiles(self) -> list[TileId]:
        return [t for t in range(len(self.layout)) if self._present[t] and self.is_free(t)]

    # -- make / unmake
    def push(self, move: Sequence[int]) -> None:
        """Remove the two tiles of ``move`` without checking legality (fast path)."""
        a, b = normalize_move(move[0], move[1])
        self._present[a] = 0
        self._present[b] = 0
        self._stack.append((a, b))

    def play(self, move: Sequence[int]) -> None:
        """Remove the two tiles of ``move`` after checking it; raises :class:`IllegalMoveError`."""
        reason = self.illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(f"illegal move {tuple(move)}: {reason}")
        self.push(move)

    def pop(self) -> Move:
        """Undo the last move and return it."""
        a, b = self._stack.pop()
        self._present[a] = 1
        self._present[b] = 1
        return (a, b)

    def reset(self) -> None:
        """Put every tile back."""
        self._present[:] = b"\x01" * len(self.layout)  # in place: views share it
        self._stack.clear()

    def copy(self, *, stack: bool = True) -> Board:
        """A copy of the board (with its moves when ``stack``; else the full deal)."""
        other = type(self)(self.layout, self.groups, names=self.names, meta=self.meta)
        if stack:
            for m in self._stack:
                other.push(m)
        return other

    def with_groups(self, groups: Sequence[int]) -> Board:
        """The same game and layout with other groups."""
        return type(self)(self.layout, groups, names=None, meta=None)

    def position_board(self) -> tuple[Board, list[TileId]]:
        """A new board of the tiles present now, under the same rules, and its map back.

        Tile ``i`` of the new board is tile ``back[i]`` of this one, at the same position
        with the same group; the game, the GNOME rule, the group names are kept, and
        ``meta`` is ``{"from": self.meta, "after_moves": len(self.move_stack)}``. Groups
        emptied by the moves disappear, so a solver sees an ordinary board whose full deal
        is this position.

        Returns
        -------
        board : Board
            The position as a deal (no moves pushed).
        back : list of TileId
            The tile of this board that each tile of the new one is.

        Notes
        -----
        Removed tiles only empty cells, so every rule reads the same on the new board: a
        tile keeps what covers it and what touches it among present tiles, and a
        Shisen-Sho path that used the old margin or cells outside the new bounding box
        can be moved to the new margin, whose cells are empty too (and conversely the new
        margin lies inside the old box or its margin). :math:`O(n)` plus building the new
        layout's relations.

        Examples
        --------
        >>> board = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (2, 0, 0), (2, 2, 0)]), [0, 0, 1, 1])
        >>> board.push((0, 1))
        >>> sub, back = board.position_board()
        >>> len(sub), back, sorted(sub.generate_legal_moves())
        (2, [2, 3], [(0, 1)])
        """
        back = [t for t in range(len(self.layout)) if self._present[t]]
        layout = Layout(
            [self.layout.positions[t] for t in back],
            name=self.layout.name,
            block_any_higher=self.layout.block_any_higher,
        )
        sub = type(self)(
            layout,
            [self.groups[t] for t in back],
            names=self.names,
            meta={"from": dict(self.meta), "after_moves": len(self._stack)},
        )
        return sub, back

    # -- renderings
    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.layout!r}, {list(self.groups)!r})"

    def __str__(self) -> str:
        from mjsat.render import ascii_board

        return ascii_board(self)

    def _repr_svg_(self) -> str:
        from mjsat.render import svg_board

        return svg_board(self)


class MahjongBoard(Board):
    """Mahjong Solitaire: a free tile has nothing on top and one side untouched."""

    game = "mahjong"
    aliases: ClassVar[tuple[str, ...]] = ("mahjong-solitaire", "mahjongg")
    kind = "sides"
    sides = ("left", "right")

    def rule_tables(self) -> SideTables:
        """The layout's :class:`~mjsat.layout.SideTables` for this game's sides."""
        return self.layout.side_tables(self.sides)

    @cached_property
    def _tables(self) -> tuple[Any, Any, Any]:
        rt = self.rule_tables()
        return rt.above, rt.one, rt.two

    def is_free(self, t: TileId) -> bool:
        p = self._present
        if not p[t]:
            return False
        above, one, two = self._tables
        for o in above[t]:
            if p[o]:
                return False
        return not any(p[o] for o in one[t]) or not any(p[o] for o in two[t])

    def side_names(self) -> tuple[str, str]:
        """The names of the two sides (:attr:`sides`)."""
        return self.sides

    def tile_blocked_reason(self, t: TileId) -> str | None:
        """Why present tile ``t`` is not free, or ``None``."""
        p = self._present
        above, one, two = self._tables
        for o in above[t]:  # plain loops: replay calls this twice per move
            if p[o]:
                return f"tile {t} is blocked: covered by tile {o}"
        for o1 in one[t]:
            if p[o1]:
                for o2 in two[t]:
                    if p[o2]:
                        n1, n2 = self.side_names()
                        return f"tile {t} is blocked: tile {o1} on its {n1}, tile {o2} on its {n2}"
                return None
        return None

    def blocked_reason(self, a: TileId, b: TileId) -> str | None:
        return self.tile_blocked_reason(a) or self.tile_blocked_reason(b)


class TransposedMahjongBoard(MahjongBoard):
    """Transposed Mahjong Solitaire (de Bondt (2020)): front and rear replace left and right."""

    game = "mahjong-transposed"
    aliases = ("transposed",)
    sides = ("front", "rear")


@dataclasses.dataclass(frozen=True)
class GridTables:
    """The static tables of a path game (:attr:`Board.kind` ``"grid-path"`` or ``"cell-path"``).

    Attributes
    ----------
    cells : tuple of tuple of int
        ``"grid-path"``: the grid cell ``(y, x)`` of each tile in the occupancy grid with
        its margin (the board's cell ``(r, c)`` is ``(r + 1, c + 1)``). ``"cell-path"``:
        ``(row, col, lev)`` of each tile's top-left half-tile cell in the occupancy grid.
    shape : tuple of int
        The occupancy grid with its margin: ``(h + 2, w + 2)``, or ``(levels, h, w)``.
    cell_arrays : tuple of numpy.ndarray
        :attr:`cells` as one int32 array per coordinate (``(ys, xs)`` or ``(rows, cols,
        levs)``), the form the search's kernels take.
    masks : tuple of tuple of int
        ``"grid-path"``: the occupancy grid of the full deal as bit masks, ``(rows, cols)``
        (bit ``x`` of ``rows[y]`` and bit ``y`` of ``cols[x]`` are set iff cell ``(y, x)``
        holds a tile); ``()`` for ``"cell-path"``.
    """

    cells: tuple[tuple[int, ...], ...]
    shape: tuple[int, ...]
    cell_arrays: tuple[np.ndarray, ...]
    masks: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def of(cls, coords: Sequence[Sequence[int]], shape: tuple[int, ...]) -> GridTables:
        """The tables of the tiles whose cells have the coordinates ``coords`` (one sequence
        per axis, tile by tile) in a grid of ``shape``; the masks when the grid is 2-D.

        Notes
        -----
        :math:`O(n)` for ``n`` tiles.
        """
        cells = tuple(zip(*coords)) if coords and coords[0] else ()
        arrays = tuple(np.array(c, dtype=np.int32) for c in coords)
        if len(shape) != 2:
            return cls(cells, shape, arrays)
        rows, cols = [0] * shape[0], [0] * shape[1]
        for y, x in cells:
            rows[y] |= 1 << x
            cols[x] |= 1 << y
        return cls(cells, shape, arrays, (tuple(rows), tuple(cols)))


class _GridBoard(Board):
    """A game whose rules read an occupancy grid of cells (the Shisen-Sho games).

    :meth:`occupancy` builds the grid on first use, and :meth:`push`, :meth:`pop` and
    :meth:`reset` keep it up to date; a subclass gives the grid's shape
    (:meth:`_blank_occupancy`) and the cells of a tile (:meth:`_cover`).
    """

    def _blank_occupancy(self) -> np.ndarray:
        raise NotImplementedError

    def _cover(self, occ: np.ndarray, t: TileId, value: bool) -> None:
        """Set the cells of tile ``t`` in ``occ`` to ``value``."""
        raise NotImplementedError

    def occupancy(self) -> np.ndarray:
        """A bool array of occupied cells, with the empty margin.

        The board keeps it up to date in :meth:`push` and :meth:`pop`; treat it as read-only.
        """
        occ = self.__dict__.get("_occ")
        if occ is None:
            occ = self._blank_occupancy()
            for t in range(len(self)):
                if self._present[t]:
                    self._cover(occ, t, True)
            self.__dict__["_occ"] = occ
        return occ

    def push(self, move: Sequence[int]) -> None:
        super().push(move)
        occ = self.__dict__.get("_occ")
        if occ is not None:
            a, b = self._stack[-1]
            self._cover(occ, a, False)
            self._cover(occ, b, False)

    def pop(self) -> Move:
        a, b = super().pop()
        occ = self.__dict__.get("_occ")
        if occ is not None:
            self._cover(occ, a, True)
            self._cover(occ, b, True)
        return (a, b)

    def reset(self) -> None:
        super().reset()
        self.__dict__.pop("_occ", None)


class ShisenShoBoard(_GridBoard):
    """Shisen-Sho on a rectangular one-level grid of whole tiles.

    A tile at ``(row, col, 0)`` sits in grid cell ``(row // 2, col // 2)``; rows and columns
    must be even (after translation). Two equal tiles can be removed when a path of at
    most three axis-parallel segments through empty cells joins them; the path may run
    one cell outside the bounding box of the layout.
    """

    game = "shisen-sho"
    aliases = ("shisensho", "shisen")
    kind = "grid-path"

    def rule_tables(self) -> GridTables:
        """The grid cell of every tile, margin included, and the grid's shape (built once per layout)."""

        def build() -> GridTables:  # from the bounds, without the board's own cached cells
            r0, c0, r1, c1 = self.layout.bounds()
            h, w = (r1 - r0 + 1) // 2, (c1 - c0 + 1) // 2
            pos = self.layout.positions
            ys = [(p[0] - r0) // 2 + 1 for p in pos]
            xs = [(p[1] - c0) // 2 + 1 for p in pos]
            return GridTables.of((ys, xs), (h + 2, w + 2))

        return self.layout.memo(("grid-tables", self.kind), build)

    def status(self) -> Status:
        s = super().status()
        pos = self.layout.positions
        if pos:
            r0, c0, _, _ = self.layout.bounds()
            if any(l != 0 or (r - r0) % 2 or (c - c0) % 2 for r, c, l in pos):
                s |= Status.NOT_A_GRID
        return s

    @cached_property
    def grid_shape(self) -> tuple[int, int]:
        """``(height, width)`` of the grid in whole tiles."""
        r0, c0, r1, c1 = self.layout.bounds()
        return ((r1 - r0 + 1) // 2, (c1 - c0 + 1) // 2)

    @cached_property
    def cells(self) -> tuple[tuple[int, int], ...]:
        """Grid cell ``(y, x)`` of each tile, ``0 <= y < height``, ``0 <= x < width``."""
        r0, c0, _, _ = self.layout.bounds()
        return tuple(((r - r0) // 2, (c - c0) // 2) for r, c, _ in self.layout.positions)

    def _blank_occupancy(self) -> np.ndarray:
        """``(height+2, width+2)`` cells: the grid of whole tiles with its margin."""
        h, w = self.grid_shape
        return np.zeros((h + 2, w + 2), dtype=bool)

    def _cover(self, occ: np.ndarray, t: TileId, value: bool) -> None:
        occ[self._cell1(t)] = value

    def is_free(self, t: TileId) -> bool:
        """A present tile with at least one empty orthogonal neighbour (or on the edge)."""
        if not self._present[t]:
            return False
        occ = self.occupancy()
        y, x = self._cell1(t)
        return not (occ[y - 1, x] and occ[y + 1, x] and occ[y, x - 1] and occ[y, x + 1])

    def generate_legal_moves(self) -> Iterator[Move]:
        occ = self.occupancy()
        from mjsat.shisen import connectable

        for ts in self.group_members().values():
            live = [t for t in ts if self._present[t]]
            for a, b in itertools.combinations(live, 2):
                if connectable(occ, self._cell1(a), self._cell1(b)):
                    yield (a, b)

    def _cell1(self, t: TileId) -> tuple[int, int]:
        y, x = self.cells[t]
        return (y + 1, x + 1)

    def pair_path(self, move: Sequence[int]) -> list[tuple[float, float, int]] | None:
        """The turning points of the path of a legal move, at the centres of whole cells
        (the margin's cells lie one whole tile outside the board); see :meth:`Board.pair_path`."""
        from mjsat.shisen import connecting_path

        if self.illegal_reason(move) is not None:
            return None
        a, b = normalize_move(move[0], move[1])
        cells = connecting_path(self.occupancy(), self._cell1(a), self._cell1(b))
        if cells is None:  # pragma: no cover - the move is legal
            return None
        r0, c0, _, _ = self.layout.bounds()
        return [(float(r0 + 2 * y - 1), float(c0 + 2 * x - 1), 0) for y, x in cells]

    def blocked_reason(self, a: TileId, b: TileId) -> str | None:
        from mjsat.shisen import connectable

        if connectable(self.occupancy(), self._cell1(a), self._cell1(b)):
            return None
        return f"no path of at most three segments joins tiles {a} and {b}"


class ShisenShoMahjongBoard(_GridBoard):
    """Shisen-Sho in three dimensions on the Mahjong grid (de Bondt (2020), section 4.1).

    Any Mahjong :class:`Layout` will do. The geometry is that of the half-tile grid: a
    tile at ``(row, col, lev)`` covers the cells ``row..row+1`` x ``col..col+1`` of level
    ``lev``, and a cell of a level is *empty* when no present tile of that level covers
    it. Around the layout's bounding box (of all levels, fixed for the whole game) every
    level has a margin of one empty cell.

    * A tile is *playable* (:meth:`is_free`) when it is present and nothing is above it:
      its four cells are empty on every higher level (its pillar is free).
    * Two equal playable tiles on one level go together when a *path* joins them: a
      chain of edge-adjacent cells of that level, the first a cell of one tile, the last
      a cell of the other, every cell in between empty, turning at most twice (at most
      three axis-parallel lines).
    * Two equal playable tiles on different levels go together when the pillar line from
      the lower tile up to the higher tile's level and at most two lines in that level
      join them: a chain of cells of the higher level from a cell above the lower tile
      (those are empty, since the lower tile is playable) to a cell of the higher tile,
      every cell in between empty, turning at most once.

    [dB20]_ allows only one pillar line, so that two tiles of one level pair in three
    dimensions exactly when they pair within their level.

    A margin of one half-tile cell allows every path that a margin of one whole tile
    would: a path that runs in the margin can be moved to the margin's inner line of
    cells without changing its turns. On a board whose tiles all sit on one level at even
    rows and columns (a rectangular Shisen-Sho board embedded in the Mahjong grid) these
    rules are those of :class:`ShisenShoBoard`. A path of whole cells maps to a path of
    half cells along one lane of sub-cells (the inner one of a margin it uses), with the
    same turns. Conversely, the whole cells that a half-cell path visits form a walk
    through empty whole cells (a tile fills its whole cell) with at most three straight
    runs, and shortcutting its reversals leaves a path of at most three segments. The
    tests check this on every position of random play.

    Removing tiles only empties cells, so a pair that can go stays playable (the pairing
    search relies on this). The cells of both tiles count as empty for their own path, so
    the test also answers for tiles already removed (the pruning scan of de Bondt (2020) asks
    whether a tile could pair with a removed tile of its group).

    In layouts where the tiles of every pillar sit on consecutive levels from the bottom,
    as in the xmahjongg layouts, no path passes under a tile; elsewhere a path on a level
    may run under a tile of a higher level that bridges empty cells.
    """

    game = "shisen-sho-3d"
    aliases = ("shisen-sho-mahjong", "shisen3d", "shisensho-3d")
    kind = "cell-path"

    def rule_tables(self) -> GridTables:
        """The top-left half-tile cell of every tile in the occupancy grid and the grid's shape."""
        return self.layout.memo(
            ("grid-tables", self.kind), lambda: GridTables.of(tuple(zip(*self.cells)) or ((), (), ()), self.grid_shape)
        )

    @cached_property
    def grid_shape(self) -> tuple[int, int, int]:
        """``(levels, h, w)`` of the occupancy grid: half-tile cells with the margin."""
        r0, c0, r1, c1 = self.layout.bounds()
        return (max(self.layout.levels, 1), r1 - r0 + 3, c1 - c0 + 3)

    @cached_property
    def cells(self) -> tuple[tuple[int, int, int], ...]:
        """``(row, col, lev)`` of each tile's top-left cell in the occupancy grid."""
        r0, c0, _, _ = self.layout.bounds()
        return tuple((r - r0 + 1, c - c0 + 1, l) for r, c, l in self.layout.positions)

    def _blank_occupancy(self) -> np.ndarray:
        """``(levels, h, w)`` half-tile cells with the margin."""
        return np.zeros(self.grid_shape, dtype=bool)

    def _cover(self, occ: np.ndarray, t: TileId, value: bool) -> None:
        r, c, l = self.cells[t]
        occ[l, r : r + 2, c : c + 2] = value

    def is_free(self, t: TileId) -> bool:
        """A present tile with nothing above it (its pillar is free)."""
        if not self._present[t]:
            return False
        r, c, l = self.cells[t]
        return not self.occupancy()[l + 1 :, r : r + 2, c : c + 2].any()

    def generate_legal_moves(self) -> Iterator[Move]:
        from mjsat.shisen import connectable3d

        occ = self.occupancy()
        cells = self.cells
        for ts in self.group_members().values():
            live = [t for t in ts if self._present[t] and self.is_free(t)]
            for a, b in itertools.combinations(live, 2):
                if connectable3d(occ, cells[a], cells[b]):
                    yield (a, b)

    def pair_path(self, move: Sequence[int]) -> list[tuple[float, float, int]] | None:
        """The path of a legal move through half-tile cells (a pillar line is a piece with
        one ``(row, col)`` and two levels); see :meth:`Board.pair_path`."""
        from mjsat.shisen import connecting_path3d

        if self.illegal_reason(move) is not None:
            return None
        a, b = normalize_move(move[0], move[1])
        points = connecting_path3d(self.occupancy(), self.cells[a], self.cells[b])
        if points is None:  # pragma: no cover - the move is legal
            return None
        r0, c0, _, _ = self.layout.bounds()
        return [(r + r0 - 1, c + c0 - 1, l) for r, c, l in points]

    def blocked_reason(self, a: TileId, b: TileId) -> str | None:
        from mjsat.shisen import connectable3d

        for t in (a, b):
            if not self.is_free(t):
                r, c, l = self.layout.positions[t]
                cover = next(o for cell in self.layout.cell_covers[t] for o in cell if self._present[o])
                return f"tile {t} is covered by tile {cover}"
        if connectable3d(self.occupancy(), self.cells[a], self.cells[b]):
            return None
        la, lb = self.layout.positions[a][2], self.layout.positions[b][2]
        if la == lb:
            return f"no path of at most three lines on level {la} joins tiles {a} and {b}"
        return f"no pillar line and at most two lines on level {max(la, lb)} join tiles {a} and {b}"


KINDS: tuple[str, ...] = ("sides", "grid-path", "cell-path")
"""The values of :attr:`Board.kind`."""

VARIANTS: dict[str, type[Board]] = {
    cls.game: cls for cls in (MahjongBoard, TransposedMahjongBoard, ShisenShoBoard, ShisenShoMahjongBoard)
}
"""The games by canonical name."""
GAMES: tuple[str, ...] = tuple(VARIANTS)


def find_variant(name: str) -> type[Board]:
    """The board class of a game by name or alias.

    >>> find_variant("shisen").__name__
    'ShisenShoBoard'
    """
    key = name.strip().lower()
    for cls in VARIANTS.values():
        if key == cls.game or key in cls.aliases:
            return cls
    raise InvalidBoardError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
