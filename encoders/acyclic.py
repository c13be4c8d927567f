"""Acyclicity by vertex elimination (Rankooh and Rintanen, 2022).

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
* the rules (:func:`mjsat.encoders.common.add_precedence`) and the matching.

Size: :math:`O(E + P)` variables and :math:`O(\\sum_v |N_v|^2)` clauses, where ``E`` and
``|N_v|`` depend on the fill of the elimination (small for the layered, local graphs
of Mahjong layouts: tree-width-like, not :math:`n`).
"""

from __future__ import annotations

from pysat.formula import CNF, IDPool

from mjsat.board import Board
from mjsat.encoders.common import (
    Decoder,
    Requirements,
    add_matching,
    add_precedence,
    pair_vars,
    requirements,
)

__all__ = ["encode_acyclic", "elimination"]


def elimination(n: int, edges: set[frozenset[int]]) -> tuple[list[int], list[list[int]]]:
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
    Greedy minimum degree with fill-in, ties broken by vertex number:
    :math:`O(n^2 + \\sum_v |N_v|^2)` time.
    """
    adj: list[set[int]] = [set() for _ in range(n)]
    for e in edges:
        u, v = tuple(e)
        adj[u].add(v)
        adj[v].add(u)
    alive = set(range(n))
    order: list[int] = []
    later: list[list[int]] = [[] for _ in range(n)]
    while alive:
        v = min(alive, key=lambda x: (len(adj[x]), x))
        nbrs = sorted(adj[v])
        later[v] = nbrs
        for i, u in enumerate(nbrs):
            adj[u].discard(v)
            for w in nbrs[i + 1 :]:
                adj[u].add(w)
                adj[w].add(u)
        alive.remove(v)
        order.append(v)
    return order, later


def encode_acyclic(
    board: Board,
    *,
    vpool: IDPool | None = None,
    req: Requirements | None = None,
) -> tuple[CNF, Decoder]:
    """Encode ``board`` with acyclicity by vertex elimination (exhaustive).

    Parameters
    ----------
    board : Board
        Mahjong, transposed Mahjong or Shisen-Sho.
    vpool : IDPool, optional
    req : Requirements, optional
        Precomputed requirements of the board.

    Returns
    -------
    cnf : pysat.formula.CNF
    decoder : Decoder

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
    order, later = elimination(n, edges)
    lt: dict[tuple[int, int], int] = {}
    cl = cnf.clauses

    def var(u: int, v: int) -> int:
        x = lt.get((u, v))
        if x is None:
            x = lt[(u, v)] = vpool.id(("lt", u, v))
            y = lt[(v, u)] = vpool.id(("lt", v, u))
            cl.append([-x, -y])
            mv = m.get((min(u, v), max(u, v)))
            if mv is not None:
                cl.append([-mv, -x])
                cl.append([-mv, -y])
        return x

    for v in order:
        nv = later[v]
        for u in nv:
            for w in nv:
                if u == w:
                    continue
                uv, vw, uw = var(u, v), var(v, w), var(u, w)
                cl.append([-uv, -vw, uw])
                tie_vw = m.get((min(v, w), max(v, w)))
                if tie_vw is not None:
                    cl.append([-uv, -tie_vw, uw])
                tie_uv = m.get((min(u, v), max(u, v)))
                if tie_uv is not None:
                    cl.append([-tie_uv, -vw, uw])
    for e in edges:  # edges of no triangle still need their variables and 2-cycle clause
        u, v = sorted(e)
        var(u, v)
    add_precedence(cnf, req, m, vpool, var)
    add_matching(cnf, req, m, vpool)
    cnf.nv = max(cnf.nv, vpool.top)
    keys = {k: v for k, v in vpool.obj2id.items() if isinstance(k, tuple)}
    return cnf, Decoder("acyclic", keys, {"exhaustive": True, "edges": len(lt) // 2})
