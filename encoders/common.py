"""What every encoding of a board shares: the rules as precedence requirements.

A solution is a *pairing* (a perfect matching inside every group) plus an order of the
pairs; once the pairing is fixed the order does not matter (seed 000). Freeness is
monotone (a removed tile never blocks again), so a pairing can be cleared iff the pairs
can be ordered so that, when a pair goes, every tile it needs gone is already gone.

:func:`requirements` turns a board into that static data, the same for every encoding:

* ``pairs`` -- the candidate pairs ``(a, b)``, ``a < b``, of equal tiles (minus the pairs
  that can never go together, such as a tile and the tile that covers it);
* ``need[t]`` -- tiles that must be gone before ``t`` goes (Mahjong: the tiles above);
* ``sides[t]`` -- ``()`` or two tile sets of which one must be gone before ``t`` goes
  (Mahjong: left and right, or front and rear in the transposed game);
* ``paths[p]`` -- for a Shisen-Sho candidate pair, the minimal tile sets of its candidate
  paths (at most three segments, one-cell margin): one set must be gone before the pair.

The module also has the pairing view used by the tests and the decoders:
:func:`linearize` orders a pairing by the rules (greedy, exact by monotonicity) and
:func:`feasible_pairings` enumerates every pairing that clears a tiny board.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from pysat.card import CardEnc, EncType
from pysat.formula import CNF, IDPool

from mjsat.board import VARIANTS, Board, Move, ShisenShoBoard, TileId
from mjsat.limits import MAX_PAIRS
from mjsat.result import MethodNotApplicableError

__all__ = [
    "EncodingError",
    "ENCODED_GAMES",
    "check_encodable",
    "InvalidMapError",
    "BuildTimeLimit",
    "check_deadline",
    "Requirements",
    "requirements",
    "shisen_paths",
    "add_matching",
    "add_precedence",
    "pair_vars",
    "Decoded",
    "Decoder",
    "linearize",
    "perfect_matchings",
    "feasible_pairings",
    "true_set",
]


class EncodingError(ValueError):
    """A board or an option an encoder cannot handle (unknown game, bad step bound)."""


ENCODED_KINDS: tuple[str, ...] = ("sides", "grid-path")
"""The rule kinds (:attr:`mjsat.board.Board.kind`) :func:`requirements` covers, so every
SAT and CP-SAT model."""
ENCODED_GAMES: tuple[str, ...] = tuple(g for g, cls in VARIANTS.items() if cls.kind in ENCODED_KINDS)
"""The games :func:`requirements` (so every SAT and CP-SAT model) covers."""


def check_encodable(board: Board, method: str) -> None:
    """Raise :class:`~mjsat.result.MethodNotApplicableError` for ``method`` when
    :func:`requirements` has no rules for ``board``'s game (``shisen-sho-3d``).

    >>> from mjsat.board import Layout, ShisenShoMahjongBoard
    >>> check_encodable(ShisenShoMahjongBoard(Layout([(0, 0, 0), (0, 4, 0)]), [0, 0]), "cpsat")
    Traceback (most recent call last):
    ...
    mjsat.result.MethodNotApplicableError: method 'cpsat' does not apply: no encoding for shisen-sho-3d boards (the encodings cover mahjong, mahjong-transposed, shisen-sho)

    Notes
    -----
    :math:`O(1)`.
    """
    if board.kind not in ENCODED_KINDS:
        raise MethodNotApplicableError(
            method, board.game, f"no encoding for {board.game} boards (the encodings cover {', '.join(ENCODED_GAMES)})"
        )


class InvalidMapError(ValueError):
    """Variable-map data that :meth:`Decoder.from_json` cannot use; ``item`` is the index
    of the offending entry of ``vars`` (``None`` for the header)."""

    def __init__(self, message: str, item: int | None = None) -> None:
        super().__init__(message)
        self.item = item


class BuildTimeLimit(Exception):
    """The deadline passed while a CNF was being built (the ``sat`` method answers
    ``unknown``)."""


def check_deadline(deadline: float | None, what: str) -> None:
    """Raise :class:`BuildTimeLimit` when ``deadline`` (a ``time.perf_counter()`` value)
    has passed; ``what`` says where the build was."""
    if deadline is not None and time.perf_counter() > deadline:
        raise BuildTimeLimit(f"time limit (building the {what})")


@dataclasses.dataclass(frozen=True)
class Requirements:
    """The rules of one board as precedence data (see the module docstring).

    Attributes
    ----------
    n : int
        Number of tiles.
    game : str
    pairs : tuple of (a, b)
        Candidate pairs, ``a < b``, equal groups, sorted.
    need : tuple of tuple of int
        ``need[t]``: tiles gone strictly before ``t``.
    sides : tuple of tuple of frozenset
        ``sides[t]``: ``()`` or the two side sets; one of them is gone before ``t``.
    paths : dict of (a, b) -> tuple of frozenset
        Shisen-Sho only: minimal blocker sets of the candidate paths of each pair.
    impossible : tuple of int
        Tiles with no candidate partner at all (the board is then unsolvable).
    """

    n: int
    game: str
    pairs: tuple[Move, ...]
    need: tuple[tuple[TileId, ...], ...]
    sides: tuple[tuple[frozenset[TileId], ...], ...]
    paths: dict[Move, tuple[frozenset[TileId], ...]]
    impossible: tuple[TileId, ...]
    path_bits: dict[Move, tuple[int, ...]] | None = dataclasses.field(default=None, repr=False, compare=False)
    """Shisen-Sho, raw requirements only: ``paths`` as bitsets (bit ``t`` for tile ``t``)."""

    def incident(self) -> list[list[Move]]:
        """For each tile the candidate pairs it is in."""
        out: list[list[Move]] = [[] for _ in range(self.n)]
        for p in self.pairs:
            out[p[0]].append(p)
            out[p[1]].append(p)
        return out

    def edges(self) -> set[tuple[TileId, TileId]]:
        """Every potential strict precedence ``(u, v)``: u gone before v (tiles of a pair
        are represented by the smaller one for Shisen-Sho paths)."""
        out: set[tuple[TileId, TileId]] = set()
        for t in range(self.n):
            out.update((o, t) for o in self.need[t])
            for side in self.sides[t]:
                out.update((o, t) for o in side)
        for (a, _b), alts in self.paths.items():
            for alt in alts:
                out.update((o, a) for o in alt)
        return out


def shisen_paths(board: ShisenShoBoard, a: TileId, b: TileId) -> tuple[frozenset[TileId], ...]:
    """The minimal tile sets whose removal opens a path of at most three segments.

    Parameters
    ----------
    board : ShisenShoBoard
    a, b : int
        Two tiles (any groups).

    Returns
    -------
    tuple of frozenset
        Distinct, inclusion-minimal sets of tiles (not ``a`` or ``b``) lying on one
        candidate path; the empty set when a path is open on the full board.

    Notes
    -----
    Every path of at most three segments has a middle segment on some row (or column)
    of the grid with its margin, so there are :math:`h + w + 4` candidates. Each is the
    union of three segments, and a segment's tiles are the difference of two prefix
    bitsets of its row or column (:class:`ShisenLines`), so a candidate costs three
    big-integer operations on ``n``-bit integers: :math:`O((h + w) n / 64)` in all, plus
    the minimality filter. Agrees with :func:`mjsat.shisen.connectable` on every
    occupancy (tested).
    """
    lines = ShisenLines(board)
    return tuple(frozenset(bits_members(m)) for m in lines.path_bits(a, b))


def bits_members(x: int) -> list[int]:
    """The members of the bitset ``x`` (a non-negative Python int), smallest first.

    >>> bits_members(0b101001)
    [0, 3, 5]
    """
    if x.bit_count() <= 48:  # sparse: peel the highest bit (cheap even on long ints)
        out: list[int] = []
        while x:
            t = x.bit_length() - 1
            out.append(t)
            x ^= 1 << t
        out.reverse()
        return out
    raw = np.frombuffer(x.to_bytes((x.bit_length() + 7) // 8, "little"), dtype=np.uint8)
    return np.flatnonzero(np.unpackbits(raw, bitorder="little")).tolist()


class ShisenLines:
    """Prefix bitsets of every row and column of a Shisen-Sho board with its margin.

    ``rows[y][x]`` is the set (a Python int, bit ``t`` for tile ``t``) of the tiles in
    row ``y`` at columns ``< x`` (margin coordinates: the board's cell ``(r, c)`` is
    ``(r + 1, c + 1)``); ``cols[x][y]`` likewise down a column. The tiles of a segment
    are the difference of two prefixes.
    """

    def __init__(self, board: ShisenShoBoard) -> None:
        h, w = board.grid_shape
        self.h, self.w = h + 2, w + 2
        self.grid = grid = [[-1] * self.w for _ in range(self.h)]
        self.cells = [(y + 1, x + 1) for y, x in board.cells]
        for t, (y, x) in enumerate(self.cells):
            grid[y][x] = t
        self.row_xs = [[x for x in range(self.w) if grid[y][x] >= 0] for y in range(self.h)]
        self.col_ys = [[y for y in range(self.h) if grid[y][x] >= 0] for x in range(self.w)]
        self.rows = [self._prefixes([grid[y][x] for x in range(self.w)]) for y in range(self.h)]
        self.cols = [self._prefixes([grid[y][x] for y in range(self.h)]) for x in range(self.w)]

    @staticmethod
    def _prefixes(line: list[int]) -> list[int]:
        """Prefix bitsets of one row or column (``-1`` marks an empty cell)."""
        acc, pre = 0, [0]
        for t in line:
            if t >= 0:
                acc |= 1 << t
            pre.append(acc)
        return pre

    def row(self, y: int, x0: int, x1: int) -> int:
        """Tiles of row ``y`` between columns ``x0`` and ``x1`` (both included)."""
        lo, hi = (x0, x1) if x0 <= x1 else (x1, x0)
        pre = self.rows[y]
        return pre[hi + 1] & ~pre[lo]

    def col(self, x: int, y0: int, y1: int) -> int:
        """Tiles of column ``x`` between rows ``y0`` and ``y1`` (both included)."""
        lo, hi = (y0, y1) if y0 <= y1 else (y1, y0)
        pre = self.cols[x]
        return pre[hi + 1] & ~pre[lo]

    def path_bits(self, a: TileId, b: TileId, *, cap: int | None = None) -> list[int]:
        """The minimal blocker sets of :func:`shisen_paths` as bitsets, smallest first.

        With ``cap``, a candidate path of more than ``cap`` tiles is replaced by its two
        *ends*: the first tile on it seen from ``a`` and the first seen from ``b`` (a
        subset of it). The sets are then weaker than the rules: every clearing still
        meets them (every path holds one of them), but meeting them does not make a
        clearing. The outward cut then also stops at a weak set inside the arms.
        """
        ya, xa = self.cells[a]
        yb, xb = self.cells[b]
        drop = ~((1 << a) | (1 << b))
        sets: set[int] = set()
        small: list[int] = []  # the smallest sets so far, for the outward cut
        # Weak sets only: columns z between the two tiles, past the first tile of a's row
        # towards b and past the first of b's row towards a, give paths that start and end
        # with those two tiles (one set for all of them, found once).
        span, same = (1, 0), 0
        if cap is not None and xa != xb:
            ta = self._first([(False, ya, xa, xb)], a, b)
            tb = self._first([(False, yb, xb, xa)], a, b)
            if ta >= 0 and tb >= 0:
                za, zb = self.cells[ta][1], self.cells[tb][1]
                if (za <= zb) if xa < xb else (za >= zb):
                    span, same = (min(za, zb), max(za, zb)), (1 << ta) | (1 << tb)

        def sweep(mids: Iterable[int], along_rows: bool, outward: bool) -> None:
            for z in mids:
                in_span = not along_rows and span[0] <= z <= span[1]
                if in_span and self._count_row(ya, xa, z) + self._count_row(yb, z, xb) > cap + 3:  # type: ignore[operator]
                    sets.add(same)  # long anyway: no need to build it
                    continue
                if along_rows:  # vertical, horizontal on row z, vertical
                    arms = self.col(xa, ya, z) | self.col(xb, z, yb)
                    c = arms | self.row(z, xa, xb)
                else:  # horizontal, vertical on column z, horizontal
                    arms = self.row(ya, xa, z) | self.row(yb, z, xb)
                    c = arms | self.col(z, ya, yb)
                arms &= drop
                if outward and any(m & ~arms == 0 for m in small):
                    return  # farther out the arms only grow: every later path holds a set found
                c &= drop
                if cap is not None and c.bit_count() > cap:
                    c = same if in_span else self._ends(a, b, along_rows, z)
                if c not in sets:
                    sets.add(c)
                    if len(small) < 8 or c.bit_count() < small[-1].bit_count():
                        small.append(c)
                        small.sort(key=int.bit_count)
                        del small[8:]

        for lo, hi, along_rows in ((min(ya, yb), max(ya, yb), True), (min(xa, xb), max(xa, xb), False)):
            size = self.h if along_rows else self.w
            sweep(range(lo, hi + 1), along_rows, False)
            sweep(range(lo - 1, -1, -1), along_rows, True)
            sweep(range(hi + 1, size), along_rows, True)
        minimal: list[int] = []
        for s in sorted(sets, key=lambda m: (m.bit_count(), m)):
            if not any(m & ~s == 0 for m in minimal):
                minimal.append(s)
        return minimal

    def _count_row(self, y: int, x0: int, x1: int) -> int:
        """How many tiles row ``y`` has between columns ``x0`` and ``x1`` (both included)."""
        lo, hi = (x0, x1) if x0 <= x1 else (x1, x0)
        line = self.row_xs[y]
        return bisect.bisect_right(line, hi) - bisect.bisect_left(line, lo)

    def _ends(self, a: TileId, b: TileId, along_rows: bool, z: int) -> int:
        """The first tile from each end of a candidate path (bitset; the path has tiles)."""
        (ya, xa), (yb, xb) = self.cells[a], self.cells[b]
        if along_rows:  # (vertical?, fixed coordinate, from, to) per segment, from a to b
            segs = [(True, xa, ya, z), (False, z, xa, xb), (True, xb, z, yb)]
        else:
            segs = [(False, ya, xa, z), (True, z, ya, yb), (False, yb, z, xb)]
        first = self._first(segs, a, b)
        last = self._first([(v, k, hi, lo) for v, k, lo, hi in reversed(segs)], a, b)
        assert first >= 0 and last >= 0, "a path with tiles has a first and a last tile"
        return (1 << first) | (1 << last)

    def _first(self, segs: list[tuple[bool, int, int, int]], a: TileId, b: TileId) -> TileId:
        """The first tile other than ``a``, ``b`` along the segments (each from its start,
        excluded, to its end, included), or -1."""
        for vertical, k, u, v in segs:
            line = self.col_ys[k] if vertical else self.row_xs[k]
            if v >= u:
                hits = line[bisect.bisect_right(line, u) : bisect.bisect_right(line, v)]
            else:
                hits = line[bisect.bisect_left(line, v) : bisect.bisect_left(line, u)][::-1]
            for pos in hits:
                t = self.grid[pos][k] if vertical else self.grid[k][pos]
                if t != a and t != b:
                    return t
        return -1


def requirements(
    board: Board, *, simplify: bool = True, cap: int | None = None, deadline: float | None = None
) -> Requirements:
    """The precedence data of ``board`` (see the module docstring).

    Parameters
    ----------
    board : Board
    simplify : bool (default True)
        Shisen-Sho: rewrite the paths with the necessary predecessors of every tile
        (:func:`mjsat.encoders.necessary.simplify_requirements`: the same clearings,
        far fewer and shorter path sets). ``False`` keeps the raw minimal path sets.
    cap : int, optional
        Shisen-Sho: **weaker** requirements, in which a candidate path of more than
        ``cap`` tiles only asks for the first tile from each end to be gone
        (:meth:`ShisenLines.path_bits`). Every clearing meets them, so an exhaustive
        encoding of them that is unsatisfiable proves the board unsolvable; a pairing
        that meets them must still be checked (:func:`linearize`). On boards without
        empty lanes (the edge-to-edge images of the reductions) the exact sets number
        hundreds per pair, of hundreds of tiles each.
    deadline : float, optional
        A ``time.perf_counter()`` value; past it the build raises :class:`BuildTimeLimit`.

    Raises
    ------
    EncodingError
        The board's game is not Mahjong, transposed Mahjong or Shisen-Sho.
    SizeLimitError
        More candidate pairs than :data:`mjsat.limits.MAX_PAIRS` (counted before any is
        built).
    BuildTimeLimit
        ``deadline`` passed.

    Notes
    -----
    Mahjong: :math:`O(n d + P)` for ``d`` neighbours per tile and ``P`` candidate pairs
    (:math:`P = \\sum_g k_g (k_g - 1) / 2` over group sizes :math:`k_g`). Shisen-Sho adds
    :math:`O(P (h + w)^2)` for the paths.
    """
    n = len(board)
    members = board.group_members()
    MAX_PAIRS.check(sum(len(ts) * (len(ts) - 1) // 2 for ts in members.values()), "the board", verb="makes")
    paths: dict[Move, tuple[frozenset[TileId], ...]] = {}
    path_bits: dict[Move, tuple[int, ...]] = {}
    if board.kind == "sides":
        need, sides, never = _side_requirements(board)
        pairs = tuple(
            sorted(p for ts in members.values() for p in itertools.combinations(sorted(ts), 2) if p not in never)
        )
    elif board.kind == "grid-path":
        raw = [p for ts in members.values() for p in itertools.combinations(sorted(ts), 2)]
        need = tuple(() for _ in range(n))
        sides = tuple(() for _ in range(n))
        pairs = tuple(sorted(raw))
        lines = ShisenLines(board)
        for i, p in enumerate(pairs):
            if i % 64 == 0:
                check_deadline(deadline, "Shisen-Sho path requirements")
            path_bits[p] = tuple(lines.path_bits(*p, cap=cap))
        paths = {p: tuple(frozenset(bits_members(m)) for m in ms) for p, ms in path_bits.items()}
    else:
        raise EncodingError(f"no encoding for the game {board.game!r}")
    covered = {t for p in pairs for t in p}
    impossible = tuple(t for t in range(n) if t not in covered)
    req = Requirements(n, board.game, pairs, need, sides, paths, impossible, path_bits or None)
    if simplify and board.kind == "grid-path":
        from mjsat.encoders.necessary import simplify_requirements

        req = simplify_requirements(board, req, deadline=deadline)
    return req


def _side_requirements(board: Board) -> tuple[tuple, tuple, frozenset[Move]]:
    """``need``, ``sides`` and the pairs that can never go together of a ``"sides"`` game:
    the same for every deal of a layout, so kept by the layout (:meth:`~mjsat.layout.Layout.memo`)."""
    tables = board.rule_tables()

    def build() -> tuple[tuple, tuple, frozenset[Move]]:
        n = len(board)
        one, two, above = tables.one, tables.two, tables.above
        need = tuple(tuple(above[t]) for t in range(n))
        sides = tuple((frozenset(one[t]), frozenset(two[t])) if one[t] and two[t] else () for t in range(n))
        never: set[Move] = set()
        for t in range(n):
            # a tile and a tile it waits for, or a tile in both of its side sets
            for o in need[t]:
                never.add((min(o, t), max(o, t)))
            if sides[t]:
                for o in sides[t][0] & sides[t][1]:
                    never.add((min(o, t), max(o, t)))
        return need, sides, frozenset(never)

    return board.layout.memo(("side-requirements", tables.sides), build)


def pair_vars(req: Requirements, vpool: IDPool) -> dict[Move, int]:
    """The pairing variables ``('m', a, b)`` of every candidate pair."""
    return {p: vpool.id(("m", p[0], p[1])) for p in req.pairs}


def add_matching(cnf: CNF, req: Requirements, m: dict[Move, int], vpool: IDPool) -> None:
    """Clauses making the chosen pairs a perfect matching inside every group.

    Every tile is in exactly one chosen pair: python-sat's pairwise encoding for up to
    five candidates (groups of up to six), its ladder encoding beyond. A tile with no
    candidate partner gets the empty clause.

    Notes
    -----
    A group of size :math:`k` has :math:`k(k-1)/2` pair variables and, pairwise,
    :math:`k (1 + (k-1)(k-2)/2)` clauses; the ladder adds :math:`O(k^2)` variables and
    clauses for large groups.
    """
    inc = req.incident()
    for t in range(req.n):
        lits = [m[p] for p in inc[t]]
        if not lits:
            cnf.append([])
        elif len(lits) == 1:
            cnf.append(lits)
        else:
            enc = EncType.pairwise if len(lits) <= 5 else EncType.ladder
            cnf.extend(CardEnc.equals(lits, 1, vpool=vpool, encoding=enc).clauses)


def add_precedence(
    cnf: CNF,
    req: Requirements,
    m: dict[Move, int],
    vpool: IDPool,
    lt: Callable[[TileId, TileId], int],
) -> None:
    """The rules as clauses over precedence literals ``lt(u, v)`` (u gone before v).

    ``need``: unit ``lt(o, t)``; ``sides``: a side variable ``('side', t)`` true for the
    first set, ``-side -> lt(o, t)`` per tile of the second; Shisen-Sho: a path variable
    ``('path', a, b, j)`` per candidate path, at least one when the pair is chosen, each
    implying ``lt(o, a)`` for its tiles. Used by the order and acyclicity encodings.

    Notes
    -----
    :math:`\\sum_t (|need_t| + |sides_t|)` clauses for Mahjong; for Shisen-Sho one clause
    per chosen-path implication, :math:`O(P (h + w)^2)` at most.
    """
    for t in range(req.n):
        for o in req.need[t]:
            cnf.append([lt(o, t)])
        if req.sides[t]:
            c = vpool.id(("side", t))
            s0, s1 = req.sides[t]
            for o in s0:
                cnf.append([-c, lt(o, t)])
            for o in s1:
                cnf.append([c, lt(o, t)])
    for p, alts in req.paths.items():
        if not alts or any(not alt for alt in alts):
            continue  # an open path: nothing to wait for
        a = p[0]
        ks = [vpool.id(("path", p[0], p[1], j)) for j in range(len(alts))]
        cnf.append([-m[p], *ks])
        for k, alt in zip(ks, alts):
            for o in sorted(alt):
                cnf.append([-k, lt(o, a)])


def true_set(model: Iterable[int]) -> set[int]:
    """The variables set true in a model (a list of signed ints)."""
    return {v for v in model if v > 0}


@dataclasses.dataclass(frozen=True)
class Decoded:
    """A model read back: the chosen pairing and the pairs in the encoding's order."""

    pairing: list[Move]
    moves: list[Move]


