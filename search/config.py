"""The numba flags of the search kernels, and the names of the slots of their arrays.

Every ``@njit`` of :mod:`mjsat.search.kernels`, :mod:`~mjsat.search.kernels_shisen`,
:mod:`~mjsat.search.kernels_sh3d` and :mod:`~mjsat.search.kernels_bondt` is written
``@njit(**JIT_FLAGS)``; a test reads the sources and fails on any other decorator (as
stumpy's ``test.sh`` fails on a ``fastmath=`` not read from its config).

The kernels take plain tuples of arrays and plain ``int64`` arrays, indexed by the
constants below. numba reads a module-level integer as a compile-time constant, so
``ws[W_ABOVE]`` compiles as ``ws[0]`` does (a heterogeneous tuple needs a constant index),
and a plain tuple costs less to pass from Python than a named tuple (numba's dispatcher
types a named tuple in Python code, a plain one in C).

* ``opts``, the rules switched on: ``int64[N_RULES]`` indexed by :data:`R_FREEZE`,
  :data:`R_LOOSE`, :data:`R_SCAN`, :data:`R_CRITICAL`, :data:`R_FREEZE_PAIR`,
  :data:`R_LOOSE_PAIR`, :data:`R_JOINT`, :data:`R_PLAYOUT` (a number of :data:`PLAYOUTS`);
* ``st``, the resumable counters of a search: ``int64[N_STATS]`` indexed by
  :data:`S_DEPTH`, :data:`S_STEP`, :data:`S_NODES`, :data:`S_SCANS`, :data:`S_MOVES`;
* ``ws``, the scratch arrays (one per board, reused by every call), a tuple of
  ``N_WORKSPACE`` arrays indexed by the ``W_*`` constants (built by
  :func:`mjsat.search.kernels.workspace`). A kernel writes every slot before it reads
  it, except :data:`W_WEIGHT` and :data:`W_FOURS_ALIVE`, which a search carries from node
  to node and from call to call: a run starts them at 0 and 255
  (:func:`mjsat.search.kernels.restart` puts them back in a used workspace; a test fills
  every other slot with garbage first).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "CACHE",
    "FASTMATH",
    "JIT_FLAGS",
    "R_FREEZE",
    "R_LOOSE",
    "R_SCAN",
    "R_CRITICAL",
    "R_FREEZE_PAIR",
    "R_LOOSE_PAIR",
    "R_JOINT",
    "R_PLAYOUT",
    "N_RULES",
    "PLAYOUTS",
    "PLAYOUT_UNIFORM",
    "PLAYOUT_SAFE",
    "PLAYOUT_ROWS",
    "S_DEPTH",
    "S_STEP",
    "S_NODES",
    "S_SCANS",
    "S_MOVES",
    "N_STATS",
    "W_ABOVE",
    "W_ONE",
    "W_TWO",
    "W_QUEUE",
    "W_QUEUED",
    "W_GRID",
    "W_SCAN_PRESENT",
    "W_SCAN_ABOVE",
    "W_SCAN_ONE",
    "W_SCAN_TWO",
    "W_SCAN_QUEUE",
    "W_SCAN_QUEUED",
    "W_OPENED",
    "W_FREE_SEEN",
    "W_SCAN_GRID",
    "W_LEGAL",
    "W_LIVE",
    "W_PROBE_OK",
    "W_REMOVED",
    "W_GROUP_STACK",
    "W_GROUP_QUEUED",
    "W_WEIGHT",
    "W_FOURS_ALIVE",
    "W_RNG",
    "W_JOINT_AT",
    "W_BITS",
    "W_SCAN_BITS",
    "W_STACKED",
    "W_HOLD",
    "W_HOLD_BITS",
    "W_PLAYOUT_START",
    "W_RUNS",
    "W_HINT",
    "N_WORKSPACE",
    "PAIR_TESTS",
]

# --------------------------------------------------------------------------- numba flags

CACHE = True
"""Compiled kernels are kept on disk (in ``__pycache__`` beside the sources, or under
``NUMBA_CACHE_DIR``), so that a process loads them instead of compiling them."""

FASTMATH = False
"""No fast-math: the conflict weights compare as the pure-Python twin compares them."""

JIT_FLAGS: dict[str, Any] = {"cache": CACHE, "fastmath": FASTMATH}
"""The flags of every kernel: ``@njit(**JIT_FLAGS)``."""

if CACHE:  # before any kernel module loads its cache: a cache of older sources is dropped
    from mjsat.search.kernel_cache import drop_stale_cache

    drop_stale_cache()

# --------------------------------------------------------------------------- rules: opts

R_FREEZE = 0
"""Cleaning rule: a group whose present tiles can all go now is played in any pairing."""
R_LOOSE = 1
"""Cleaning rule (Mahjong): of a group of four with three free tiles, one covering nothing
and deciding no neighbour's freeness waits for the fourth; the other two go."""
R_SCAN = 2
"""The pruning scan (the relaxed game) at every node."""
R_CRITICAL = 3
"""Choose the branching group by probing each of its pairings with a scan."""
R_FREEZE_PAIR = 4
"""Cleaning rule: a group of four left tiles in which removing one pair lets the other pair
go is played at once (any game)."""
R_LOOSE_PAIR = 5
"""Cleaning rule (Mahjong): in a group of four left tiles, two free tiles whose removal
leaves a third one free and loose go; the third waits for the fourth."""
R_JOINT = 6
"""Without :data:`R_CRITICAL`: a node branches on the pairings of every group without a
pairing that has a playable pair, jointly (their product), instead of on one group."""
R_PLAYOUT = 7
"""The policy of the Mahjong random playouts (plain and scan-guided), the index of its name
in :data:`PLAYOUTS` (``PLAYOUT_*``)."""
N_RULES = 8
"""Length of ``opts``."""

