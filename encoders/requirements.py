"""The rules of a board as precedence requirements: the data every encoding of it shares.

A solution is a *pairing* (a perfect matching inside every group) plus an order of the
pairs; once the pairing is fixed the order does not matter [1]_. Freeness is monotone (a
removed tile never blocks again), so a pairing can be cleared iff the pairs can be
ordered so that, when a pair goes, every tile it needs gone is already gone.

:func:`requirements` turns a board into that static data, the same for every encoding:

* ``pairs`` -- the candidate pairs ``(a, b)``, ``a < b``, of equal tiles (minus the pairs
  that can never go together, such as a tile and the tile that covers it);
* ``need[t]`` -- tiles that must be gone before ``t`` goes (Mahjong: the tiles above);
* ``sides[t]`` -- ``()`` or two tile sets of which one must be gone before ``t`` goes
  (Mahjong: left and right, or front and rear in the transposed game);
* ``path_bits[p]`` -- for a Shisen-Sho candidate pair, the minimal tile sets of its
  candidate paths (at most three segments, one-cell margin) as bitsets: one set must be
  gone before the pair (:mod:`mjsat.encoders.shisen_paths`).

On Shisen-Sho boards :func:`requirements` then rewrites the path sets with the tiles that
go first in every clearing (:mod:`mjsat.encoders.necessary`).

References
----------
.. [1] P. Gimeno Fortea, "Mahjongg Solitaire Solver", web page, 2005.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Callable

from mjsat.board import VARIANTS, Board, Move, TileId
from mjsat.encoders.errors import EncodingError, check_deadline
from mjsat.encoders.necessary import simplify_requirements
from mjsat.encoders.shisen3d_paths import CellLines, footprints_overlap, tiles_above
from mjsat.encoders.shisen_paths import ShisenLines, bits_members
from mjsat.limits import MAX_PAIRS
from mjsat.result import MethodNotApplicableError

__all__ = [
    "ENCODED_KINDS",
    "ENCODED_GAMES",
    "check_encodable",
    "Requirements",
    "requirements",
]


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
    path_bits : dict of (a, b) -> tuple of int
        Shisen-Sho only: the minimal blocker sets of the candidate paths of each pair, as
        bitsets (bit ``t`` for tile ``t``; ``0``, the empty set, for an open path).
    impossible : tuple of int
        Tiles with no candidate partner at all (the board is then unsolvable).
    """

    n: int
    game: str
    pairs: tuple[Move, ...]
    need: tuple[tuple[TileId, ...], ...]
    sides: tuple[tuple[frozenset[TileId], ...], ...]
    path_bits: dict[Move, tuple[int, ...]]
    impossible: tuple[TileId, ...]

    @functools.cached_property
    def paths(self) -> dict[Move, tuple[frozenset[TileId], ...]]:
        """:attr:`path_bits` as tile sets (for reading; the encoders take the bitsets)."""
        return {p: tuple(frozenset(bits_members(m)) for m in ms) for p, ms in self.path_bits.items()}

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
        for (a, _b), alts in self.path_bits.items():
            for alt in alts:
                out.update((o, a) for o in bits_members(alt))
        return out


ENCODED_KINDS: tuple[str, ...] = ("sides", "grid-path", "cell-path")
"""The rule kinds (:attr:`mjsat.board.Board.kind`) :func:`requirements` covers, so every
SAT and CP-SAT model."""
ENCODED_GAMES: tuple[str, ...] = tuple(g for g, cls in VARIANTS.items() if cls.kind in ENCODED_KINDS)
"""The games :func:`requirements` (so every SAT and CP-SAT model) covers."""


def check_encodable(board: Board, method: str) -> None:
    """Raise :class:`~mjsat.result.MethodNotApplicableError` for ``method`` when
    :func:`requirements` has no rules for ``board``'s kind (every kind of
    :data:`mjsat.board.KINDS` has them now; a new game gets this answer until it has).

    >>> from mjsat.board import Layout, ShisenShoMahjongBoard
    >>> check_encodable(ShisenShoMahjongBoard(Layout([(0, 0, 0), (0, 4, 0)]), [0, 0]), "cpsat")

    Notes
    -----
    :math:`O(1)`.
    """
    if board.kind not in ENCODED_KINDS:
        raise MethodNotApplicableError(
            method, board.game, f"no encoding for {board.game} boards (the encodings cover {', '.join(ENCODED_GAMES)})"
        )