@dataclasses.dataclass
class Decoder:
    """How to read a model of one encoding back into moves.

    Attributes
    ----------
    encoding : str
        The encoding's name (``layered``, ``parity``, ``order``, ``acyclic``).
    keys : dict of tuple -> int
        Every named variable (``('m', a, b)``, ``('r', t, s)``, ``('lt', u, v)``, ...).
    params : dict
        Encoding parameters (``steps`` for layered and parity; ``exhaustive``: True when
        UNSAT of this CNF proves the board unsolvable; parity: ``late``, the step from
        which each tile is gone for sure, and ``groups``, the group of each tile).
    """

    encoding: str
    keys: dict[tuple, int]
    params: dict
    lit: Any = dataclasses.field(default=None, repr=False, compare=False)
    """Parity only, not saved in maps: the ``(n, T)`` literal matrix of ``r(t, s)``
    (a variable, ``1`` for true or ``-1`` for false), for a vectorised decode."""

    def pairing(self, model: Iterable[int]) -> list[Move]:
        """The chosen pairs of a model."""
        on = true_set(model)
        if self.encoding == "parity":
            return sorted(self._parity_steps(on))
        return sorted((k[1], k[2]) for k, v in self.keys.items() if k[0] == "m" and v in on)

    def _parity_steps(self, on: set[int]) -> dict[Move, int]:
        """Parity encoding: the pairs (tiles of one group and one step, paired in tile
        order) with their steps."""
        late = self.params["late"]
        if self.lit is not None and on:
            lit = self.lit
            value = np.zeros(max(int(np.abs(lit).max()), max(on)) + 1, dtype=bool)
            value[np.fromiter(on, dtype=np.int64)] = True
            true = np.where(lit > 0, value[np.abs(lit)], ~value[np.abs(lit)])
            first = np.where(true.any(axis=1), true.argmax(axis=1), np.array(late)).tolist()
        else:
            first = list(late)
            for k, v in self.keys.items():
                if k[0] == "r" and v in on and k[2] < first[k[1]]:
                    first[k[1]] = k[2]
        members: dict[int, list[int]] = {}
        for t, g in enumerate(self.params["groups"]):
            members.setdefault(g, []).append(t)
        out: dict[Move, int] = {}
        for ts in members.values():
            ts = sorted(ts, key=lambda t: (first[t], t))
            for a, b in zip(ts[::2], ts[1::2]):
                out[(min(a, b), max(a, b))] = first[a]
        return out

    def decode(self, model: Iterable[int]) -> Decoded:
        """The pairing and the move order the model states (not yet replayed)."""
        on = true_set(model)
        if self.encoding == "parity":
            steps_of = self._parity_steps(on)
            return Decoded(sorted(steps_of), sorted(steps_of, key=lambda p: (steps_of[p], p)))
        pairing = self.pairing(on)
        if self.encoding == "layered":
            first: dict[TileId, int] = {}
            for k, v in self.keys.items():
                if k[0] == "r" and v in on:
                    t, s = k[1], k[2]
                    first[t] = min(first.get(t, s), s)
            steps = int(self.params["steps"])
            order = sorted(pairing, key=lambda p: (first.get(p[0], steps), p))
        else:
            before = []
            for k, v in self.keys.items():
                if k[0] == "lt" and v in on:
                    before.append((k[1], k[2]))
                elif k[0] == "o":  # one variable for u < v (true) or v < u (false)
                    before.append((k[1], k[2]) if v in on else (k[2], k[1]))
            order = _topological(pairing, before)
        return Decoded(pairing, order)

    def to_json(self) -> dict:
        return {
            "encoding": self.encoding,
            "params": self.params,
            "vars": [[v, *k] for k, v in sorted(self.keys.items(), key=lambda kv: kv[1])],
        }

    @classmethod
    def from_json(cls, data: dict) -> Decoder:
        """The decoder of :meth:`to_json`'s data (as a variable map file holds it), checked.

        ``data`` may also give ``tiles`` and ``variables`` (a map file's header); then
        every tile and variable named must lie in range.

        Raises
        ------
        InvalidMapError
            A value of the wrong type or out of range, an unknown encoding, parity data
            that does not fit the board.
        """
        if not isinstance(data, dict):
            raise InvalidMapError("expected a JSON object")
        encoding = data.get("encoding")
        if encoding not in _MAP_ENCODINGS:
            raise InvalidMapError(f'"encoding" must be one of {", ".join(_MAP_ENCODINGS)}, got {_short(encoding)}')
        for key in ("tiles", "variables"):
            if key in data and not (_is_int(data[key]) and 0 <= data[key] < _MAP_INT):
                raise InvalidMapError(f'"{key}" must be a non-negative integer, got {_short(data[key])}')
        tiles, variables = data.get("tiles"), data.get("variables")
        params = data.get("params", {})
        if not isinstance(params, dict):
            raise InvalidMapError(f'"params" must be an object, got {_short(params)}')
        params = dict(params)
        if "exhaustive" in params and not isinstance(params["exhaustive"], bool):
            raise InvalidMapError(f'"params": "exhaustive" must be true or false, got {_short(params["exhaustive"])}')
        for key in ("steps", "bound"):
            if key in params and not (_is_int(params[key]) and 0 <= params[key] < _MAP_INT):
                raise InvalidMapError(f'"params": "{key}" must be a non-negative integer, got {_short(params[key])}')
        if encoding in ("layered", "parity") and "steps" not in params:
            raise InvalidMapError(f'the {encoding} encoding needs "params": "steps"')
        if encoding == "parity":
            for key in ("late", "groups"):
                v = params.get(key)
                if not (isinstance(v, list) and all(_is_int(x) and abs(x) < _MAP_INT for x in v)):
                    raise InvalidMapError(f'the parity encoding needs "params": "{key}", a list of integers')
            if len(params["late"]) != len(params["groups"]) or (tiles is not None and len(params["late"]) != tiles):
                raise InvalidMapError('"params": "late" and "groups" must have one entry per tile')
            if tiles is None:
                tiles = len(params["late"])
        raw = data.get("vars")
        if not isinstance(raw, list):
            raise InvalidMapError(f'"vars" must be a list of [variable, name, ...], got {_short(raw)}')
        keys: dict[tuple, int] = {}
        for i, item in enumerate(raw):
            if not (isinstance(item, list) and len(item) >= 2 and _is_int(item[0]) and isinstance(item[1], str)):
                raise InvalidMapError(f"expected [variable, name, ...], got {_short(item)}", i)
            var, kind, args = item[0], item[1], item[2:]
            top = variables if variables is not None else _MAP_INT - 1
            if not 1 <= var <= top:
                raise InvalidMapError(f"variable {var} is out of range 1..{top}", i)
            if not all(_is_int(a) and abs(a) < _MAP_INT for a in args):
                raise InvalidMapError(f"expected integers after the name, got {_short(item)}", i)
            if kind in _TILE_KEYS:
                if len(args) != 2:
                    raise InvalidMapError(f"a {kind!r} variable names two numbers, got {_short(item)}", i)
                named = args[:1] if kind == "r" else args
                hi = tiles - 1 if tiles is not None else _MAP_INT - 1
                if not all(0 <= t <= hi for t in named) or args[-1] < 0:
                    raise InvalidMapError(f"{_short(item)} names a tile out of range 0..{hi}", i)
            keys[(kind, *args)] = var
        return cls(str(encoding), keys, params)


