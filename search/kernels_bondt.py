"""numba kernel of de Bondt's "pairing one, then two" tree (seed 001, section 3.2).

The tree's state is a stack of (group, pairing) entries in arrays, so
:func:`mjsat.search.solver.solve_search` can run it in chunks of evaluations and look at
the clock in between. The pure-Python reference is
:meth:`mjsat.search.pairing.PythonSearch._search_bondt`; the tests compare them.
"""

from __future__ import annotations

from numba import njit

from mjsat.search.config import JIT_FLAGS, R_SCAN, S_DEPTH, S_MOVES, S_NODES, S_SCANS
from mjsat.search.kernels import _DEAD, EXHAUSTED, RUNNING, SOLVED, _apply, _autopair, _last_two, _playable, _scan

# --------------------------------------------------------------------------- "pairing one, then two"


@njit(**JIT_FLAGS)
def _bd_eval(kind, gr, mj, sh, pt, opts, sg, sk, rot, top, skip, pres, partner, moves, ws):
    """Apply the pairings of the tree's stack (entry ``skip`` left out) to the full board,
    then scan.

    Parameters
    ----------
    kind, gr, mj, sh, pt, opts, ws : see :mod:`mjsat.search.kernels`.
    sg, sk, rot : int32 arrays
        The tree's stack, as in :func:`_bondt`.
    top : int
        Its height.
    skip : int
        The entry left out, or -1.
    pres, partner, moves : see :mod:`mjsat.search.kernels`
        Overwritten with the evaluated position.

    Returns
    -------
    tuple of int
        ``(code, mptr, next_group)``: code 0 when the position lives (``next_group``: the
        first group without a pairing that still has tiles), ``_DEAD`` when it is pruned,
        ``SOLVED`` when the apply clears the board (``moves[:mptr]``).
    """
    ptab, pstart, pcount = pt[0], pt[1], pt[2]
    gptr, gidx = gr[1], gr[2]
    n = pres.shape[0]
    pres[:] = 1
    partner[:] = -1
    for i in range(top):
        if i == skip:
            continue
        g = sg[i]
        r = gptr[g + 1] - gptr[g]
        h = r // 2
        row = pstart[h] + (sk[i] + rot[g]) % pcount[h]
        for q in range(r):
            partner[gidx[gptr[g] + q]] = gidx[gptr[g] + ptab[row, q]]
    _autopair(gr, pres, partner)
    mptr = _apply(kind, gr, mj, sh, pres, partner, moves, 0, opts, ws)
    if 2 * mptr == n:
        return SOLVED, mptr, -1
    if opts[R_SCAN] and not _scan(kind, gr, mj, sh, pres, partner, moves, opts, ws):
        return _DEAD, mptr, -1
    nxt = -1
    for g in range(gptr.shape[0] - 1):
        live, first, _ = _last_two(g, gr, pres)
        if live == 0 or partner[first] >= 0:
            continue
        if nxt < 0:
            nxt = g
        for k in range(gptr[g], gptr[g + 1]):
            a = gidx[k]
            if not pres[a]:
                continue
            for j in range(k + 1, gptr[g + 1]):
                b = gidx[j]
                if pres[b] and _playable(kind, a, b, pres, sh, ws):
                    return 0, mptr, nxt
    return _DEAD, mptr, -1


@njit(**JIT_FLAGS)
def _bondt(kind, gr, mj, sh, pt, opts, sg, sk, rot, pres, partner, moves, st, budget, ws):
    """de Bondt's "pairing one, then two" tree (see
    :meth:`~mjsat.search.pairing.PythonSearch._search_bondt`) for at most ``budget`` nodes.

    Parameters
    ----------
    kind, gr, mj, sh, pt, opts, moves, budget, ws : see :mod:`mjsat.search.kernels`.
    sg : int32[G + 1]
        The group of each stack entry.
    sk : int32[G + 1]
        Its pairing index (0 is "pairing one").
    rot : int32[G]
        How far each group's pairings are cycled (backward adaptation).
    pres, partner : see :mod:`mjsat.search.kernels`
        The position of the last evaluation.
    st : int64[N_STATS]
        As for :func:`mjsat.search.kernels._dfs`; ``st[S_DEPTH]`` is the stack's height.

    Returns
    -------
    int
        ``RUNNING``, ``SOLVED`` (the moves in ``moves[:st[S_MOVES]]``) or ``EXHAUSTED``.
    """
    pcount = pt[2]
    gptr = gr[1]
    top = st[S_DEPTH]
    nodes = st[S_NODES]
    stop = nodes + budget
    code = RUNNING
    while nodes < stop:
        nodes += 1
        st[S_SCANS] += opts[R_SCAN]
        res, mptr, nxt = _bd_eval(kind, gr, mj, sh, pt, opts, sg, sk, rot, top, -1, pres, partner, moves, ws)
        if res == SOLVED:
            st[S_MOVES] = mptr
            code = SOLVED
            break
        if res == 0:
            sg[top] = nxt
            sk[top] = 0
            top += 1
            continue
        if top == 0:
            code = EXHAUSTED
            break
        if sk[top - 1] == 0:  # a run of pairing-one groups ended in a prune: adapt it backwards
            j = top - 2
            while j >= 0 and sk[j] == 0:
                st[S_SCANS] += opts[R_SCAN]
                res, mptr, nxt = _bd_eval(kind, gr, mj, sh, pt, opts, sg, sk, rot, top, j, pres, partner, moves, ws)
                if res == SOLVED:
                    st[S_MOVES] = mptr
                    code = SOLVED
                    break
                if res == _DEAD:
                    g = sg[j]
                    rot[g] = (rot[g] + 1) % pcount[(gptr[g + 1] - gptr[g]) // 2]
                    for i in range(j, top - 1):
                        sg[i] = sg[i + 1]
                        sk[i] = sk[i + 1]
                    top -= 1
                j -= 1
            if code == SOLVED:
                break
        while top > 0:
            g = sg[top - 1]
            if sk[top - 1] + 1 < pcount[(gptr[g + 1] - gptr[g]) // 2]:
                sk[top - 1] += 1
                break
            top -= 1
        if top == 0:
            code = EXHAUSTED
            break
    st[S_DEPTH] = top
    st[S_NODES] = nodes
    return code
