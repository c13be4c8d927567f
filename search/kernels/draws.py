"""What the random playouts draw with: the fatal pairs of the Mahjong policies ``"safe"``
and ``"rows"`` (the stacked groups of four, the rows), the playouts' kept start and the
xorshift generator.

Part of the package :mod:`mjsat.search.kernels`; its docstring names the arguments.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mjsat.search.config import JIT_FLAGS, W_RUNS, W_SCAN_QUEUE, W_SCAN_QUEUED, W_STACKED

# --------------------------------------------------------------------------- draws


@njit(**JIT_FLAGS)
def _stack_masks(gr, mj, ws):
    """Fill ``ws[W_STACKED]``: bit ``k`` of tile ``t`` when ``t`` and the ``k``-th member of
    its group lie one above the other, directly or through other tiles (such two can never
    be free together); and the rows ``ws[W_RUNS]``. ``gr``, ``mj``, ``ws``: see the
    module docstring; the walk up from each tile uses ``ws[W_SCAN_QUEUE]`` and
    ``ws[W_SCAN_QUEUED]``.

    Notes
    -----
    :math:`O(\\sum_t |up(t)|)`, ``up(t)`` the tiles above ``t`` directly or not.
    """
    group, gptr, gidx = gr[0], gr[1], gr[2]
    aptr, aidx, optr, tptr, tidx = mj[0], mj[1], mj[2], mj[4], mj[5]
    stk, todo, seen, runs = ws[W_STACKED], ws[W_SCAN_QUEUE], ws[W_SCAN_QUEUED], ws[W_RUNS]
    n = group.shape[0]
    stk[:] = 0
    seen[:] = 0
    runs[: 2 * n] = -1
    for t in range(n):  # the row links: one tile on t's second side, t alone on its first
        if tptr[t + 1] - tptr[t] == 1:
            u = tidx[tptr[t]]
            if optr[u + 1] - optr[u] == 1:
                runs[t] = u
                runs[n + u] = t
    for t in range(n):  # each row's first tile and each tile's place in its row
        if runs[n + t] < 0:
            u = t
            k = 0
            while u >= 0:
                runs[2 * n + u] = t
                runs[3 * n + u] = k
                k += 1
                u = runs[u]
    for t in range(n):
        todo[0] = t  # the walk starts at t, which is then left out of what it saw
        seen[t] = 1
        tail = 1
        head = 0
        while head < tail:
            u = todo[head]
            head += 1
            for k in range(aptr[u], aptr[u + 1]):
                v = aidx[k]
                if seen[v] == 0:
                    seen[v] = 1
                    todo[tail] = v
                    tail += 1
        seen[t] = 0
        g = group[t]
        for k in range(gptr[g], gptr[g + 1]):
            u = gidx[k]
            if seen[u]:
                stk[t] |= np.uint8(1 << (k - gptr[g]))
                for j in range(gptr[g], gptr[g + 1]):
                    if gidx[j] == t:
                        stk[u] |= np.uint8(1 << (j - gptr[g]))
        for k in range(tail):
            seen[todo[k]] = 0


@njit(**JIT_FLAGS)
def _fatal(x, y, gr, pres, stk):
    """True iff taking the pair ``(x, y)`` leaves its group exactly two tiles that lie one
    above the other (they can never go together). ``gr``, ``pres``: see the module
    docstring; ``stk``: ``ws[W_STACKED]`` (:func:`_stack_masks`)."""
    group, gptr, gidx = gr[0], gr[1], gr[2]
    g = group[x]
    c = -1
    d = -1
    left = 0
    for k in range(gptr[g], gptr[g + 1]):
        u = gidx[k]
        if pres[u] == 1 and u != x and u != y:
            left += 1
            if c < 0:
                c = u
            else:
                d = k - gptr[g]
    return left == 2 and (stk[c] >> d) & 1 == 1


@njit(**JIT_FLAGS)
def _row_cycle(x, y, c, d, pres, partner, aptr, aidx, rows):
    """True iff the new pair ``(c, d)`` (the group's last two once ``x`` and ``y`` go), two
    tiles of one row, and a pair of ``partner`` must each go before the other (the policy
    ``"rows"`` of :data:`~mjsat.search.config.PLAYOUTS`: neither could ever go).

    A row (:data:`~mjsat.search.config.W_RUNS`) only ever loses its end tiles, so its
    present tiles stay side by side and only its two ends can be free: ``(c, d)`` waits for
    every tile of the row outside them, and every tile strictly between them waits for
    ``(c, d)``. A pair ``(u, q)`` with ``u`` in the row cannot go, and neither can
    ``(c, d)``, when ``q`` lies in the row too and the two pairs are not nested (crossing,
    or side by side), when ``u`` lies between ``c`` and ``d`` and ``q`` on ``c`` or ``d``,
    or when ``u`` lies outside them and ``c`` or ``d`` on ``q``.

    Parameters
    ----------
    x, y : int
        The pair about to go (they are free: row ends, or outside rows).
    c, d : int
        The two tiles its group keeps.
    pres, partner : see the module docstring.
    aptr, aidx : int32 arrays
        The CSR relation ``above`` (``mj[0]``, ``mj[1]``).
    rows : int32[4n]
        ``ws[W_RUNS]``.

    Notes
    -----
    :math:`O(L)` for a row of :math:`L` tiles, with at most four tiles on each. The hot
    loop's kernels take single arrays, not ``mj`` or ``ws``: a call passing a tuple of
    arrays pays the reference counts of each.
    """
    n = pres.shape[0]
    if rows[2 * n + c] != rows[2 * n + d]:
        return False
    lo = min(rows[3 * n + c], rows[3 * n + d])
    hi = max(rows[3 * n + c], rows[3 * n + d])
    u = rows[2 * n + c]  # the row's first tile
    while u >= 0:
        q = partner[u]
        if pres[u] == 1 and q >= 0 and u != x and u != y and u != c and u != d:
            pu = rows[3 * n + u]
            inside = lo < pu < hi
            if rows[2 * n + q] == rows[2 * n + c]:  # both in the row: nested or stuck
                if inside != (lo < rows[3 * n + q] < hi):
                    return True  # crossing
                if not inside and (pu < lo) == (rows[3 * n + q] < lo):
                    return True  # side by side
            elif inside:  # (u, q) waits for (c, d): stuck when q lies on c or d
                for z in (c, d):
                    for k in range(aptr[z], aptr[z + 1]):
                        if aidx[k] == q:
                            return True
            else:  # (c, d) waits for (u, q): stuck when c or d lies on q
                for k in range(aptr[q], aptr[q + 1]):
                    if aidx[k] == c or aidx[k] == d:
                        return True
        u = rows[u]
    return False


@njit(**JIT_FLAGS)
def _doomed(x, y, gr, pres, partner, stk, aptr, aidx, runs, rows):
    """:func:`_fatal`, and with ``rows`` :func:`_row_cycle` for the two tiles the pair
    ``(x, y)`` leaves its group (the policies ``"safe"`` and ``"rows"``). ``gr``, ``pres``,
    ``partner``: see the module docstring; ``stk``: ``ws[W_STACKED]``; ``aptr``, ``aidx``:
    ``mj[0]``, ``mj[1]``; ``runs``: ``ws[W_RUNS]``."""
    if _fatal(x, y, gr, pres, stk):
        return True
    if not rows:
        return False
    group, gptr, gidx = gr[0], gr[1], gr[2]
    g = group[x]
    c = -1
    d = -1
    for k in range(gptr[g], gptr[g + 1]):
        u = gidx[k]
        if pres[u] == 1 and u != x and u != y:
            if c < 0:
                c = u
            elif d < 0:
                d = u
            else:
                return False  # more than two left: no pairing yet
    if d < 0:
        return False
    return _row_cycle(x, y, c, d, pres, partner, aptr, aidx, runs)


@njit(**JIT_FLAGS)
def _kept_moves_slot(n, ng):
    """Where :data:`~mjsat.search.config.W_PLAYOUT_START` keeps the number of moves of the
    kept state, for ``n`` tiles in ``ng`` groups (its last entry)."""
    return 7 * n + ng


@njit(**JIT_FLAGS)
def _playout_start(start, pres, partner, na, no, nt, queued, nfree, moves, save, mptr):
    """Copy a playout's state at a draw into ``start``
    (:data:`~mjsat.search.config.W_PLAYOUT_START`, ``save``) or back from it; the number of
    moves made (``mptr`` when saving).

    Parameters
    ----------
    start : int32[7n + G + 1]
        The kept state (layout in :data:`~mjsat.search.config.W_PLAYOUT_START`).
    pres, partner, na, no, nt, queued : arrays of ``n``
        The playout's position, partners, counters and queued tiles.
    nfree : int32[G]
        Free tiles seen per group without a pairing.
    moves : int32[n // 2 + 1, 2]
        The moves; rows ``0..mptr-1`` are copied.
    save : bool
    mptr : int
        Saving: the number of moves made.
    """
    n = pres.shape[0]
    ng = nfree.shape[0]
    if save:
        for t in range(n):
            start[t] = pres[t]
            start[n + t] = partner[t]
            start[2 * n + t] = na[t]
            start[3 * n + t] = no[t]
            start[4 * n + t] = nt[t]
            start[5 * n + t] = queued[t]
        for i in range(mptr):
            start[6 * n + 2 * i] = moves[i, 0]
            start[6 * n + 2 * i + 1] = moves[i, 1]
        for g in range(ng):
            start[7 * n + g] = nfree[g]
        start[_kept_moves_slot(n, ng)] = mptr
        return mptr
    for t in range(n):
        pres[t] = start[t]
        partner[t] = start[n + t]
        na[t] = start[2 * n + t]
        no[t] = start[3 * n + t]
        nt[t] = start[4 * n + t]
        queued[t] = start[5 * n + t]
    mptr = start[_kept_moves_slot(n, ng)]
    for i in range(mptr):
        moves[i, 0] = start[6 * n + 2 * i]
        moves[i, 1] = start[6 * n + 2 * i + 1]
    for g in range(ng):
        nfree[g] = start[7 * n + g]
    return mptr


@njit(**JIT_FLAGS)
def _xorshift(state):
    """Advance the xorshift generator ``state`` (``uint64[1]``) and return its new value."""
    x = state[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    state[0] = x
    return x
