"""The order encoding: pairwise precedence variables with transitivity, no time index.

The model is a strict weak order of the tiles whose ties are exactly the chosen pairs:
every two tiles are ordered unless they form a chosen pair, and the order is
transitive. The rules then ask ``o`` before ``t`` for every tile ``o`` that ``t`` waits
for. Any such order, read pair by pair, is a legal move list, and every move list gives
one, so the encoding is exhaustive with no step bound.

Variables (``n`` tiles, ``P`` candidate pairs)
-----------------------------------------------
* ``('o', u, v)``, ``u < v``, not a candidate pair -- ``u`` before ``v`` (false: ``v``
  before ``u``): :math:`n(n-1)/2 - P`;
* ``('lt', u, v)`` and ``('lt', v, u)`` for a candidate pair (a third state, the tie,
  is ``('m', u, v)``): :math:`2P`, plus the :math:`P` pairing variables;
* ``('side', t)`` and ``('path', a, b, j)`` as in the layered encoding.

Clauses
-------
* for a candidate pair: exactly one of ``lt(u, v)``, ``lt(v, u)``, ``m(u, v)``: :math:`4P`;
* transitivity ``lt(u, v) & lt(v, w) -> lt(u, w)`` over all ordered triples:
  :math:`n(n-1)(n-2)` (a third of them for triples with no candidate pair, where the
  three rotations of a clause coincide);
* the rules (:func:`mjsat.encoders.clauses.add_precedence`) and the matching.

Size: :math:`O(n^2)` variables and :math:`O(n^3)` clauses; the textbook baseline. Ties
other than chosen pairs are impossible without extra clauses: if ``u < v``, ``v`` ties
with ``w`` and ``w < u``, transitivity gives ``v < u``, against ``u < v``.
:class:`OrderDecoder` reads a model back: the chosen pairs in an order every true
precedence goes forward in.
"""

from __future__ import annotations

import itertools

from pysat.formula import CNF, IDPool

from mjsat.board import Board, TileId
from mjsat.encoders.clauses import add_matching, add_precedence, pair_vars
from mjsat.encoders.decoding import Decoder, PrecedenceDecoder
from mjsat.encoders.errors import check_deadline
from mjsat.encoders.requirements import Requirements, requirements
from mjsat.result import MethodNotApplicableError

__all__ = ["encode_order", "OrderDecoder", "ORDER_MAX_TRIPLES"]

ORDER_MAX_TRIPLES = 30_000_000
"""The order encoding refuses a board with more ordered triples of tiles than this (about
320 tiles): its transitivity clauses alone would take gigabytes. A board above it is one the
encoding does not apply to (:class:`~mjsat.result.MethodNotApplicableError`)."""


def encode_order(
    board: Board,
    *,
    vpool: IDPool | None = None,
    req: Requirements | None = None,
    deadline: float | None = None,
) -> tuple[CNF, Decoder]:
    """Encode ``board`` as a strict weak order of its tiles (exhaustive).

    Parameters
    ----------
    board : Board
        Mahjong, transposed Mahjong or Shisen-Sho.
    vpool : IDPool, optional
    req : Requirements, optional
        Precomputed requirements of the board.
    deadline : float, optional
        A :func:`mjsat.clock.now` value; past it the build raises
        :class:`~mjsat.encoders.errors.BuildTimeLimit` (checked once per tile of the
        transitivity loop).

    Returns
    -------
    cnf : pysat.formula.CNF
    decoder : OrderDecoder

    Raises
    ------
    MethodNotApplicableError
        More than :data:`ORDER_MAX_TRIPLES` ordered triples of tiles (about 320 tiles).

    Notes
    -----
    :math:`O(n^3)` transitivity clauses: about a million for 144 tiles, so this encoding
    is meant for boards of a few dozen tiles and as a reference for the others.
    """
    if len(board) * (len(board) - 1) * (len(board) - 2) > ORDER_MAX_TRIPLES:
        raise MethodNotApplicableError(
            "sat",
            board.game,
            f"the order encoding of {len(board)} tiles would have about {len(board) ** 3:,} clauses "
            f"(it takes boards of at most {ORDER_MAX_TRIPLES:,} ordered triples); use acyclic",
        )
    req = requirements(board) if req is None else req
    vpool = IDPool() if vpool is None else vpool
    cnf = CNF()
    n = req.n
    m = pair_vars(req, vpool)
    lit: dict[tuple[int, int], int] = {}
    for u, v in itertools.combinations(range(n), 2):
        if (u, v) in m:
            x = vpool.id(("lt", u, v))
            y = vpool.id(("lt", v, u))
            mv = m[(u, v)]
            cnf.clauses.extend([[x, y, mv], [-x, -y], [-x, -mv], [-y, -mv]])
            lit[(u, v)], lit[(v, u)] = x, y
        else:
            o = vpool.id(("o", u, v))
            lit[(u, v)], lit[(v, u)] = o, -o
    cand = [[False] * n for _ in range(n)]
    for a, b in m:
        cand[a][b] = cand[b][a] = True
    cl = cnf.clauses
    for u in range(n):
        check_deadline(deadline, "order encoding")
        for v in range(n):
            if v == u:
                continue
            uv = -lit[(u, v)]
            for w in range(n):
                if w == u or w == v:
                    continue
                # with no tie possible in the triple, the three rotations of a clause
                # are one clause: keep the rotation starting at the smallest tile
                if u > min(v, w) and not (cand[u][v] or cand[v][w] or cand[u][w]):
                    continue
                cl.append([uv, -lit[(v, w)], lit[(u, w)]])
    add_precedence(cnf, req, m, vpool, lambda a, b: lit[(a, b)])
    add_matching(cnf, req, m, vpool)
    cnf.nv = max(cnf.nv, vpool.top)
    keys = {k: v for k, v in vpool.obj2id.items() if isinstance(k, tuple)}
    return cnf, OrderDecoder(keys, {"exhaustive": True})


class OrderDecoder(PrecedenceDecoder):
    """Reads a model of :func:`encode_order`: its precedences are ``('lt', u, v)`` of the
    candidate pairs and, for two tiles ``u < v`` that are no candidate pair, ``('o', u, v)``
    (true: ``u`` before ``v``; false: ``v`` before ``u``)."""

    encoding = "order"

    def precedences(self, on: set[int]) -> list[tuple[TileId, TileId]]:
        out = super().precedences(on)
        out.extend((k[1], k[2]) if v in on else (k[2], k[1]) for k, v in self.keys.items() if k[0] == "o")
        return out