# --------------------------------------------------------------------------- playout policies

PLAYOUTS = ("uniform", "safe", "rows")
"""The policies of the Mahjong random playouts, plain and scan-guided: the option ``playout``
of :func:`mjsat.search.solver.solve_search` (default:
:data:`mjsat.search.solver.DEFAULT_PLAYOUT`); ``opts[R_PLAYOUT]`` holds the index of the
name. When a playout is stuck (no forced move, no cleaning rule), it draws a playable pair
of a group without a pairing:

* ``"uniform"``: every pair alike;
* ``"safe"``: every pair alike, less the *fatal* ones, which take two tiles of a group of
  four whose other two lie one above the other, directly or through other tiles (they can
  never be free together, so the playout could not clear the board): a fatal pair drawn is
  put aside and another one drawn (a guided playout puts it aside without its scan); a
  playout left with only fatal pairs stops. The plain playout draws from its counts of
  free tiles per group (:data:`W_FREE_SEEN`) instead of listing every playable pair, and
  lists them only after drawing a fatal one.
* ``"rows"``: as ``"safe"``, and a pair is fatal too when the group's other two tiles lie in
  one row (:data:`W_RUNS`) and, once paired, they and a pair already made would each have
  to go before the other. A row only ever loses its end tiles, so a pair of one row waits
  for every tile of the row outside it, and a tile between its two tiles waits for it: two
  pairs of one row must be nested (crossing or side by side, neither could ever go), and
  a pair with one tile between the new pair's tiles cannot lie on them, nor one outside
  them under them.
"""
PLAYOUT_UNIFORM, PLAYOUT_SAFE, PLAYOUT_ROWS = range(len(PLAYOUTS))
"""The indices of :data:`PLAYOUTS`."""

# --------------------------------------------------------------------------- search state: st

