"""Acyclicity by vertex elimination [1]_.

The rules make a "must go before" graph over the tiles (tile ``o`` before tile ``t``
when ``t`` waits for ``o``), and a chosen pair ties its two tiles. A pairing with chosen
sides and paths can be played iff no cycle of this graph passes through a strict edge
(the two tiles of a pair may be "before" each other only through the tie). Instead of
ordering all tiles (the order encoding, :math:`O(n^3)`), precedence variables exist
only on the edges of a chordal completion ``H`` of the graph: eliminate the tiles one by
one (least degree first), joining the remaining neighbours of each; a triangle made by
eliminating ``v`` gets the transitivity clauses through ``v``.

Why it is exact: a cycle with a strict edge, of minimal length, has a first eliminated
tile ``v`` with cycle neighbours ``u`` and ``w``, joined in ``H``; the clauses of triangle
``u v w`` force the shortcut ``u -> w`` strict (two ties cannot meet at ``v``, a tile has
one partner), giving a shorter such cycle; a 2-cycle is forbidden outright.
Conversely the move order of a solution satisfies every clause.

Variables (``n`` tiles, ``P`` candidate pairs, ``E`` edges of ``H``)
--------------------------------------------------------------------
* ``('lt', u, v)`` and ``('lt', v, u)`` for every edge of ``H``: :math:`2E`;
* ``('m', a, b)``, ``('side', t)``, ``('path', a, b, j)`` as in the layered encoding.

Clauses
-------
* no 2-cycle ``-lt(u, v) | -lt(v, u)`` and no strict edge inside a chosen pair: :math:`E + 2P`;
* per eliminated tile ``v`` with later neighbours ``N_v`` in ``H``, for ordered
  ``u != w`` in ``N_v``: ``lt(u, v) & lt(v, w) -> lt(u, w)`` plus the two variants with a
  tie at ``v``: at most :math:`3 \\sum_v |N_v|(|N_v| - 1)`;
* the rules (:func:`mjsat.encoders.clauses.add_precedence`) and the matching.

Size: :math:`O(E + P)` variables and :math:`O(\\sum_v |N_v|^2)` clauses, where ``E`` and
``|N_v|`` depend on the fill of the elimination (small for the layered, local graphs
of Mahjong layouts: tree-width-like, not :math:`n`). :class:`AcyclicDecoder` reads a
model back: the chosen pairs in an order every true precedence goes forward in.

References
----------
.. [1] M. F. Rankooh and J. Rintanen, "Propositional encodings of acyclicity and
   reachability by using vertex elimination", AAAI, 2022.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

import numpy as np
from pysat.formula import CNF, IDPool

from mjsat.board import Board
from mjsat.encoders.clauses import add_matching, add_precedence, pair_vars
from mjsat.encoders.decoding import Decoder, PrecedenceDecoder
from mjsat.encoders.errors import check_build_size, check_deadline
from mjsat.encoders.requirements import Requirements, requirements

__all__ = ["encode_acyclic", "AcyclicDecoder", "elimination"]

_CHUNK = 1 << 20
"""Clauses turned into Python lists at a time, between two looks at the deadline."""
_DENSE_TILES = 1024
"""Boards of at most this many tiles look their variables up in ``n x n`` tables (two, of
8 MiB each at most); larger ones (the reductions' images) by binary search."""


def _fresh_ids(vpool: IDPool, names: list[tuple]) -> list[int]:
    """The ids ``vpool.id`` would give ``names`` one by one (each new to ``vpool``, which
    reserves no ranges: a pool of the encoder's own), registered in one step."""
    start = vpool.top + 1
    ids = list(range(start, start + len(names)))
    vpool.obj2id.update(zip(names, ids))
    vpool.id2obj.update(zip(ids, names))
    vpool.top += len(names)
    return ids


def _indexer(
    n: int, rows: np.ndarray, cols: np.ndarray, values: np.ndarray
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """A vectorised look-up ``(u, w) -> values[i]`` where ``(rows[i], cols[i]) == (u, w)``,
    ``0`` elsewhere, for tiles ``u, w < n``: an ``n x n`` table up to :data:`_DENSE_TILES`
    tiles, a binary search over the sorted keys beyond."""
    if n <= _DENSE_TILES:
        table = np.zeros(n * n, dtype=np.int64)
        table[rows * n + cols] = values
        return lambda u, w: table.take(u * n + w)
    keys = rows * n + cols
    srt = np.argsort(keys)
    keys, values = keys[srt], values[srt]

    def find(u: np.ndarray, w: np.ndarray) -> np.ndarray:
        if len(keys) == 0:
            return np.zeros(len(u), dtype=np.int64)
        k = u * n + w
        i = np.minimum(np.searchsorted(keys, k), len(keys) - 1)
        return np.where(keys[i] == k, values[i], 0)

    return find


def elimination(
    n: int, edges: set[frozenset[int]], *, deadline: float | None = None
) -> tuple[list[int], list[list[int]]]:
    """A least-degree elimination order and the later neighbours of each tile in ``H``.

    Parameters
    ----------
    n : int
        Number of vertices ``0..n-1``.
    edges : set of frozenset
        Undirected edges.

    Returns
    -------
    order : list of int
        Vertices in elimination order.
    later : list of list of int
        ``later[v]``: the neighbours of ``v`` in the completed graph that are
        eliminated after ``v`` (a clique of ``H``).

    Notes
    -----
    Greedy minimum degree with fill-in, ties broken by vertex number, the neighbours as
    bit sets, the degrees in a heap with stale entries skipped: :math:`O(\\sum_v |N_v|)`
    big-integer operations of :math:`n` bits and as many heap operations.
    """
    adj = [0] * n  # neighbours as bit sets
    for e in edges:
        u, v = tuple(e)
        adj[u] |= 1 << v
        adj[v] |= 1 << u
    key = [a.bit_count() * n + x for x, a in enumerate(adj)]  # (degree, vertex) as one int
    heap = list(key)  # the keys, some stale: a key is current iff it equals key[v]
    heapq.heapify(heap)
    alive = [True] * n
    order: list[int] = []
    later: list[list[int]] = [[] for _ in range(n)]
    while heap:
        kv = heapq.heappop(heap)
        v = kv % n
        if not alive[v] or key[v] != kv:
            continue
        if len(order) % 64 == 0:
            check_deadline(deadline, "acyclic encoding: elimination order")
        nb = adj[v]
        nbrs = []
        rest = nb
        while rest:
            low = rest & -rest
            nbrs.append(low.bit_length() - 1)
            rest ^= low
        later[v] = nbrs
        gone = ~(1 << v)
        for u in nbrs:  # the neighbours become a clique, without v
            a = (adj[u] | nb) & gone & ~(1 << u)
            adj[u] = a
            key[u] = a.bit_count() * n + u
            heapq.heappush(heap, key[u])
        alive[v] = False
        order.append(v)
    return order, later


def encode_acyclic(
    board: Board,
    *,
    vpool: IDPool | None = None,
    req: Requirements | None = None,
    deadline: float | None = None,
) -> tuple[CNF, Decoder]:
    """Encode ``board`` with acyclicity by vertex elimination (exhaustive).

    Parameters
    ----------
    board : Board
        Mahjong, transposed Mahjong or Shisen-Sho.
    vpool : IDPool, optional
    req : Requirements, optional
        Precomputed requirements of the board.
    deadline : float, optional
        A :func:`mjsat.clock.now` value; past it the build raises
        :class:`~mjsat.encoders.errors.BuildTimeLimit`.

    Returns
    -------
    cnf : pysat.formula.CNF
    decoder : AcyclicDecoder

    Notes
    -----
    Size and time as in the module docstring.
    """
    req = requirements(board) if req is None else req
    own = vpool is None
    vpool = IDPool() if vpool is None else vpool
    cnf = CNF()
    n = req.n
    m = pair_vars(req, vpool)
    edges = {frozenset(e) for e in req.edges() if e[0] != e[1]}
    edges.update(frozenset(p) for p in m)
    order, later = elimination(n, edges, deadline=deadline)
    cl = cnf.clauses
    # the edges of H, each once as (v, u) with u in later[v]; both directions get a variable,
    # numbered (a, b), (b, a) edge after edge
    h_edges = [(v, u) for v in order for u in later[v]]
    names = [("lt", a, b) for v, u in h_edges for a, b in ((v, u), (u, v))]
    ids = _fresh_ids(vpool, names) if own else [vpool.id(k) for k in names]
    lt: dict[tuple[int, int], int] = dict(zip([k[1:] for k in names], ids))
    E = np.array(h_edges, dtype=np.int64).reshape(-1, 2)
    XY = np.array(ids, dtype=np.int64).reshape(-1, 2)
    X, Y = XY[:, 0], XY[:, 1]
    lookup = _indexer(n, np.concatenate([E[:, 0], E[:, 1]]), np.concatenate([E[:, 1], E[:, 0]]), XY.T.ravel())
    P = np.array(sorted(m), dtype=np.int64).reshape(-1, 2)
    M = np.array([m[p] for p in sorted(m)], dtype=np.int64)
    # the pair variable of {u, w}, or 0 when they are no candidate pair
    pair_of = _indexer(n, np.concatenate([P[:, 0], P[:, 1]]), np.concatenate([P[:, 1], P[:, 0]]), np.tile(M, 2))
    if h_edges:
        cl.extend(np.stack([-X, -Y], axis=1).tolist())  # no 2-cycle
        # a strict edge inside a chosen pair is impossible
        tie = pair_of(E[:, 0], E[:, 1])
        on = tie != 0
        cl.extend(np.stack([-tie[on], -X[on]], axis=1).tolist())
        cl.extend(np.stack([-tie[on], -Y[on]], axis=1).tolist())
    # triangles through each eliminated tile: u -> v -> w gives u -> w (a tie at v too)
    # (E lists later[v] for v in order: block i holds the k_i later neighbours of order[i])
    k = np.array([len(later[v]) for v in order], dtype=np.int64)
    sq = k * k
    # the size, known before any triangle is made: the clauses above, then per ordered
    # triangle (u, v, w) one clause, and one more for each tie at v
    on_h = pair_of(E[:, 0], E[:, 1]) != 0 if h_edges else np.zeros(0, dtype=bool)
    k_of_edge = np.repeat(k, k)  # E's rows in blocks, k_i rows for order[i]
    triangles = int((sq - k).sum())
    tied = int(np.maximum(k_of_edge[on_h] - 1, 0).sum())
    check_build_size(sum(len(c) for c in cl) + 3 * triangles + 6 * tied, "acyclic encoding")
    starts, csq = np.cumsum(k) - k, np.cumsum(sq)
    lo = 0
    while lo < len(order):  # blocks of tiles with about _CHUNK triangles each
        hi = max(int(np.searchsorted(csq, (csq[lo - 1] if lo else 0) + _CHUNK, side="right")), lo + 1)
        check_deadline(deadline, "acyclic encoding: transitivity clauses")
        kb, sqb = k[lo:hi], sq[lo:hi]
        block = np.repeat(np.arange(hi - lo), sqb)
        local = np.arange(int(sqb.sum())) - np.repeat(np.cumsum(sqb) - sqb, sqb)
        first = starts[lo:hi][block]
        iu, iw = first + local // kb[block], first + local % kb[block]  # u outer, w inner
        keep = iu != iw
        iu, iw = iu[keep], iw[keep]
        lo = hi
        if not len(iu):
            continue
        U, V, W = E[iu, 1], E[iu, 0], E[iw, 1]
        uv, vw, uw = lookup(U, V), lookup(V, W), lookup(U, W)
        t_vw, t_uv = pair_of(V, W), pair_of(U, V)
        on_vw, on_uv = t_vw != 0, t_uv != 0
        for rows in (
            np.stack([-uv, -vw, uw], axis=1),
            np.stack([-uv[on_vw], -t_vw[on_vw], uw[on_vw]], axis=1),
            np.stack([-t_uv[on_uv], -vw[on_uv], uw[on_uv]], axis=1),
        ):
            cl.extend(rows.tolist())

    def var(u: int, v: int) -> int:
        return lt[(u, v)]

    add_precedence(cnf, req, m, vpool, var)
    add_matching(cnf, req, m, vpool)
    cnf.nv = max(cnf.nv, vpool.top)
    if own:  # every name of a pool of our own is a tuple
        keys = dict(vpool.obj2id)
    else:
        keys = {k: v for k, v in vpool.obj2id.items() if isinstance(k, tuple)}
    return cnf, AcyclicDecoder(keys, {"exhaustive": True, "edges": len(lt) // 2})


class AcyclicDecoder(PrecedenceDecoder):
    """Reads a model of :func:`encode_acyclic`: its precedences are the true
    ``('lt', u, v)`` of the edges of the chordal completion. ``params``: ``exhaustive``
    and ``edges`` (the number of edges)."""

    encoding = "acyclic"
