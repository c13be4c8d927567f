"""numba kernel of de Bondt's "pairing one, then two" tree ([dB12]_, section 3.2).

The tree's state is a stack of (group, pairing) entries in arrays (a
:class:`~mjsat.search.config.BondtTree`), so :func:`mjsat.search.solver.solve_search` can
run it in chunks of evaluations and look at the clock in between. The pure-Python
reference is :meth:`mjsat.search.pairing.PythonSearch._search_bondt`; the tests compare them.

The kernels' arguments are named as in the table of :mod:`mjsat.search.config`.

References
----------
.. [dB12] M. de Bondt, "Solving Mahjong Solitaire boards with peeking", arXiv:1203.6559, 2012.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mjsat.search.config import DEPTH, EXHAUSTED, JIT_FLAGS, MOVES, NODES, RUNNING, SCANS, SOLVED, STATS_SIZE, BondtTree
from mjsat.search.kernels import _DEAD, KernelArgumentError, Kernels, _apply, _playable, _scan_after_apply
from mjsat.search.kernels_mahjong import _autopair, _last_two

__all__ = ["bondt_tree", "bondt_search"]

_LIVE = 0
"""What :func:`_bd_eval` returns for a position the scan lets live."""

# --------------------------------------------------------------------------- "pairing one, then two"


@njit(**JIT_FLAGS)
def _bd_eval(board, rules, tree, top, skip, ws):
    """Apply the pairings of the tree's stack (entry ``skip`` left out) to the full board,
    then scan.

    Parameters
    ----------
    board : BoardArrays
    rules : Rules
    tree : BondtTree
        Its ``present``, ``partner`` and ``moves`` receive the evaluation.
    top : int
        Entries on the stack.
    skip : int
        The entry left out, or -1.
    ws : Workspace

    Returns
    -------
    (int, int, int)
        ``(code, mptr, next_group)``: ``_LIVE`` when the position lives (``next_group``:
        the first group without a pairing that still has tiles), ``_DEAD`` when it is
        pruned, ``SOLVED`` when the apply clears the board (``tree.moves[:mptr]``).
    """
    ptab, pstart, pcount = board.pairings.partner, board.pairings.start, board.pairings.count
    gptr, gidx = board.groups.start, board.groups.tiles
    pres, partner = tree.present, tree.partner
    n = pres.shape[0]
    pres[:] = 1
    partner[:] = -1
    for i in range(top):
        if i == skip:
            continue
        g = tree.group[i]
        r = gptr[g + 1] - gptr[g]
        h = r // 2
        row = pstart[h] + (tree.pairing[i] + tree.rotation[g]) % pcount[h]
        for q in range(r):
            partner[gidx[gptr[g] + q]] = gidx[gptr[g] + ptab[row, q]]
    _autopair(board.groups, pres, partner)
    mptr = _apply(board, pres, partner, tree.moves, np.int64(0), rules, ws)
    if 2 * mptr == n:
        return SOLVED, mptr, -1
    if rules.scan and not _scan_after_apply(board, pres, partner, ws):
        return _DEAD, mptr, -1
    nxt = -1
    for g in range(gptr.shape[0] - 1):
        live, first, _ = _last_two(g, board.groups, pres)
        if live == 0 or partner[first] >= 0:
            continue
        if nxt < 0:
            nxt = g
        for k in range(gptr[g], gptr[g + 1]):
            a = gidx[k]
            if not pres[a]:
                continue
            for j in range(k + 1, gptr[g + 1]):
                b = gidx[j]
                if pres[b] and _playable(board, a, b, pres, ws):
                    return _LIVE, mptr, nxt
    return _DEAD, mptr, -1


@njit(**JIT_FLAGS)
def _bondt(board, rules, tree, budget, ws):
    """de Bondt's "pairing one, then two" tree (see :meth:`PythonSearch._search_bondt`)
    for at most ``budget`` evaluations.

    Parameters
    ----------
    board : BoardArrays
    rules : Rules
    tree : BondtTree
        The stack ``group``/``pairing`` with ``stats[DEPTH]`` entries, and ``rotation``,
        each group's cycling of tiles two to four; updated so that a call that returns
        ``RUNNING`` can be followed by another one that goes on.
    budget : int
        Evaluations at most.
    ws : Workspace

    Returns
    -------
    int
        ``RUNNING``, ``SOLVED`` (the moves are ``tree.moves[:stats[MOVES]]``) or ``EXHAUSTED``.
    """
    pcount = board.pairings.count
    gptr = board.groups.start
    sg, sk, rot, st = tree.group, tree.pairing, tree.rotation, tree.stats
    top = st[DEPTH]
    nodes = st[NODES]
    stop = nodes + budget
    code = RUNNING
    while nodes < stop:
        nodes += 1
        st[SCANS] += rules.scan
        res, mptr, nxt = _bd_eval(board, rules, tree, top, np.int64(-1), ws)
        if res == SOLVED:
            st[MOVES] = mptr
            code = SOLVED
            break
        if res == _LIVE:
            sg[top] = nxt
            sk[top] = 0
            top += 1
            continue
        if top == 0:
            code = EXHAUSTED
            break
        if sk[top - 1] == 0:  # a run of pairing-one groups ended in a prune: adapt it backwards
            j = top - 2
            while j >= 0 and sk[j] == 0:
                st[SCANS] += rules.scan
                res, mptr, nxt = _bd_eval(board, rules, tree, top, j, ws)
                if res == SOLVED:
                    st[MOVES] = mptr
                    code = SOLVED
                    break
                if res == _DEAD:
                    g = sg[j]
                    rot[g] = (rot[g] + 1) % pcount[(gptr[g + 1] - gptr[g]) // 2]
                    for i in range(j, top - 1):
                        sg[i] = sg[i + 1]
                        sk[i] = sk[i + 1]
                    top -= 1
                j -= 1
            if code == SOLVED:
                break
        while top > 0:
            g = sg[top - 1]
            if sk[top - 1] + 1 < pcount[(gptr[g + 1] - gptr[g]) // 2]:
                sk[top - 1] += 1
                break
            top -= 1
        if top == 0:
            code = EXHAUSTED
            break
    st[DEPTH] = top
    st[NODES] = nodes
    return code


# --------------------------------------------------------------------------- the public wrappers


def bondt_tree(kernels: Kernels) -> BondtTree:
    """A fresh "pairing one, then two" tree for the board of ``kernels``."""
    n, ngroups = kernels.n, kernels.ngroups
    return BondtTree(
        group=np.zeros(ngroups + 1, dtype=np.int32), pairing=np.zeros(ngroups + 1, dtype=np.int32),
        rotation=np.zeros(ngroups, dtype=np.int32), present=np.ones(n, dtype=np.uint8),
        partner=np.full(n, -1, dtype=np.int32), moves=kernels.move_list(), stats=np.zeros(STATS_SIZE, dtype=np.int64),
    )  # fmt: skip


def bondt_search(kernels: Kernels, tree: BondtTree, budget: int) -> int:
    """Run de Bondt's tree (:func:`_bondt`) for at most ``budget`` evaluations:
    ``RUNNING``, ``SOLVED`` or ``EXHAUSTED``.

    Raises
    ------
    KernelArgumentError
        ``tree`` was not made by :func:`bondt_tree` for this board.
    """
    if not isinstance(tree, BondtTree) or tree.present.shape != (kernels.n,) or tree.rotation.shape != (kernels.ngroups,):
        raise KernelArgumentError("bondt_search needs a tree made by bondt_tree() for this board")
    return int(_bondt(kernels.board, kernels.rules, tree, max(0, int(budget)), kernels.ws))
