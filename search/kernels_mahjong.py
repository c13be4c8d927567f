"""numba kernels of the pairing-set search on the Mahjong games (the pair test: both tiles free).

Apply and scan are event-driven: each tile keeps the number of present tiles above it
and on each side (:class:`~mjsat.search.config.Workspace` slots ``above``, ``one``,
``two``), a removal updates the tiles it touches, and a tile is looked at again only when
it becomes free, so a scan costs :math:`O(n + e)`. The entry points are named for their
jobs and share one event loop each:

* the apply's, :func:`_mj_settle`: :func:`_mj_apply` (from scratch), :func:`_mj_resume`
  (on after one move, keeping the counters), :func:`_mj_playout` (a random playout);
* the scan's, :func:`_mj_relax`: :func:`_mj_scan` (from scratch), :func:`_mj_scan_warm`
  (right after an apply, its counters copied), :func:`_mj_scan_without` (the same without
  the two tiles of a move);
* :func:`_mj_guided`, scan-guided playouts built from the last two of each.

The pure-Python reference is :class:`mjsat.search.pairing.PythonSearch`
(``apply``, ``scan``, ``attempt``); :mod:`mjsat.search.kernels` dispatches here for the
kind :data:`~mjsat.search.pairing.MAHJONG` and wraps the kernels in
:class:`~mjsat.search.kernels.Kernels`; the tests compare them.

The kernels' arguments are named as in the table of :mod:`mjsat.search.config`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mjsat.search.config import INLINE_FLAGS, JIT_FLAGS

# --------------------------------------------------------------------------- helpers
# The helpers are inlined (config.INLINE_FLAGS): a numba call that passes arrays costs
# reference-count traffic that dwarfs the work of the innermost loops.


@njit(**INLINE_FLAGS)
def _open(t, above, one, two):
    """Tile ``t`` has nothing above it and a side open, by the counters."""
    return above[t] == 0 and (one[t] == 0 or two[t] == 0)


@njit(**INLINE_FLAGS)
def _free(t, pres, above, one, two):
    """Tile ``t`` is present and free, by the counters."""
    return pres[t] == 1 and above[t] == 0 and (one[t] == 0 or two[t] == 0)


@njit(**INLINE_FLAGS)
def _count(pres):
    left = np.int64(0)
    for t in range(pres.shape[0]):
        left += pres[t]
    return left


@njit(**INLINE_FLAGS)
def _enqueue_if_free(u, pres, above, one, two, queue, queued, tail):
    """Queue present tile ``u`` when it is free and not queued yet; the new ``tail``."""
    if pres[u] == 1 and queued[u] == 0 and above[u] == 0 and (one[u] == 0 or two[u] == 0):
        queue[tail] = u
        queued[u] = 1
        return tail + 1
    return tail


@njit(**INLINE_FLAGS)
def _push_group(g, group_queued, group_stack, gtop):
    """Put group ``g`` on the stack of groups to clean unless it is there; the new top."""
    if group_queued[g] == 0:
        group_queued[g] = 1
        group_stack[gtop] = g
        return gtop + 1
    return gtop


@njit(**INLINE_FLAGS)
def _take(t, pres, removed, rtop):
    """Take tile ``t`` off and stack it for propagation; the new top."""
    pres[t] = 0
    removed[rtop] = t
    return rtop + 1


@njit(**INLINE_FLAGS)
def _recheck_loose(u, pres, of_tile, ptr, idx, group_queued, group_stack, gtop):
    """The groups of ``u`` and of the present tiles on its far side (``ptr``/``idx``), whose
    loose tiles may have changed, go on the stack of groups to clean."""
    if pres[u] == 1:
        gtop = _push_group(of_tile[u], group_queued, group_stack, gtop)
        for k in range(ptr[u], ptr[u + 1]):
            w = idx[k]
            if pres[w] == 1:
                gtop = _push_group(of_tile[w], group_queued, group_stack, gtop)
    return gtop


@njit(**INLINE_FLAGS)
def _propagate(x, pres, mj, of_tile, above, one, two, queue, queued, tail, loose, group_queued, group_stack, gtop):
    """Update the counters of the tiles that removed tile ``x`` touched, queue those that
    became free, and with ``loose`` the groups whose loose tiles may have changed.

    Removing ``x`` changes the looseness only of ``x``'s side neighbours and of their
    neighbours on the far side (the tiles a tile lies on cannot go while it is there).
    Returns the new ``(tail, gtop)``.
    """
    for k in range(mj.covered_ptr[x], mj.covered_ptr[x + 1]):
        u = mj.covered_idx[k]
        above[u] -= 1
        tail = _enqueue_if_free(u, pres, above, one, two, queue, queued, tail)
    for k in range(mj.ones_of_ptr[x], mj.ones_of_ptr[x + 1]):
        u = mj.ones_of_idx[k]
        one[u] -= 1
        tail = _enqueue_if_free(u, pres, above, one, two, queue, queued, tail)
        if loose:
            gtop = _recheck_loose(u, pres, of_tile, mj.two_ptr, mj.two_idx, group_queued, group_stack, gtop)
    for k in range(mj.twos_of_ptr[x], mj.twos_of_ptr[x + 1]):
        u = mj.twos_of_idx[k]
        two[u] -= 1
        tail = _enqueue_if_free(u, pres, above, one, two, queue, queued, tail)
        if loose:
            gtop = _recheck_loose(u, pres, of_tile, mj.one_ptr, mj.one_idx, group_queued, group_stack, gtop)
    return tail, gtop


@njit(**INLINE_FLAGS)
def _next_free(pres, mj, of_tile, above, one, two, queue, queued, head, tail, removed, rtop, loose, group_queued,
               group_stack, gtop):
    """Propagate the stacked removals ``removed[:rtop]`` (:func:`_propagate`), then pop the
    next queued tile that is still present. Returns ``(t, head, tail, gtop)``, ``t`` -1 when
    the queue is empty; no removal is left stacked."""
    while rtop > 0:
        rtop -= 1
        tail, gtop = _propagate(
            removed[rtop], pres, mj, of_tile, above, one, two, queue, queued, tail, loose, group_queued, group_stack, gtop
        )
    while head < tail:
        t = queue[head]
        head += 1
        if pres[t] == 1:
            return t, head, tail, gtop
    return -1, head, tail, gtop


@njit(**INLINE_FLAGS)
def _take_pair(t, p, pres, above, one, two, removed, rtop):
    """Take free tile ``t`` and its partner ``p`` off when ``p`` is free too; the new top."""
    if _free(p, pres, above, one, two):
        rtop = _take(t, pres, removed, rtop)
        return _take(p, pres, removed, rtop)
    return rtop


@njit(**INLINE_FLAGS)
def _fresh_start(groups, pres, partner):
    """The full board, its groups of two paired."""
    pres[:] = 1
    partner[:] = -1
    _autopair(groups, pres, partner)


@njit(**INLINE_FLAGS)
def _draw(legal, m, rng, n):
    """A random one of the ``m`` moves of ``legal``: ``(i, a, b)``."""
    i = np.int64(_xorshift(rng) % np.uint64(m))
    return i, legal[i] // n, legal[i] % n


@njit(**JIT_FLAGS)
def _mj_init(pres, mj, above, one, two, queue, queued):
    """Count the present tiles above and beside every present tile; queue the free ones.

    Parameters
    ----------
    pres : numpy.ndarray
        ``uint8[n]``, the position.
    mj : MahjongTables
        The relations.
    above, one, two : numpy.ndarray
        ``int32[n]``, the counters to fill (left as they were for absent tiles).
    queue : numpy.ndarray
        ``int32``, the free tiles in tile order from slot 0.
    queued : numpy.ndarray
        ``uint8[n]``, 1 for the tiles in ``queue``.

    Returns
    -------
    int
        The number of tiles queued.
    """
    tail = np.int64(0)
    for t in range(pres.shape[0]):
        queued[t] = 0
        if not pres[t]:
            continue
        c = 0
        for k in range(mj.above_ptr[t], mj.above_ptr[t + 1]):
            c += pres[mj.above_idx[k]]
        above[t] = c
        c = 0
        for k in range(mj.one_ptr[t], mj.one_ptr[t + 1]):
            c += pres[mj.one_idx[k]]
        one[t] = c
        c = 0
        for k in range(mj.two_ptr[t], mj.two_ptr[t + 1]):
            c += pres[mj.two_idx[k]]
        two[t] = c
        if c == 0 or one[t] == 0:
            if above[t] == 0:
                queue[tail] = t
                tail += 1
                queued[t] = 1
    return tail


@njit(**INLINE_FLAGS)
def _mj_loose(t, pres, mj, one, two):
    """True iff present tile ``t`` covers nothing and decides no neighbour's freeness."""
    for k in range(mj.covered_ptr[t], mj.covered_ptr[t + 1]):
        if pres[mj.covered_idx[k]]:
            return False
    for k in range(mj.ones_of_ptr[t], mj.ones_of_ptr[t + 1]):
        u = mj.ones_of_idx[k]
        if pres[u] and two[u] > 0:
            return False
    for k in range(mj.twos_of_ptr[t], mj.twos_of_ptr[t + 1]):
        u = mj.twos_of_idx[k]
        if pres[u] and one[u] > 0:
            return False
    return True


