"""numba kernels of the batch path: many deals of one Mahjong layout in one compiled call.

:func:`_solve_chunk` runs, for each row of a ``groups`` matrix (one deal per row), the
phases of :func:`mjsat.search.solver.solve_search` with the numba engine and its defaults
(``presearch=0``, the critical-group search): the prior analysis, the pruning scan of the
full deal, the plain then the scan-guided random playouts, and the critical-group search
under a node budget. It calls the kernels of :mod:`mjsat.search.kernels` (``_scan``,
``_attempts``, ``_guided``, ``_dfs``, ``_autopair``) on arrays built here once per deal
from the row (the groups renumbered ``0..G-1`` by first tile, as
:func:`mjsat.search.pairing.geometry` does) and on the layout's relations, built once per
layout by the caller; the workspace is reused from deal to deal while the number of groups
stays the same. Every ``solvable`` answer is replayed by :func:`_clears` before it is
written, so a row's status and moves are what the Python wrapper returns.

The arguments follow the names of :mod:`mjsat.search.kernels`; besides them:

=============  =========================================================================
name           what
=============  =========================================================================
``groups``     ``int64[D, n]``: the group of every tile, one deal per row
``states``     ``uint64[D]``: the first xorshift state of each deal's playouts
``desc``       ``uint8[n, n]``: ``desc[t, u] = 1`` when tile ``t`` lies on ``u``, directly
               or through other tiles (:attr:`mjsat.layout.Layout.descendants`)
``top``,       ``int64[p]``: every pair ``(top[i], under[i])`` with ``desc[top, under]``
``under``
``plan``       ``int64[N_PLAN]``: the prior analysis on or off and the rules of the
               numbers of plain and guided playouts, at the slots ``PLAN_*``
               (:func:`plan_array`)
``node_limit`` ``int``: search nodes per deal, :data:`NO_LIMIT` for no limit
``clock``      ``int``: the id of the clock of :func:`_cpu_ns` (:data:`CPU_CLOCK`), or
               ``-1`` for none (``cpu`` is then 0)
``cpu``        ``int64[D]``: written, the CPU time of each deal in nanoseconds
``info``       ``int64[D, N_INFO]``: written, per deal the counts of the columns ``INFO_*``
=============  =========================================================================

Each deal's CPU time is read inside the compiled loop, from the thread's CPU clock
(``clock_gettime``, about 0.3 us a reading): the time a deal costs in a block, without the
call's dispatch and the Python around it, which a block pays once.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import config as numba_config, njit, types

from mjsat.search.config import (
    JIT_FLAGS,
    N_STATS,
    R_SCAN,
    S_MOVES,
    S_NODES,
    S_SCANS,
)
from mjsat.search.kernels import (
    EXHAUSTED,
    MAX_GROUP,
    SOLVED,
    _attempts,
    _autopair,
    _dfs,
    _guided,
    _new_stacks,
    _new_workspace,
    _restart,
    _scan,
)

__all__ = [
    "UNDECIDED",
    "SOLVABLE",
    "UNSOLVABLE",
    "BAD_DEAL",
    "REPLAY_FAILED",
    "BY_NONE",
    "BY_PRIOR",
    "BY_SCAN",
    "BY_PLAIN",
    "BY_GUIDED",
    "BY_SEARCH",
    "INFO_ATTEMPTS",
    "INFO_GUIDED",
    "INFO_SCANS",
    "INFO_PRIOR_GROUP",
    "INFO_BIGGEST",
    "N_INFO",
    "PLAN_PRIOR",
    "PLAN_PLAIN",
    "PLAN_GUIDED",
    "N_PLAN",
    "NO_LIMIT",
    "plan_array",
]

UNDECIDED, SOLVABLE, UNSOLVABLE, BAD_DEAL, REPLAY_FAILED = 0, 1, 2, 3, 4
"""The status code of a row: left at the node budget (or a group the kernels do not branch
on, of more than :data:`~mjsat.search.kernels.MAX_GROUP` tiles), solved (moves replayed),
proved unsolvable, a group with an odd number of tiles, or moves the replay rejects (a bug)."""
BY_NONE, BY_PRIOR, BY_SCAN, BY_PLAIN, BY_GUIDED, BY_SEARCH = 0, 1, 2, 3, 4, 5
"""The phase that decided a row."""
INFO_ATTEMPTS, INFO_GUIDED, INFO_SCANS, INFO_PRIOR_GROUP, INFO_BIGGEST = 0, 1, 2, 3, 4
"""The columns of ``info``, counted as :func:`mjsat.search.solver.solve_search` counts its
``stats``: plain playouts run (the number of the one that cleared), guided playouts
likewise, pruning scans, the group the prior analysis found (renumbered, -1 for none) and
the size of the largest group."""
N_INFO = 5
"""Columns of ``info``."""

CPU_CLOCK = getattr(time, "CLOCK_THREAD_CPUTIME_ID", -1)
"""The id of the calling thread's CPU clock for ``clock_gettime`` (-1 where Python has none:
the per-deal times are then 0)."""

if getattr(numba_config, "DISABLE_JIT", 0):  # the kernels run as Python (coverage): the same clock

    def _cpu_ns(clock, ts):
        """The CPU time of the calling thread in nanoseconds (``clock``: :data:`CPU_CLOCK`;
        ``ts``: ``int64[2]`` scratch for the ``timespec``), 0 when ``clock`` is -1."""
        return time.clock_gettime_ns(clock) if clock >= 0 else 0

else:
    _clock_gettime = types.ExternalFunction("clock_gettime", types.int32(types.int32, types.voidptr))

    @njit(**JIT_FLAGS)
    def _cpu_ns(clock, ts):
        """The CPU time of the calling thread in nanoseconds (``clock``: :data:`CPU_CLOCK`;
        ``ts``: ``int64[2]`` scratch for the ``timespec``), 0 when ``clock`` is -1."""
        if clock < 0:
            return 0
        _clock_gettime(clock, ts.ctypes.data)
        return ts[0] * 1_000_000_000 + ts[1]


PLAN_PRIOR = 0
"""``plan[PLAN_PRIOR]``: the prior analysis on (1) or off (0)."""
PLAN_PLAIN = 1
"""``plan[PLAN_PLAIN:PLAN_PLAIN + 3]``: ``(num, den, fixed)``, a deal with ``k`` groups of
four tiles or more runs ``ceil(k * num / den) + fixed`` plain playouts
(:meth:`mjsat.search.options.SearchOptions.playout_rule`)."""
PLAN_GUIDED = 4
"""``plan[PLAN_GUIDED:PLAN_GUIDED + 3]``: the same for the scan-guided playouts."""
N_PLAN = 7
"""Length of ``plan``."""
NO_LIMIT = -1
"""``node_limit`` of a search without a node limit."""


def plan_array(options: Any, *, incremental: bool = True) -> np.ndarray:
    """The ``plan`` of :func:`_solve_chunk` for ``options`` (a
    :class:`~mjsat.search.options.SearchOptions`); ``incremental``: the playout counts of
    the incremental kernels (numba on Mahjong), else those of the other games."""
    plain, guided = options.playout_rule(incremental and options.engine == "numba")
    return np.array([int(options.prior), *plain, *guided], dtype=np.int64)


@njit(**JIT_FLAGS)
def _renumber(row, group, count, gptr, gidx, ids):
    """Renumber the groups of ``row`` ``0..G-1`` by first tile into ``group`` and build the
    CSR ``gptr``/``gidx`` of the members (``count`` and ``ids``, ``int64[n]``, are scratch);
    the number of groups ``G`` and the largest group, or ``(G, -1)`` when a group has an
    odd number of tiles."""
    n = row.shape[0]
    ng = 0
    # first appearance: a linear probe over the ids seen so far (a deal has few groups)
    for t in range(n):
        v = row[t]
        g = -1
        for k in range(ng):
            if ids[k] == v:
                g = k
                break
        if g < 0:
            g = ng
            ids[ng] = v
            ng += 1
        group[t] = g
    count[:ng] = 0
    for t in range(n):
        count[group[t]] += 1
    big = 0
    gptr[0] = 0
    for g in range(ng):
        c = count[g]
        if c % 2:
            return ng, -1
        if c > big:
            big = c
        gptr[g + 1] = gptr[g] + c
        count[g] = gptr[g]
    for t in range(n):
        g = group[t]
        gidx[count[g]] = t
        count[g] += 1
    return ng, big


@njit(**JIT_FLAGS)
def _pairing_ok(tiles, r, row, ptab, desc, pa, pb, indeg, stack):
    """Whether pairing ``row`` of the table ``ptab`` of the ``r`` tiles ``tiles`` respects the
    cover order: no pair of a tile and one it lies on, and no cycle among the pairs (pair
    ``i`` before pair ``j`` when a tile of ``i`` lies on a tile of ``j``); ``pa``, ``pb``,
    ``indeg``, ``stack`` are scratch of ``MAX_GROUP // 2`` entries."""
    k = 0
    for i in range(r):
        j = ptab[row, i]
        if i < j:
            a = tiles[i]
            b = tiles[j]
            if desc[a, b] or desc[b, a]:
                return False
            pa[k] = a
            pb[k] = b
            k += 1
    for j in range(k):
        indeg[j] = 0
    for i in range(k):
        for j in range(k):
            if j != i and (desc[pa[i], pa[j]] or desc[pa[i], pb[j]] or desc[pb[i], pa[j]] or desc[pb[i], pb[j]]):
                indeg[j] += 1
    top = 0
    for i in range(k):
        if indeg[i] == 0:
            stack[top] = i
            top += 1
    seen = 0
    while top > 0:
        top -= 1
        i = stack[top]
        seen += 1
        for j in range(k):
            if j != i and (desc[pa[i], pa[j]] or desc[pa[i], pb[j]] or desc[pb[i], pa[j]] or desc[pb[i], pb[j]]):
                indeg[j] -= 1
                if indeg[j] == 0:
                    stack[top] = j
                    top += 1
    return seen == k