S_DEPTH = 0
"""Depth of the node the search stands on (the critical-group search), or the height of
the stack (de Bondt's tree)."""
S_STEP = 1
"""What the critical-group search does next at that depth: enter the node, or try the
next pairing of its branching group."""
S_NODES = 2
"""Nodes evaluated so far."""
S_SCANS = 3
"""Pruning scans run so far."""
S_MOVES = 4
"""Length of the clearing move list, once solved."""
N_STATS = 5
"""Length of ``st``."""

# --------------------------------------------------------------------------- scratch: ws
# For n tiles, G groups and a grid of C cells. The Mahjong apply keeps, for every tile,
# the present tiles above it and on each side; a tile is free when the first count is 0
# and one of the others is. The scan keeps counters of its own, so that it can start from
# the apply's.

W_ABOVE = 0
"""``int32[n]``, Mahjong apply: present tiles above each tile."""
W_ONE = 1
"""``int32[n]``, Mahjong apply: present tiles on its first side."""
W_TWO = 2
"""``int32[n]``, Mahjong apply: present tiles on its second side."""
W_QUEUE = 3
"""``int32[n + G + 1]``, Mahjong apply: tiles that became free, in order (a playout
queues a tile again)."""
W_QUEUED = 4
"""``uint8[n]``, Mahjong apply: the tiles in the queue."""
W_GRID = 5
"""``uint8[C]``, Shisen-Sho apply and pair test: the occupancy grid."""
W_SCAN_PRESENT = 6
"""``uint8[n]``, scan: its copy of the position."""
W_SCAN_ABOVE = 7
"""``int32[n]``, Mahjong scan: as :data:`W_ABOVE`."""
W_SCAN_ONE = 8
"""``int32[n]``, Mahjong scan: as :data:`W_ONE`."""
W_SCAN_TWO = 9
"""``int32[n]``, Mahjong scan: as :data:`W_TWO`."""
W_SCAN_QUEUE = 10
"""``int32[n + 1]``, Mahjong scan: as :data:`W_QUEUE`."""
W_SCAN_QUEUED = 11
"""``uint8[n]``, Mahjong scan: as :data:`W_QUEUED`; the Shisen-Sho scan keeps the tiles
present at its start here."""
W_OPENED = 12
"""``uint8[G]``, scan: the groups that played their first pair."""
W_FREE_SEEN = 13
"""``int32[G]``, Mahjong scan: free tiles seen in each group not opened yet; Mahjong apply
and playout: the free tiles of each group without a pairing (0 once it has one), from which
the playout draws its pairs and by which the cleaning rules pass over a group with too few
(not kept by the apply after a move)."""
W_SCAN_GRID = 14
"""``uint8[C]``, Shisen-Sho scan: its occupancy grid."""
W_LEGAL = 15
"""``int32[n * n // 2 + 2]``, playouts: the legal moves, as ``a * n + b``."""
W_LIVE = 16
"""``int32[MAX_GROUP]``, search: the present tiles of the group being probed."""
W_PROBE_OK = 17
"""``uint8[128]``, search: which pairings of that group survived their probe scan."""
W_REMOVED = 18
"""``int32[n + 1]``, Mahjong: tiles taken off whose removal is not propagated yet (the
scan and the apply after a move find the move's two tiles in slots 0 and 1)."""
W_GROUP_STACK = 19
"""``int32[G + 1]``, Mahjong apply: the groups whose cleaning rules are to be tried."""
W_GROUP_QUEUED = 20
"""``uint8[G]``, Mahjong apply: the groups on that stack."""
W_WEIGHT = 21
"""``float64[G]``, search: the conflict weight of each group."""
W_FOURS_ALIVE = 22
"""``uint8[G + 2, G]``, search: per depth and group of four, the mask of its three
pairings whose probe has not failed at an ancestor (255: not probed yet)."""
W_RNG = 23
"""``uint64[1]``, Mahjong playouts: the xorshift state."""
W_JOINT_AT = 24
"""``int32[G + 2, G]``, search with :data:`R_JOINT`: per depth, the pairing tried for each
group of the joint branching."""
W_BITS = 25
"""``uint64[B]``, Shisen-Sho apply and pair test: the row and column bitsets of
:data:`W_GRID` with their disjunction trees (:mod:`mjsat.search.kernels_bits`); empty
(``B = 0``) when the pair test walks cells."""
W_SCAN_BITS = 26
"""``uint64[B]``, Shisen-Sho scan: the bitsets of :data:`W_SCAN_GRID`, as :data:`W_BITS`."""
W_STACKED = 27
"""``uint8[n]``, Mahjong playouts with the policy ``"safe"``: bit ``k`` of tile
``t`` is set when ``t`` and the ``k``-th member of its group lie one above the other,
directly or through other tiles (written at the start of each playout kernel by
:func:`mjsat.search.kernels._stack_masks`, which uses :data:`W_SCAN_QUEUE` and
:data:`W_SCAN_QUEUED` as its scratch)."""
W_HOLD = 28
"""``int32[max(5n + 2G, 1 + n + G + C)]``, search: the scan state a hold scan left,
restored before each probe of the held group's pairings. Mahjong: the scan's copy of the
position, its three counters and queued tiles (``n`` each), then the opened groups and
free tiles seen (``G`` each). Shisen-Sho: the tiles left, the scan's copy of the position,
the opened groups and the scan's grid."""
W_HOLD_BITS = 29
"""``uint64[B]``, Shisen-Sho search: the scan's bitsets (:data:`W_SCAN_BITS`) a hold scan
left."""
W_PLAYOUT_START = 30
"""``int32[7n + G + 1]``, Mahjong playouts: the state of the last
:func:`mjsat.search.kernels._mj_playout` at its first random draw, from which
:func:`~mjsat.search.kernels._mj_playout_again` starts (the later playouts of ``_attempts``
and those of ``_more_attempts``: every playout of a deal plays the same moves up to its
first draw):
the position, the partners, the three counters, the queued tiles and the moves made
(``n`` each, the moves as pairs), the free tiles seen per group (``G``), then the number
of moves."""
W_RUNS = 31
"""``int32[4n]``, Mahjong playouts with the policy ``"rows"``: the layout's rows, chains of
tiles side by side in which each link is the one tile on a side of a tile that is the only
tile on that tile's other side. ``[t]``: the next tile of ``t``'s row on its second side (-1
at the end); ``[n + t]``: on its first side; ``[2n + t]``: the first tile of its row;
``[3n + t]``: its place in the row from 0 (written with :data:`W_STACKED` by
:func:`mjsat.search.kernels._stack_masks`)."""
W_HINT = 32
"""``int32[n + 1]``, Mahjong search: the partner of each tile in the longest scan-guided
playout of the deal so far (-1 for a tile it did not remove), then that playout's number of
moves (0: none yet). Written by :func:`mjsat.search.kernels._mj_guided` after each playout
that fails, read by the search to try first the pairings of a group that agree with it
(value ordering); carried from call to call, as :data:`W_WEIGHT`."""
N_WORKSPACE = 33
"""Length of ``ws``."""

# --------------------------------------------------------------------------- Shisen-Sho pair test

PAIR_TESTS = ("cells", "bits")
"""The Shisen-Sho pair tests of the kernels, the option ``pair_test`` of
:func:`mjsat.search.solver.solve_search` (its default by game:
:data:`mjsat.search.solver.DEFAULT_PAIR_TEST`): ``"cells"``, walking
the cells of the grid, :math:`O((h + w)^2)` at worst; ``"bits"``, the bitsets with bit
scans and disjunction trees of de Bondt (2020), Theorems 3.2 and 3.3
(:mod:`mjsat.search.kernels_bits`), :math:`O(\\log(h + w))` per test. The workspace
chooses: ``"bits"`` gives it non-empty :data:`W_BITS` and :data:`W_SCAN_BITS`."""