@njit(**JIT_FLAGS)
def _last_two(g, groups, pres):
    """``(live, a, b)``: how many tiles of group ``g`` are present, and the first two.

    Parameters
    ----------
    g : int
    groups : Groups
    pres : numpy.ndarray
        ``uint8[n]``, the position.
    """
    a = -1
    b = -1
    live = 0
    for k in range(groups.start[g], groups.start[g + 1]):
        u = groups.tiles[k]
        if pres[u]:
            live += 1
            if a < 0:
                a = u
            elif b < 0:
                b = u
    return live, a, b


@njit(**JIT_FLAGS)
def _mj_legal(groups, pres, partner, above, one, two, legal):
    """The free pairs of present tiles of groups without a pairing, by the counters.

    Parameters
    ----------
    groups : Groups
    pres, partner : numpy.ndarray
        ``uint8[n]`` position and ``int32[n]`` pairing set.
    above, one, two : numpy.ndarray
        ``int32[n]``, the apply's counters for ``pres``.
    legal : numpy.ndarray
        ``int32``, receives the pairs as ``a * n + b`` (``a < b``).

    Returns
    -------
    int
        The number of pairs ``m`` in ``legal[:m]``.
    """
    n = pres.shape[0]
    m = 0
    for g in range(groups.start.shape[0] - 1):
        for k in range(groups.start[g], groups.start[g + 1]):
            x = groups.tiles[k]
            if pres[x] == 0 or partner[x] >= 0 or not _open(x, above, one, two):
                continue
            for j in range(k + 1, groups.start[g + 1]):
                y = groups.tiles[j]
                if _free(y, pres, above, one, two):
                    legal[m] = x * n + y
                    m += 1
    return m


