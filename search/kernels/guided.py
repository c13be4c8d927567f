"""The scan-guided random playouts.

Part of the package :mod:`mjsat.search.kernels`; its docstring names the arguments.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mjsat.search.config import (
    JIT_FLAGS,
    PLAYOUT_ROWS,
    PLAYOUT_UNIFORM,
    R_PLAYOUT,
    W_HINT,
    W_LEGAL,
    W_REMOVED,
    W_RUNS,
    W_SCAN_PRESENT,
    W_STACKED,
)
from mjsat.search.kernels.dispatch import _fresh_playouts, _legal_moves
from mjsat.search.kernels.draws import _doomed, _stack_masks, _xorshift
from mjsat.search.kernels.events import _mj_apply, _mj_apply_after_move, _mj_scan_after_move
from mjsat.search.kernels.mahjong import _autopair, _last_two
from mjsat.search.kernels.tree import _keep_hint
from mjsat.search.pairing import MAHJONG

# --------------------------------------------------------------------------- guided playouts


@njit(**JIT_FLAGS)
def _mj_guided(gr, mj, sh, opts, count, rng, pres, partner, moves, ws):
    """:func:`_guided` for Mahjong with incremental counters: each move costs one
    :func:`_mj_scan_after_move` per candidate and one :func:`_mj_apply_after_move`; with
    the policy ``"safe"`` or ``"rows"`` (``opts[R_PLAYOUT]``) a fatal candidate is put aside
    unscanned.
    Arguments as :func:`_fresh_playouts`.
    """
    legal = ws[W_LEGAL]
    rs = ws[W_REMOVED]
    ps = ws[W_SCAN_PRESENT]
    group = gr[0]
    n = pres.shape[0]
    safe = opts[R_PLAYOUT] != PLAYOUT_UNIFORM
    rows = opts[R_PLAYOUT] == PLAYOUT_ROWS
    stk, runs, aptr, aidx = ws[W_STACKED], ws[W_RUNS], mj[0], mj[1]
    if safe:
        _stack_masks(gr, mj, ws)
    for a in range(count):
        pres[:] = 1
        partner[:] = -1
        _autopair(gr, pres, partner)
        mptr = _mj_apply(gr, mj, pres, partner, moves, 0, opts, ws)
        while True:
            if 2 * mptr == n:
                return a
            m = _legal_moves(0, gr, sh, pres, partner, ws, legal)
            x = -1
            y = -1
            while m > 0:
                i = np.int64(_xorshift(rng) % np.uint64(m))
                x, y = legal[i] // n, legal[i] % n
                if not (safe and _doomed(x, y, gr, pres, partner, stk, aptr, aidx, runs, rows)):  # put aside unscanned
                    ps[:] = pres
                    ps[x] = 0
                    ps[y] = 0
                    rs[0] = x
                    rs[1] = y
                    # _mj_scan_after_move's job, without its call layer: this runs once per
                    # candidate move, and every call passes the reference counts of ~40 arrays
                    if _mj_scan_after_move(gr, mj, ps, partner, moves, opts, ws):
                        break
                x = -1
                m -= 1
                legal[i] = legal[m]
            if x < 0:
                _keep_hint(moves, mptr, ws[W_HINT])
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
            mptr = _mj_apply_after_move(gr, mj, pres, partner, moves, mptr, opts, ws)
    return -1


@njit(**JIT_FLAGS)
def _guided(kind, gr, mj, sh, opts, count, rng, pres, partner, moves, ws):
    """Random playouts in which a random move is kept only when the pruning scan still
    clears the position after it (another one is drawn otherwise); the number of the
    playout that cleared the board, or -1. Mahjong runs :func:`_mj_guided`. Arguments as
    :func:`_fresh_playouts`.
    """
    if kind == MAHJONG:
        return _mj_guided(gr, mj, sh, opts, count, rng, pres, partner, moves, ws)
    return _fresh_playouts(True, kind, gr, mj, sh, opts, count, rng, pres, partner, moves, ws)