@njit(**JIT_FLAGS)
def _prior_conflict(group, gptr, gidx, desc, top, under, pt, mark):
    """The lowest group (renumbered) that no pairing can remove by the cover order alone,
    or -1: the prior analysis of :func:`mjsat.search.solver.prior_conflict`, on the groups
    with a tile lying on a tile of their own group and at most ``MAX_GROUP`` tiles
    (``mark`` is scratch of one entry per group)."""
    ptab, pstart, pcount = pt[0], pt[1], pt[2]
    ng = gptr.shape[0] - 1
    mark[:ng] = 0
    any_same = False
    for i in range(top.shape[0]):
        g = group[top[i]]
        if g == group[under[i]]:
            mark[g] = 1
            any_same = True
    if not any_same:
        return -1
    tiles = np.empty(MAX_GROUP, dtype=np.int64)
    pa = np.empty(MAX_GROUP // 2, dtype=np.int64)
    pb = np.empty(MAX_GROUP // 2, dtype=np.int64)
    indeg = np.empty(MAX_GROUP // 2, dtype=np.int64)
    stack = np.empty(MAX_GROUP // 2, dtype=np.int64)
    for g in range(ng):
        if not mark[g]:
            continue
        r = gptr[g + 1] - gptr[g]
        if r > MAX_GROUP:
            continue
        for i in range(r):
            tiles[i] = gidx[gptr[g] + i]
        ok = False
        for k in range(pcount[r // 2]):
            if _pairing_ok(tiles, r, pstart[r // 2] + k, ptab, desc, pa, pb, indeg, stack):
                ok = True
                break
        if not ok:
            return g
    return -1


@njit(**JIT_FLAGS)
def _clears(mj, row, moves, m, present, cnt):
    """Whether the ``m`` moves of ``moves`` clear the deal ``row`` by the Mahjong rules: each
    move names two distinct present tiles of one group, each with no present tile above it
    and one side without a present tile (counters of the present tiles above and on each
    side of every tile, lowered per removal, on the CSR relations ``mj``); ``present``
    (``uint8[n]``) and ``cnt`` (``int64[3 n]``) are scratch."""
    n = row.shape[0]
    if 2 * m != n:
        return False
    aptr, optr, tptr = mj[0], mj[2], mj[4]
    cptr, cidx, o_ptr, o_idx, t_ptr, t_idx = mj[6], mj[7], mj[8], mj[9], mj[10], mj[11]
    for t in range(n):
        present[t] = 1
        cnt[t] = aptr[t + 1] - aptr[t]
        cnt[n + t] = optr[t + 1] - optr[t]
        cnt[2 * n + t] = tptr[t + 1] - tptr[t]
    for i in range(m):
        a = moves[i, 0]
        b = moves[i, 1]
        if a < 0 or b < 0 or a >= n or b >= n or a == b or not present[a] or not present[b]:
            return False
        if row[a] != row[b]:
            return False
        if cnt[a] or cnt[b] or (cnt[n + a] and cnt[2 * n + a]) or (cnt[n + b] and cnt[2 * n + b]):
            return False
        present[a] = 0
        present[b] = 0
        for x in (a, b):
            for k in range(cptr[x], cptr[x + 1]):
                cnt[cidx[k]] -= 1
            for k in range(o_ptr[x], o_ptr[x + 1]):
                cnt[n + o_idx[k]] -= 1
            for k in range(t_ptr[x], t_ptr[x + 1]):
                cnt[2 * n + t_idx[k]] -= 1
    return True


@njit(**JIT_FLAGS)
def _replay_rows(mj, groups, moves, nmoves, ok):
    """:func:`_clears` on every row: ``ok[i] = 1`` when ``moves[i, :nmoves[i]]`` clear deal
    ``groups[i]``."""
    n = groups.shape[1]
    present = np.zeros(n, dtype=np.uint8)
    cnt = np.zeros(3 * n, dtype=np.int64)
    for i in range(groups.shape[0]):
        ok[i] = 1 if _clears(mj, groups[i], moves[i], nmoves[i], present, cnt) else 0


@njit(**JIT_FLAGS)
def _solve_chunk(
    kind, groups, states, mj, sh, pt, opts, desc, top, under, plan, node_limit, clock,
    status, phase, moves, nmoves, nodes, cpu, info,
):  # fmt: skip
    """Decide every deal of ``groups`` (see the module docstring for the arguments).

    Writes per row ``status`` (``UNDECIDED``, ``SOLVABLE``, ``UNSOLVABLE``, ``BAD_DEAL``,
    ``REPLAY_FAILED``), ``phase`` (``BY_*``), ``moves[i, :nmoves[i]]`` (each move's tiles in
    increasing order), ``nodes`` (search nodes), ``cpu`` (nanoseconds) and ``info``
    (``INFO_*``).

    Notes
    -----
    Per deal: :math:`O(n G)` to renumber, the prior analysis, then the cost of the phases
    of :func:`mjsat.search.solver.solve_search` under the node budget.
    """
    D, n = groups.shape
    group = np.zeros(n, dtype=np.int32)
    gptr = np.zeros(n + 1, dtype=np.int32)
    gidx = np.zeros(n, dtype=np.int32)
    count = np.zeros(n + 1, dtype=np.int32)
    ids = np.zeros(n, dtype=np.int64)
    mark = np.zeros(n + 1, dtype=np.uint8)
    pres = np.ones(n, dtype=np.uint8)
    partner = np.full(n, -1, dtype=np.int32)
    mv = np.zeros((n // 2 + 1, 2), dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    st = np.zeros(N_STATS, dtype=np.int64)
    present = np.zeros(n, dtype=np.uint8)
    cnt = np.zeros(3 * n, dtype=np.int64)
    ws_groups = 1
    ws = _new_workspace(n, ws_groups, 1, 0)
    P, Q, bg, bgr, allow, nxt, mend = _new_stacks(n, ws_groups)
    ts = np.zeros(2, dtype=np.int64)
    t0 = _cpu_ns(clock, ts)
    for i in range(D):
        if i > 0:  # the deal before ended here
            t1 = _cpu_ns(clock, ts)
            cpu[i - 1] = t1 - t0
            t0 = t1
        row = groups[i]
        status[i] = UNDECIDED
        phase[i] = BY_NONE
        nmoves[i] = 0
        nodes[i] = 0
        info[i, :] = 0
        info[i, INFO_PRIOR_GROUP] = -1
        ng, big = _renumber(row, group, count, gptr, gidx, ids)
        info[i, INFO_BIGGEST] = big
        if big < 0:
            status[i] = BAD_DEAL
            continue
        gr = (group, gptr[: ng + 1].copy(), gidx)
        if plan[PLAN_PRIOR]:
            g = _prior_conflict(group, gr[1], gidx, desc, top, under, pt, mark)
            if g >= 0:
                status[i] = UNSOLVABLE
                phase[i] = BY_PRIOR
                info[i, INFO_PRIOR_GROUP] = g
                continue
        if big > MAX_GROUP:
            continue  # the kernels do not branch on it: left to the caller
        if ng != ws_groups:
            ws_groups = ng
            ws = _new_workspace(n, ng, 1, 0)
            P, Q, bg, bgr, allow, nxt, mend = _new_stacks(n, ng)
        else:
            _restart(ws)  # the search's weights, alive pairings and hint: each deal its own
        fours = 0
        for g in range(ng):
            if gptr[g + 1] - gptr[g] >= 4:
                fours += 1
        n_plain = (fours * plan[PLAN_PLAIN] + plan[PLAN_PLAIN + 1] - 1) // plan[PLAN_PLAIN + 1] + plan[PLAN_PLAIN + 2]
        n_guided = (fours * plan[PLAN_GUIDED] + plan[PLAN_GUIDED + 1] - 1) // plan[PLAN_GUIDED + 1]
        n_guided += plan[PLAN_GUIDED + 2]
        decided = False
        if (n_plain > 0 or n_guided > 0) and opts[R_SCAN]:
            pres[:] = 1
            partner[:] = -1
            _autopair(gr, pres, partner)
            info[i, INFO_SCANS] = 1
            if not _scan(kind, gr, mj, sh, pres, partner, mv, opts, ws):
                status[i] = UNSOLVABLE
                phase[i] = BY_SCAN
                continue
        rng[0] = states[i]
        pres[:] = 1
        partner[:] = -1
        hit = _attempts(kind, gr, mj, sh, opts, n_plain, rng, pres, partner, mv, ws) if n_plain > 0 else -1
        info[i, INFO_ATTEMPTS] = hit + 1 if hit >= 0 else n_plain
        if hit >= 0:
            phase[i] = BY_PLAIN
            decided = True
        elif n_guided > 0:
            hit = _guided(kind, gr, mj, sh, opts, n_guided, rng, pres, partner, mv, ws)
            info[i, INFO_GUIDED] = hit + 1 if hit >= 0 else n_guided
            if hit >= 0:
                phase[i] = BY_GUIDED
                decided = True
        m = n // 2
        if not decided:
            P[0, :] = 1
            Q[0, :] = -1
            _autopair(gr, P[0], Q[0])
            st[:] = 0
            budget = node_limit if node_limit != NO_LIMIT else (1 << 62)
            code = _dfs(kind, gr, mj, sh, pt, opts, P, Q, bg, bgr, allow, nxt, mend, mv, st, budget, ws)
            nodes[i] = st[S_NODES]
            info[i, INFO_SCANS] += st[S_SCANS]
            if code == EXHAUSTED:
                status[i] = UNSOLVABLE
                phase[i] = BY_SEARCH
                continue
            if code != SOLVED:
                continue
            phase[i] = BY_SEARCH
            m = st[S_MOVES]
        for k in range(m):
            a = mv[k, 0]
            b = mv[k, 1]
            if a < b:
                moves[i, k, 0] = a
                moves[i, k, 1] = b
            else:
                moves[i, k, 0] = b
                moves[i, k, 1] = a
        nmoves[i] = m
        status[i] = SOLVABLE if _clears(mj, row, moves[i], m, present, cnt) else REPLAY_FAILED
    if D > 0:
        cpu[D - 1] = _cpu_ns(clock, ts) - t0