@njit(**INLINE_FLAGS)
def _take_in_pairs(u, first, pres, removed, rtop, moves, mptr):
    """Take tile ``u`` off; the tiles taken so go in pairs: ``u`` is recorded as a move with
    ``first``, the one taken before it, or becomes ``first``. Returns ``(rtop, first, mptr)``."""
    rtop = _take(u, pres, removed, rtop)
    if first < 0:
        return rtop, u, mptr
    moves[mptr, 0] = first
    moves[mptr, 1] = u
    return rtop, -1, mptr + 1


@njit(**INLINE_FLAGS)
def _mj_clean_group(g, groups, mj, pres, partner, moves, mptr, rules, ws, rtop, left):
    """The cleaning rules on group ``g`` (no pairing yet, four tiles or more): freeze, or
    the loose tile waits for the fourth. Returns the new ``(rtop, left, mptr)``."""
    above, one, two, removed = ws.above, ws.one, ws.two, ws.removed
    lo, hi = groups.start[g], groups.start[g + 1]
    live = 0
    nf = 0
    assigned = False
    for k in range(lo, hi):
        u = groups.tiles[k]
        if pres[u] == 1:
            live += 1
            if partner[u] >= 0:
                assigned = True
            if _open(u, above, one, two):
                nf += 1
    if assigned or live < 4:
        return rtop, left, mptr
    if rules.freeze and nf == live:  # any pairing does
        first = -1
        for k in range(lo, hi):
            u = groups.tiles[k]
            if pres[u] == 1:
                rtop, first, mptr = _take_in_pairs(u, first, pres, removed, rtop, moves, mptr)
        return rtop, left - live, mptr
    if rules.loose and live == 4 and nf == 3:  # a loose tile waits for the fourth
        loose = -1
        for k in range(lo, hi):
            u = groups.tiles[k]
            if _free(u, pres, above, one, two) and _mj_loose(u, pres, mj, one, two):
                loose = u
                break
        if loose < 0:
            return rtop, left, mptr
        last = -1
        first = -1
        for k in range(lo, hi):
            u = groups.tiles[k]
            if pres[u] == 0 or u == loose:
                continue
            if not _open(u, above, one, two):
                last = u
                continue
            rtop, first, mptr = _take_in_pairs(u, first, pres, removed, rtop, moves, mptr)
        partner[loose] = last
        partner[last] = loose
        return rtop, left - 2, mptr
    return rtop, left, mptr