def requirements(
    board: Board,
    *,
    simplify: bool = True,
    cap: int | None = None,
    held: bool | None = None,
    deadline: float | None = None,
) -> Requirements:
    """The precedence data of ``board`` (see the module docstring).

    Parameters
    ----------
    board : Board
    simplify : bool (default True)
        Shisen-Sho on a grid: rewrite the paths with the necessary predecessors of every tile
        (:func:`mjsat.encoders.necessary.simplify_requirements`: the same clearings,
        far fewer and shorter path sets). ``False`` keeps the raw minimal path sets.
    cap : int, optional
        Shisen-Sho: **weaker** requirements, in which a candidate path of more than
        ``cap`` tiles only asks for the first tile from each end to be gone
        (:meth:`~mjsat.encoders.shisen_paths.ShisenLines.path_bits`). Every clearing
        meets them, so an exhaustive encoding of them that is unsatisfiable proves the
        board unsolvable; a pairing that meets them must still be checked
        (:func:`mjsat.encoders.pairings.linearize`). On boards without empty lanes (the
        edge-to-edge images of the reductions) the exact sets number hundreds per pair,
        of hundreds of tiles each.
    held : bool, optional
        Shisen-Sho on a grid, with ``simplify``: whether to run the held-tile rule of
        :func:`~mjsat.encoders.necessary.necessary_before` (rule 5, the costliest; by
        default on boards of at most :data:`~mjsat.encoders.necessary.HELD_MAX_TILES` tiles).
    deadline : float, optional
        A :func:`mjsat.clock.now` value; past it the build raises
        :class:`~mjsat.encoders.errors.BuildTimeLimit`.

    Raises
    ------
    EncodingError
        The board's kind has no rules here (every game of :data:`mjsat.board.GAMES` has).
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
    build = _BUILDERS.get(board.kind)
    if build is None:
        raise EncodingError(f"no encoding for the game {board.game!r}")
    members = board.group_members()
    MAX_PAIRS.check(sum(len(ts) * (len(ts) - 1) // 2 for ts in members.values()), "the board", verb="makes")
    req = build(board, members, cap, deadline)
    if simplify and req.path_bits and board.kind == "grid-path":
        req = simplify_requirements(board, req, held=held, deadline=deadline)  # type: ignore[arg-type]
    return req


def _side_rules(
    board: Board, members: dict[int, list[TileId]], cap: int | None, deadline: float | None
) -> Requirements:
    """The requirements of a ``"sides"`` game (Mahjong, transposed Mahjong)."""
    need, sides, never = _side_tables(board)
    pairs = tuple(sorted(p for ts in members.values() for p in itertools.combinations(sorted(ts), 2) if p not in never))
    return Requirements(len(board), board.game, pairs, need, sides, {}, _without_partner(len(board), pairs))


def _side_tables(board: Board) -> tuple[tuple, tuple, frozenset[Move]]:
    """``need``, ``sides`` and the pairs that can never go together of a ``"sides"`` game:
    the same for every deal of a layout, so kept by the layout (:meth:`~mjsat.layout.Layout.memo`)."""
    tables = board.rule_tables()

    def build() -> tuple[tuple, tuple, frozenset[Move]]:
        n = len(board)
        one, two, above = tables.one, tables.two, tables.above
        need = tuple(tuple(above[t]) for t in range(n))
        sides: tuple[tuple[frozenset[TileId], ...], ...] = tuple(
            (frozenset(one[t]), frozenset(two[t])) if one[t] and two[t] else () for t in range(n)
        )
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


def _path_rules(
    board: Board, members: dict[int, list[TileId]], cap: int | None, deadline: float | None
) -> Requirements:
    """The raw requirements of a ``"grid-path"`` game (Shisen-Sho): every pair of a group
    is a candidate, each with the minimal sets of its candidate paths."""
    n = len(board)
    pairs = tuple(sorted(p for ts in members.values() for p in itertools.combinations(sorted(ts), 2)))
    lines = ShisenLines(board)  # type: ignore[arg-type]
    path_bits: dict[Move, tuple[int, ...]] = {}
    for i, p in enumerate(pairs):
        if i % 64 == 0:
            check_deadline(deadline, "Shisen-Sho path requirements")
        path_bits[p] = tuple(lines.path_bits(*p, cap=cap))
    empty = tuple(() for _ in range(n))
    return Requirements(n, board.game, pairs, empty, empty, path_bits, _without_partner(n, pairs))


def _cell_path_rules(
    board: Board, members: dict[int, list[TileId]], cap: int | None, deadline: float | None
) -> Requirements:
    """The requirements of a ``"cell-path"`` game (Shisen-Sho on the Mahjong grid): every
    pair of a group whose footprints do not overlap is a candidate, each with the minimal
    sets of its candidate chains; ``need[t]``: every tile above ``t``. ``cap`` is not used."""
    n = len(board)
    lines = CellLines(board)  # type: ignore[arg-type]
    cells = board.cells  # type: ignore[attr-defined]
    pairs = tuple(
        sorted(
            p
            for ts in members.values()
            for p in itertools.combinations(sorted(ts), 2)
            if not footprints_overlap(cells[p[0]], cells[p[1]])
        )
    )
    path_bits: dict[Move, tuple[int, ...]] = {}
    for i, p in enumerate(pairs):
        if i % 64 == 0:
            check_deadline(deadline, "Shisen-Sho path requirements")
        path_bits[p] = tuple(lines.path_bits(*p))
    need = tiles_above(board)  # type: ignore[arg-type]
    empty = tuple(() for _ in range(n))
    return Requirements(n, board.game, pairs, need, empty, path_bits, _without_partner(n, pairs))


def _without_partner(n: int, pairs: tuple[Move, ...]) -> tuple[TileId, ...]:
    """The tiles in no candidate pair."""
    covered = {t for p in pairs for t in p}
    return tuple(t for t in range(n) if t not in covered)


_BUILDERS: dict[str, Callable[[Board, dict[int, list[TileId]], int | None, float | None], Requirements]] = {
    "sides": _side_rules,
    "grid-path": _path_rules,
    "cell-path": _cell_path_rules,
}
"""The requirements of each rule kind (:attr:`mjsat.board.Board.kind`) the encoders cover."""
