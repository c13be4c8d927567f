"""Mahjong kernels of the freeness counters: their start, a tile's freeness and looseness,
the cleaning rules that look one pair ahead, the list of playable pairs.

Part of the package :mod:`mjsat.search.kernels`; its docstring names the arguments.
"""

from __future__ import annotations

from numba import njit

from mjsat.search.config import JIT_FLAGS, R_FREEZE_PAIR, R_LOOSE_PAIR

# --------------------------------------------------------------------------- Mahjong
# The hot loops below spell the freeness test out instead of calling a helper: a numba
# call that passes arrays costs reference-count traffic that dwarfs the work here.


@njit(**JIT_FLAGS)
def _mj_init(pres, mj, na, no, nt, queue, queued):
    """Count the present tiles above and beside every tile; queue the free ones.

    Parameters
    ----------
    pres, mj : see the module docstring.
    na, no, nt : int32[n]
        Filled: present tiles above each present tile, on its first side, on its second side.
    queue : int32[n + 1] or longer
        Filled from 0 with the free tiles.
    queued : uint8[n]
        Filled: 1 for a tile put in ``queue``.

    Returns
    -------
    int
        The number of tiles in ``queue``.
    """
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


@njit(**JIT_FLAGS)
def _queue_free(g, gr, pres, na, no, nt, queue, queued, tail):
    """Queue the present free tiles of group ``g`` (free by the counters ``na``, ``no``,
    ``nt``) at ``queue[tail:]``, marking them in ``queued``; the new tail."""
    gptr, gidx = gr[1], gr[2]
    for k in range(gptr[g], gptr[g + 1]):
        u = gidx[k]
        if pres[u] == 1 and na[u] == 0 and (no[u] == 0 or nt[u] == 0):
            queue[tail] = u
            tail += 1
            queued[u] = 1
    return tail


@njit(**JIT_FLAGS)
def _mj_free(t, pres, na, no, nt):
    """True iff tile ``t`` is present and free by the counters ``na``, ``no``, ``nt``
    (``int32[n]``, as :func:`_mj_init` fills them); ``pres``: see the module docstring.
    """
    return pres[t] == 1 and na[t] == 0 and (no[t] == 0 or nt[t] == 0)


@njit(**JIT_FLAGS)
def _mj_loose(t, pres, mj, na, no, nt):
    """True iff present tile ``t`` covers nothing and decides no neighbour's freeness.

    Parameters
    ----------
    t : int
        A present tile.
    pres, mj : see the module docstring.
    na, no, nt : int32[n]
        The free-test counters of ``pres`` (:func:`_mj_init`).
    """
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


@njit(**JIT_FLAGS)
def _mj_shift(x, v, pres, mj, na, no, nt):
    """Set ``pres[x]`` to ``v`` (0: take tile ``x`` off, 1: put it back) and move the
    free-test counters ``na``, ``no``, ``nt`` (``int32[n]``, :func:`_mj_init`) of the tiles
    it covers or touches by the change; ``pres``, ``mj``: see the module docstring.
    """
    cptr, cidx, o2ptr, o2idx, t2ptr, t2idx = mj[6], mj[7], mj[8], mj[9], mj[10], mj[11]
    dv = 1 if v else -1
    pres[x] = v
    for k in range(cptr[x], cptr[x + 1]):
        na[cidx[k]] += dv
    for k in range(o2ptr[x], o2ptr[x + 1]):
        no[o2idx[k]] += dv
    for k in range(t2ptr[x], t2ptr[x + 1]):
        nt[t2idx[k]] += dv


_PAIR_NONE, _PAIR_CLEAR, _PAIR_WAIT = 0, 1, 2  # what _mj_pair_rules found

_REDRAWS = 4
"""Draws from the counts of free tiles a playout with the policy ``"safe"`` or ``"rows"``
makes when it draws fatal pairs, before it lists every playable pair (to draw among the
others, or to find that every one is fatal)."""


