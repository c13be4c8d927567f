"""numba kernels of the pairing-set search (the algorithm of :mod:`mjsat.search.pairing`).

The kernels see only flat arrays: groups in CSR form (``gptr``/``gidx``), the Mahjong
relations in CSR form (``above``, the two sides, and their reverses), the Shisen-Sho
cells on a grid with its margin, the tables of pairings of 2, 4, 6 and 8 tiles. A
position is a ``uint8`` array of present tiles, a partial pairing set an ``int32`` array
``partner`` (``-1`` for a tile whose group has no pairing yet).

Mahjong apply and scan are event-driven: each tile keeps the number of present tiles
above it and on each side, a removal updates the tiles it touches, and a tile is looked
at again only when it becomes free, so a scan costs :math:`O(n + e)`. Shisen-Sho rounds
over the groups until nothing changes, with the path test of :func:`mjsat.shisen.connectable`
on a flat occupancy grid (those kernels are in :mod:`mjsat.search.kernels_shisen`, the
Mahjong grid's in :mod:`mjsat.search.kernels_sh3d`; this module dispatches on the kind).

The depth-first search is iterative with its whole state in arrays (one row per depth:
position, pairing set, branching group, pairings left to try), so
:func:`mjsat.search.solver.solve_search` can call it in chunks of nodes and look at the
clock in between; so does :func:`mjsat.search.kernels_bondt._bondt`, de Bondt's "pairing one, then two" tree, whose
state is a stack of (group, pairing) entries. The critical-group choice keeps a conflict
weight per group (see :mod:`mjsat.search.pairing`). A pairing of a group of four whose probe failed at a node
is not probed again below it: the relaxed game only loses moves as pairings are added
and tiles go, so the probe would fail again. Every kernel is compiled once per process and cached on
disk (``cache=True``).

A position is a ``uint8`` array rather than a bitset of ``uint64`` words: the search is
group-directed, so positions are copied once per node and never hashed, and byte access
kept the event-driven loops simplest.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from mjsat.result import MethodNotApplicableError
from mjsat.search.kernels_sh3d import sh3d_arrays
from mjsat.search.kernels_shisen import _sh_apply, _sh_ok, _sh_scan
from mjsat.search.pairing import SH3D, SHISEN, Geometry, pairings

__all__ = ["MAX_GROUP", "GroupTooLargeError", "RUNNING", "SOLVED", "EXHAUSTED", "arrays", "workspace"]

MAX_GROUP = 8
"""Largest group the kernels branch on (the pairing tables stop at 105 pairings of 8)."""

RUNNING, SOLVED, EXHAUSTED = 0, 1, 2
_ENTER, _NEXT = 0, 1
_OPEN, _DEAD = 0, 2


class GroupTooLargeError(MethodNotApplicableError):
    """A group of more than :data:`MAX_GROUP` tiles (use ``engine="python"``): the numba
    engine of the method ``search`` does not apply."""

    def __init__(self, reason: str) -> None:
        super().__init__("search", None, reason)


# --------------------------------------------------------------------------- arrays


def _csr(rel: Any) -> tuple[np.ndarray, np.ndarray]:
    ptr = np.zeros(len(rel) + 1, dtype=np.int32)
    ptr[1:] = np.cumsum([len(r) for r in rel])
    idx = np.array([o for r in rel for o in r], dtype=np.int32)
    return ptr, idx


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows: list[np.ndarray] = []
    start = np.zeros(MAX_GROUP // 2 + 1, dtype=np.int32)
    count = np.zeros(MAX_GROUP // 2 + 1, dtype=np.int32)
    for h in range(1, MAX_GROUP // 2 + 1):
        start[h] = len(rows)
        for p in pairings(2 * h):
            row = np.full(MAX_GROUP, -1, dtype=np.int8)
            for i, j in p:
                row[i], row[j] = j, i
            rows.append(row)
        count[h] = len(rows) - start[h]
    return np.array(rows, dtype=np.int8), start, count


_PTAB = _tables()


def arrays(geo: Geometry) -> tuple[Any, ...]:
    """The kernel arguments of a geometry: ``(kind, gr, mj, sh, pt)`` tuples of arrays.

    Raises
    ------
    GroupTooLargeError
        A group has more than :data:`MAX_GROUP` tiles.
    """
    big = max((len(m) for m in geo.members), default=0)
    if big > MAX_GROUP:
        raise GroupTooLargeError(
            f"the numba engine branches on groups of at most {MAX_GROUP} tiles, this board has one of {big}"
            " (use engine='python')"
        )
    group = np.array(geo.group, dtype=np.int32)
    gr = (group, *_csr(geo.members))
    empty = np.zeros(0, dtype=np.int32)
    if geo.kind == SH3D:  # Shisen-Sho on the Mahjong grid: see mjsat.search.kernels_sh3d
        return (np.int64(geo.kind), gr, (np.zeros(1, dtype=np.int32), empty) * 6, sh3d_arrays(geo), _PTAB)
    if geo.kind == SHISEN:
        mj = (np.zeros(1, dtype=np.int32), empty) * 6
        cy = np.array([c[0] for c in geo.cells], dtype=np.int32)
        cx = np.array([c[1] for c in geo.cells], dtype=np.int32)
        sh = (cy, cx, np.int64(geo.shape[0]), np.int64(geo.shape[1]))
    else:
        mj = geo.csr if geo.csr else (
            *_csr(geo.above), *_csr(geo.one), *_csr(geo.two),
            *_csr(geo.covered), *_csr(geo.ones_of), *_csr(geo.twos_of),
        )  # fmt: skip
        sh = (empty, empty, np.int64(1), np.int64(1))
    return (np.int64(geo.kind), gr, mj, sh, _PTAB)


def workspace(n: int, ngroups: int, cells: int) -> tuple[np.ndarray, ...]:
    """Scratch arrays of the kernels for ``n`` tiles, ``ngroups`` groups, a grid of ``cells``."""
    i32 = np.int32
    return (
        np.zeros(n, i32), np.zeros(n, i32), np.zeros(n, i32), np.zeros(n + ngroups + 1, i32), np.zeros(n, np.uint8),
        np.zeros(cells, np.uint8),  # apply: counters above/one/two, queue (a playout requeues), queued, grid
        np.zeros(n, np.uint8), np.zeros(n, i32), np.zeros(n, i32), np.zeros(n, i32), np.zeros(n + 1, i32),
        np.zeros(n, np.uint8), np.zeros(ngroups, np.uint8), np.zeros(ngroups, i32), np.zeros(cells, np.uint8),
        # scan: present, counters, queue, queued, opened, free count, grid
        np.zeros(n * n // 2 + 2, i32),  # random attempts: legal moves
        np.zeros(MAX_GROUP, i32), np.zeros(128, np.uint8),  # search: live tiles, probe results
        np.zeros(n + 1, i32), np.zeros(ngroups + 1, i32), np.zeros(ngroups, np.uint8),
        # Mahjong: removal stack, group stack, group queued
        np.zeros(ngroups, np.float64),  # search: conflict weight of each group
        np.full((ngroups + 2, ngroups), 255, np.uint8),  # search: pairings of 4 still possible, per depth
        np.zeros(1, np.uint64),  # random playouts: xorshift state
    )


# --------------------------------------------------------------------------- Mahjong
# The hot loops below spell the freeness test out instead of calling a helper: a numba
# call that passes arrays costs reference-count traffic that dwarfs the work here.


@njit(cache=True)
def _mj_init(pres, mj, na, no, nt, queue, queued):
    """Count the present tiles above and beside every tile; queue the free ones."""
    aptr, aidx, optr, oidx, tptr, tidx = mj[0], mj[1], mj[2], mj[3], mj[4], mj[5]
    tail = 0
    for t in range(pres.shape[0]):
        queued[t] = 0
        if not pres[t]:
            continue
        c = 0
        for k in range(aptr[t], aptr[t + 1]):
            c += pres[aidx[k]]
        na[t] = c
        c = 0
        for k in range(optr[t], optr[t + 1]):
            c += pres[oidx[k]]
        no[t] = c
        c = 0
        for k in range(tptr[t], tptr[t + 1]):
            c += pres[tidx[k]]
        nt[t] = c
        if c == 0 or no[t] == 0:
            if na[t] == 0:
                queue[tail] = t
                tail += 1
                queued[t] = 1
    return tail


@njit(cache=True)
def _mj_free(t, pres, na, no, nt):
    return pres[t] == 1 and na[t] == 0 and (no[t] == 0 or nt[t] == 0)


@njit(cache=True)
def _mj_loose(t, pres, mj, na, no, nt):
    """True iff present tile ``t`` covers nothing and decides no neighbour's freeness."""
    cptr, cidx, o2ptr, o2idx, t2ptr, t2idx = mj[6], mj[7], mj[8], mj[9], mj[10], mj[11]
    for k in range(cptr[t], cptr[t + 1]):
        if pres[cidx[k]]:
            return False
    for k in range(o2ptr[t], o2ptr[t + 1]):
        u = o2idx[k]
        if pres[u] and nt[u] > 0:
            return False
    for k in range(t2ptr[t], t2ptr[t + 1]):
        u = t2idx[k]
        if pres[u] and no[u] > 0:
            return False
    return True


