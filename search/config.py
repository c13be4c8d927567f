"""The numba flags of the search kernels, and the names of the slots of their arrays.

Every ``@njit`` of :mod:`mjsat.search.kernels`, :mod:`~mjsat.search.kernels_shisen`,
:mod:`~mjsat.search.kernels_sh3d` and :mod:`~mjsat.search.kernels_bondt` takes its flags
from here: :data:`JIT_FLAGS` for a kernel, :data:`INLINE_FLAGS` for a small helper that
is inlined into its callers (a helper compiled as a function of its own would pay a
reference count per array argument at every call, in the innermost loops). A test reads
the sources and fails on any other ``@njit``.

The kernels see no Python objects; what they take is named here:

* :class:`BoardArrays`, the static arrays of one board (:class:`Groups`,
  :class:`MahjongTables`, :class:`GridTables`, :class:`PairingTables`);
* :class:`Rules`, the improvements switched on;
* :class:`Workspace`, the scratch arrays (one per board, reused by every call);
* :class:`Tree` and :class:`BondtTree`, the resumable state of the two exhaustive
  searches, whose ``stats`` array is indexed by :data:`DEPTH`, :data:`STEP`,
  :data:`NODES`, :data:`SCANS` and :data:`MOVES`;
* the kinds of pair test (:data:`~mjsat.search.pairing.MAHJONG`,
  :data:`~mjsat.search.pairing.SHISEN`, :data:`~mjsat.search.pairing.SH3D`, defined with
  the pure-Python search) and the codes a search returns (:data:`RUNNING`,
  :data:`SOLVED`, :data:`EXHAUSTED`).

numba reads module-level integers as compile-time constants, so ``stats[NODES]`` costs
what ``stats[2]`` costs.

Every kernel names its arguments alike; a kernel's docstring documents those that are
not in this table:

============  ==========================================================================
name          what
============  ==========================================================================
``board``     :class:`BoardArrays`
``groups``    :class:`Groups`
``mj``        :class:`MahjongTables`
``cells``     :class:`GridTables`
``rules``     :class:`Rules`
``ws``        :class:`Workspace`
``pres``      ``uint8[n]``: the position, 1 for a present tile (``ps``: the scan's copy)
``partner``   ``int32[n]``: the partial pairing set, ``-1`` for a tile without a partner
``moves``     ``int32[n // 2 + 1, 2]``: a move list, filled from row ``mptr`` on
``mptr``      ``int``: the number of moves in ``moves``
``rng``       ``uint64[1]``: the state of the xorshift generator of the playouts
``t, u, x``   ``int``: a tile; ``g``: a group
============  ==========================================================================
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

__all__ = [
    "CACHE",
    "FASTMATH",
    "JIT_FLAGS",
    "INLINE_FLAGS",
    "MAX_GROUP",
    "MAX_PAIRINGS",
    "RUNNING",
    "SOLVED",
    "EXHAUSTED",
    "DEPTH",
    "STEP",
    "NODES",
    "SCANS",
    "MOVES",
    "STATS_SIZE",
    "Groups",
    "MahjongTables",
    "GridTables",
    "PairingTables",
    "BoardArrays",
    "Rules",
    "Workspace",
    "Tree",
    "BondtTree",
]

# --------------------------------------------------------------------------- numba flags

CACHE = True
"""Compiled kernels are kept on disk (beside the sources in ``__pycache__``, or under
``NUMBA_CACHE_DIR``), so a process loads them instead of compiling them."""

FASTMATH = False
"""No fast-math: the conflict weights are compared as the pure-Python twin compares them."""

JIT_FLAGS: dict[str, Any] = {"cache": CACHE, "fastmath": FASTMATH}
"""The flags of every kernel: ``@njit(**JIT_FLAGS)``."""

INLINE_FLAGS: dict[str, Any] = {**JIT_FLAGS, "inline": "always"}
"""The flags of a small helper, inlined into its callers in numba's IR."""

# --------------------------------------------------------------------------- sizes and codes

MAX_GROUP = 8
"""Largest group the kernels branch on (the pairing tables stop at the 105 pairings of 8)."""

MAX_PAIRINGS = 128
"""Room for the pairings of one group in the probe results (105 for a group of 8)."""

RUNNING, SOLVED, EXHAUSTED = 0, 1, 2
"""What a search kernel returns: stopped at its node budget, cleared the board, or proved
that nothing clears it."""

# Slots of a search's ``stats`` array (int64).
DEPTH = 0
"""Depth of the node the search stands on (:class:`Tree`), or entries on the stack
(:class:`BondtTree`)."""
STEP = 1
"""What the critical-group search does next at that depth: enter the node or try its
next pairing."""
NODES = 2
"""Nodes evaluated so far."""
SCANS = 3
"""Pruning scans run so far."""
MOVES = 4
"""Length of the clearing move list, once solved."""
STATS_SIZE = 5


