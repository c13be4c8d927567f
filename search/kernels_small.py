"""numba kernel of the ``small`` driver: every phase of the search on a small board in one call.

:func:`_solve_small` runs on one deal of a Shisen-Sho grid what the ``phases`` driver
(:func:`mjsat.search.drivers._run_numba`) runs from Python: the pruning scan of the full
deal, the random playouts, the scan-guided ones and the critical-group search, under a
node budget, with the same generator, workspace and stacks, so it answers with the same
moves and counts. The groups are renumbered inside (:func:`mjsat.search.kernels_batch._renumber`),
so a call takes the deal's row of groups and the layout's tables as they are kept by the
layout. The arguments follow the names of :mod:`mjsat.search.kernels`; besides them:

=============  =========================================================================
name           what
=============  =========================================================================
``row``        ``int64[n]``: the group of every tile (any ids)
``counts``     ``int64[N_PLAN]``: the rules of the numbers of plain and guided playouts
               (:data:`~mjsat.search.kernels_batch.PLAN_PLAIN`,
               :data:`~mjsat.search.kernels_batch.PLAN_GUIDED`; ``PLAN_PRIOR`` is not read)
``state``      ``uint64``: the first xorshift state of the playouts
               (:func:`mjsat.search.scratch.playout_state` of the seed)
``budget``     ``int``: search nodes before the call gives up (:data:`SMALL_UNDECIDED`)
``out``        ``int64[N_OUT]``: written, the answer at the slots ``OUT_*``
=============  =========================================================================
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mjsat.search.config import JIT_FLAGS, N_STATS, R_SCAN, S_MOVES, S_NODES, S_SCANS
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
    _scan,
)
from mjsat.search.kernels_batch import PLAN_GUIDED, PLAN_PLAIN, _renumber

__all__ = [
    "SMALL_UNDECIDED",
    "SMALL_SOLVABLE",
    "SMALL_UNSOLVABLE",
    "SMALL_TOO_LARGE",
    "OUT_CODE",
    "OUT_PHASE",
    "OUT_MOVES",
    "OUT_NODES",
    "OUT_SCANS",
    "OUT_ATTEMPTS",
    "OUT_GUIDED",
    "N_OUT",
    "PHASE_SCAN",
    "PHASE_PLAIN",
    "PHASE_GUIDED",
    "PHASE_SEARCH",
]

SMALL_UNDECIDED, SMALL_SOLVABLE, SMALL_UNSOLVABLE, SMALL_TOO_LARGE = 0, 1, 2, 3
"""``out[OUT_CODE]``: left at the node budget, solved, proved unsolvable, or a group of more
than :data:`~mjsat.search.kernels.MAX_GROUP` tiles (the kernels do not branch on it)."""
PHASE_SCAN, PHASE_PLAIN, PHASE_GUIDED, PHASE_SEARCH = 1, 2, 3, 4
"""``out[OUT_PHASE]``: the phase that decided."""
OUT_CODE, OUT_PHASE, OUT_MOVES, OUT_NODES, OUT_SCANS, OUT_ATTEMPTS, OUT_GUIDED = 0, 1, 2, 3, 4, 5, 6
"""The slots of ``out``: the code, the phase, the number of moves written, search nodes,
pruning scans, plain playouts run (the number of the one that cleared) and guided ones,
counted as :func:`mjsat.search.solver.solve_search` counts its ``stats``."""
N_OUT = 7
"""Length of ``out``."""


@njit(**JIT_FLAGS)
def _solve_small(kind, row, mj, sh, pt, opts, counts, state, budget, moves, out):
    """Decide the deal ``row`` (see the module docstring for the arguments); the moves of a
    ``solvable`` answer in ``moves[:out[OUT_MOVES]]`` (``int32[n // 2 + 1, 2]``), as the
    kernels wrote them.

    Notes
    -----
    :math:`O(n G)` to renumber, then the cost of the phases of
    :func:`mjsat.search.solver.solve_search` under ``budget`` search nodes.
    """
    n = row.shape[0]
    out[:] = 0
    group = np.zeros(n, dtype=np.int32)
    gptr = np.zeros(n + 1, dtype=np.int32)
    gidx = np.zeros(n, dtype=np.int32)
    count = np.zeros(n + 1, dtype=np.int32)
    ids = np.zeros(n, dtype=np.int64)
    ng, big = _renumber(row, group, count, gptr, gidx, ids)
    if big > MAX_GROUP or big < 0:
        out[OUT_CODE] = SMALL_TOO_LARGE
        return
    gr = (group, gptr[: ng + 1].copy(), gidx)
    ws = _new_workspace(n, ng, sh[2] * sh[3], 0)
    pres = np.ones(n, dtype=np.uint8)
    partner = np.full(n, -1, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = state
    fours = 0
    for g in range(ng):
        if gptr[g + 1] - gptr[g] >= 4:
            fours += 1
    p = PLAN_PLAIN
    n_plain = (fours * counts[p] + counts[p + 1] - 1) // counts[p + 1] + counts[p + 2]
    p = PLAN_GUIDED
    n_guided = (fours * counts[p] + counts[p + 1] - 1) // counts[p + 1] + counts[p + 2]
    if (n_plain > 0 or n_guided > 0) and opts[R_SCAN]:
        _autopair(gr, pres, partner)
        out[OUT_SCANS] = 1
        if not _scan(kind, gr, mj, sh, pres, partner, moves, opts, ws):
            out[OUT_CODE] = SMALL_UNSOLVABLE
            out[OUT_PHASE] = PHASE_SCAN
            return
    if n_plain > 0:
        hit = _attempts(kind, gr, mj, sh, opts, n_plain, rng, pres, partner, moves, ws)
        out[OUT_ATTEMPTS] = hit + 1 if hit >= 0 else n_plain
        if hit >= 0:
            out[OUT_CODE] = SMALL_SOLVABLE
            out[OUT_PHASE] = PHASE_PLAIN
            out[OUT_MOVES] = n // 2
            return
    if n_guided > 0:
        hit = _guided(kind, gr, mj, sh, opts, n_guided, rng, pres, partner, moves, ws)
        out[OUT_GUIDED] = hit + 1 if hit >= 0 else n_guided
        if hit >= 0:
            out[OUT_CODE] = SMALL_SOLVABLE
            out[OUT_PHASE] = PHASE_GUIDED
            out[OUT_MOVES] = n // 2
            return
    P, Q, bg, bgr, allow, nxt, mend = _new_stacks(n, ng)
    P[0, :] = 1
    _autopair(gr, P[0], Q[0])
    st = np.zeros(N_STATS, dtype=np.int64)
    code = _dfs(kind, gr, mj, sh, pt, opts, P, Q, bg, bgr, allow, nxt, mend, moves, st, budget, ws)
    out[OUT_NODES] = st[S_NODES]
    out[OUT_SCANS] += st[S_SCANS]
    if code == EXHAUSTED:
        out[OUT_CODE] = SMALL_UNSOLVABLE
        out[OUT_PHASE] = PHASE_SEARCH
    elif code == SOLVED:
        out[OUT_CODE] = SMALL_SOLVABLE
        out[OUT_PHASE] = PHASE_SEARCH
        out[OUT_MOVES] = st[S_MOVES]
