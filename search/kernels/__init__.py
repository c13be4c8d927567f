"""numba kernels of the pairing-set search (the algorithm of :mod:`mjsat.search.pairing`).

The package is cut by job: :mod:`~mjsat.search.kernels.arrays` (the arguments, workspace and
stacks), :mod:`~mjsat.search.kernels.mahjong` (the freeness counters and cleaning rules),
:mod:`~mjsat.search.kernels.draws` (what the random playouts draw with: the fatal pairs of the
policies, the kept start, the generator),
:mod:`~mjsat.search.kernels.events` (the Mahjong event loops, one entry point per job),
:mod:`~mjsat.search.kernels.dispatch` (the kernels dispatched on the game, the playouts),
:mod:`~mjsat.search.kernels.tree` (the critical-group search) and
:mod:`~mjsat.search.kernels.guided` (the scan-guided playouts); every name is
re-exported here.

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

from mjsat.search.kernels.arrays import (
    _NO_SIDES as _NO_SIDES,
    _PTAB as _PTAB,
    EXHAUSTED as EXHAUSTED,
    MAX_GROUP as MAX_GROUP,
    RUNNING as RUNNING,
    SOLVED as SOLVED,
    GroupTooLargeError as GroupTooLargeError,
    _csr as _csr,
    _new_stacks as _new_stacks,
    _new_workspace as _new_workspace,
    _restart as _restart,
    _tables as _tables,
    _wipe_stacks as _wipe_stacks,
    arrays as arrays,
    restart as restart,
    rules as rules,
    workspace as workspace,
)
from mjsat.search.kernels.dispatch import (
    OPENING_REFUTED as OPENING_REFUTED,
    _apply as _apply,
    _attempts as _attempts,
    _fresh_playouts as _fresh_playouts,
    _hold_copy as _hold_copy,
    _legal_moves as _legal_moves,
    _mj_probe as _mj_probe,
    _more_attempts as _more_attempts,
    _opening as _opening,
    _plain_playouts as _plain_playouts,
    _playable as _playable,
    _scan as _scan,
)
from mjsat.search.kernels.draws import (
    _doomed as _doomed,
    _fatal as _fatal,
    _kept_moves_slot as _kept_moves_slot,
    _playout_start as _playout_start,
    _row_cycle as _row_cycle,
    _stack_masks as _stack_masks,
    _xorshift as _xorshift,
)
from mjsat.search.kernels.events import (
    _every_group as _every_group,
    _fresh as _fresh,
    _mj_apply as _mj_apply,
    _mj_apply_after_move as _mj_apply_after_move,
    _mj_playout as _mj_playout,
    _mj_playout_again as _mj_playout_again,
    _mj_playout_on as _mj_playout_on,
    _mj_scan as _mj_scan,
    _mj_scan_after_move as _mj_scan_after_move,
    _mj_scan_hold as _mj_scan_hold,
    _mj_scan_resume as _mj_scan_resume,
    _play as _play,
    _propagate as _propagate,
    _relax as _relax,
    _start_apply as _start_apply,
    _warm as _warm,
)
from mjsat.search.kernels.guided import (
    _guided as _guided,
    _mj_guided as _mj_guided,
)
from mjsat.search.kernels.mahjong import (
    _PAIR_CLEAR as _PAIR_CLEAR,
    _PAIR_NONE as _PAIR_NONE,
    _PAIR_WAIT as _PAIR_WAIT,
    _REDRAWS as _REDRAWS,
    _autopair as _autopair,
    _last_two as _last_two,
    _mj_free as _mj_free,
    _mj_init as _mj_init,
    _mj_legal as _mj_legal,
    _mj_loose as _mj_loose,
    _mj_pair_rules as _mj_pair_rules,
    _mj_shift as _mj_shift,
    _queue_free as _queue_free,
)
from mjsat.search.kernels.tree import (
    _DEAD as _DEAD,
    _ENTER as _ENTER,
    _NEXT as _NEXT,
    _OPEN as _OPEN,
    _dfs as _dfs,
    _joint_next as _joint_next,
    _keep_hint as _keep_hint,
    _node as _node,
    _rank_pairings as _rank_pairings,
)

__all__ = ["MAX_GROUP", "GroupTooLargeError", "RUNNING", "SOLVED", "EXHAUSTED", "arrays", "workspace", "rules"]