# --------------------------------------------------------------------------- static arrays


class Groups(NamedTuple):
    """The groups of a board in CSR form (``int32`` arrays)."""

    of_tile: np.ndarray
    """``int32[n]``: the group of each tile (groups renumbered ``0..G-1`` by first tile)."""
    start: np.ndarray
    """``int32[G + 1]``: the tiles of group ``g`` are ``tiles[start[g]:start[g + 1]]``."""
    tiles: np.ndarray
    """``int32[n]``: the tiles, group by group, in increasing order within a group."""


class MahjongTables(NamedTuple):
    """The Mahjong relations in CSR form: the twelve ``int32`` arrays of
    :attr:`mjsat.layout.SideTables.csr`, in that order.

    Tile ``t``'s tiles above are ``above_idx[above_ptr[t]:above_ptr[t + 1]]``; ``one`` and
    ``two`` are its two sides (left and right, or front and rear); ``covered``,
    ``ones_of`` and ``twos_of`` are the reverses (``u`` is in ``ones_of(t)`` when ``t`` is
    in ``one(u)``). A Shisen-Sho board carries empty tables of this type.
    """

    above_ptr: np.ndarray
    above_idx: np.ndarray
    one_ptr: np.ndarray
    one_idx: np.ndarray
    two_ptr: np.ndarray
    two_idx: np.ndarray
    covered_ptr: np.ndarray
    covered_idx: np.ndarray
    ones_of_ptr: np.ndarray
    ones_of_idx: np.ndarray
    twos_of_ptr: np.ndarray
    twos_of_idx: np.ndarray


class GridTables(NamedTuple):
    """The Shisen-Sho occupancy grid of a board, margin included, kept flat.

    Rectangular Shisen-Sho: ``row[t]``, ``col[t]`` are tile ``t``'s cell, the grid is
    ``height x width``. Shisen-Sho on the Mahjong grid: the levels of the half-tile grid
    are stacked (row ``r`` of level ``l`` is row ``l * h1 + r``), ``row[t]``/``col[t]``
    is the top-left cell of tile ``t``'s four, one more entry ``row[n]`` holds ``h1`` (see
    :mod:`mjsat.search.kernels_sh3d`). A Mahjong board carries empty arrays and a 1 x 1 grid.
    """

    row: np.ndarray
    """``int32[n]`` (``int32[n + 1]`` on the Mahjong grid)."""
    col: np.ndarray
    """``int32[n]``."""
    height: np.int64
    width: np.int64


class PairingTables(NamedTuple):
    """Every pairing of 2, 4, 6 and 8 items: :func:`mjsat.search.pairing.pairings` as arrays."""

    partner: np.ndarray
    """``int8[rows, MAX_GROUP]``: row ``k`` maps each item to its partner in pairing ``k``."""
    start: np.ndarray
    """``int32[MAX_GROUP // 2 + 1]``: the first row of the pairings of ``2 * h`` items."""
    count: np.ndarray
    """``int32[MAX_GROUP // 2 + 1]``: how many rows they take (``(2h - 1)!!``)."""


class BoardArrays(NamedTuple):
    """Everything static a kernel knows of a board (:func:`mjsat.search.kernels.board_arrays`)."""

    kind: np.int64
    """The pair test: :data:`~mjsat.search.pairing.MAHJONG`, ``SHISEN`` or ``SH3D``."""
    groups: Groups
    mahjong: MahjongTables
    grid: GridTables
    pairings: PairingTables


class Rules(NamedTuple):
    """The improvements of the search a kernel applies (each switchable, see
    :func:`mjsat.search.solver.solve_search`)."""

    freeze: bool
    """Cleaning rule: a group whose remaining tiles all pair now goes in any pairing."""
    loose: bool
    """Cleaning rule (Mahjong): a group of four with three free tiles, one of which blocks
    nothing, plays the other two."""
    scan: bool
    """The pruning scan at every node."""
    critical: bool
    """Choose the branching group by probing every pairing with a scan."""


# --------------------------------------------------------------------------- scratch and state


