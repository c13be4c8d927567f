"""The kernels dispatched on the game kind (apply, scan, pair test), the random playouts,
the opening and the probes of the search.

Part of the package :mod:`mjsat.search.kernels`; its docstring names the arguments.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mjsat.search.config import (
    JIT_FLAGS,
    PLAYOUT_UNIFORM,
    R_PLAYOUT,
    W_ABOVE,
    W_BITS,
    W_FREE_SEEN,
    W_GRID,
    W_HOLD,
    W_LEGAL,
    W_ONE,
    W_OPENED,
    W_PLAYOUT_START,
    W_RNG,
    W_SCAN_ABOVE,
    W_SCAN_ONE,
    W_SCAN_PRESENT,
    W_SCAN_QUEUED,
    W_SCAN_TWO,
    W_TWO,
)
from mjsat.search.kernels.draws import _kept_moves_slot, _stack_masks, _xorshift
from mjsat.search.kernels.events import (
    _mj_apply,
    _mj_playout,
    _mj_playout_again,
    _mj_playout_on,
    _mj_scan,
    _mj_scan_hold,
    _mj_scan_resume,
)
from mjsat.search.kernels.mahjong import _autopair, _mj_free, _mj_legal
from mjsat.search.kernels_shisen import _sh_apply, _sh_ok, _sh_scan
from mjsat.search.pairing import MAHJONG, SH3D, SHISEN

# --------------------------------------------------------------------------- dispatch


@njit(**JIT_FLAGS)
def _apply(kind, gr, mj, sh, pres, partner, moves, mptr, opts, ws):
    """Apply, dispatched on ``kind``: play the pairs of ``partner`` and the cleaning moves
    on ``pres``, in place; the new ``mptr``. ``kind``, ``gr``, ``mj``, ``sh``, ``pres``,
    ``partner``, ``moves``, ``mptr``, ``opts``, ``ws``: see the module docstring.
    """
    if kind == SHISEN or kind == SH3D:
        return _sh_apply(kind == SH3D, gr, sh, pres, partner, moves, mptr, opts, ws)
    return _mj_apply(gr, mj, pres, partner, moves, mptr, opts, ws)


@njit(**JIT_FLAGS)
def _scan(kind, gr, mj, sh, pres, partner, moves, opts, ws):
    """The pruning scan, dispatched on ``kind``: True when the relaxed game clears ``pres``
    (which is left unchanged). ``kind``, ``gr``, ``mj``, ``sh``, ``pres``, ``partner``,
    ``moves`` (unused by the scan), ``opts``, ``ws``: see the module docstring.
    """
    if kind == SHISEN or kind == SH3D:
        return _sh_scan(kind == SH3D, gr, sh, pres, partner, ws)
    return _mj_scan(gr, mj, pres, partner, moves, opts, ws)


@njit(**JIT_FLAGS)
def _playable(kind, a, b, pres, sh, ws):
    """After an apply on ``pres``: can present tiles ``a`` and ``b`` go together now?
    ``kind``, ``pres``, ``sh``, ``ws`` (its apply counters or grid): see the module docstring.
    """
    if kind == SHISEN or kind == SH3D:
        return _sh_ok(kind == SH3D, a, b, sh, ws[W_GRID], ws[W_BITS])
    return _mj_free(a, pres, ws[W_ABOVE], ws[W_ONE], ws[W_TWO]) and _mj_free(b, pres, ws[W_ABOVE], ws[W_ONE], ws[W_TWO])


@njit(**JIT_FLAGS)
def _legal_moves(kind, gr, sh, pres, partner, ws, legal):
    """After an apply on ``pres``: the playable pairs of present tiles of groups without a
    pairing.

    Parameters
    ----------
    kind, gr, sh, pres, partner, ws : see the module docstring.
    legal : int32[n * n // 2 + 2]
        Filled with the pairs, as ``a * n + b``.

    Returns
    -------
    int
        ``m``, the number of pairs in ``legal[:m]``.
    """
    if kind == MAHJONG:  # the apply's free-test counters
        return _mj_legal(gr, pres, partner, ws[W_ABOVE], ws[W_ONE], ws[W_TWO], legal)
    gptr, gidx = gr[1], gr[2]
    n = pres.shape[0]
    m = 0
    for g in range(gptr.shape[0] - 1):
        for k in range(gptr[g], gptr[g + 1]):
            x = gidx[k]
            if not pres[x] or partner[x] >= 0:
                continue
            for j in range(k + 1, gptr[g + 1]):
                y = gidx[j]
                if pres[y] and _playable(kind, x, y, pres, sh, ws):
                    legal[m] = x * n + y
                    m += 1
    return m


@njit(**JIT_FLAGS)
def _fresh_playouts(guided, kind, gr, mj, sh, opts, count, rng, pres, partner, moves, ws):
    """Random playouts with a fresh apply after every random move (any game).

    Parameters
    ----------
    guided : bool
        Keep a random move only when the pruning scan still clears the position after it
        (another one is drawn otherwise).
    kind, gr, mj, sh, opts, count, rng, ws : see the module docstring.
    pres, partner, moves : see the module docstring
        Overwritten; after a clearing playout ``moves`` holds its ``n // 2`` moves.

    Returns
    -------
    int
        The number of the playout that cleared the board, or -1.
    """
    legal = ws[W_LEGAL]
    n = pres.shape[0]
    for a in range(count):
        pres[:] = 1
        partner[:] = -1
        _autopair(gr, pres, partner)
        mptr = 0
        while True:
            mptr = _apply(kind, gr, mj, sh, pres, partner, moves, mptr, opts, ws)
            if 2 * mptr == n:
                return a
            m = _legal_moves(kind, gr, sh, pres, partner, ws, legal)
            x = -1
            y = -1
            while m > 0:
                i = np.int64(_xorshift(rng) % np.uint64(m))
                x, y = legal[i] // n, legal[i] % n
                pres[x] = 0
                pres[y] = 0
                if not guided or _scan(kind, gr, mj, sh, pres, partner, moves, opts, ws):
                    break
                pres[x] = 1
                pres[y] = 1
                x = -1
                m -= 1
                legal[i] = legal[m]
            if x < 0:
                break
            moves[mptr, 0] = x
            moves[mptr, 1] = y
            mptr += 1
            _autopair(gr, pres, partner)
    return -1


@njit(**JIT_FLAGS)
def _attempts(kind, gr, mj, sh, opts, count, rng, pres, partner, moves, ws):
    """Random playouts with the cleaning rules; the number of the one that cleared, or -1.
    Arguments as :func:`_fresh_playouts`.

    On Mahjong one incremental playout each, drawing by the policy ``opts[R_PLAYOUT]``:
    :func:`_mj_playout` from the deal, then :func:`_mj_playout_again` from its first draw;
    each of these that fails is followed by a playout that goes on from half way through
    its random moves (:func:`_mj_playout_on` from the position after the moves before the
    first draw and half of the rest). The other games draw uniformly, each playout from the
    deal.

    Notes
    -----
    A failed playout is stuck with about 60 of the turtle's 144 tiles left; the position
    half way through its random moves is still clearable often enough that a playout from
    there, at about half the cost, clears a deal for less work than one from the start
    (benchmarks/README.md, the "batch" section).
    """
    return _plain_playouts(True, kind, gr, mj, sh, opts, count, rng, pres, partner, moves, ws)


@njit(**JIT_FLAGS)
def _more_attempts(kind, gr, mj, sh, opts, count, rng, pres, partner, moves, ws):
    """More playouts of the deal of the last :func:`_attempts` (or :func:`_opening`) on
    ``ws``, which cleared nothing, as if that call had gone on: on Mahjong from its first
    playout's state at its first draw and with its stack masks, except that the call starts
    with a playout from that state (a playout that goes on half way through another is
    made only in the call of the one it follows). Arguments and answer as :func:`_attempts`.
    """
    return _plain_playouts(False, kind, gr, mj, sh, opts, count, rng, pres, partner, moves, ws)


@njit(**JIT_FLAGS)
def _plain_playouts(first, kind, gr, mj, sh, opts, count, rng, pres, partner, moves, ws):
    """The plain playouts of :func:`_attempts` (``first``) and :func:`_more_attempts`."""
    n = pres.shape[0]
    if kind == MAHJONG:  # one incremental playout each (see mjsat.search.kernels.events)
        if first and opts[R_PLAYOUT] != PLAYOUT_UNIFORM:
            _stack_masks(gr, mj, ws)
        ws[W_RNG][0] = rng[0]
        ng = gr[1].shape[0] - 1
        failed = -1  # the moves of the last playout from the start when it failed
        for a in range(count):
            if failed >= 0:  # the next one goes on from half way through its random moves
                k = ws[W_PLAYOUT_START][_kept_moves_slot(n, ng)]
                k += (failed - k) // 2
                pres[:] = 1
                for i in range(k):
                    pres[moves[i, 0]] = 0
                    pres[moves[i, 1]] = 0
                partner[:] = -1
                _autopair(gr, pres, partner)
                mptr = _mj_playout_on(gr, mj, pres, partner, moves, k, opts, ws)
                failed = -1
            else:
                if a == 0 and first:
                    pres[:] = 1
                    partner[:] = -1
                    _autopair(gr, pres, partner)
                    mptr = _mj_playout(gr, mj, pres, partner, moves, opts, ws)
                else:  # every playout plays the first one's moves up to its first draw
                    mptr = _mj_playout_again(gr, mj, pres, partner, moves, opts, ws)
                failed = mptr
            if 2 * mptr == n:
                rng[0] = ws[W_RNG][0]
                return a
        rng[0] = ws[W_RNG][0]
        return -1
    return _fresh_playouts(False, kind, gr, mj, sh, opts, count, rng, pres, partner, moves, ws)


OPENING_REFUTED = -2
""":func:`_opening`'s answer when its pruning scan refutes the deal."""


@njit(**JIT_FLAGS)
def _opening(kind, gr, mj, sh, opts, count, rng, pres, partner, moves, ws):
    """The start of a run in one call: the pruning scan of the full deal ([dB12]_ 3.3),
    then ``count`` random playouts (:func:`_attempts`) unless the scan refutes.

    Arguments as :func:`_fresh_playouts` (``pres`` and ``partner`` are overwritten).

    Returns
    -------
    int
        :data:`OPENING_REFUTED` when the scan refutes the deal, else the number of the
        playout that cleared the board, or -1.
    """
    pres[:] = 1
    partner[:] = -1
    _autopair(gr, pres, partner)
    if not _scan(kind, gr, mj, sh, pres, partner, moves, opts, ws):
        return OPENING_REFUTED
    if count == 0:
        return -1
    return _attempts(kind, gr, mj, sh, opts, count, rng, pres, partner, moves, ws)


@njit(**JIT_FLAGS)
def _hold_copy(ws, save):
    """Copy the Mahjong scan state into :data:`~mjsat.search.config.W_HOLD` (``save``) or
    back from it: the scan's position, counters, queued tiles (``n`` each), opened groups
    and free tiles seen (``G`` each)."""
    keep = ws[W_HOLD]
    ps, na, no, nt, queued = ws[W_SCAN_PRESENT], ws[W_SCAN_ABOVE], ws[W_SCAN_ONE], ws[W_SCAN_TWO], ws[W_SCAN_QUEUED]
    opened, nfree = ws[W_OPENED], ws[W_FREE_SEEN]
    n = ps.shape[0]
    ng = opened.shape[0]
    if save:
        for t in range(n):
            keep[t] = ps[t]
            keep[n + t] = na[t]
            keep[2 * n + t] = no[t]
            keep[3 * n + t] = nt[t]
            keep[4 * n + t] = queued[t]
        for g in range(ng):
            keep[5 * n + g] = opened[g]
            keep[5 * n + ng + g] = nfree[g]
    else:
        for t in range(n):
            ps[t] = keep[t]
            na[t] = keep[n + t]
            no[t] = keep[2 * n + t]
            nt[t] = keep[3 * n + t]
            queued[t] = keep[4 * n + t]
        for g in range(ng):
            opened[g] = keep[5 * n + g]
            nfree[g] = keep[5 * n + ng + g]


@njit(**JIT_FLAGS)
def _mj_probe(g, first, gr, mj, pres, partner, moves, opts, ws):
    """The probe scan (Mahjong) of one pairing of group ``g``, set in ``partner``, right
    after :func:`_mj_apply` on ``pres``: True when the relaxed game clears the position.
    With ``first`` the group's hold scan runs and its state is kept
    (:data:`~mjsat.search.config.W_HOLD`); later probes of the same group at the same
    position start from that state. Answers as :func:`_mj_scan` on the same position and
    pairing (see :func:`~mjsat.search.kernels.events._mj_scan_hold`). Other arguments as
    :func:`_mj_apply`.
    """
    ps = ws[W_SCAN_PRESENT]
    if first:
        ps[:] = pres
        _mj_scan_hold(gr, mj, ps, partner, ws, g)
        _hold_copy(ws, True)
    else:
        _hold_copy(ws, False)
    return _mj_scan_resume(gr, mj, ps, partner, ws, g) == 0