@njit(**JIT_FLAGS)
def _mj_pair_rules(g, gr, mj, pres, opts, na, no, nt):
    """The cleaning rules of a group of four left tiles that look one pair ahead (Mahjong).

    For every pair ``(p, q)`` of free tiles of group ``g``, in member order, the pair is
    taken off for a moment; with ``opts[R_FREEZE_PAIR]``, when the other two tiles are
    then both free, the group clears by its own two moves; with ``opts[R_LOOSE_PAIR]``,
    when one of the other two, ``c``, is then free and loose (:func:`_mj_loose`), ``p`` and
    ``q`` go and ``c`` waits for the fourth tile ``d``. Soundness: see
    :class:`mjsat.search.pairing.PythonSearch`.

    Parameters
    ----------
    g : int
        A group with exactly four present tiles and no pairing.
    gr, mj, pres, opts : see the module docstring
        ``pres`` is restored before the kernel returns.
    na, no, nt : int32[n]
        The free-test counters of ``pres`` (:func:`_mj_init`), restored likewise.

    Returns
    -------
    tuple of int
        ``(code, p, q, c, d)``: ``_PAIR_NONE``; ``_PAIR_CLEAR`` (play ``(p, q)`` then
        ``(c, d)``: both are free once ``p`` and ``q`` are gone); or ``_PAIR_WAIT`` (play
        ``(p, q)`` and pair ``c`` with ``d``, which is not free yet).
    """
    gptr, gidx = gr[1], gr[2]
    for k in range(gptr[g], gptr[g + 1]):
        p = gidx[k]
        if not (pres[p] == 1 and na[p] == 0 and (no[p] == 0 or nt[p] == 0)):
            continue
        for j in range(k + 1, gptr[g + 1]):
            q = gidx[j]
            if not (pres[q] == 1 and na[q] == 0 and (no[q] == 0 or nt[q] == 0)):
                continue
            _mj_shift(p, 0, pres, mj, na, no, nt)
            _mj_shift(q, 0, pres, mj, na, no, nt)
            c = -1
            d = -1
            for m in range(gptr[g], gptr[g + 1]):
                u = gidx[m]
                if pres[u] == 1:
                    if c < 0:
                        c = u
                    else:
                        d = u
            c_free = na[c] == 0 and (no[c] == 0 or nt[c] == 0)
            d_free = na[d] == 0 and (no[d] == 0 or nt[d] == 0)
            code = _PAIR_NONE
            if c_free and d_free:
                if opts[R_FREEZE_PAIR] or (
                    opts[R_LOOSE_PAIR] and (_mj_loose(c, pres, mj, na, no, nt) or _mj_loose(d, pres, mj, na, no, nt))
                ):
                    code = _PAIR_CLEAR
            elif opts[R_LOOSE_PAIR]:
                if c_free and _mj_loose(c, pres, mj, na, no, nt):
                    code = _PAIR_WAIT
                elif d_free and _mj_loose(d, pres, mj, na, no, nt):
                    code = _PAIR_WAIT
                    c, d = d, c
            _mj_shift(q, 1, pres, mj, na, no, nt)
            _mj_shift(p, 1, pres, mj, na, no, nt)
            if code != _PAIR_NONE:
                return code, p, q, c, d
    return _PAIR_NONE, -1, -1, -1, -1


@njit(**JIT_FLAGS)
def _last_two(g, gr, pres):
    """``(live, a, b)``: how many tiles of group ``g`` are present, and the first two
    (``-1`` where there is none); ``gr``, ``pres``: see the module docstring.
    """
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


@njit(**JIT_FLAGS)
def _mj_legal(gr, pres, partner, na, no, nt, legal):
    """The free pairs of present tiles of groups without a pairing, by the counters.

    Parameters
    ----------
    gr, pres, partner : see the module docstring.
    na, no, nt : int32[n]
        The free-test counters of ``pres`` (:func:`_mj_init`).
    legal : int32[n * n // 2 + 2]
        Filled with the pairs, as ``a * n + b``.

    Returns
    -------
    int
        ``m``, the number of pairs in ``legal[:m]``.
    """
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


@njit(**JIT_FLAGS)
def _autopair(gr, pres, partner):
    """Pair the last two tiles of every group that has no pairing yet, in ``partner``;
    ``gr``, ``pres``, ``partner``: see the module docstring.
    """
    for g in range(gr[1].shape[0] - 1):
        live, a, b = _last_two(g, gr, pres)
        if live == 2 and partner[a] < 0:
            partner[a] = b
            partner[b] = a
