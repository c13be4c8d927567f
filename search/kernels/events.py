"""The Mahjong event loops and their entry points, one kernel per job.

Two loops, sharing one propagation helper (:func:`_propagate`: a tile taken off updates
the freeness counters of the tiles it touches and queues those that come free):

* :func:`_relax` plays the relaxed game of the pruning scan: a tile goes once it is free
  and its group has shown two free tiles (or with its partner, once both are free);
* :func:`_play` plays the pairs of ``partner`` and the cleaning rules (the apply), and in a
  random playout a random playable pair whenever it is stuck.

Each job is an entry point that sets up where its loop starts and calls it: the apply
(:func:`_mj_apply`, and :func:`_mj_apply_after_move` from the counters the last apply
left), the playouts (:func:`_mj_playout`, :func:`_mj_playout_again` from the state kept at
the first draw, :func:`_mj_playout_on` after moves already made), and the scans
(:func:`_mj_scan`, :func:`_mj_scan_after_move` from the apply's counters, and the probes'
:func:`_mj_scan_hold` and :func:`_mj_scan_resume`). The relaxed game is a closure of
monotone rules (a tile once free stays free while present, a group once opened stays
open), so its result does not depend on the order of removals: the hold scan's removals are
a prefix of every probe's, and each probe costs only what follows them.

Part of the package :mod:`mjsat.search.kernels`; its docstring names the arguments.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mjsat.search.config import (
    JIT_FLAGS,
    PLAYOUT_ROWS,
    PLAYOUT_UNIFORM,
    R_FREEZE,
    R_FREEZE_PAIR,
    R_LOOSE,
    R_LOOSE_PAIR,
    R_PLAYOUT,
    W_ABOVE,
    W_FREE_SEEN,
    W_GROUP_QUEUED,
    W_GROUP_STACK,
    W_LEGAL,
    W_ONE,
    W_OPENED,
    W_PLAYOUT_START,
    W_QUEUE,
    W_QUEUED,
    W_REMOVED,
    W_RNG,
    W_RUNS,
    W_SCAN_ABOVE,
    W_SCAN_ONE,
    W_SCAN_PRESENT,
    W_SCAN_QUEUE,
    W_SCAN_QUEUED,
    W_SCAN_TWO,
    W_STACKED,
    W_TWO,
)
from mjsat.search.kernels.draws import _doomed, _playout_start, _xorshift
from mjsat.search.kernels.mahjong import (
    _PAIR_CLEAR,
    _PAIR_NONE,
    _REDRAWS,
    _last_two,
    _mj_init,
    _mj_legal,
    _mj_loose,
    _mj_pair_rules,
    _queue_free,
)

# --------------------------------------------------------------------------- the shared parts


@njit(**JIT_FLAGS)
def _propagate(x, group, mj, pres, na, no, nt, queue, queued, tail, gq, gstack, gtop, nv, ev):
    """Take the removal of tile ``x`` into the counters of the tiles it touches.

    Parameters
    ----------
    x : int
        The tile taken off (already 0 in ``pres``).
    group : int32[n]
        The group of each tile (``gr[0]``).
    mj, pres : see the module docstring of :mod:`mjsat.search.kernels`.
    na, no, nt : int32[n]
        Present tiles above each tile and on its two sides, updated.
    queue : int32[...]
        The tiles that came free, appended from ``tail``.
    queued : uint8[n]
        1 for a tile in ``queue``.
    tail : int
        The length of ``queue``.
    gq : uint8[G]
        1 for a group on ``gstack``.
    gstack : int32[G + 1]
        The groups whose cleaning rules are to be tried, pushed from ``gtop``.
    gtop : int
        The height of ``gstack``.
    nv : int
        1: push the group of every present tile whose counter changed (the rules that
        look one pair ahead).
    ev : int
        1: push the groups of a side neighbour and of the tiles beyond it (the loose-tile
        rule: removing ``x`` changes the looseness only of those).

    Returns
    -------
    tuple of int
        The new ``(tail, gtop)``.
    """
    optr, oidx, tptr, tidx = mj[2], mj[3], mj[4], mj[5]
    cptr, cidx, o2ptr, o2idx, t2ptr, t2idx = mj[6], mj[7], mj[8], mj[9], mj[10], mj[11]
    for k in range(cptr[x], cptr[x + 1]):
        u = cidx[k]
        na[u] -= 1
        if pres[u] == 1 and queued[u] == 0 and na[u] == 0 and (no[u] == 0 or nt[u] == 0):
            queue[tail] = u
            tail += 1
            queued[u] = 1
        if nv and pres[u] == 1 and gq[group[u]] == 0:
            gq[group[u]] = 1
            gstack[gtop] = group[u]
            gtop += 1
    for k in range(o2ptr[x], o2ptr[x + 1]):
        u = o2idx[k]
        no[u] -= 1
        if pres[u] == 1 and queued[u] == 0 and na[u] == 0 and (no[u] == 0 or nt[u] == 0):
            queue[tail] = u
            tail += 1
            queued[u] = 1
        if nv and pres[u] == 1 and gq[group[u]] == 0:
            gq[group[u]] = 1
            gstack[gtop] = group[u]
            gtop += 1
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
        if nv and pres[u] == 1 and gq[group[u]] == 0:
            gq[group[u]] = 1
            gstack[gtop] = group[u]
            gtop += 1
        if ev and pres[u] == 1:
            for j in range(optr[u] - 1, optr[u + 1]):
                w = u if j < optr[u] else oidx[j]
                if pres[w] == 1 and gq[group[w]] == 0:
                    gq[group[w]] = 1
                    gstack[gtop] = group[w]
                    gtop += 1
    return tail, gtop


@njit(**JIT_FLAGS)
def _fresh(pres, opened, nfree, gq, clear):
    """Start a loop: no group on the stack (``gq``), and with ``clear`` no group opened and
    no free tile seen (``opened``, ``nfree``: ``uint8[G]``, ``int32[G]``); the number of
    present tiles of ``pres``."""
    for g in range(gq.shape[0]):
        if clear:
            opened[g] = 0
            nfree[g] = 0
        gq[g] = 0
    left = 0
    for t in range(pres.shape[0]):
        left += pres[t]
    return left


@njit(**JIT_FLAGS)
def _warm(ps, na0, no0, nt0, na, no, nt, queue, queued):
    """Start a scan from the counters an apply left (``na0``, ``no0``, ``nt0``, copied into
    the scan's ``na``, ``no``, ``nt``) on the scan's copy ``ps`` of the apply's position:
    queue its free tiles; the length of ``queue``."""
    na[:] = na0
    no[:] = no0
    nt[:] = nt0
    tail = 0
    for t in range(ps.shape[0]):
        queued[t] = 0
        if ps[t] == 1 and na[t] == 0 and (no[t] == 0 or nt[t] == 0):
            queue[tail] = t
            tail += 1
            queued[t] = 1
    return tail


# --------------------------------------------------------------------------- the relaxed game


@njit(**JIT_FLAGS)
def _relax(gr, mj, ps, partner, ws, skip, tail, rtop, left):
    """The loop of the pruning scan on ``ps`` (the scan's copy of a position), in place,
    with the scan's counters of ``ws`` as its entry point left them.

    Parameters
    ----------
    gr, mj, partner, ws : see the module docstring of :mod:`mjsat.search.kernels`.
    ps : uint8[n]
        The scan's position, changed in place.
    skip : int
        A group whose tiles are passed over when they come free (the hold scan), or -1.
    tail : int
        The tiles queued in ``ws[W_SCAN_QUEUE]``.
    rtop : int
        The removals in ``ws[W_REMOVED]`` not propagated yet.
    left : int
        The tiles present.

    Returns
    -------
    int
        The tiles the relaxed game could not remove (0: it clears the position).
    """
    group, gptr, gidx = gr[0], gr[1], gr[2]
    na, no, nt, queue, queued = ws[W_SCAN_ABOVE], ws[W_SCAN_ONE], ws[W_SCAN_TWO], ws[W_SCAN_QUEUE], ws[W_SCAN_QUEUED]
    rs, opened, nfree = ws[W_REMOVED], ws[W_OPENED], ws[W_FREE_SEEN]
    gq, gstack = ws[W_GROUP_QUEUED], ws[W_GROUP_STACK]
    head = 0
    gtop = 0
    while True:
        if rtop > 0:  # propagate a removal to the tiles it touches
            rtop -= 1
            tail, gtop = _propagate(rs[rtop], group, mj, ps, na, no, nt, queue, queued, tail, gq, gstack, gtop, 0, 0)
            continue
        if head < tail:  # a tile became free
            t = queue[head]
            head += 1
            if ps[t] == 0 or group[t] == skip:
                continue
            p = partner[t]
            if p >= 0:
                if ps[p] == 1 and na[p] == 0 and (no[p] == 0 or nt[p] == 0):
                    ps[t] = 0
                    ps[p] = 0
                    rs[rtop] = t
                    rs[rtop + 1] = p
                    rtop += 2
                    left -= 2
                continue
            g = group[t]
            if opened[g]:
                ps[t] = 0
                rs[rtop] = t
                rtop += 1
                left -= 1
                continue
            nfree[g] += 1
            if nfree[g] >= 2:
                opened[g] = 1
                for k in range(gptr[g], gptr[g + 1]):
                    u = gidx[k]
                    if ps[u] == 1 and na[u] == 0 and (no[u] == 0 or nt[u] == 0):
                        ps[u] = 0
                        rs[rtop] = u
                        rtop += 1
                        left -= 1
            continue
        break
    return left


@njit(**JIT_FLAGS)
def _mj_scan(gr, mj, pres, partner, moves, opts, ws):
    """The pruning scan (Mahjong) on a copy of ``pres`` in ``ws[W_SCAN_PRESENT]``: True
    when the relaxed game clears it. ``moves`` and ``opts`` are not read (the arguments of
    :func:`_mj_apply`, so that the dispatch passes them alike); the others: see the module
    docstring of :mod:`mjsat.search.kernels`."""
    ps = ws[W_SCAN_PRESENT]
    ps[:] = pres
    left = _fresh(ps, ws[W_OPENED], ws[W_FREE_SEEN], ws[W_GROUP_QUEUED], True)
    tail = _mj_init(ps, mj, ws[W_SCAN_ABOVE], ws[W_SCAN_ONE], ws[W_SCAN_TWO], ws[W_SCAN_QUEUE], ws[W_SCAN_QUEUED])
    return _relax(gr, mj, ps, partner, ws, -1, tail, 0, left) == 0


@njit(**JIT_FLAGS)
def _mj_scan_after_move(gr, mj, ps, partner, moves, opts, ws):
    """The pruning scan of the position the last :func:`_mj_apply` (or
    :func:`_mj_apply_after_move`) left, less the move ``ws[W_REMOVED][:2]``: ``ps`` is the
    scan's copy with the two tiles already 0, the apply's counters are copied, not counted
    again. True when the relaxed game clears it. Arguments as :func:`_mj_scan`."""
    left = _fresh(ps, ws[W_OPENED], ws[W_FREE_SEEN], ws[W_GROUP_QUEUED], True)
    tail = _warm(
        ps, ws[W_ABOVE], ws[W_ONE], ws[W_TWO], ws[W_SCAN_ABOVE], ws[W_SCAN_ONE], ws[W_SCAN_TWO],
        ws[W_SCAN_QUEUE], ws[W_SCAN_QUEUED],
    )  # fmt: skip
    return _relax(gr, mj, ps, partner, ws, -1, tail, 2, left) == 0


@njit(**JIT_FLAGS)
def _mj_scan_hold(gr, mj, ps, partner, ws, hold):
    """The pruning scan of the apply's position (``ps``, the scan's copy; the apply's
    counters copied) that never removes a tile of the group ``hold``: the start of the
    probes of that group's pairings (:func:`~mjsat.search.kernels.dispatch._mj_probe`).
    The tiles it could not remove; other arguments as :func:`_mj_scan`."""
    left = _fresh(ps, ws[W_OPENED], ws[W_FREE_SEEN], ws[W_GROUP_QUEUED], True)
    tail = _warm(
        ps, ws[W_ABOVE], ws[W_ONE], ws[W_TWO], ws[W_SCAN_ABOVE], ws[W_SCAN_ONE], ws[W_SCAN_TWO],
        ws[W_SCAN_QUEUE], ws[W_SCAN_QUEUED],
    )  # fmt: skip
    return _relax(gr, mj, ps, partner, ws, hold, tail, 0, left)


@njit(**JIT_FLAGS)
def _mj_scan_resume(gr, mj, ps, partner, ws, hold):
    """Go on with the scan a :func:`_mj_scan_hold` left (its counters, copy of the position,
    queued tiles, opened groups and free tiles seen, restored by the caller) once
    ``partner`` pairs the tiles of ``hold``: queue the free tiles of ``hold`` and propagate.
    The tiles it could not remove; other arguments as :func:`_mj_scan`."""
    left = _fresh(ps, ws[W_OPENED], ws[W_FREE_SEEN], ws[W_GROUP_QUEUED], False)
    na, no, nt, queue, queued = ws[W_SCAN_ABOVE], ws[W_SCAN_ONE], ws[W_SCAN_TWO], ws[W_SCAN_QUEUE], ws[W_SCAN_QUEUED]
    tail = _queue_free(hold, gr, ps, na, no, nt, queue, queued, 0)
    return _relax(gr, mj, ps, partner, ws, -1, tail, 0, left)


# --------------------------------------------------------------------------- apply and playouts


@njit(**JIT_FLAGS)
def _play(gr, mj, pres, partner, moves, mptr, opts, ws, tail, rtop, gtop, left, resume, keep, playout):
    """The loop of the apply and of the random playouts on ``pres``, in place, with the
    apply's counters of ``ws`` as its entry point left them.

    It plays the pairs of ``partner`` and the cleaning moves, recording them in ``moves``
    from ``mptr`` on; with ``playout``, whenever it is stuck, a random playable pair of a
    group without a pairing (state in ``ws[W_RNG]``; drawn by the policy
    ``opts[R_PLAYOUT]``, with ``"safe"`` and ``"rows"`` from the masks ``ws[W_STACKED]`` and
    the rows ``ws[W_RUNS]``), and goes on, keeping its counters: one playout costs about one
    apply.

    Parameters
    ----------
    gr, mj, pres, partner, moves, mptr, opts, ws : see the module docstring of :mod:`mjsat.search.kernels`.
    tail : int
        The tiles queued in ``ws[W_QUEUE]``.
    rtop : int
        The removals in ``ws[W_REMOVED]`` not propagated yet.
    gtop : int
        The groups on ``ws[W_GROUP_STACK]``.
    left : int
        The tiles present.
    resume : bool
        After a move, from the counters of the last apply (which does not queue the free
        tiles again: the counts of free tiles seen are not exact).
    keep : bool
        Keep the state at the first random draw in ``ws[W_PLAYOUT_START]``.
    playout : bool
        Draw a random pair when stuck.

    Returns
    -------
    int
        The new ``mptr``.
    """
    group, gptr, gidx = gr[0], gr[1], gr[2]
    na, no, nt, queue, queued = ws[W_ABOVE], ws[W_ONE], ws[W_TWO], ws[W_QUEUE], ws[W_QUEUED]
    rs = ws[W_REMOVED]
    nfree, gstack, gq = ws[W_FREE_SEEN], ws[W_GROUP_STACK], ws[W_GROUP_QUEUED]
    ngroups = gptr.shape[0] - 1
    ev = 1 if (opts[R_LOOSE] or opts[R_LOOSE_PAIR]) else 0
    # the rules that look one pair ahead also follow the counters of the group's own
    # tiles: a tile may become free once the pair is gone without becoming free now
    nv = 1 if (opts[R_FREEZE_PAIR] or opts[R_LOOSE_PAIR]) else 0
    head = 0
    while True:
        if rtop > 0:  # propagate a removal to the tiles it touches
            rtop -= 1
            tail, gtop = _propagate(
                rs[rtop], group, mj, pres, na, no, nt, queue, queued, tail, gq, gstack, gtop, nv, ev
            )
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
                    moves[mptr, 0] = min(t, p)
                    moves[mptr, 1] = max(t, p)
                    mptr += 1
                continue
            g = group[t]
            nfree[g] += 1  # the playout's count of free tiles of a group without a pairing
            if gq[g] == 0:
                gq[g] = 1
                gstack[gtop] = g
                gtop += 1
            continue
        if gtop > 0:  # cleaning rules on a group without a pairing
            gtop -= 1
            g = gstack[gtop]
            gq[g] = 0
            # Every rule needs three free tiles of the group (two with the pair rules).
            # Here the queue is empty, so nfree[g] counts the group's free tiles exactly
            # when it has no pairing (tiles only ever come free, each is counted once as
            # it leaves the queue, a random pair takes its two off), except after a move
            # (resume), which does not queue the free tiles again: a group below the
            # count is passed over without reading its tiles.
            if not resume and nfree[g] < (2 if nv else 3):
                continue
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
            if opts[R_FREEZE] and nf == live:  # freeze: any pairing does
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
                nfree[g] = 0
                continue
            if opts[R_LOOSE] and live == 4 and nf == 3:  # a loose tile waits for the fourth
                loose = -1
                for k in range(gptr[g], gptr[g + 1]):
                    u = gidx[k]
                    if pres[u] == 1 and na[u] == 0 and (no[u] == 0 or nt[u] == 0):
                        if _mj_loose(u, pres, mj, na, no, nt):
                            loose = u
                            break
                if loose >= 0:
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
                    nfree[g] = 0
                    continue
            if nv and live == 4 and nf >= 2:  # one pair ahead: the pair rules
                code, pa, pb, pc, pd = _mj_pair_rules(g, gr, mj, pres, opts, na, no, nt)
                if code == _PAIR_NONE:
                    continue
                nfree[g] = 0
                pres[pa] = 0
                pres[pb] = 0
                rs[rtop] = pa
                rs[rtop + 1] = pb
                rtop += 2
                left -= 2
                moves[mptr, 0] = pa
                moves[mptr, 1] = pb
                mptr += 1
                if code == _PAIR_CLEAR:
                    pres[pc] = 0
                    pres[pd] = 0
                    rs[rtop] = pc
                    rs[rtop + 1] = pd
                    rtop += 2
                    left -= 2
                    moves[mptr, 0] = min(pc, pd)
                    moves[mptr, 1] = max(pc, pd)
                    mptr += 1
                else:
                    partner[pc] = pd
                    partner[pd] = pc
            continue
        if playout and left > 0:  # random playout: a random playable pair
            if keep:  # the first draw: keep the state for the next playouts
                _playout_start(ws[W_PLAYOUT_START], pres, partner, na, no, nt, queued, nfree, moves, True, mptr)
                keep = False
            legal = ws[W_LEGAL]
            n = pres.shape[0]
            pick = -1
            m = 0
            rows = opts[R_PLAYOUT] == PLAYOUT_ROWS
            stk, runs, aptr, aidx = ws[W_STACKED], ws[W_RUNS], mj[0], mj[1]
            if opts[R_PLAYOUT] != PLAYOUT_UNIFORM:  # a pair drawn from the counts of free tiles
                total = 0
                for h in range(ngroups):
                    total += nfree[h] * (nfree[h] - 1) // 2
                if total == 0:
                    break
                for _ in range(_REDRAWS):  # a fatal pair is drawn again (rejection: still uniform)
                    r = np.int64(_xorshift(ws[W_RNG]) % np.uint64(total))
                    h = 0
                    while r >= nfree[h] * (nfree[h] - 1) // 2:
                        r -= nfree[h] * (nfree[h] - 1) // 2
                        h += 1
                    for k in range(gptr[h], gptr[h + 1]):
                        u = gidx[k]
                        if not (pres[u] == 1 and na[u] == 0 and (no[u] == 0 or nt[u] == 0)):
                            continue
                        for j in range(k + 1, gptr[h + 1]):
                            v = gidx[j]
                            if pres[v] == 1 and na[v] == 0 and (no[v] == 0 or nt[v] == 0):
                                if r == 0:
                                    pick = u * n + v
                                r -= 1
                        if pick >= 0:
                            break
                    if pick < 0 or not _doomed(pick // n, pick % n, gr, pres, partner, stk, aptr, aidx, runs, rows):
                        break
                    pick = -1  # fatal: after the last draw, from the list of every pair
            if pick < 0:
                m = _mj_legal(gr, pres, partner, na, no, nt, legal)
                if m == 0:
                    break
            if opts[R_PLAYOUT] == PLAYOUT_UNIFORM:
                pick = legal[np.int64(_xorshift(ws[W_RNG]) % np.uint64(m))]
            elif pick < 0:  # PLAYOUT_SAFE, PLAYOUT_ROWS: a uniform draw, a fatal pair put aside
                while m > 0:
                    i = np.int64(_xorshift(ws[W_RNG]) % np.uint64(m))
                    if not _doomed(legal[i] // n, legal[i] % n, gr, pres, partner, stk, aptr, aidx, runs, rows):
                        pick = legal[i]
                        break
                    m -= 1
                    legal[i] = legal[m]
                if pick < 0:  # every pair is fatal
                    break
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
            nfree[g] -= 2
            live, a, b = _last_two(g, gr, pres)
            if live == 2:  # the last two go together: look at them again
                nfree[g] = 0
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
    return mptr


@njit(**JIT_FLAGS)
def _every_group(opts, gq, gstack):
    """With the loose-tile rules (``opts[R_LOOSE]``, ``opts[R_LOOSE_PAIR]``), push every
    group on ``gstack`` (``gq`` marks them): the rule looks at every group once, then by
    events (removing a tile changes the looseness only of its row neighbours and of their
    neighbours on the far side; the tiles a tile lies on cannot go while it is there). The
    height of the stack."""
    gtop = 0
    if opts[R_LOOSE] or opts[R_LOOSE_PAIR]:
        for g in range(gq.shape[0]):
            if gq[g] == 0:
                gq[g] = 1
                gstack[gtop] = g
                gtop += 1
    return gtop


@njit(**JIT_FLAGS)
def _start_apply(mj, pres, opts, ws):
    """The start of an apply or a playout from ``pres``: the counters counted, the free
    tiles queued, every group pushed for the loose-tile rules; ``(tail, gtop, left)``."""
    left = _fresh(pres, ws[W_OPENED], ws[W_FREE_SEEN], ws[W_GROUP_QUEUED], True)
    tail = _mj_init(pres, mj, ws[W_ABOVE], ws[W_ONE], ws[W_TWO], ws[W_QUEUE], ws[W_QUEUED])
    return tail, _every_group(opts, ws[W_GROUP_QUEUED], ws[W_GROUP_STACK]), left


@njit(**JIT_FLAGS)
def _mj_apply(gr, mj, pres, partner, moves, mptr, opts, ws):
    """Play the pairs of ``partner`` and the cleaning moves on ``pres`` (Mahjong); the new
    ``mptr`` (the moves are in ``moves[:mptr]``). Arguments: see the module docstring of
    :mod:`mjsat.search.kernels`."""
    tail, gtop, left = _start_apply(mj, pres, opts, ws)
    return _play(gr, mj, pres, partner, moves, mptr, opts, ws, tail, 0, gtop, left, False, False, False)


@njit(**JIT_FLAGS)
def _mj_apply_after_move(gr, mj, pres, partner, moves, mptr, opts, ws):
    """Go on with the apply after the move ``ws[W_REMOVED][:2]`` was played on ``pres``
    (and recorded), from the counters the last apply left (the two tiles' group is looked
    at first): a guided playout so costs one propagation per move. The new ``mptr``;
    arguments as :func:`_mj_apply`."""
    left = _fresh(pres, ws[W_OPENED], ws[W_FREE_SEEN], ws[W_GROUP_QUEUED], True)
    gq, gstack = ws[W_GROUP_QUEUED], ws[W_GROUP_STACK]
    g = gr[0][ws[W_REMOVED][0]]  # the group of the two tiles just taken: its last two may go now
    gq[g] = 1
    gstack[0] = g
    tail = _queue_free(g, gr, pres, ws[W_ABOVE], ws[W_ONE], ws[W_TWO], ws[W_QUEUE], ws[W_QUEUED], 0)
    return _play(gr, mj, pres, partner, moves, mptr, opts, ws, tail, 2, 1, left, True, False, False)


@njit(**JIT_FLAGS)
def _mj_playout(gr, mj, pres, partner, moves, opts, ws):
    """One random playout (Mahjong) from ``pres``: the apply, with a random playable pair of
    a group without a pairing whenever it is stuck (xorshift state ``ws[W_RNG]``, policy
    ``opts[R_PLAYOUT]``; with ``"safe"`` or ``"rows"``, ``ws[W_STACKED]`` and ``ws[W_RUNS]``
    filled by :func:`~mjsat.search.kernels.draws._stack_masks`). The number of moves in
    ``moves``; the playout cleared the board when it is ``n // 2``. It keeps its state at
    its first draw for :func:`_mj_playout_again`. Arguments as :func:`_mj_apply`."""
    tail, gtop, left = _start_apply(mj, pres, opts, ws)
    return _play(gr, mj, pres, partner, moves, 0, opts, ws, tail, 0, gtop, left, False, True, True)


@njit(**JIT_FLAGS)
def _mj_playout_again(gr, mj, pres, partner, moves, opts, ws):
    """Another random playout from the start the last :func:`_mj_playout` reached: its
    state at its first draw (:data:`~mjsat.search.config.W_PLAYOUT_START`: the position,
    counters and moves that every playout from the same start reaches before its first
    draw; ``pres``, ``partner`` and ``moves`` are overwritten with it), without the apply
    that led there. The number of moves, as :func:`_mj_playout`. Arguments as
    :func:`_mj_apply`."""
    nfree = ws[W_FREE_SEEN]
    _fresh(pres, ws[W_OPENED], nfree, ws[W_GROUP_QUEUED], True)
    start = ws[W_PLAYOUT_START]
    mptr = _playout_start(start, pres, partner, ws[W_ABOVE], ws[W_ONE], ws[W_TWO], ws[W_QUEUED], nfree, moves, False, 0)
    left = 0
    for t in range(pres.shape[0]):
        left += pres[t]
    return _play(gr, mj, pres, partner, moves, mptr, opts, ws, 0, 0, 0, left, False, False, True)


@njit(**JIT_FLAGS)
def _mj_playout_on(gr, mj, pres, partner, moves, mptr, opts, ws):
    """A random playout (Mahjong) that goes on from ``pres``, the position after the first
    ``mptr`` moves of ``moves``, without keeping its state at its first draw (the start of
    :func:`_mj_playout_again` stays). The number of moves, as :func:`_mj_playout`.
    Arguments as :func:`_mj_apply`."""
    tail, gtop, left = _start_apply(mj, pres, opts, ws)
    return _play(gr, mj, pres, partner, moves, mptr, opts, ws, tail, 0, gtop, left, False, False, True)