@njit(cache=True)
def _last_two(g, gr, pres):
    """``(live, a, b)``: how many tiles of group ``g`` are present, and the first two."""
    gptr, gidx = gr[1], gr[2]
    a = -1
    b = -1
    live = 0
    for k in range(gptr[g], gptr[g + 1]):
        u = gidx[k]
        if pres[u]:
            live += 1
            if a < 0:
                a = u
            elif b < 0:
                b = u
    return live, a, b


@njit(cache=True)
def _mj_legal(gr, pres, partner, na, no, nt, legal):
    """The free pairs of present tiles of groups without a pairing, by the counters
    ``na``/``no``/``nt``, as ``a * n + b`` in ``legal[:m]``; returns ``m``."""
    gptr, gidx = gr[1], gr[2]
    n = pres.shape[0]
    m = 0
    for g in range(gptr.shape[0] - 1):
        for k in range(gptr[g], gptr[g + 1]):
            x = gidx[k]
            if pres[x] == 0 or partner[x] >= 0 or not (na[x] == 0 and (no[x] == 0 or nt[x] == 0)):
                continue
            for j in range(k + 1, gptr[g + 1]):
                y = gidx[j]
                if pres[y] == 1 and na[y] == 0 and (no[y] == 0 or nt[y] == 0):
                    legal[m] = x * n + y
                    m += 1
    return m


