"""The stacks encoding: boards whose tiles wait only for the tiles above them, by ranks.

It applies to a board of a Mahjong game with no side rule in force: no tile has a
neighbour to its left or right (front or rear in the transposed game), so a tile is
free iff every tile of ``need[t]`` (the tiles above it) is gone. Boards of isolated
stacks of any height are of this shape (the Theorem 3 boards among them);
:func:`is_stack_shaped` is the rule, read from the board's requirements, never from
where the board came from.

Model (``n`` tiles, ``P`` candidate pairs, ``B = ceil(log2(n/2))`` bits)
------------------------------------------------------------------------
* ``('m', a, b)`` per candidate pair and the matching of
  :func:`mjsat.encoders.clauses.add_matching` (each tile in exactly one chosen pair);
* a rank of ``B`` bits per tile, ``('rank', t, i)`` (bit ``i``, most significant first);
* ``m(a, b) -> rank(a) == rank(b)``: :math:`2B` clauses per candidate pair;
* ``rank(o) < rank(t)`` for every edge ``(o, t)`` of the transitive reduction of
  ``need`` (in a stack, the tile just above), by a one-sided lexicographic comparator:
  auxiliaries ``('cmp', o, t, i, kind)``: ``e_i`` (the ranks agree on bits ``0..i``), ``c_i`` (they first differ at bit ``i``, ``o``'s bit 0
  and ``t``'s bit 1) and ``g_i`` (some ``c_j``, ``j <= i``), and the unit ``g_{B-1}``:
  about :math:`7B` clauses per edge;
* no chosen pair inside a stack's need: ``-m(a, b)`` when ``a`` waits for ``b`` or the
  reverse (the equal ranks would contradict the comparators anyway; the unit says it
  at once).

Size: :math:`O((n + P) \\log n)` variables and clauses: linear in the tiles up to the
logarithm, whatever the order of play.

Correctness
-----------
*A model gives a clearing.* Read the chosen pairs (a perfect matching of every group,
by the matching clauses) in increasing rank of their tiles (equal within a pair). The
comparator clauses force ``rank(o) < rank(t)`` on every reduction edge: ``g_{B-1}``
holds, so some ``c_i`` holds, so ``o`` and ``t`` agree on the bits above ``i``
(the chain of ``e``), and at bit ``i`` ``o`` has 0 and ``t`` has 1. By transitivity
``rank(o) < rank(t)`` for every ``o`` in ``need[t]``. When the pair ``(a, b)`` comes,
every ``o`` in ``need[a]`` or ``need[b]`` has a smaller rank, so its pair came
earlier and ``o`` is gone: ``a`` and ``b`` are free (no side rule applies), and they
are two tiles of one group, so the move is legal.

*A clearing gives a model.* Let the ``k``-th move (from 0) give rank ``k`` to both its
tiles; ``k < n/2 < 2^B``. A tile goes after every tile above it, so the ranks grow along
every edge of ``need``; set each comparator's auxiliaries at the first bit where the
two ranks differ (``e`` true above it, ``c`` at it, ``g`` from it on). The matching
holds and no chosen pair lies inside a ``need`` relation. So the CNF is satisfiable
iff the board can be cleared, and ``unsat`` proves ``unsolvable`` (``exhaustive``).

:class:`StacksDecoder` reads a model back: the chosen pairs sorted by rank (then by
tile), which :func:`mjsat.replay.replay` checks as every answer.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from pysat.formula import CNF, IDPool

from mjsat.board import Board, Move, TileId
from mjsat.encoders.clauses import add_matching, pair_vars
from mjsat.encoders.decoding import Decoded, Decoder, InvalidMapError, true_set
from mjsat.encoders.errors import EncodingError, check_build_size, check_deadline
from mjsat.encoders.requirements import Requirements, requirements

__all__ = ["encode_stacks", "StacksDecoder", "is_stack_shaped", "rank_bits", "reduction_edges"]


def is_stack_shaped(board: Board, req: Requirements | None = None) -> bool:
    """True iff ``board`` is a Mahjong board on which every tile waits only for the tiles
    above it (no side rule for any tile): boards of isolated stacks, of any height.

    >>> from mjsat.reductions.stacks import board_from_stacks
    >>> is_stack_shaped(board_from_stacks([[0, 1, 1], [0, 2, 2], [1, 0, 0], [2, 1, 2]]))
    True

    Notes
    -----
    :math:`O(n)` after the requirements (:math:`O(n d + P)`).
    """
    if board.kind != "sides":
        return False
    req = requirements(board) if req is None else req
    return not any(req.sides) and not req.path_bits


def rank_bits(n: int) -> int:
    """Bits of a rank for ``n`` tiles: enough for ``n // 2`` moves, ranks ``0 .. n//2 - 1``.

    >>> rank_bits(2), rank_bits(4), rank_bits(9492)
    (1, 1, 13)
    """
    return max(1, math.ceil(math.log2(max(n // 2, 1))))


def reduction_edges(need: Iterable[Iterable[TileId]]) -> list[tuple[TileId, TileId]]:
    """The edges ``(o, t)`` of the transitive reduction of ``o in need[t]`` (for
    transitively closed ``need``, as the tiles above are): ``o`` is kept unless it is in
    ``need[o2]`` of another ``o2`` in ``need[t]``.

    >>> reduction_edges([(), (0,), (0, 1)])
    [(0, 1), (1, 2)]

    Notes
    -----
    :math:`O(\\sum_t |need_t|^2)`.
    """
    sets = [frozenset(ns) for ns in need]
    out = []
    for t, ns in enumerate(sets):
        for o in sorted(ns):
            if not any(o in sets[o2] for o2 in ns if o2 != o):
                out.append((o, t))
    return out


def encode_stacks(
    board: Board,
    *,
    vpool: IDPool | None = None,
    req: Requirements | None = None,
    deadline: float | None = None,
) -> tuple[CNF, Decoder]:
    """Encode a board of stack shape (:func:`is_stack_shaped`) by ranks (exhaustive).

    Parameters
    ----------
    board : Board
        A Mahjong or transposed Mahjong board with no side rule in force.
    vpool : IDPool, optional
    req : Requirements, optional
        Precomputed requirements of the board.
    deadline : float, optional
        A ``time.perf_counter()`` value; past it the build raises
        :class:`~mjsat.encoders.errors.BuildTimeLimit`.

    Returns
    -------
    cnf : pysat.formula.CNF
    decoder : StacksDecoder

    Raises
    ------
    EncodingError
        A board of another shape (a tile with a side rule, or a Shisen-Sho board).

    Notes
    -----
    :math:`O((n + P) \\log n)` clauses, as in the module docstring.
    """
    req = requirements(board, deadline=deadline) if req is None else req
    if not is_stack_shaped(board, req):
        raise EncodingError(
            "the stacks encoding takes boards whose tiles wait only for the tiles above them "
            "(isolated stacks: no tile with a left or right neighbour); use acyclic"
        )
    vpool = IDPool() if vpool is None else vpool
    cnf = CNF()
    cl = cnf.clauses
    n = req.n
    B = rank_bits(n)
    edges = reduction_edges(req.need)
    check_build_size(20 * B * len(edges) + 4 * B * len(req.pairs) + 4 * len(req.pairs), "stacks encoding")
    m = pair_vars(req, vpool)
    rank = [[vpool.id(("rank", t, i)) for i in range(B)] for t in range(n)]
    for (a, b), v in m.items():
        if a in req.need[b] or b in req.need[a]:
            cl.append([-v])
        for x, y in zip(rank[a], rank[b]):
            cl.append([-v, -x, y])
            cl.append([-v, x, -y])
    for j, (o, t) in enumerate(edges):
        if j % 4096 == 0:
            check_deadline(deadline, "stacks encoding")
        x, y = rank[o], rank[t]
        e_prev = g_prev = 0
        for i in range(B):
            c = vpool.id(("cmp", o, t, i, 0))  # first difference at bit i
            cl.append([-c, -x[i]])
            cl.append([-c, y[i]])
            if e_prev:
                cl.append([-c, e_prev])
            g = vpool.id(("cmp", o, t, i, 1))  # a first difference at bit i or above
            cl.append([-g, c, g_prev] if g_prev else [-g, c])
            if i < B - 1:
                e = vpool.id(("cmp", o, t, i, 2))  # equal on bits 0..i
                cl.append([-e, -x[i], y[i]])
                cl.append([-e, x[i], -y[i]])
                if e_prev:
                    cl.append([-e, e_prev])
                e_prev = e
            g_prev = g
        cl.append([g_prev])
    add_matching(cnf, req, m, vpool)
    cnf.nv = max(cnf.nv, vpool.top)
    keys = {k: v for k, v in vpool.obj2id.items() if isinstance(k, tuple)}
    return cnf, StacksDecoder(keys, {"exhaustive": True, "bits": B, "edges": len(edges)})


class StacksDecoder(Decoder):
    """Reads a model of :func:`encode_stacks`: the chosen pairs ``('m', a, b)`` sorted by
    the rank of their tiles (bits ``('rank', t, i)``, most significant first), then by tile.
    ``params``: ``exhaustive``, ``bits`` (of a rank), ``edges`` (comparators)."""

    encoding = "stacks"

    @classmethod
    def check_params(cls, params: dict, tiles: int | None) -> int | None:
        bits = params.get("bits")
        if not (isinstance(bits, int) and not isinstance(bits, bool) and 1 <= bits <= 64):
            raise InvalidMapError('the stacks encoding needs "params": "bits" (an integer 1..64)')
        return tiles

    def decode(self, model: Iterable[int]) -> Decoded:
        on = true_set(model)
        pairing = self.pairing(on)
        value: dict[TileId, int] = {}
        bits = int(self.params["bits"])
        for k, v in self.keys.items():
            if k[0] == "rank" and v in on:
                value[k[1]] = value.get(k[1], 0) | 1 << (bits - 1 - k[2])
        moves: list[Move] = sorted(pairing, key=lambda p: (value.get(p[0], 0), p))
        return Decoded(pairing, moves)
