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

import numpy as np
from pysat.formula import CNF, IDPool

from mjsat.board import Board
from mjsat.encoders.clauses import add_matching, add_precedence, pair_vars
from mjsat.encoders.decoding import Decoder, PrecedenceDecoder
from mjsat.encoders.errors import check_deadline
from mjsat.encoders.requirements import Requirements, requirements

__all__ = ["encode_acyclic", "AcyclicDecoder", "elimination"]

_CHUNK = 1 << 20
"""Clauses turned into Python lists at a time, between two looks at the deadline."""


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
    bit sets: :math:`O(n^2 + \\sum_v |N_v|)` big-integer operations of :math:`n` bits.
    """
    adj = [0] * n  # neighbours as bit sets
    for e in edges:
        u, v = tuple(e)
        adj[u] |= 1 << v
        adj[v] |= 1 << u
    key = [a.bit_count() * n + x for x, a in enumerate(adj)]  # (degree, vertex) as one int
    alive = set(range(n))
    order: list[int] = []
    later: list[list[int]] = [[] for _ in range(n)]
    while alive:
        if len(order) % 64 == 0:
            check_deadline(deadline, "acyclic encoding: elimination order")
        v = min(alive, key=key.__getitem__)
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
        alive.remove(v)
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
        A ``time.perf_counter()`` value; past it the build raises
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
    vpool = IDPool() if vpool is None else vpool
    cnf = CNF()
    n = req.n
    m = pair_vars(req, vpool)
    edges = {frozenset(e) for e in req.edges() if e[0] != e[1]}
    edges.update(frozenset(p) for p in m)
    order, later = elimination(n, edges, deadline=deadline)
    cl = cnf.clauses
    # the edges of H, each once as (v, u) with u in later[v]; both directions get a variable
    h_edges = [(v, u) for v in order for u in later[v]]
    lt: dict[tuple[int, int], int] = {}
    for a, b in h_edges:
        lt[(a, b)] = vpool.id(("lt", a, b))
        lt[(b, a)] = vpool.id(("lt", b, a))
    if h_edges:
        E = np.array(h_edges, dtype=np.int64)
        X = np.array([lt[e] for e in h_edges], dtype=np.int64)
        Y = np.array([lt[(b, a)] for a, b in h_edges], dtype=np.int64)
        cl.extend(np.stack([-X, -Y], axis=1).tolist())  # no 2-cycle
        hkeys = np.concatenate([E[:, 0] * n + E[:, 1], E[:, 1] * n + E[:, 0]])
        hids = np.concatenate([X, Y])
        srt = np.argsort(hkeys)
        hkeys, hids = hkeys[srt], hids[srt]
    pkeys = np.array(sorted(a * n + b for a, b in m) + sorted(b * n + a for a, b in m), dtype=np.int64)
    pids = np.array([m[(k // n, k % n) if k // n < k % n else (k % n, k // n)] for k in pkeys.tolist()], dtype=np.int64)
    srt = np.argsort(pkeys)
    pkeys, pids = pkeys[srt], pids[srt]

    def lookup(u: np.ndarray, w: np.ndarray) -> np.ndarray:
        return hids[np.searchsorted(hkeys, u * n + w)]

    def pair_of(u: np.ndarray, w: np.ndarray) -> np.ndarray:
        """The pair variable of ``{u, w}``, or 0 when they are no candidate pair."""
        if len(pkeys) == 0:
            return np.zeros(len(u), dtype=np.int64)
        k = u * n + w
        i = np.minimum(np.searchsorted(pkeys, k), len(pkeys) - 1)
        return np.where(pkeys[i] == k, pids[i], 0)

    if h_edges:
        # a strict edge inside a chosen pair is impossible
        tie = pair_of(E[:, 0], E[:, 1])
        on = tie != 0
        cl.extend(np.stack([-tie[on], -X[on]], axis=1).tolist())
        cl.extend(np.stack([-tie[on], -Y[on]], axis=1).tolist())
    # triangles through each eliminated tile: u -> v -> w gives u -> w (a tie at v too)
    parts_u, parts_v, parts_w = [], [], []
    for v in order:
        nv = later[v]
        k = len(nv)
        if k < 2:
            continue
        nva = np.array(nv, dtype=np.int64)
        uu = np.repeat(nva, k)
        ww = np.tile(nva, k)
        keep = uu != ww
        parts_u.append(uu[keep])
        parts_w.append(ww[keep])
        parts_v.append(np.full(k * (k - 1), v, dtype=np.int64))
    if parts_u:
        U, V, W = np.concatenate(parts_u), np.concatenate(parts_v), np.concatenate(parts_w)
        uv, vw, uw = lookup(U, V), lookup(V, W), lookup(U, W)
        t_vw, t_uv = pair_of(V, W), pair_of(U, V)
        on_vw, on_uv = t_vw != 0, t_uv != 0
        for rows in (
            np.stack([-uv, -vw, uw], axis=1),
            np.stack([-uv[on_vw], -t_vw[on_vw], uw[on_vw]], axis=1),
            np.stack([-t_uv[on_uv], -vw[on_uv], uw[on_uv]], axis=1),
        ):
            for i in range(0, len(rows), _CHUNK):  # lists of ints are the slow part
                check_deadline(deadline, "acyclic encoding: transitivity clauses")
                cl.extend(rows[i : i + _CHUNK].tolist())

    def var(u: int, v: int) -> int:
        return lt[(u, v)]

    add_precedence(cnf, req, m, vpool, var)
    add_matching(cnf, req, m, vpool)
    cnf.nv = max(cnf.nv, vpool.top)
    keys = {k: v for k, v in vpool.obj2id.items() if isinstance(k, tuple)}
    return cnf, AcyclicDecoder(keys, {"exhaustive": True, "edges": len(lt) // 2})


class AcyclicDecoder(PrecedenceDecoder):
    """Reads a model of :func:`encode_acyclic`: its precedences are the true
    ``('lt', u, v)`` of the edges of the chordal completion. ``params``: ``exhaustive``
    and ``edges`` (the number of edges)."""

    encoding = "acyclic"