@njit(cache=True)
def _mj_close(relaxed, gr, mj, pres, partner, moves, mptr, opts, ws):
    """Apply (``relaxed`` 0), scan (``relaxed`` 1) or a random playout (``relaxed`` 2) on
    ``pres``, in place.

    Apply plays the pairs of ``partner`` and the cleaning moves, recording them in
    ``moves`` from ``mptr`` on, and returns the new ``mptr``. Scan plays the relaxed game
    and returns the number of tiles it could not remove. A random playout is an apply
    that, whenever it is stuck, plays a random playable pair of a group without a pairing
    (state in ``ws[23]``) and goes on, keeping its counters: one playout costs about one
    apply, where a fresh apply after every random move cost one apply per move.

    Two more modes start from the counters an apply left in ``ws[0:3]`` for ``pres``, with
    the two tiles ``rs[0]``, ``rs[1]`` (``ws[18]``) just taken off: ``relaxed`` 4 scans
    (``pres`` is the scan's copy, the two tiles already 0 in it) and ``relaxed`` 5 goes on
    with the apply (the two tiles' group is looked at first). A guided playout costs one
    propagation per move instead of one apply per move.
    """
    group, gptr, gidx = gr[0], gr[1], gr[2]
    optr, oidx, tptr, tidx = mj[2], mj[3], mj[4], mj[5]
    cptr, cidx, o2ptr, o2idx, t2ptr, t2idx = mj[6], mj[7], mj[8], mj[9], mj[10], mj[11]
    warm = relaxed == 3 or relaxed == 4  # a scan right after an apply on the same position: copy its counters
    pending = relaxed == 4 or relaxed == 5
    resume = relaxed == 5
    if warm:
        relaxed = 1
    if resume:
        relaxed = 0
    if relaxed == 1:
        na, no, nt, queue, queued = ws[7], ws[8], ws[9], ws[10], ws[11]
    else:
        na, no, nt, queue, queued = ws[0], ws[1], ws[2], ws[3], ws[4]
    rs = ws[18]
    opened, nfree, gstack, gq = ws[12], ws[13], ws[19], ws[20]
    ngroups = gptr.shape[0] - 1
    left = 0
    for t in range(pres.shape[0]):
        left += pres[t]
    for g in range(ngroups):
        opened[g] = 0
        nfree[g] = 0
        gq[g] = 0
    if warm:
        na[:] = ws[0]
        no[:] = ws[1]
        nt[:] = ws[2]
        tail = 0
        for t in range(pres.shape[0]):
            queued[t] = 0
            if pres[t] == 1 and na[t] == 0 and (no[t] == 0 or nt[t] == 0):
                queue[tail] = t
                tail += 1
                queued[t] = 1
    elif resume:
        tail = 0
    else:
        tail = _mj_init(pres, mj, na, no, nt, queue, queued)
    head = 0
    rtop = 2 if pending else 0
    gtop = 0
    if resume:  # the group of the two tiles just taken: its last two may go now
        g = group[rs[0]]
        gq[g] = 1
        gstack[0] = g
        gtop = 1
        for k in range(gptr[g], gptr[g + 1]):
            u = gidx[k]
            if pres[u] == 1 and na[u] == 0 and (no[u] == 0 or nt[u] == 0):
                queue[tail] = u
                tail += 1
                queued[u] = 1
    ev = 1 if (opts[1] and relaxed != 1) else 0
    if ev and not resume:  # the loose-tile rule looks at every group once, then by events:
        # removing x changes the looseness only of x's row neighbours and of their
        # neighbours on the far side (the tiles a tile lies on cannot go while it is
        # there), so only their groups are looked at again
        for g in range(ngroups):
            if gq[g] == 0:
                gq[g] = 1
                gstack[gtop] = g
                gtop += 1
    while True:
        if rtop > 0:  # propagate a removal to the tiles it touches
            rtop -= 1
            x = rs[rtop]
            for k in range(cptr[x], cptr[x + 1]):
                u = cidx[k]
                na[u] -= 1
                if pres[u] == 1 and queued[u] == 0 and na[u] == 0 and (no[u] == 0 or nt[u] == 0):
                    queue[tail] = u
                    tail += 1
                    queued[u] = 1
            for k in range(o2ptr[x], o2ptr[x + 1]):
                u = o2idx[k]
                no[u] -= 1
                if pres[u] == 1 and queued[u] == 0 and na[u] == 0 and (no[u] == 0 or nt[u] == 0):
                    queue[tail] = u
                    tail += 1
                    queued[u] = 1
                if ev and pres[u] == 1:
                    for j in range(tptr[u] - 1, tptr[u + 1]):  # u itself, then the tiles beyond it
                        w = u if j < tptr[u] else tidx[j]
                        if pres[w] == 1 and gq[group[w]] == 0:
                            gq[group[w]] = 1
                            gstack[gtop] = group[w]
                            gtop += 1
            for k in range(t2ptr[x], t2ptr[x + 1]):
                u = t2idx[k]
                nt[u] -= 1
                if pres[u] == 1 and queued[u] == 0 and na[u] == 0 and (no[u] == 0 or nt[u] == 0):
                    queue[tail] = u
                    tail += 1
                    queued[u] = 1
                if ev and pres[u] == 1:
                    for j in range(optr[u] - 1, optr[u + 1]):
                        w = u if j < optr[u] else oidx[j]
                        if pres[w] == 1 and gq[group[w]] == 0:
                            gq[group[w]] = 1
                            gstack[gtop] = group[w]
                            gtop += 1
            continue
        if head < tail:  # a tile became free
            t = queue[head]
            head += 1
            if pres[t] == 0:
                continue
            p = partner[t]
            if p >= 0:
                if pres[p] == 1 and na[p] == 0 and (no[p] == 0 or nt[p] == 0):
                    pres[t] = 0
                    pres[p] = 0
                    rs[rtop] = t
                    rs[rtop + 1] = p
                    rtop += 2
                    left -= 2
                    if relaxed != 1:
                        moves[mptr, 0] = min(t, p)
                        moves[mptr, 1] = max(t, p)
                        mptr += 1
                continue
            g = group[t]
            if relaxed == 1:
                if opened[g]:
                    pres[t] = 0
                    rs[rtop] = t
                    rtop += 1
                    left -= 1
                    continue
                nfree[g] += 1
                if nfree[g] >= 2:
                    opened[g] = 1
                    for k in range(gptr[g], gptr[g + 1]):
                        u = gidx[k]
                        if pres[u] == 1 and na[u] == 0 and (no[u] == 0 or nt[u] == 0):
                            pres[u] = 0
                            rs[rtop] = u
                            rtop += 1
                            left -= 1
            elif gq[g] == 0:
                gq[g] = 1
                gstack[gtop] = g
                gtop += 1
            continue
        if gtop > 0:  # cleaning rules on a group without a pairing (apply only)
            gtop -= 1
            g = gstack[gtop]
            gq[g] = 0
            live = 0
            nf = 0
            assigned = False
            for k in range(gptr[g], gptr[g + 1]):
                u = gidx[k]
                if pres[u] == 1:
                    live += 1
                    if partner[u] >= 0:
                        assigned = True
                    if na[u] == 0 and (no[u] == 0 or nt[u] == 0):
                        nf += 1
            if assigned or live < 4:
                continue
            if opts[0] and nf == live:  # freeze: any pairing does
                first = -1
                for k in range(gptr[g], gptr[g + 1]):
                    u = gidx[k]
                    if pres[u] == 1:
                        pres[u] = 0
                        rs[rtop] = u
                        rtop += 1
                        if first < 0:
                            first = u
                        else:
                            moves[mptr, 0] = first
                            moves[mptr, 1] = u
                            mptr += 1
                            first = -1
                left -= live
            elif opts[1] and live == 4 and nf == 3:  # a loose tile waits for the fourth
                loose = -1
                for k in range(gptr[g], gptr[g + 1]):
                    u = gidx[k]
                    if pres[u] == 1 and na[u] == 0 and (no[u] == 0 or nt[u] == 0):
                        if _mj_loose(u, pres, mj, na, no, nt):
                            loose = u
                            break
                if loose < 0:
                    continue
                last = -1
                first = -1
                for k in range(gptr[g], gptr[g + 1]):
                    u = gidx[k]
                    if pres[u] == 0 or u == loose:
                        continue
                    if not (na[u] == 0 and (no[u] == 0 or nt[u] == 0)):
                        last = u
                        continue
                    pres[u] = 0
                    rs[rtop] = u
                    rtop += 1
                    if first < 0:
                        first = u
                    else:
                        moves[mptr, 0] = first
                        moves[mptr, 1] = u
                        mptr += 1
                left -= 2
                partner[loose] = last
                partner[last] = loose
            continue
        if relaxed == 2 and left > 0:  # random playout: a random playable pair
            legal = ws[15]
            n = pres.shape[0]
            m = _mj_legal(gr, pres, partner, na, no, nt, legal)
            if m == 0:
                break
            pick = legal[np.int64(_xorshift(ws[23]) % np.uint64(m))]
            x, y = pick // n, pick % n
            pres[x] = 0
            pres[y] = 0
            rs[rtop] = x
            rs[rtop + 1] = y
            rtop += 2
            left -= 2
            moves[mptr, 0] = x
            moves[mptr, 1] = y
            mptr += 1
            g = group[x]
            live, a, b = _last_two(g, gr, pres)
            if live == 2:  # the last two go together: look at them again
                partner[a] = b
                partner[b] = a
                queued[a] = 0
                queued[b] = 0
                if na[a] == 0 and (no[a] == 0 or nt[a] == 0):
                    queue[tail] = a
                    tail += 1
                    queued[a] = 1
            elif gq[g] == 0:
                gq[g] = 1
                gstack[gtop] = g
                gtop += 1
            continue
        break
    return left if relaxed == 1 else mptr


