"""The kernels' arrays: the constants of every kernel, the arguments of a geometry, the
workspace and the search's stacks, and the rule array.

Part of the package :mod:`mjsat.search.kernels`; its docstring names the arguments.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from numba import njit

from mjsat.result import MethodNotApplicableError
from mjsat.search.config import (
    JIT_FLAGS,
    N_RULES,
    PLAYOUT_UNIFORM,
    R_CRITICAL,
    R_FREEZE,
    R_FREEZE_PAIR,
    R_JOINT,
    R_LOOSE,
    R_LOOSE_PAIR,
    R_PLAYOUT,
    R_SCAN,
    W_FOURS_ALIVE,
    W_HINT,
    W_WEIGHT,
)
from mjsat.search.kernels.mahjong import _autopair
from mjsat.search.kernels_sh3d import sh3d_arrays
from mjsat.search.pairing import SH3D, SHISEN, Geometry, pairings

MAX_GROUP = 8
"""Largest group the kernels branch on (the pairing tables stop at 105 pairings of 8)."""

RUNNING, SOLVED, EXHAUSTED = 0, 1, 2
"""What a search kernel returns: stopped at its node budget, cleared the board, or proved
that nothing clears it."""


class GroupTooLargeError(MethodNotApplicableError):
    """A group of more than :data:`MAX_GROUP` tiles (use ``engine="python"``): the numba
    engine of the method ``search`` does not apply."""

    def __init__(self, reason: str) -> None:
        super().__init__("search", None, reason)


# --------------------------------------------------------------------------- arrays


def _csr(rel: Any) -> tuple[np.ndarray, np.ndarray]:
    ptr = np.array([0, *itertools.accumulate(map(len, rel))], dtype=np.int32)
    idx = np.fromiter(itertools.chain.from_iterable(rel), dtype=np.int32)
    return ptr, idx


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows: list[np.ndarray] = []
    start = np.zeros(MAX_GROUP // 2 + 1, dtype=np.int32)
    count = np.zeros(MAX_GROUP // 2 + 1, dtype=np.int32)
    for h in range(1, MAX_GROUP // 2 + 1):
        start[h] = len(rows)
        for p in pairings(2 * h):
            row = np.full(MAX_GROUP, -1, dtype=np.int8)
            for i, j in p:
                row[i], row[j] = j, i
            rows.append(row)
        count[h] = len(rows) - start[h]
    return np.array(rows, dtype=np.int8), start, count


_PTAB = _tables()


_NO_SIDES = (np.zeros(1, dtype=np.int32), np.zeros(0, dtype=np.int32)) * 6
"""The ``mj`` argument of a path game (no side relations; the kernels do not read it)."""


def arrays(geo: Geometry) -> tuple[Any, ...]:
    """The kernel arguments of a geometry: ``(kind, gr, mj, sh, pt)`` tuples of arrays.

    Raises
    ------
    GroupTooLargeError
        A group has more than :data:`MAX_GROUP` tiles.
    """
    big = max((len(m) for m in geo.members), default=0)
    if big > MAX_GROUP:
        raise GroupTooLargeError(
            f"the numba engine branches on groups of at most {MAX_GROUP} tiles, this board has one of {big}"
            " (use engine='python')"
        )
    group = np.array(geo.group, dtype=np.int32)
    gr = (group, *_csr(geo.members))
    empty = np.zeros(0, dtype=np.int32)
    if geo.kind == SH3D:  # Shisen-Sho on the Mahjong grid: see mjsat.search.kernels_sh3d
        return (np.int64(geo.kind), gr, _NO_SIDES, sh3d_arrays(geo), _PTAB)
    if geo.kind == SHISEN:
        mj = _NO_SIDES
        cy, cx = geo.cell_arrays
        sh = (cy, cx, np.int64(geo.shape[0]), np.int64(geo.shape[1]))
    else:
        mj = geo.csr if geo.csr else (
            *_csr(geo.above), *_csr(geo.one), *_csr(geo.two),
            *_csr(geo.covered), *_csr(geo.ones_of), *_csr(geo.twos_of),
        )  # fmt: skip
        sh = (empty, empty, np.int64(1), np.int64(1))
    return (np.int64(geo.kind), gr, mj, sh, _PTAB)


def workspace(n: int, ngroups: int, cells: int, bit_words: int = 0) -> tuple[np.ndarray, ...]:
    """Scratch arrays of the kernels for ``n`` tiles, ``ngroups`` groups, a grid of ``cells``.

    Slot ``W_X`` of the tuple is the array :data:`mjsat.search.config.W_X` describes.
    ``bit_words`` sizes the grid's bitsets (:func:`mjsat.search.kernels_bits.bit_words`):
    with 0 the Shisen-Sho pair test walks cells, else it reads the bitsets. Built by the
    compiled :func:`_new_workspace`, which the batch path calls too.
    """
    return _new_workspace(n, ngroups, cells, bit_words)


@njit(**JIT_FLAGS)
def _new_workspace(n, ngroups, cells, bit_words):
    """The arrays of :func:`workspace`, in the order of the ``W_*`` slots of
    :mod:`mjsat.search.config`: the slots of :func:`_restart` at their start, every other
    slot zero."""
    i32, u8 = np.int32, np.uint8
    ws = (
        np.zeros(n, i32),  # W_ABOVE
        np.zeros(n, i32),  # W_ONE
        np.zeros(n, i32),  # W_TWO
        np.zeros(n + ngroups + 1, i32),  # W_QUEUE
        np.zeros(n, u8),  # W_QUEUED
        np.zeros(cells, u8),  # W_GRID
        np.zeros(n, u8),  # W_SCAN_PRESENT
        np.zeros(n, i32),  # W_SCAN_ABOVE
        np.zeros(n, i32),  # W_SCAN_ONE
        np.zeros(n, i32),  # W_SCAN_TWO
        np.zeros(n + 1, i32),  # W_SCAN_QUEUE
        np.zeros(n, u8),  # W_SCAN_QUEUED
        np.zeros(ngroups, u8),  # W_OPENED
        np.zeros(ngroups, i32),  # W_FREE_SEEN
        np.zeros(cells, u8),  # W_SCAN_GRID
        np.zeros(n * n // 2 + 2, i32),  # W_LEGAL
        np.zeros(MAX_GROUP, i32),  # W_LIVE
        np.zeros(128, u8),  # W_PROBE_OK
        np.zeros(n + 1, i32),  # W_REMOVED
        np.zeros(ngroups + 1, i32),  # W_GROUP_STACK
        np.zeros(ngroups, u8),  # W_GROUP_QUEUED
        np.zeros(ngroups, np.float64),  # W_WEIGHT
        np.empty((ngroups + 2, ngroups), dtype=u8),  # W_FOURS_ALIVE
        np.zeros(1, np.uint64),  # W_RNG
        np.zeros((ngroups + 2, max(ngroups, 1)), i32),  # W_JOINT_AT
        np.zeros(bit_words, np.uint64),  # W_BITS
        np.zeros(bit_words, np.uint64),  # W_SCAN_BITS
        np.zeros(n, u8),  # W_STACKED
        np.zeros(max(5 * n + 2 * ngroups, 1 + n + ngroups + cells), i32),  # W_HOLD
        np.zeros(bit_words, np.uint64),  # W_HOLD_BITS
        np.zeros(7 * n + ngroups + 1, i32),  # W_PLAYOUT_START
        np.zeros(4 * n, i32),  # W_RUNS
        np.empty(n + 1, i32),  # W_HINT
    )
    _restart(ws)
    return ws


def restart(ws: tuple[np.ndarray, ...]) -> None:
    """Make a used workspace fit for a new run: what :func:`_restart` does, in numpy (a
    compiled call's dispatch on the workspace costs about 4 us, the fills under 1 us, and
    a pooled scratch pays it once per run; the two agree in the tests)."""
    ws[W_WEIGHT].fill(0.0)
    ws[W_FOURS_ALIVE].fill(255)
    ws[W_HINT].fill(-1)
    ws[W_HINT][-1] = 0


@njit(**JIT_FLAGS)
def _restart(ws):
    """Put the slots a search carries from call to call back at their start: the conflict
    weights (:data:`~mjsat.search.config.W_WEIGHT`) at 0, the alive pairings of the groups of
    four (:data:`~mjsat.search.config.W_FOURS_ALIVE`) at 255, the hint
    (:data:`~mjsat.search.config.W_HINT`) empty. The kernels write every other slot before
    they read it (:mod:`mjsat.search.config`). :func:`_new_workspace` and the batch path's
    loop over deals call it; :func:`restart` is its numpy twin."""
    ws[W_WEIGHT][:] = 0.0
    ws[W_FOURS_ALIVE][:] = 255
    hint = ws[W_HINT]
    hint[:] = -1
    hint[hint.shape[0] - 1] = 0


@njit(**JIT_FLAGS)
def _new_stacks(n, ngroups):
    """New stacks of :func:`_dfs` for ``n`` tiles in ``ngroups`` groups: ``(P, Q, bg, bgr,
    allow, nxt, mend)`` with depth ``ngroups + 2``, ``P`` at 0, ``Q`` at -1, the rest at 0
    (``bg`` is ``max(MAX_GROUP, n)`` wide: a joint branching lists every branching group's
    tiles). The caller sets row 0 of ``P`` and ``Q`` to the position it searches."""
    depth = ngroups + 2
    P = np.zeros((depth, n), dtype=np.uint8)
    Q = np.full((depth, n), -1, dtype=np.int32)
    bg = np.zeros((depth, max(MAX_GROUP, n)), dtype=np.int32)
    bgr = np.zeros(depth, dtype=np.int32)
    allow = np.zeros((depth, 128), dtype=np.uint8)
    nxt = np.zeros(depth, dtype=np.int32)
    mend = np.zeros(depth, dtype=np.int32)
    return P, Q, bg, bgr, allow, nxt, mend


@njit(**JIT_FLAGS)
def _wipe_stacks(gr, P, Q, bg, bgr, allow, nxt, mend, moves, st):
    """Put the stacks of :func:`_dfs` in the state of a search that starts at the full deal.

    Parameters
    ----------
    gr : see the module docstring.
    P : uint8[depth, n]
        Set to 0, its row 0 to 1 (every tile present).
    Q : int32[depth, n]
        Set to -1, its row 0 to the partners :func:`_autopair` gives the full deal.
    bg, bgr, allow, nxt, mend, moves, st : int arrays
        Set to 0.
    """
    P.fill(0)
    Q.fill(-1)
    bg.fill(0)
    bgr.fill(0)
    allow.fill(0)
    nxt.fill(0)
    mend.fill(0)
    moves.fill(0)
    st.fill(0)
    P[0, :] = 1
    _autopair(gr, P[0], Q[0])


def rules(
    *,
    freeze: bool = True,
    loose: bool = True,
    scan: bool = True,
    critical: bool = True,
    freeze_pair: bool = False,
    loose_pair: bool = False,
    joint: bool = False,
    playout: int = PLAYOUT_UNIFORM,
) -> np.ndarray:
    """The ``opts`` array of the kernels: the rules switched on, at the slots ``R_*`` of
    :mod:`mjsat.search.config`; ``playout`` is the index of a policy of
    :data:`~mjsat.search.config.PLAYOUTS`."""
    opts = np.zeros(N_RULES, dtype=np.int64)
    opts[R_PLAYOUT] = playout
    opts[R_FREEZE], opts[R_LOOSE], opts[R_SCAN], opts[R_CRITICAL] = freeze, loose, scan, critical
    opts[R_FREEZE_PAIR], opts[R_LOOSE_PAIR], opts[R_JOINT] = freeze_pair, loose_pair, joint
    return opts