_MAP_ENCODINGS = ("layered", "parity", "order", "acyclic")
_TILE_KEYS = ("m", "r", "lt", "o")
"""Variable kinds that name tiles: ``m`` (a pair), ``r`` (a tile and a step), ``lt`` and
``o`` (two tiles)."""
_MAP_INT = 2**63


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _topological(pairing: Sequence[Move], before: Sequence[tuple[TileId, TileId]]) -> list[Move]:
    """The pairs ordered so that every true ``lt(u, v)`` goes earlier-to-later (Kahn)."""
    owner = {t: i for i, p in enumerate(pairing) for t in p}
    succ: list[set[int]] = [set() for _ in pairing]
    indeg = [0] * len(pairing)
    for u, v in before:
        i, j = owner.get(u), owner.get(v)
        if i is None or j is None or i == j or j in succ[i]:
            continue
        succ[i].add(j)
        indeg[j] += 1
    ready = sorted(i for i in range(len(pairing)) if indeg[i] == 0)
    out: list[int] = []
    while ready:
        i = ready.pop(0)
        out.append(i)
        for j in sorted(succ[i]):
            indeg[j] -= 1
            if indeg[j] == 0:
                ready.append(j)
        ready.sort()
    if len(out) != len(pairing):  # a cycle: the model broke the encoding; replay will say so
        out += [i for i in range(len(pairing)) if i not in set(out)]
    return [pairing[i] for i in out]