@njit(cache=True)
def _mj_apply(gr, mj, pres, partner, moves, mptr, opts, ws):
    return _mj_close(False, gr, mj, pres, partner, moves, mptr, opts, ws)


@njit(cache=True)
def _mj_scan(gr, mj, pres, partner, moves, opts, ws):
    ps = ws[6]
    ps[:] = pres
    return _mj_close(True, gr, mj, ps, partner, moves, 0, opts, ws) == 0


@njit(cache=True)
def _mj_scan_warm(gr, mj, pres, partner, moves, opts, ws):
    """:func:`_mj_scan` right after :func:`_mj_apply` on the same ``pres`` (its counters
    are copied instead of counted again)."""
    ps = ws[6]
    ps[:] = pres
    return _mj_close(3, gr, mj, ps, partner, moves, 0, opts, ws) == 0


@njit(cache=True)
def _autopair(gr, pres, partner):
    """Pair the last two tiles of every group that has no pairing yet."""
    for g in range(gr[1].shape[0] - 1):
        live, a, b = _last_two(g, gr, pres)
        if live == 2 and partner[a] < 0:
            partner[a] = b
            partner[b] = a


# --------------------------------------------------------------------------- dispatch


@njit(cache=True)
def _apply(kind, gr, mj, sh, pres, partner, moves, mptr, opts, ws):
    if kind == 1 or kind == 2:
        return _sh_apply(kind == 2, gr, sh, pres, partner, moves, mptr, opts, ws)
    return _mj_apply(gr, mj, pres, partner, moves, mptr, opts, ws)