# --------------------------------------------------------------------------- the apply


@njit(**JIT_FLAGS)
def _mj_settle(groups, mj, pres, partner, moves, mptr, rules, ws, tail, rtop, gtop, left):
    """The apply's event loop: propagate the stacked removals, play the pairs of
    ``partner`` whose tiles became free and the cleaning rules, until stuck.

    Parameters
    ----------
    groups : Groups
    mj : MahjongTables
    pres, partner : numpy.ndarray
        ``uint8[n]`` position and ``int32[n]`` pairing set, changed in place.
    moves : numpy.ndarray
        ``int32[n // 2 + 1, 2]``, the moves are recorded from row ``mptr`` on.
    mptr : int
    rules : Rules
    ws : Workspace
        ``above``/``one``/``two`` hold the counters of ``pres`` (the stacked removals
        aside), ``queue[:tail]`` the tiles to look at, ``removed[:rtop]`` the removals to
        propagate, ``group_stack[:gtop]`` the groups to clean.
    tail, rtop, gtop, left : int
        As above; ``left`` is the number of present tiles.

    Returns
    -------
    (int, int)
        ``mptr`` and ``left`` when stuck (every queue empty).
    """
    of_tile = groups.of_tile
    above, one, two, queue, queued = ws.above, ws.one, ws.two, ws.queue, ws.queued
    removed, group_stack, group_queued = ws.removed, ws.group_stack, ws.group_queued
    head = np.int64(0)
    while True:
        t, head, tail, gtop = _next_free(
            pres, mj, of_tile, above, one, two, queue, queued, head, tail, removed, rtop,
            rules.loose, group_queued, group_stack, gtop,
        )  # fmt: skip
        rtop = 0
        if t >= 0:  # a tile became free
            p = partner[t]
            if p < 0:
                gtop = _push_group(of_tile[t], group_queued, group_stack, gtop)
                continue
            rtop = _take_pair(t, p, pres, above, one, two, removed, rtop)
            if rtop > 0:
                left -= 2
                moves[mptr, 0] = min(t, p)
                moves[mptr, 1] = max(t, p)
                mptr += 1
            continue
        if gtop > 0:  # cleaning rules on a group without a pairing
            gtop -= 1
            g = group_stack[gtop]
            group_queued[g] = 0
            rtop, left, mptr = _mj_clean_group(g, groups, mj, pres, partner, moves, mptr, rules, ws, rtop, left)
            continue
        return mptr, left


@njit(**INLINE_FLAGS)
def _mj_start(groups, mj, pres, rules, ws):
    """Count the counters of ``pres`` afresh, queue its free tiles and, with the loose-tile
    rule, every group (then only by events). Returns ``(tail, gtop, left)``."""
    group_queued = ws.group_queued
    for g in range(groups.start.shape[0] - 1):
        group_queued[g] = 0
    tail = _mj_init(pres, mj, ws.above, ws.one, ws.two, ws.queue, ws.queued)
    gtop = np.int64(0)
    if rules.loose:
        for g in range(groups.start.shape[0] - 1):
            gtop = _push_group(g, group_queued, ws.group_stack, gtop)
    return tail, gtop, _count(pres)