def linearize(board: Board, pairing: Iterable[Move]) -> list[Move] | None:
    """An order clearing ``board`` with exactly these pairs, or ``None`` if none exists.

    Greedy: play any pair that is legal now, until none is. By monotonicity of freeness
    (and of Shisen-Sho paths) a pair legal now stays legal, so greedy fails only when no
    order exists (seed 000).

    Notes
    -----
    :math:`O(q^2 c)` for ``q`` pairs and ``c`` the cost of one legality test.
    """
    b = board.copy(stack=False)
    left = sorted(tuple(sorted(p)) for p in pairing)
    order: list[Move] = []
    progress = True
    while left and progress:
        progress = False
        for p in list(left):
            if b.is_legal(p):
                b.push(p)
                order.append(p)
                left.remove(p)
                progress = True
    return order if not left else None


def perfect_matchings(tiles: Sequence[TileId]) -> Iterator[list[Move]]:
    """Every perfect matching of a sorted list of tiles (``(k-1)!!`` of them)."""
    if not tiles:
        yield []
        return
    first, rest = tiles[0], tiles[1:]
    for i, partner in enumerate(rest):
        for tail in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, partner), *tail]


def feasible_pairings(board: Board) -> set[tuple[Move, ...]]:
    """Every pairing of ``board`` that some order clears (brute force, tiny boards only).

    Notes
    -----
    :math:`\\prod_g (k_g - 1)!!` pairings, each linearised greedily.
    """
    per_group = [list(perfect_matchings(sorted(ts))) for ts in board.group_members().values()]
    out: set[tuple[Move, ...]] = set()
    for combo in itertools.product(*per_group):
        pairing = tuple(sorted(p for part in combo for p in part))
        if linearize(board, pairing) is not None:
            out.add(pairing)
    return out