@njit(cache=True)
def _scan(kind, gr, mj, sh, pres, partner, moves, opts, ws):
    if kind == 1 or kind == 2:
        return _sh_scan(kind == 2, gr, sh, pres, partner, ws)
    return _mj_scan(gr, mj, pres, partner, moves, opts, ws)


@njit(cache=True)
def _playable(kind, a, b, pres, sh, ws):
    """After an apply on ``pres``: can present tiles ``a`` and ``b`` go together now?"""
    if kind == 1 or kind == 2:
        return _sh_ok(kind == 2, a, b, sh, ws[5])
    return _mj_free(a, pres, ws[0], ws[1], ws[2]) and _mj_free(b, pres, ws[0], ws[1], ws[2])


@njit(cache=True)
def _xorshift(state):
    x = state[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    state[0] = x
    return x


@njit(cache=True)
def _legal_moves(kind, gr, sh, pres, partner, ws, legal):
    """After an apply on ``pres``: the playable pairs of present tiles of groups without a
    pairing, as ``a * n + b`` in ``legal[:m]``; returns ``m``."""
    if kind == 0:  # the apply's free-test counters
        return _mj_legal(gr, pres, partner, ws[0], ws[1], ws[2], legal)
    gptr, gidx = gr[1], gr[2]
    n = pres.shape[0]
    m = 0
    for g in range(gptr.shape[0] - 1):
        for k in range(gptr[g], gptr[g + 1]):
            x = gidx[k]
            if not pres[x] or partner[x] >= 0:
                continue
            for j in range(k + 1, gptr[g + 1]):
                y = gidx[j]
                if pres[y] and _playable(kind, x, y, pres, sh, ws):
                    legal[m] = x * n + y
                    m += 1
    return m


@njit(cache=True)
def _fresh_playouts(guided, kind, gr, mj, sh, opts, count, rng, pres, partner, moves, ws):
    """Random playouts with a fresh apply after every random move (any game); ``guided``:
    a random move is kept only when the pruning scan still clears the position after it,
    another one is drawn otherwise. The number of the playout that cleared, or -1."""
    legal = ws[15]
    n = pres.shape[0]
    for a in range(count):
        pres[:] = 1
        partner[:] = -1
        _autopair(gr, pres, partner)
        mptr = 0
        while True:
            mptr = _apply(kind, gr, mj, sh, pres, partner, moves, mptr, opts, ws)
            if 2 * mptr == n:
                return a
            m = _legal_moves(kind, gr, sh, pres, partner, ws, legal)
            x = -1
            y = -1
            while m > 0:
                i = np.int64(_xorshift(rng) % np.uint64(m))
                x, y = legal[i] // n, legal[i] % n
                pres[x] = 0
                pres[y] = 0
                if not guided or _scan(kind, gr, mj, sh, pres, partner, moves, opts, ws):
                    break
                pres[x] = 1
                pres[y] = 1
                x = -1
                m -= 1
                legal[i] = legal[m]
            if x < 0:
                break
            moves[mptr, 0] = x
            moves[mptr, 1] = y
            mptr += 1
            _autopair(gr, pres, partner)
    return -1


@njit(cache=True)
def _attempts(kind, gr, mj, sh, opts, count, rng, pres, partner, moves, ws):
    """Random playouts with the cleaning rules; the number of the one that cleared, or -1."""
    n = pres.shape[0]
    if kind == 0 and opts[4]:  # Mahjong: one incremental playout each (see _mj_close)
        ws[23][0] = rng[0]
        for a in range(count):
            pres[:] = 1
            partner[:] = -1
            _autopair(gr, pres, partner)
            if 2 * _mj_close(2, gr, mj, pres, partner, moves, 0, opts, ws) == n:
                rng[0] = ws[23][0]
                return a
        rng[0] = ws[23][0]
        return -1
    return _fresh_playouts(False, kind, gr, mj, sh, opts, count, rng, pres, partner, moves, ws)


# --------------------------------------------------------------------------- the search


@njit(cache=True)
def _node(d, kind, gr, mj, sh, pt, opts, P, Q, bg, bgr, allow, moves, mptr, ws):
    """Apply, scan and choose the branching group of the node at depth ``d``.

    Returns ``(code, mptr, scans)`` with code ``_OPEN`` (children to try), ``_DEAD`` or
    ``SOLVED``.
    """
    ptab, pstart, pcount = pt[0], pt[1], pt[2]
    gptr, gidx = gr[1], gr[2]
    tmp, okk, weight, dom = ws[16], ws[17], ws[21], ws[22]
    pres = P[d]
    partner = Q[d]
    n = pres.shape[0]
    scans = 0
    while True:
        mptr = _apply(kind, gr, mj, sh, pres, partner, moves, mptr, opts, ws)
        if 2 * mptr == n:
            return SOLVED, mptr, scans
        if opts[2]:
            scans += 1
            if not _scan(kind, gr, mj, sh, pres, partner, moves, opts, ws):
                if d > 0:
                    weight[gr[0][bg[d - 1, 0]]] += 1.0
                return _DEAD, mptr, scans
        best_count = 1 << 30
        best_score = 1e300
        forced = False
        order = np.argsort(-weight, kind="mergesort")  # likely failures first: dead nodes end early
        for g in order:
            r = 0
            for k in range(gptr[g], gptr[g + 1]):
                t = gidx[k]
                if pres[t]:
                    if partner[t] >= 0:
                        r = -1
                        break
                    tmp[r] = t
                    r += 1
            if r <= 0:
                continue
            base = pstart[r // 2]
            cnt = pcount[r // 2]
            if not opts[3]:
                for i in range(r):
                    for j in range(i + 1, r):
                        if _playable(kind, tmp[i], tmp[j], pres, sh, ws):
                            for q in range(r):
                                bg[d, q] = tmp[q]
                            bgr[d] = r
                            allow[d, :cnt] = 1
                            return _OPEN, mptr, scans
                continue
            c = 0
            last = 0
            mask = dom[d, g] if r == 4 else 255
            for k in range(cnt):
                if r == 4 and not (mask >> k) & 1:  # failed at an ancestor: fails here too
                    okk[k] = 0
                    weight[g] += 1.0
                    continue
                for i in range(r):
                    partner[tmp[i]] = tmp[ptab[base + k, i]]
                scans += 1
                if kind == 0 and opts[5]:
                    ok = _mj_scan_warm(gr, mj, pres, partner, moves, opts, ws)
                else:
                    ok = _scan(kind, gr, mj, sh, pres, partner, moves, opts, ws)
                for i in range(r):
                    partner[tmp[i]] = -1
                okk[k] = 1 if ok else 0
                if ok:
                    c += 1
                    last = k
                else:
                    weight[g] += 1.0
            if r == 4:
                dom[d, g] = okk[0] | (okk[1] << 1) | (okk[2] << 2)
            if c == 0:
                return _DEAD, mptr, scans
            if c == 1:
                for i in range(r):
                    partner[tmp[i]] = tmp[ptab[base + last, i]]
                forced = True
            elif c / (1.0 + weight[g]) < best_score:
                best_count = c
                best_score = c / (1.0 + weight[g])
                for q in range(r):
                    bg[d, q] = tmp[q]
                bgr[d] = r
                allow[d, :cnt] = okk[:cnt]
        if forced:
            continue
        if not opts[3] or best_count == 1 << 30:
            return _DEAD, mptr, scans
        return _OPEN, mptr, scans


@njit(cache=True)
def _dfs(kind, gr, mj, sh, pt, opts, P, Q, bg, bgr, allow, nxt, mend, moves, st, budget, ws):
    """Run the depth-first search for at most ``budget`` nodes from the state in ``st``.

    ``st`` holds ``depth, mode, nodes, scans, moves`` and is updated, so that a call
    with code ``RUNNING`` can be followed by another one that goes on where it stopped.
    """
    ptab, pstart, pcount = pt[0], pt[1], pt[2]
    d = st[0]
    mode = st[1]
    nodes = st[2]
    stop = nodes + budget
    code = RUNNING
    while True:
        if mode == _ENTER:
            if nodes >= stop:
                break
            nodes += 1
            mptr = mend[d - 1] if d > 0 else 0
            res, mptr, sc = _node(d, kind, gr, mj, sh, pt, opts, P, Q, bg, bgr, allow, moves, mptr, ws)
            st[3] += sc
            if res == SOLVED:
                st[4] = mptr
                code = SOLVED
                break
            if res == _DEAD:
                d -= 1
                mode = _NEXT
                if d < 0:
                    code = EXHAUSTED
                    break
                continue
            mend[d] = mptr
            nxt[d] = 0
            mode = _NEXT
        else:
            r = bgr[d]
            base = pstart[r // 2]
            cnt = pcount[r // 2]
            k = nxt[d]
            while k < cnt and not allow[d, k]:
                k += 1
            if k >= cnt:
                d -= 1
                if d < 0:
                    code = EXHAUSTED
                    break
                continue
            nxt[d] = k + 1
            P[d + 1, :] = P[d, :]
            ws[22][d + 1, :] = ws[22][d, :]
            Q[d + 1, :] = Q[d, :]
            for i in range(r):
                Q[d + 1, bg[d, i]] = bg[d, ptab[base + k, i]]
            d += 1
            mode = _ENTER
    st[0] = d
    st[1] = mode
    st[2] = nodes
    return code


# --------------------------------------------------------------------------- guided playouts


@njit(cache=True)
def _mj_guided(gr, mj, sh, opts, count, rng, pres, partner, moves, ws):
    """:func:`_guided` for Mahjong with incremental counters (``opts[4]``): each move is
    one warm scan per candidate and one propagation (modes 4 and 5 of :func:`_mj_close`)."""
    legal = ws[15]
    rs = ws[18]
    ps = ws[6]
    group = gr[0]
    n = pres.shape[0]
    for a in range(count):
        pres[:] = 1
        partner[:] = -1
        _autopair(gr, pres, partner)
        mptr = _mj_close(0, gr, mj, pres, partner, moves, 0, opts, ws)
        while True:
            if 2 * mptr == n:
                return a
            m = _legal_moves(0, gr, sh, pres, partner, ws, legal)
            x = -1
            y = -1
            while m > 0:
                i = np.int64(_xorshift(rng) % np.uint64(m))
                x, y = legal[i] // n, legal[i] % n
                ps[:] = pres
                ps[x] = 0
                ps[y] = 0
                rs[0] = x
                rs[1] = y
                if _mj_close(4, gr, mj, ps, partner, moves, 0, opts, ws) == 0:
                    break
                x = -1
                m -= 1
                legal[i] = legal[m]
            if x < 0:
                break
            pres[x] = 0
            pres[y] = 0
            moves[mptr, 0] = x
            moves[mptr, 1] = y
            mptr += 1
            live, p, q = _last_two(group[x], gr, pres)
            if live == 2:  # the last two go together
                partner[p] = q
                partner[q] = p
            rs[0] = x
            rs[1] = y
            mptr = _mj_close(5, gr, mj, pres, partner, moves, mptr, opts, ws)
    return -1


@njit(cache=True)
def _guided(kind, gr, mj, sh, opts, count, rng, pres, partner, moves, ws):
    """Random playouts in which a random move is kept only when the pruning scan still
    clears the position after it (another one is drawn otherwise); the number of the
    playout that cleared the board, or -1. About 0.7 ms per playout on the turtle with a
    fresh apply per move, about 0.45 ms incrementally (Mahjong, ``opts[4]``)."""
    if kind == 0 and opts[4]:
        return _mj_guided(gr, mj, sh, opts, count, rng, pres, partner, moves, ws)
    return _fresh_playouts(True, kind, gr, mj, sh, opts, count, rng, pres, partner, moves, ws)
