"""numba kernels of the pairing-set search (the algorithm of :mod:`mjsat.search.pairing`).

The kernels see only flat arrays: groups in CSR form (``gptr``/``gidx``), the Mahjong
relations in CSR form (``above``, the two sides, and their reverses), the Shisen-Sho
cells on a grid with its margin, the tables of pairings of 2, 4, 6 and 8 tiles. A
position is a ``uint8`` array of present tiles, a partial pairing set an ``int32`` array
``partner`` (``-1`` for a tile whose group has no pairing yet).

Mahjong apply and scan are event-driven: each tile keeps the number of present tiles
above it and on each side, a removal updates the tiles it touches, and a tile is looked
at again only when it becomes free, so a scan costs :math:`O(n + e)`. Shisen-Sho rounds
over the groups until nothing changes, with the path test of :func:`mjsat.shisen.connectable`
on a flat occupancy grid (those kernels are in :mod:`mjsat.search.kernels_shisen`, the
Mahjong grid's in :mod:`mjsat.search.kernels_sh3d`; this module dispatches on the kind).

The depth-first search is iterative with its whole state in arrays (one row per depth:
position, pairing set, branching group, pairings left to try), so
:func:`mjsat.search.solver.solve_search` can call it in chunks of nodes and look at the
clock in between; so does :func:`mjsat.search.kernels_bondt._bondt`, de Bondt's "pairing one, then two" tree, whose
state is a stack of (group, pairing) entries. The critical-group choice keeps a conflict
weight per group (see :mod:`mjsat.search.pairing`); the pairings of the branching group are
tried in the order of :func:`_rank_pairings`: first those that share most pairs with the
longest failed guided playout of the deal (``ws[W_HINT]``, Mahjong), the others in index
order. A pairing of a group of four whose probe failed at a node
is not probed again below it: the relaxed game only loses moves as pairings are added
and tiles go, so the probe would fail again. Without the critical-group choice and with
``opts[R_JOINT]``, a node branches on every group with a playable pair at once: its row of
``bg`` holds their tiles group after group, and ``ws[W_JOINT_AT]`` the pairing each one is
at (:func:`_joint_next` counts through their product). Every kernel is compiled once per process and cached on
disk, with the flags of :mod:`mjsat.search.config`.

A position is a ``uint8`` array rather than a bitset of ``uint64`` words: the search is
group-directed, so positions are copied once per node and never hashed, and byte access
kept the event-driven loops simplest.

The kernels name their arguments alike (stumpy's private kernels take only arrays and
scalars, documented once); a kernel's docstring documents the others:

=============  =========================================================================
name           what
=============  =========================================================================
``kind``       ``int64``: the pair test, :data:`~mjsat.search.pairing.MAHJONG`,
               :data:`~mjsat.search.pairing.SHISEN` or :data:`~mjsat.search.pairing.SH3D`
``gr``         the groups: ``(group, gptr, gidx)``, ``int32`` arrays; ``group[t]`` is tile
               ``t``'s group (renumbered ``0..G-1``), the tiles of group ``g`` are
               ``gidx[gptr[g]:gptr[g + 1]]``
``mj``         the Mahjong relations: twelve ``int32`` arrays, CSR ``(ptr, idx)`` pairs of
               ``above``, the first side, the second side and their three reverses
               (:attr:`mjsat.layout.SideTables.csr`); one-entry dummies on Shisen-Sho
``sh``         the Shisen-Sho grid: ``(cy, cx, h, w)``, each tile's cell and the grid's
               shape, margin included (:mod:`mjsat.search.kernels_sh3d` for the Mahjong
               grid); empty arrays and a 1 x 1 grid on Mahjong
``pt``         the pairing tables ``(ptab, pstart, pcount)``: ``int8[rows, MAX_GROUP]``
               partner of each item in each pairing, and the first row and number of rows
               of the pairings of ``2 * h`` items (``int32[MAX_GROUP // 2 + 1]``)
``opts``       ``int64[N_RULES]``: the rules switched on, indexed by ``R_*``
               (:mod:`mjsat.search.config`; built by :func:`rules`)
``ws``         the workspace, a tuple indexed by ``W_*`` (:func:`workspace`); its
               Shisen-Sho bitsets choose the pair test (empty: walk cells)
``pres``       ``uint8[n]``: the position, 1 for a present tile
``partner``    ``int32[n]``: the partial pairing set, ``-1`` for a tile with no partner yet
``moves``      ``int32[n // 2 + 1, 2]``: a move list, written from row ``mptr`` on
``mptr``       ``int``: the number of moves already in ``moves``
``rng``        ``uint64[1]``: the xorshift state of the random playouts
``count``      ``int``: the number of playouts to run
``st``         ``int64[N_STATS]``: a search's resumable counters, indexed by ``S_*``
``budget``     ``int``: the nodes a search call may evaluate before it returns
=============  =========================================================================
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
    PLAYOUT_ROWS,
    PLAYOUT_UNIFORM,
    R_CRITICAL,
    R_FREEZE,
    R_FREEZE_PAIR,
    R_JOINT,
    R_LOOSE,
    R_LOOSE_PAIR,
    R_PLAYOUT,
    R_SCAN,
    S_DEPTH,
    S_MOVES,
    S_NODES,
    S_SCANS,
    S_STEP,
    W_ABOVE,
    W_BITS,
    W_FOURS_ALIVE,
    W_FREE_SEEN,
    W_GRID,
    W_GROUP_QUEUED,
    W_GROUP_STACK,
    W_HINT,
    W_HOLD,
    W_JOINT_AT,
    W_LEGAL,
    W_LIVE,
    W_ONE,
    W_OPENED,
    W_PLAYOUT_START,
    W_PROBE_OK,
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
    W_WEIGHT,
)
from mjsat.search.kernels_sh3d import sh3d_arrays
from mjsat.search.kernels_shisen import _sh_apply, _sh_ok, _sh_probe, _sh_scan
from mjsat.search.pairing import MAHJONG, SH3D, SHISEN, Geometry, pairings

__all__ = ["MAX_GROUP", "GroupTooLargeError", "RUNNING", "SOLVED", "EXHAUSTED", "arrays", "workspace", "rules"]

MAX_GROUP = 8
"""Largest group the kernels branch on (the pairing tables stop at 105 pairings of 8)."""

RUNNING, SOLVED, EXHAUSTED = 0, 1, 2
"""What a search kernel returns: stopped at its node budget, cleared the board, or proved
that nothing clears it."""
_ENTER, _NEXT = 0, 1  # st[S_STEP] of the critical-group search
_OPEN, _DEAD = 0, 2  # what a node is after its apply and scan (or SOLVED)

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
def _stack_masks(gr, mj, ws):
    """Fill ``ws[W_STACKED]``: bit ``k`` of tile ``t`` when ``t`` and the ``k``-th member of
    its group lie one above the other, directly or through other tiles (such two can never
    be free together); and the rows ``ws[W_RUNS]``. ``gr``, ``mj``, ``ws``: see the
    module docstring; the walk up from each tile uses ``ws[W_SCAN_QUEUE]`` and
    ``ws[W_SCAN_QUEUED]``.

    Notes
    -----
    :math:`O(\\sum_t |up(t)|)`, ``up(t)`` the tiles above ``t`` directly or not.
    """
    group, gptr, gidx = gr[0], gr[1], gr[2]
    aptr, aidx, optr, tptr, tidx = mj[0], mj[1], mj[2], mj[4], mj[5]
    stk, todo, seen, runs = ws[W_STACKED], ws[W_SCAN_QUEUE], ws[W_SCAN_QUEUED], ws[W_RUNS]
    n = group.shape[0]
    stk[:] = 0
    seen[:] = 0
    runs[: 2 * n] = -1
    for t in range(n):  # the row links: one tile on t's second side, t alone on its first
        if tptr[t + 1] - tptr[t] == 1:
            u = tidx[tptr[t]]
            if optr[u + 1] - optr[u] == 1:
                runs[t] = u
                runs[n + u] = t
    for t in range(n):  # each row's first tile and each tile's place in its row
        if runs[n + t] < 0:
            u = t
            k = 0
            while u >= 0:
                runs[2 * n + u] = t
                runs[3 * n + u] = k
                k += 1
                u = runs[u]
    for t in range(n):
        todo[0] = t  # the walk starts at t, which is then left out of what it saw
        seen[t] = 1
        tail = 1
        head = 0
        while head < tail:
            u = todo[head]
            head += 1
            for k in range(aptr[u], aptr[u + 1]):
                v = aidx[k]
                if seen[v] == 0:
                    seen[v] = 1
                    todo[tail] = v
                    tail += 1
        seen[t] = 0
        g = group[t]
        for k in range(gptr[g], gptr[g + 1]):
            u = gidx[k]
            if seen[u]:
                stk[t] |= np.uint8(1 << (k - gptr[g]))
                for j in range(gptr[g], gptr[g + 1]):
                    if gidx[j] == t:
                        stk[u] |= np.uint8(1 << (j - gptr[g]))
        for k in range(tail):
            seen[todo[k]] = 0


@njit(**JIT_FLAGS)
def _fatal(x, y, gr, pres, stk):
    """True iff taking the pair ``(x, y)`` leaves its group exactly two tiles that lie one
    above the other (they can never go together). ``gr``, ``pres``: see the module
    docstring; ``stk``: ``ws[W_STACKED]`` (:func:`_stack_masks`)."""
    group, gptr, gidx = gr[0], gr[1], gr[2]
    g = group[x]
    c = -1
    d = -1
    left = 0
    for k in range(gptr[g], gptr[g + 1]):
        u = gidx[k]
        if pres[u] == 1 and u != x and u != y:
            left += 1
            if c < 0:
                c = u
            else:
                d = k - gptr[g]
    return left == 2 and (stk[c] >> d) & 1 == 1


@njit(**JIT_FLAGS)
def _row_cycle(x, y, c, d, pres, partner, aptr, aidx, rows):
    """True iff the new pair ``(c, d)`` (the group's last two once ``x`` and ``y`` go), two
    tiles of one row, and a pair of ``partner`` must each go before the other (the policy
    ``"rows"`` of :data:`~mjsat.search.config.PLAYOUTS`: neither could ever go).

    A row (:data:`~mjsat.search.config.W_RUNS`) only ever loses its end tiles, so its
    present tiles stay side by side and only its two ends can be free: ``(c, d)`` waits for
    every tile of the row outside them, and every tile strictly between them waits for
    ``(c, d)``. A pair ``(u, q)`` with ``u`` in the row cannot go, and neither can
    ``(c, d)``, when ``q`` lies in the row too and the two pairs are not nested (crossing,
    or side by side), when ``u`` lies between ``c`` and ``d`` and ``q`` on ``c`` or ``d``,
    or when ``u`` lies outside them and ``c`` or ``d`` on ``q``.

    Parameters
    ----------
    x, y : int
        The pair about to go (they are free: row ends, or outside rows).
    c, d : int
        The two tiles its group keeps.
    pres, partner : see the module docstring.
    aptr, aidx : int32 arrays
        The CSR relation ``above`` (``mj[0]``, ``mj[1]``).
    rows : int32[4n]
        ``ws[W_RUNS]``.

    Notes
    -----
    :math:`O(L)` for a row of :math:`L` tiles, with at most four tiles on each. The hot
    loop's kernels take single arrays, not ``mj`` or ``ws``: a call passing a tuple of
    arrays pays the reference counts of each.
    """
    n = pres.shape[0]
    if rows[2 * n + c] != rows[2 * n + d]:
        return False
    lo = min(rows[3 * n + c], rows[3 * n + d])
    hi = max(rows[3 * n + c], rows[3 * n + d])
    u = rows[2 * n + c]  # the row's first tile
    while u >= 0:
        q = partner[u]
        if pres[u] == 1 and q >= 0 and u != x and u != y and u != c and u != d:
            pu = rows[3 * n + u]
            inside = lo < pu < hi
            if rows[2 * n + q] == rows[2 * n + c]:  # both in the row: nested or stuck
                if inside != (lo < rows[3 * n + q] < hi):
                    return True  # crossing
                if not inside and (pu < lo) == (rows[3 * n + q] < lo):
                    return True  # side by side
            elif inside:  # (u, q) waits for (c, d): stuck when q lies on c or d
                for z in (c, d):
                    for k in range(aptr[z], aptr[z + 1]):
                        if aidx[k] == q:
                            return True
            else:  # (c, d) waits for (u, q): stuck when c or d lies on q
                for k in range(aptr[q], aptr[q + 1]):
                    if aidx[k] == c or aidx[k] == d:
                        return True
        u = rows[u]
    return False


@njit(**JIT_FLAGS)
def _doomed(x, y, gr, pres, partner, stk, aptr, aidx, runs, rows):
    """:func:`_fatal`, and with ``rows`` :func:`_row_cycle` for the two tiles the pair
    ``(x, y)`` leaves its group (the policies ``"safe"`` and ``"rows"``). ``gr``, ``pres``,
    ``partner``: see the module docstring; ``stk``: ``ws[W_STACKED]``; ``aptr``, ``aidx``:
    ``mj[0]``, ``mj[1]``; ``runs``: ``ws[W_RUNS]``."""
    if _fatal(x, y, gr, pres, stk):
        return True
    if not rows:
        return False
    group, gptr, gidx = gr[0], gr[1], gr[2]
    g = group[x]
    c = -1
    d = -1
    for k in range(gptr[g], gptr[g + 1]):
        u = gidx[k]
        if pres[u] == 1 and u != x and u != y:
            if c < 0:
                c = u
            elif d < 0:
                d = u
            else:
                return False  # more than two left: no pairing yet
    if d < 0:
        return False
    return _row_cycle(x, y, c, d, pres, partner, aptr, aidx, runs)


@njit(**JIT_FLAGS)
def _kept_moves_slot(n, ng):
    """Where :data:`~mjsat.search.config.W_PLAYOUT_START` keeps the number of moves of the
    kept state, for ``n`` tiles in ``ng`` groups (its last entry)."""
    return 7 * n + ng


@njit(**JIT_FLAGS)
def _playout_start(start, pres, partner, na, no, nt, queued, nfree, moves, save, mptr):
    """Copy a playout's state at a draw into ``start``
    (:data:`~mjsat.search.config.W_PLAYOUT_START`, ``save``) or back from it; the number of
    moves made (``mptr`` when saving).

    Parameters
    ----------
    start : int32[7n + G + 1]
        The kept state (layout in :data:`~mjsat.search.config.W_PLAYOUT_START`).
    pres, partner, na, no, nt, queued : arrays of ``n``
        The playout's position, partners, counters and queued tiles.
    nfree : int32[G]
        Free tiles seen per group without a pairing.
    moves : int32[n // 2 + 1, 2]
        The moves; rows ``0..mptr-1`` are copied.
    save : bool
    mptr : int
        Saving: the number of moves made.
    """
    n = pres.shape[0]
    ng = nfree.shape[0]
    if save:
        for t in range(n):
            start[t] = pres[t]
            start[n + t] = partner[t]
            start[2 * n + t] = na[t]
            start[3 * n + t] = no[t]
            start[4 * n + t] = nt[t]
            start[5 * n + t] = queued[t]
        for i in range(mptr):
            start[6 * n + 2 * i] = moves[i, 0]
            start[6 * n + 2 * i + 1] = moves[i, 1]
        for g in range(ng):
            start[7 * n + g] = nfree[g]
        start[_kept_moves_slot(n, ng)] = mptr
        return mptr
    for t in range(n):
        pres[t] = start[t]
        partner[t] = start[n + t]
        na[t] = start[2 * n + t]
        no[t] = start[3 * n + t]
        nt[t] = start[4 * n + t]
        queued[t] = start[5 * n + t]
    mptr = start[_kept_moves_slot(n, ng)]
    for i in range(mptr):
        moves[i, 0] = start[6 * n + 2 * i]
        moves[i, 1] = start[6 * n + 2 * i + 1]
    for g in range(ng):
        nfree[g] = start[7 * n + g]
    return mptr


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
def _xorshift(state):
    """Advance the xorshift generator ``state`` (``uint64[1]``) and return its new value."""
    x = state[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    state[0] = x
    return x


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
    (benchmarks/README.md, "The batch path", 28 Nov).
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
    if kind == MAHJONG:  # one incremental playout each (see _mj_events)
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
    pairing (see :func:`_mj_events`, ``_SCAN_HOLD``). Other arguments as
    :func:`_mj_events`.
    """
    ps = ws[W_SCAN_PRESENT]
    if first:
        ps[:] = pres
        _mj_events(_SCAN_HOLD, gr, mj, ps, partner, moves, 0, opts, ws, g)
        _hold_copy(ws, True)
    else:
        _hold_copy(ws, False)
    return _mj_events(_SCAN_RESUME, gr, mj, ps, partner, moves, 0, opts, ws, g) == 0


# --------------------------------------------------------------------------- the search


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
                    if _mj_events(_SCAN_AFTER_MOVE, gr, mj, ps, partner, moves, 0, opts, ws, -1) == 0:
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