@njit(**JIT_FLAGS)
def _mj_apply(groups, mj, pres, partner, moves, mptr, rules, ws):
    """Apply the pairing set ``partner`` and the cleaning rules to ``pres``, in place.

    Parameters
    ----------
    groups : Groups
    mj : MahjongTables
    pres, partner : numpy.ndarray
        ``uint8[n]`` position and ``int32[n]`` pairing set (a loose tile and the fourth of
        its group get paired).
    moves : numpy.ndarray
        ``int32[n // 2 + 1, 2]``, the moves played are recorded from row ``mptr`` on.
    mptr : int
    rules : Rules
    ws : Workspace
        Its counters are those of ``pres`` afterwards (for :func:`_mj_scan_warm`,
        :func:`_mj_resume`, :func:`_mj_legal`).

    Returns
    -------
    int
        The new ``mptr``.
    """
    tail, gtop, left = _mj_start(groups, mj, pres, rules, ws)
    mptr, left = _mj_settle(groups, mj, pres, partner, moves, mptr, rules, ws, tail, np.int64(0), gtop, left)
    return mptr


@njit(**JIT_FLAGS)
def _mj_resume(groups, mj, pres, partner, moves, mptr, rules, ws):
    """Go on with an apply after the two tiles ``ws.removed[0]`` and ``ws.removed[1]`` (one
    move, recorded by the caller) were taken off ``pres``: one propagation instead of a
    fresh apply.

    Parameters
    ----------
    groups, mj, pres, partner, moves, mptr, rules, ws
        As for :func:`_mj_apply`; ``ws`` holds the counters of the apply (or resume) that
        left ``pres`` stuck before the move. The group of the two tiles is looked at
        first: its last two may go now.

    Returns
    -------
    int
        The new ``mptr``.
    """
    group_queued, group_stack = ws.group_queued, ws.group_stack
    for g in range(groups.start.shape[0] - 1):
        group_queued[g] = 0
    g = groups.of_tile[ws.removed[0]]
    group_queued[g] = 1
    group_stack[0] = g
    tail = np.int64(0)
    for k in range(groups.start[g], groups.start[g + 1]):
        u = groups.tiles[k]
        if _free(u, pres, ws.above, ws.one, ws.two):
            ws.queue[tail] = u
            tail += 1
            ws.queued[u] = 1
    mptr, left = _mj_settle(
        groups, mj, pres, partner, moves, mptr, rules, ws, tail, np.int64(2), np.int64(1), _count(pres)
    )
    return mptr


