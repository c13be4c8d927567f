"""The critical-group search: one node, the ranking of the pairings, the joint branching
and the resumable depth-first loop.

Part of the package :mod:`mjsat.search.kernels`; its docstring names the arguments.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mjsat.search.config import (
    JIT_FLAGS,
    R_CRITICAL,
    R_JOINT,
    R_SCAN,
    S_DEPTH,
    S_MOVES,
    S_NODES,
    S_SCANS,
    S_STEP,
    W_FOURS_ALIVE,
    W_HINT,
    W_JOINT_AT,
    W_LIVE,
    W_PROBE_OK,
    W_WEIGHT,
)
from mjsat.search.kernels.arrays import EXHAUSTED, RUNNING, SOLVED
from mjsat.search.kernels.dispatch import _apply, _mj_probe, _playable, _scan
from mjsat.search.kernels_shisen import _sh_probe
from mjsat.search.pairing import MAHJONG, SH3D

# --------------------------------------------------------------------------- the search


_ENTER, _NEXT = 0, 1  # st[S_STEP] of the critical-group search
_OPEN, _DEAD = 0, 2  # what a node is after its apply and scan (or SOLVED)


@njit(**JIT_FLAGS)
def _rank_pairings(d, r, base, cnt, tmp, ptab, okk, allow, hint):
    """Set ``allow[d, :cnt]``: 0 for the pairings of the ``r`` tiles ``tmp[:r]`` that the
    probes refuted (``okk[k] == 0``), else 1 plus twice the pairs of pairing ``k`` that the
    longest guided playout made (``hint``, :data:`~mjsat.search.config.W_HINT`): the search
    tries the highest first, the first of equals first. Without a hint, every pairing
    the probes let through is 1 (in index order)."""
    n = hint.shape[0] - 1
    for k in range(cnt):
        if not okk[k]:
            allow[d, k] = 0
            continue
        agree = 0
        if hint[n] > 0:
            for i in range(r):
                if hint[tmp[i]] == tmp[ptab[base + k, i]]:
                    agree += 1
        allow[d, k] = 1 + agree


@njit(**JIT_FLAGS)
def _keep_hint(moves, mptr, hint):
    """Keep the pairs of a failed playout's ``mptr`` moves in ``hint`` when it made more
    moves than the one kept (:data:`~mjsat.search.config.W_HINT`)."""
    n = hint.shape[0] - 1
    if mptr <= hint[n]:
        return
    hint[:n] = -1
    for j in range(mptr):
        hint[moves[j, 0]] = moves[j, 1]
        hint[moves[j, 1]] = moves[j, 0]
    hint[n] = mptr


@njit(**JIT_FLAGS)
def _node(d, kind, gr, mj, sh, pt, opts, P, Q, bg, bgr, allow, moves, mptr, ws):
    """Apply, scan and choose the branching group of the node at depth ``d``.

    Parameters
    ----------
    d : int
        The depth.
    kind, gr, mj, sh, pt, opts, moves, mptr, ws : see the module docstring.
    P : uint8[G + 2, n]
        The position at each depth; row ``d`` is played in place.
    Q : int32[G + 2, n]
        The partial pairing set at each depth; row ``d`` gets the forced pairings.
    bg : int32[G + 2, max(MAX_GROUP, n)]
        Set at row ``d``: the present tiles of the branching group; with ``opts[R_JOINT]``
        (and not ``opts[R_CRITICAL]``) those of every branching group, group after group.
    bgr : int32[G + 2]
        Set at ``d``: how many they are.
    allow : uint8[G + 2, 128]
        Set at row ``d``: the rank of each pairing of that group, 0 for those not to try
        (:func:`_rank_pairings`; :func:`_dfs` tries the highest first and zeroes it).

    Returns
    -------
    tuple of int
        ``(code, mptr, scans)`` with code ``_OPEN`` (children to try), ``_DEAD`` or ``SOLVED``.
    """
    ptab, pstart, pcount = pt[0], pt[1], pt[2]
    gptr, gidx = gr[1], gr[2]
    tmp, okk, weight, dom = ws[W_LIVE], ws[W_PROBE_OK], ws[W_WEIGHT], ws[W_FOURS_ALIVE]
    pres = P[d]
    partner = Q[d]
    n = pres.shape[0]
    scans = 0
    while True:
        mptr = _apply(kind, gr, mj, sh, pres, partner, moves, mptr, opts, ws)
        if 2 * mptr == n:
            return SOLVED, mptr, scans
        if opts[R_SCAN]:
            scans += 1
            if not _scan(kind, gr, mj, sh, pres, partner, moves, opts, ws):
                if d > 0:
                    weight[gr[0][bg[d - 1, 0]]] += 1.0
                return _DEAD, mptr, scans
        best_count = 1 << 30
        best_score = 1e300
        forced = False
        joint = opts[R_JOINT] and not opts[R_CRITICAL]
        bgr[d] = 0
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
            if not opts[R_CRITICAL]:
                found = False
                for i in range(r):
                    for j in range(i + 1, r):
                        if not found and _playable(kind, tmp[i], tmp[j], pres, sh, ws):
                            found = True
                if not found:
                    continue
                if joint:  # one more group of the joint branching, after the others in bg[d]
                    for q in range(r):
                        bg[d, bgr[d] + q] = tmp[q]
                    bgr[d] += r
                    continue
                for q in range(r):
                    bg[d, q] = tmp[q]
                bgr[d] = r
                allow[d, :cnt] = 1
                return _OPEN, mptr, scans
            c = 0
            last = 0
            held = False  # the group's hold scan ran (_mj_probe, _sh_probe)
            mask = dom[d, g] if r == 4 else 255
            for k in range(cnt):
                if r == 4 and not (mask >> k) & 1:  # failed at an ancestor: fails here too
                    okk[k] = 0
                    weight[g] += 1.0
                    continue
                for i in range(r):
                    partner[tmp[i]] = tmp[ptab[base + k, i]]
                scans += 1
                if kind == MAHJONG:
                    ok = _mj_probe(g, not held, gr, mj, pres, partner, moves, opts, ws)
                else:
                    ok = _sh_probe(kind == SH3D, g, not held, gr, sh, pres, partner, ws)
                held = True
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
                _rank_pairings(d, r, base, cnt, tmp, ptab, okk, allow, ws[W_HINT])
        if forced:
            continue
        if joint and bgr[d] > 0:
            return _OPEN, mptr, scans
        if not opts[R_CRITICAL] or best_count == 1 << 30:
            return _DEAD, mptr, scans
        return _OPEN, mptr, scans


@njit(**JIT_FLAGS)
def _joint_next(d, gr, pt, bg, bgr, nxt, jat):
    """Step row ``d`` of ``jat`` to the next combination of pairings of the groups in
    ``bg[d, :bgr[d]]`` (the first group fastest); False when they are all tried.

    Parameters
    ----------
    d : int
        The depth.
    gr, pt : see the module docstring.
    bg, bgr : arrays
        As in :func:`_node`: the tiles of the joint groups, group after group.
    nxt : int32[G + 2]
        Combinations tried so far at each depth (0: the first one, every group at its
        first pairing, is next); increased.
    jat : int32[G + 2, G]
        The pairing of each joint group in the combination, per depth.
    """
    pcount = pt[2]
    group = gr[0]
    ngroups = 0
    i = 0
    while i < bgr[d]:  # the groups are runs of tiles of one group
        e = i + 1
        while e < bgr[d] and group[bg[d, e]] == group[bg[d, i]]:
            e += 1
        if nxt[d] == 0:
            jat[d, ngroups] = 0
        i = e
        ngroups += 1
    nxt[d] += 1
    if nxt[d] == 1:
        return True
    i = 0
    m = 0
    while i < bgr[d]:  # add one, with carry
        e = i + 1
        while e < bgr[d] and group[bg[d, e]] == group[bg[d, i]]:
            e += 1
        if jat[d, m] + 1 < pcount[(e - i) // 2]:
            jat[d, m] += 1
            return True
        jat[d, m] = 0
        i = e
        m += 1
    return False


@njit(**JIT_FLAGS)
def _dfs(kind, gr, mj, sh, pt, opts, P, Q, bg, bgr, allow, nxt, mend, moves, st, budget, ws):
    """Run the critical-group search for at most ``budget`` nodes from the state in ``st``.

    ``st`` is updated, so that a call returning ``RUNNING`` can be followed by another one
    that goes on where it stopped.

    Parameters
    ----------
    kind, gr, mj, sh, pt, opts, moves, st, budget, ws : see the module docstring.
    P, Q, bg, bgr, allow : arrays
        The state per depth, as in :func:`_node`.
    nxt : int32[G + 2]
        At each depth: the joint enumeration's combinations tried so far (the
        critical-group search keeps what is left to try in ``allow``).
    mend : int32[G + 2]
        The length of the move list after each depth's apply.

    Returns
    -------
    int
        ``RUNNING``, ``SOLVED`` (the moves in ``moves[:st[S_MOVES]]``) or ``EXHAUSTED``.
    """
    ptab, pstart, pcount = pt[0], pt[1], pt[2]
    group = gr[0]
    joint = opts[R_JOINT] and not opts[R_CRITICAL]
    jat = ws[W_JOINT_AT]
    d = st[S_DEPTH]
    mode = st[S_STEP]
    nodes = st[S_NODES]
    stop = nodes + budget
    code = RUNNING
    while True:
        if mode == _ENTER:
            if nodes >= stop:
                break
            nodes += 1
            mptr = mend[d - 1] if d > 0 else 0
            res, mptr, sc = _node(d, kind, gr, mj, sh, pt, opts, P, Q, bg, bgr, allow, moves, mptr, ws)
            st[S_SCANS] += sc
            if res == SOLVED:
                st[S_MOVES] = mptr
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
        elif joint:  # the next combination of the pairings of the groups in bg[d]
            if not _joint_next(d, gr, pt, bg, bgr, nxt, jat):
                d -= 1
                if d < 0:
                    code = EXHAUSTED
                    break
                continue
            P[d + 1, :] = P[d, :]
            ws[W_FOURS_ALIVE][d + 1, :] = ws[W_FOURS_ALIVE][d, :]
            Q[d + 1, :] = Q[d, :]
            i = 0
            m = 0
            while i < bgr[d]:
                e = i + 1
                while e < bgr[d] and group[bg[d, e]] == group[bg[d, i]]:
                    e += 1
                base = pstart[(e - i) // 2] + jat[d, m]
                for q in range(e - i):
                    Q[d + 1, bg[d, i + q]] = bg[d, i + ptab[base, q]]
                i = e
                m += 1
            d += 1
            mode = _ENTER
        else:
            r = bgr[d]
            base = pstart[r // 2]
            cnt = pcount[r // 2]
            k = -1
            best = 0
            for j in range(cnt):  # the first of the highest rank (_rank_pairings)
                if allow[d, j] > best:
                    best = allow[d, j]
                    k = j
            if k < 0:
                d -= 1
                if d < 0:
                    code = EXHAUSTED
                    break
                continue
            allow[d, k] = 0
            P[d + 1, :] = P[d, :]
            ws[W_FOURS_ALIVE][d + 1, :] = ws[W_FOURS_ALIVE][d, :]
            Q[d + 1, :] = Q[d, :]
            for i in range(r):
                Q[d + 1, bg[d, i]] = bg[d, ptab[base + k, i]]
            d += 1
            mode = _ENTER
    st[S_DEPTH] = d
    st[S_STEP] = mode
    st[S_NODES] = nodes
    return code