class Workspace(NamedTuple):
    """Scratch arrays of the kernels for ``n`` tiles, ``G`` groups and a grid of ``C`` cells
    (:func:`mjsat.search.kernels.workspace`).

    The Mahjong apply keeps, for every tile, the number of present tiles above it and on
    each side (``above``, ``one``, ``two``); a tile is free when the first is zero and one
    of the others is. The scan keeps its own counters, so that a scan can start from the
    apply's (:func:`mjsat.search.kernels._mj_scan_warm`).
    """

    above: np.ndarray
    """``int32[n]``, apply: present tiles above each tile."""
    one: np.ndarray
    """``int32[n]``, apply: present tiles on its first side."""
    two: np.ndarray
    """``int32[n]``, apply: present tiles on its second side."""
    queue: np.ndarray
    """``int32[n + G + 1]``, apply: tiles that became free, in order."""
    queued: np.ndarray
    """``uint8[n]``, apply: tiles in ``queue``."""
    grid: np.ndarray
    """``uint8[C]``, Shisen-Sho apply and pair test: the occupancy grid."""
    scan_present: np.ndarray
    """``uint8[n]``, scan: its copy of the position."""
    scan_above: np.ndarray
    """``int32[n]``, scan: as ``above``."""
    scan_one: np.ndarray
    """``int32[n]``, scan: as ``one``."""
    scan_two: np.ndarray
    """``int32[n]``, scan: as ``two``."""
    scan_queue: np.ndarray
    """``int32[n + 1]``, scan: as ``queue``."""
    scan_queued: np.ndarray
    """``uint8[n]``, scan: as ``queued``; the Shisen-Sho scan keeps the tiles present at its
    start here."""
    opened: np.ndarray
    """``uint8[G]``, scan: groups that played their first pair."""
    free_seen: np.ndarray
    """``int32[G]``, Mahjong scan: free tiles seen in each group not yet opened."""
    scan_grid: np.ndarray
    """``uint8[C]``, Shisen-Sho scan: its occupancy grid."""
    legal: np.ndarray
    """``int32[n * n // 2 + 2]``, playouts: the legal moves, as ``a * n + b``."""
    live: np.ndarray
    """``int32[MAX_GROUP]``, search: the present tiles of the group being probed."""
    probe_ok: np.ndarray
    """``uint8[MAX_PAIRINGS]``, search: which pairings of that group survived their probe."""
    removed: np.ndarray
    """``int32[n + 1]``, Mahjong: tiles taken off whose removal is not propagated yet (the
    warm scan and the resumed apply find the two tiles of a move in slots 0 and 1)."""
    group_stack: np.ndarray
    """``int32[G + 1]``, Mahjong apply: groups whose cleaning rules are to be tried."""
    group_queued: np.ndarray
    """``uint8[G]``, Mahjong apply: groups in ``group_stack``."""
    weight: np.ndarray
    """``float64[G]``, search: the conflict weight of each group."""
    fours_alive: np.ndarray
    """``uint8[G + 2, G]``, search: per depth and group of four, a mask of its three
    pairings whose probe has not failed at an ancestor (255: not probed yet)."""


class Tree(NamedTuple):
    """The state of the critical-group search (:func:`mjsat.search.kernels._dfs`), one row
    per depth ``d < G + 2``, so that a call can stop at its node budget and the next one go on."""

    present: np.ndarray
    """``uint8[G + 2, n]``: the position at each depth."""
    partner: np.ndarray
    """``int32[G + 2, n]``: the partial pairing set at each depth (``-1``: none yet)."""
    branch_tiles: np.ndarray
    """``int32[G + 2, MAX_GROUP]``: the present tiles of the group branched on."""
    branch_size: np.ndarray
    """``int32[G + 2]``: how many there are."""
    allowed: np.ndarray
    """``uint8[G + 2, MAX_PAIRINGS]``: the pairings of that group to try."""
    next_pairing: np.ndarray
    """``int32[G + 2]``: the next pairing to try."""
    moves_end: np.ndarray
    """``int32[G + 2]``: the length of the move list after the node's apply."""
    moves: np.ndarray
    """``int32[n // 2 + 1, 2]``: the moves of the path."""
    stats: np.ndarray
    """``int64[STATS_SIZE]``: indexed by :data:`DEPTH`, :data:`STEP`, :data:`NODES`,
    :data:`SCANS`, :data:`MOVES`."""


class BondtTree(NamedTuple):
    """The state of de Bondt's "pairing one, then two" tree
    (:func:`mjsat.search.kernels_bondt._bondt`): a stack of (group, pairing) entries."""

    group: np.ndarray
    """``int32[G + 1]``: the group of each entry."""
    pairing: np.ndarray
    """``int32[G + 1]``: its pairing (0 is "pairing one")."""
    rotation: np.ndarray
    """``int32[G]``: how far each group's pairings are cycled (backward adaptation)."""
    present: np.ndarray
    """``uint8[n]``: the position of the last evaluation."""
    partner: np.ndarray
    """``int32[n]``: its pairing set."""
    moves: np.ndarray
    """``int32[n // 2 + 1, 2]``: the moves of the last evaluation."""
    stats: np.ndarray
    """``int64[STATS_SIZE]``: as :attr:`Tree.stats` (:data:`DEPTH` is the stack's height)."""
