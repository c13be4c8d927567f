"""The Mahjong event loop and its entry points, one per job (apply, scan, playouts, and
the jobs after a move and of the probes).

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

# --------------------------------------------------------------------------- the event loop


# The jobs of the Mahjong event loop :func:`_mj_events` (the ``mode`` it is called with by
# the entry points below it).
_APPLY = 0
_SCAN = 1
_PLAYOUT = 2
_SCAN_HOLD = 3
_SCAN_AFTER_MOVE = 4
_APPLY_AFTER_MOVE = 5
_SCAN_RESUME = 6
_PLAYOUT_AGAIN = 7
_PLAYOUT_ON = 8


@njit(**JIT_FLAGS)
def _mj_events(mode, gr, mj, pres, partner, moves, mptr, opts, ws, hold):
    """The Mahjong event loop: the job ``mode`` on ``pres``, in place (called only through
    the entry points below it, each with its constant ``mode``).

    ``_APPLY`` plays the pairs of ``partner`` and the cleaning moves, recording them in
    ``moves`` from ``mptr`` on, and returns the new ``mptr``. ``_SCAN`` plays the relaxed
    game and returns the number of tiles it could not remove. ``_PLAYOUT`` is an apply
    that, whenever it is stuck, plays a random playable pair of a group without a pairing
    (state in ``ws[W_RNG]``; drawn by the policy ``opts[R_PLAYOUT]``, with ``"safe"`` and
    ``"rows"`` from the masks ``ws[W_STACKED]`` and the rows ``ws[W_RUNS]``) and goes on, keeping its counters: one playout costs about
    one apply; it keeps its state at its first random draw in ``ws[W_PLAYOUT_START]``.
    ``_PLAYOUT_AGAIN`` is a playout from that state (the position, counters and moves
    that every playout from the same start reaches before its first draw), without the
    apply that led there. ``_PLAYOUT_ON`` is a playout from ``pres`` after the ``mptr``
    moves already in ``moves``, which does not keep its state.

    Three more jobs start from the counters an apply left in ``ws[W_ABOVE]``,
    ``ws[W_ONE]``, ``ws[W_TWO]`` for ``pres`` (copied, not counted again):
    ``_SCAN_AFTER_MOVE`` scans after the two tiles ``ws[W_REMOVED][0]`` and ``[1]`` were
    taken off (already 0 in the scan's copy ``pres``); ``_APPLY_AFTER_MOVE`` goes on with
    the apply after that move (the two tiles' group is looked at first): a guided playout
    so costs one propagation per move. ``_SCAN_HOLD`` scans the apply's position (``pres``
    is the scan's copy) but never removes a tile of the group ``hold`` (its tiles are
    passed over when they come free).

    ``_SCAN_HOLD`` and ``_SCAN_RESUME`` serve the search's probes of one group's
    pairings (:func:`_mj_probe`): ``_SCAN_RESUME`` goes on from the scan state a hold scan
    left (its counters, copy of the position, queued tiles, opened groups and free tiles
    seen, restored by the caller) once ``partner`` pairs the tiles of ``hold``: it queues
    the free tiles of ``hold`` and propagates. The relaxed game is a closure of monotone rules (a tile once
    free stays free while present, a group once opened stays open), so its result does
    not depend on the order of removals: the hold scan's removals are a prefix of every
    probe's, and each probe costs only what follows them.

    Parameters
    ----------
    mode : int
        The job, one of ``_APPLY``, ``_SCAN``, ``_PLAYOUT``, ``_SCAN_HOLD``,
        ``_SCAN_AFTER_MOVE``, ``_APPLY_AFTER_MOVE``, ``_SCAN_RESUME``, ``_PLAYOUT_AGAIN``,
        ``_PLAYOUT_ON``.
    gr : tuple of int32 arrays
        The groups (``group``, ``gptr``, ``gidx``; see the module docstring).
    mj : tuple of twelve int32 arrays
        The Mahjong relations in CSR form.
    pres : uint8[n]
        The position, changed in place.
    partner : int32[n]
        The partial pairing set; the playout and the cleaning rules add to it.
    moves : int32[n // 2 + 1, 2]
        The move list, written from row ``mptr`` on (not by the scans).
    mptr : int
        Moves already in ``moves``.
    opts : int64[N_RULES]
        The rules (:mod:`mjsat.search.config`).
    ws : tuple
        The workspace (:func:`workspace`).
    hold : int
        ``_SCAN_HOLD`` and ``_SCAN_RESUME``: the group held back, then resumed; -1 for the
        other jobs.

    Returns
    -------
    int
        The new ``mptr`` (apply, playout), or the number of tiles left (scans).
    """
    group, gptr, gidx = gr[0], gr[1], gr[2]
    optr, oidx, tptr, tidx = mj[2], mj[3], mj[4], mj[5]
    cptr, cidx, o2ptr, o2idx, t2ptr, t2idx = mj[6], mj[7], mj[8], mj[9], mj[10], mj[11]
    # a scan right after an apply on the same position: copy its counters
    warm = mode == _SCAN_HOLD or mode == _SCAN_AFTER_MOVE
    pending = mode == _SCAN_AFTER_MOVE or mode == _APPLY_AFTER_MOVE
    resume = mode == _APPLY_AFTER_MOVE
    cont = mode == _SCAN_RESUME  # the scan state is the one a hold scan left
    keep = mode == _PLAYOUT  # keep the state at the first draw
    again = mode == _PLAYOUT_AGAIN  # start from that state
    relaxed = mode  # what the loop does: _APPLY, _SCAN or _PLAYOUT
    if mode == _PLAYOUT_ON:
        relaxed = _PLAYOUT
    if warm or cont:
        relaxed = _SCAN
    if resume:
        relaxed = _APPLY
    if again:
        relaxed = _PLAYOUT
    if relaxed == _SCAN:
        na, no, nt, queue, queued = (
            ws[W_SCAN_ABOVE],
            ws[W_SCAN_ONE],
            ws[W_SCAN_TWO],
            ws[W_SCAN_QUEUE],
            ws[W_SCAN_QUEUED],
        )
    else:
        na, no, nt, queue, queued = ws[W_ABOVE], ws[W_ONE], ws[W_TWO], ws[W_QUEUE], ws[W_QUEUED]
    rs = ws[W_REMOVED]
    opened, nfree, gstack, gq = ws[W_OPENED], ws[W_FREE_SEEN], ws[W_GROUP_STACK], ws[W_GROUP_QUEUED]
    ngroups = gptr.shape[0] - 1
    left = 0
    for t in range(pres.shape[0]):
        left += pres[t]
    for g in range(ngroups):
        if not cont:
            opened[g] = 0
            nfree[g] = 0
        gq[g] = 0
    if warm:
        na[:] = ws[W_ABOVE]
        no[:] = ws[W_ONE]
        nt[:] = ws[W_TWO]
        tail = 0
        for t in range(pres.shape[0]):
            queued[t] = 0
            if pres[t] == 1 and na[t] == 0 and (no[t] == 0 or nt[t] == 0):
                queue[tail] = t
                tail += 1
                queued[t] = 1
    elif resume:
        tail = 0
    elif cont:  # the held group's free tiles, passed over by the hold scan
        tail = _queue_free(hold, gr, pres, na, no, nt, queue, queued, 0)
    elif again:  # the kept state, at a draw: nothing queued
        mptr = _playout_start(ws[W_PLAYOUT_START], pres, partner, na, no, nt, queued, nfree, moves, False, 0)
        left = 0
        for t in range(pres.shape[0]):
            left += pres[t]
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
        tail = _queue_free(g, gr, pres, na, no, nt, queue, queued, tail)
    ev = 1 if ((opts[R_LOOSE] or opts[R_LOOSE_PAIR]) and relaxed != _SCAN) else 0
    # the rules that look one pair ahead also follow the counters of the group's own
    # tiles: a tile may become free once the pair is gone without becoming free now
    nv = 1 if ((opts[R_FREEZE_PAIR] or opts[R_LOOSE_PAIR]) and relaxed != _SCAN) else 0
    if ev and not resume and not again:  # the loose-tile rule looks at every group once, then by events:
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
            continue
        if head < tail:  # a tile became free
            t = queue[head]
            head += 1
            if pres[t] == 0 or (group[t] == hold and mode == _SCAN_HOLD):
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
                    if relaxed != _SCAN:
                        moves[mptr, 0] = min(t, p)
                        moves[mptr, 1] = max(t, p)
                        mptr += 1
                continue
            g = group[t]
            if relaxed == _SCAN:
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
            else:
                nfree[g] += 1  # the playout's count of free tiles of a group without a pairing
                if gq[g] == 0:
                    gq[g] = 1
                    gstack[gtop] = g
                    gtop += 1
            continue
        if gtop > 0:  # cleaning rules on a group without a pairing (apply only)
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
        if relaxed == _PLAYOUT and left > 0:  # random playout: a random playable pair
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
    return left if relaxed == _SCAN else mptr


# Entry points of the event loop, one per job. Each kernel below takes the arguments of
# _mj_events (see there) and nothing else.


@njit(**JIT_FLAGS)
def _mj_apply(gr, mj, pres, partner, moves, mptr, opts, ws):
    """Play the pairs of ``partner`` and the cleaning moves on ``pres`` (Mahjong); the new
    ``mptr`` (the moves are in ``moves[:mptr]``). Arguments as :func:`_mj_events`."""
    return _mj_events(_APPLY, gr, mj, pres, partner, moves, mptr, opts, ws, -1)


@njit(**JIT_FLAGS)
def _mj_scan(gr, mj, pres, partner, moves, opts, ws):
    """The pruning scan (Mahjong) on a copy of ``pres`` in ``ws[W_SCAN_PRESENT]``: True
    when the relaxed game clears it. Arguments as :func:`_mj_events`."""
    ps = ws[W_SCAN_PRESENT]
    ps[:] = pres
    return _mj_events(_SCAN, gr, mj, ps, partner, moves, 0, opts, ws, -1) == 0


@njit(**JIT_FLAGS)
def _mj_playout(gr, mj, pres, partner, moves, opts, ws):
    """One random playout (Mahjong) from ``pres``: the apply, with a random playable pair of
    a group without a pairing whenever it is stuck (xorshift state ``ws[W_RNG]``, policy
    ``opts[R_PLAYOUT]``; with ``"safe"`` or ``"rows"``, ``ws[W_STACKED]`` and ``ws[W_RUNS]``
    filled by :func:`_stack_masks`). The
    number of moves in ``moves``; the playout cleared the board when it is ``n // 2``.
    It keeps its state at its first draw for :func:`_mj_playout_again`. Arguments as
    :func:`_mj_events`."""
    return _mj_events(_PLAYOUT, gr, mj, pres, partner, moves, 0, opts, ws, -1)


@njit(**JIT_FLAGS)
def _mj_playout_again(gr, mj, pres, partner, moves, opts, ws):
    """Another random playout from the start the last :func:`_mj_playout` reached: its
    state at its first draw (:data:`~mjsat.search.config.W_PLAYOUT_START`; ``pres``,
    ``partner`` and ``moves`` are overwritten with it). The number of moves, as
    :func:`_mj_playout`. Arguments as :func:`_mj_events`."""
    return _mj_events(_PLAYOUT_AGAIN, gr, mj, pres, partner, moves, 0, opts, ws, -1)


@njit(**JIT_FLAGS)
def _mj_playout_on(gr, mj, pres, partner, moves, mptr, opts, ws):
    """A random playout (Mahjong) that goes on from ``pres``, the position after the first
    ``mptr`` moves of ``moves``, without keeping its state at its first draw (the start of
    :func:`_mj_playout_again` stays). The number of moves, as :func:`_mj_playout`.
    Arguments as :func:`_mj_events`."""
    return _mj_events(_PLAYOUT_ON, gr, mj, pres, partner, moves, mptr, opts, ws, -1)


@njit(**JIT_FLAGS)
def _mj_scan_after_move(gr, mj, ps, partner, moves, opts, ws):
    """The pruning scan of the position the last :func:`_mj_apply` (or
    :func:`_mj_apply_after_move`) left, less the move ``ws[W_REMOVED][:2]``: ``ps`` is the
    scan's copy with the two tiles already 0. True when the relaxed game clears it.
    Arguments as :func:`_mj_events`."""
    return _mj_events(_SCAN_AFTER_MOVE, gr, mj, ps, partner, moves, 0, opts, ws, -1) == 0


@njit(**JIT_FLAGS)
def _mj_apply_after_move(gr, mj, pres, partner, moves, mptr, opts, ws):
    """Go on with the apply after the move ``ws[W_REMOVED][:2]`` was played on ``pres``
    (and recorded), from the counters the last apply left; the new ``mptr``. Arguments
    as :func:`_mj_events`."""
    return _mj_events(_APPLY_AFTER_MOVE, gr, mj, pres, partner, moves, mptr, opts, ws, -1)