@njit(**JIT_FLAGS)
def _xorshift(state):
    """The next value of the xorshift64 generator whose state is ``state[0]`` (``uint64[1]``)."""
    x = state[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    state[0] = x
    return x


@njit(**JIT_FLAGS)
def _mj_playout(groups, mj, pres, partner, moves, rules, rng, ws):
    """One random playout: the apply, and whenever it is stuck a random playable pair of a
    group without a pairing, then on, keeping the counters (one playout costs about one
    apply).

    Parameters
    ----------
    groups, mj, pres, partner, moves, rules, ws
        As for :func:`_mj_apply`; the moves are recorded from row 0.
    rng : numpy.ndarray
        ``uint64[1]``, the state of :func:`_xorshift`.

    Returns
    -------
    int
        The number of moves played (``n // 2`` when the board is cleared).
    """
    n = pres.shape[0]
    of_tile = groups.of_tile
    above, one, two, queue, queued, removed = ws.above, ws.one, ws.two, ws.queue, ws.queued, ws.removed
    tail, gtop, left = _mj_start(groups, mj, pres, rules, ws)
    mptr = np.int64(0)
    rtop = np.int64(0)
    while True:
        mptr, left = _mj_settle(groups, mj, pres, partner, moves, mptr, rules, ws, tail, rtop, gtop, left)
        if left == 0:
            return mptr
        m = _mj_legal(groups, pres, partner, above, one, two, ws.legal)
        if m == 0:
            return mptr
        _, x, y = _draw(ws.legal, m, rng, n)
        rtop = _take(x, pres, removed, 0)
        rtop = _take(y, pres, removed, rtop)
        left -= 2
        moves[mptr, 0] = x
        moves[mptr, 1] = y
        mptr += 1
        tail = np.int64(0)  # the queue is empty when stuck: start it again
        gtop = np.int64(0)
        g = np.int64(of_tile[x])
        live, a, b = _last_two(g, groups, pres)
        if live == 2:  # the last two go together: look at them again
            partner[a] = b
            partner[b] = a
            queued[a] = 0
            queued[b] = 0
            if _open(a, above, one, two):
                queue[tail] = a
                tail += 1
                queued[a] = 1
        else:
            gtop = _push_group(g, ws.group_queued, ws.group_stack, gtop)


# --------------------------------------------------------------------------- the scan


@njit(**JIT_FLAGS)
def _mj_relax(groups, mj, ps, partner, ws, tail, rtop, left):
    """The scan's event loop: the relaxed game on ``ps`` until stuck.

    A group with a pairing plays by it; a group without one plays its first two free
    tiles together (any match) and then each tile as soon as it is free.

    Parameters
    ----------
    groups : Groups
    mj : MahjongTables
    ps : numpy.ndarray
        ``uint8[n]``, the scan's copy of the position (``ws.scan_present``), emptied in place.
    partner : numpy.ndarray
        ``int32[n]``, the pairing set (read only).
    ws : Workspace
        ``scan_above``/``scan_one``/``scan_two`` hold the counters of ``ps`` (the stacked
        removals aside), ``scan_queue[:tail]`` the tiles to look at, ``removed[:rtop]``
        the removals to propagate; ``opened`` and ``free_seen`` are zero.
    tail, rtop, left : int
        As above; ``left`` is the number of present tiles.

    Returns
    -------
    int
        The number of tiles the relaxed game could not remove.
    """
    of_tile, start, tiles = groups.of_tile, groups.start, groups.tiles
    above, one, two, queue, queued = ws.scan_above, ws.scan_one, ws.scan_two, ws.scan_queue, ws.scan_queued
    removed, opened, free_seen = ws.removed, ws.opened, ws.free_seen
    head = np.int64(0)
    while True:
        t, head, tail, _ = _next_free(
            ps, mj, of_tile, above, one, two, queue, queued, head, tail, removed, rtop,
            False, ws.group_queued, ws.group_stack, 0,
        )  # fmt: skip
        rtop = 0
        if t < 0:
            return left
        p = partner[t]  # a tile became free
        if p >= 0:
            rtop = _take_pair(t, p, ps, above, one, two, removed, rtop)
            if rtop > 0:
                left -= 2
            continue
        g = of_tile[t]
        if opened[g]:
            rtop = _take(t, ps, removed, rtop)
            left -= 1
            continue
        free_seen[g] += 1
        if free_seen[g] >= 2:  # the first two free tiles go together
            opened[g] = 1
            for k in range(start[g], start[g + 1]):
                u = tiles[k]
                if _free(u, ps, above, one, two):
                    rtop = _take(u, ps, removed, rtop)
                    left -= 1


@njit(**INLINE_FLAGS)
def _mj_scan_groups(groups, ws):
    for g in range(groups.start.shape[0] - 1):
        ws.opened[g] = 0
        ws.free_seen[g] = 0


@njit(**JIT_FLAGS)
def _mj_scan(groups, mj, pres, partner, ws):
    """Run the pruning scan on position ``pres``, counting its counters afresh.

    Parameters
    ----------
    groups : Groups
    mj : MahjongTables
    pres, partner : numpy.ndarray
        ``uint8[n]`` position and ``int32[n]`` pairing set (both read only).
    ws : Workspace
        The scan's slots are used.

    Returns
    -------
    bool
        True iff the relaxed game clears the position.
    """
    ps = ws.scan_present
    ps[:] = pres
    _mj_scan_groups(groups, ws)
    tail = _mj_init(ps, mj, ws.scan_above, ws.scan_one, ws.scan_two, ws.scan_queue, ws.scan_queued)
    return _mj_relax(groups, mj, ps, partner, ws, tail, np.int64(0), _count(ps)) == 0


@njit(**INLINE_FLAGS)
def _mj_warm_start(groups, ps, ws):
    """The scan's counters copied from the apply's, its queue filled with the free tiles
    of ``ps``; returns the queue's length."""
    _mj_scan_groups(groups, ws)
    ws.scan_above[:] = ws.above
    ws.scan_one[:] = ws.one
    ws.scan_two[:] = ws.two
    tail = np.int64(0)
    for t in range(ps.shape[0]):
        ws.scan_queued[t] = 0
        if _free(t, ps, ws.scan_above, ws.scan_one, ws.scan_two):
            ws.scan_queue[tail] = t
            tail += 1
            ws.scan_queued[t] = 1
    return tail


@njit(**JIT_FLAGS)
def _mj_scan_warm(groups, mj, pres, partner, ws):
    """:func:`_mj_scan` right after :func:`_mj_apply` (or :func:`_mj_resume`) on the same
    ``pres``: the apply's counters are copied instead of counted again.

    Parameters
    ----------
    groups, mj, pres, partner, ws
        As for :func:`_mj_scan`; ``ws.above``/``one``/``two`` are the counters of ``pres``.

    Returns
    -------
    bool
        True iff the relaxed game clears the position.
    """
    ps = ws.scan_present
    ps[:] = pres
    tail = _mj_warm_start(groups, ps, ws)
    return _mj_relax(groups, mj, ps, partner, ws, tail, np.int64(0), _count(ps)) == 0


@njit(**JIT_FLAGS)
def _mj_scan_without(groups, mj, pres, x, y, partner, ws):
    """The pruning scan of ``pres`` without the tiles ``x`` and ``y``, right after an apply
    on ``pres``: its counters are copied and the two removals propagated.

    Parameters
    ----------
    groups, mj, pres, partner, ws
        As for :func:`_mj_scan_warm` (``pres`` is read only).
    x, y : int
        Two present tiles of one move.

    Returns
    -------
    bool
        True iff the relaxed game clears the position after the move.
    """
    ps = ws.scan_present
    ps[:] = pres
    ps[x] = 0
    ps[y] = 0
    ws.removed[0] = x
    ws.removed[1] = y
    tail = _mj_warm_start(groups, ps, ws)
    return _mj_relax(groups, mj, ps, partner, ws, tail, np.int64(2), _count(ps)) == 0


@njit(**JIT_FLAGS)
def _autopair(groups, pres, partner):
    """Pair the last two present tiles of every group that has no pairing yet.

    Parameters
    ----------
    groups : Groups
    pres, partner : numpy.ndarray
        ``uint8[n]`` position and ``int32[n]`` pairing set (changed in place).
    """
    for g in range(groups.start.shape[0] - 1):
        live, a, b = _last_two(g, groups, pres)
        if live == 2 and partner[a] < 0:
            partner[a] = b
            partner[b] = a



# --------------------------------------------------------------------------- guided playouts


@njit(**JIT_FLAGS)
def _mj_guided(groups, mj, rules, count, rng, pres, partner, moves, ws):
    """:func:`mjsat.search.kernels._guided` on Mahjong: per move, one warm scan per candidate
    (:func:`_mj_scan_without`) and one propagation (:func:`_mj_resume`).

    Parameters
    ----------
    groups : Groups
    mj : MahjongTables
    rules, count, rng, pres, partner, moves, ws
        As for :func:`_fresh_playouts`.

    Returns
    -------
    int
        The number of the playout that cleared the board, or -1.
    """
    legal = ws.legal
    n = pres.shape[0]
    for a in range(count):
        _fresh_start(groups, pres, partner)
        mptr = _mj_apply(groups, mj, pres, partner, moves, np.int64(0), rules, ws)
        while True:
            if 2 * mptr == n:
                return a
            m = _mj_legal(groups, pres, partner, ws.above, ws.one, ws.two, legal)
            x = -1
            y = -1
            while m > 0:
                i, x, y = _draw(legal, m, rng, n)
                if _mj_scan_without(groups, mj, pres, x, y, partner, ws):
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
            live, p, q = _last_two(np.int64(groups.of_tile[x]), groups, pres)
            if live == 2:  # the last two go together
                partner[p] = q
                partner[q] = p
            ws.removed[0] = x
            ws.removed[1] = y
            mptr = _mj_resume(groups, mj, pres, partner, moves, mptr, rules, ws)
    return -1
