"""numba kernels of the pairing-set search (the algorithm of :mod:`mjsat.search.pairing`).

The kernels see only arrays, named in :mod:`mjsat.search.config`: a board's
:class:`~mjsat.search.config.BoardArrays` (groups, Mahjong relations and Shisen-Sho grid
in flat form, the tables of pairings of 2, 4, 6 and 8 tiles), the
:class:`~mjsat.search.config.Rules` switched on, and a
:class:`~mjsat.search.config.Workspace` of scratch arrays. A position is a ``uint8``
array of present tiles, a partial pairing set an ``int32`` array ``partner`` (``-1`` for
a tile whose group has no pairing yet). :class:`Kernels` is the public face: it builds and
checks the arrays of one board and offers one method per kernel.

The kernels of each pair test are in their own module: the Mahjong games' event-driven
apply and scan in :mod:`mjsat.search.kernels_mahjong`, Shisen-Sho's rounds over the
groups with the path test of :func:`mjsat.shisen.connectable` on a flat occupancy grid in
:mod:`mjsat.search.kernels_shisen` (the Mahjong grid's in
:mod:`mjsat.search.kernels_sh3d`). This module dispatches on the kind (:func:`_apply`,
:func:`_scan`, ...), runs the random playouts and the critical-group search.

The depth-first search is iterative with its whole state in arrays (a
:class:`~mjsat.search.config.Tree`: one row per depth), so
:func:`mjsat.search.solver.solve_search` can run it in chunks of nodes and look at the
clock in between; so does :func:`mjsat.search.kernels_bondt._bondt`, de Bondt's "pairing
one, then two" tree. The critical-group choice keeps a conflict weight per group (see
:mod:`mjsat.search.pairing`). A pairing of a group of four whose probe failed at a node
is not probed again below it: the relaxed game only loses moves as pairings are added
and tiles go, so the probe would fail again.

A position is a ``uint8`` array rather than a bitset of ``uint64`` words: the search is
group-directed, so positions are copied once per node and never hashed, and byte access
keeps the event-driven loops simple.

The pure-Python references are :class:`mjsat.search.pairing.PythonSearch` (apply, scan,
playouts, both searches) and :func:`mjsat.shisen.connectable` (the path test); the tests
compare every kernel with them, with the JIT on and off.

The kernels' arguments are named as in the table of :mod:`mjsat.search.config`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from mjsat.result import MethodNotApplicableError
from mjsat.search.config import (
    DEPTH,
    EXHAUSTED,
    JIT_FLAGS,
    MAX_GROUP,
    MAX_PAIRINGS,
    MOVES,
    NODES,
    RUNNING,
    SCANS,
    SOLVED,
    STATS_SIZE,
    STEP,
    BoardArrays,
    GridTables,
    Groups,
    MahjongTables,
    PairingTables,
    Rules,
    Tree,
    Workspace,
)
from mjsat.search.kernels_mahjong import (
    _autopair,
    _draw,
    _free,
    _fresh_start,
    _mj_apply,
    _mj_guided,
    _mj_legal,
    _mj_playout,
    _mj_resume,
    _mj_scan,
    _mj_scan_warm,
    _mj_scan_without,
)
from mjsat.search.kernels_sh3d import sh3d_grid
from mjsat.search.kernels_shisen import _sh_apply, _sh_ok, _sh_scan
from mjsat.search.pairing import MAHJONG, SH3D, SHISEN, Geometry, pairings

__all__ = [
    "MAX_GROUP",
    "GroupTooLargeError",
    "KernelArgumentError",
    "RUNNING",
    "SOLVED",
    "EXHAUSTED",
    "board_arrays",
    "workspace",
    "check_group_sizes",
    "Kernels",
]

_ENTER, _NEXT = 0, 1
"""Values of ``stats[STEP]``: enter the node at the current depth, or try its next pairing."""
_OPEN, _DEAD = 0, 2
"""What :func:`_node` finds besides ``SOLVED``: children to try, or none."""


class GroupTooLargeError(MethodNotApplicableError):
    """A group of more than :data:`MAX_GROUP` tiles (use ``engine="python"``): the numba
    engine of the method ``search`` does not apply."""

    def __init__(self, reason: str) -> None:
        super().__init__("search", None, reason)


class KernelArgumentError(ValueError):
    """An array handed to a kernel's wrapper whose shape or type the kernel cannot take."""


# --------------------------------------------------------------------------- arrays


def _csr(rel: Any) -> tuple[np.ndarray, np.ndarray]:
    ptr = np.zeros(len(rel) + 1, dtype=np.int32)
    ptr[1:] = np.cumsum([len(r) for r in rel])
    idx = np.array([o for r in rel for o in r], dtype=np.int32)
    return ptr, idx


def _pairing_tables() -> PairingTables:
    rows = []
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
    return PairingTables(np.array(rows, dtype=np.int8), start, count)


_PAIRINGS = _pairing_tables()


def check_group_sizes(groups: Any) -> None:
    """Refuse a board with a group the kernels cannot branch on, before anything is built.

    Parameters
    ----------
    groups : sequence of int
        The group of every tile (:attr:`mjsat.board.Board.groups`).

    Raises
    ------
    GroupTooLargeError
        A group has more than :data:`MAX_GROUP` tiles.

    Notes
    -----
    :math:`O(n \\log n)` (one ``numpy.unique``).
    """
    if len(groups) == 0:
        return
    big = int(np.unique(np.asarray(groups), return_counts=True)[1].max())
    if big > MAX_GROUP:
        raise GroupTooLargeError(
            f"the numba engine branches on groups of at most {MAX_GROUP} tiles, this board has one of {big}"
            " (use engine='python')"
        )


def board_arrays(geo: Geometry) -> BoardArrays:
    """The kernel arguments of a geometry.

    Raises
    ------
    GroupTooLargeError
        A group has more than :data:`MAX_GROUP` tiles.

    Notes
    -----
    :math:`O(n)`; the Mahjong tables are the layout's own
    (:attr:`mjsat.layout.SideTables.csr`), taken as they are.
    """
    check_group_sizes(geo.group)
    groups = Groups(np.array(geo.group, dtype=np.int32), *_csr(geo.members))
    empty = np.zeros(0, dtype=np.int32)
    no_mahjong = MahjongTables(*((np.zeros(1, dtype=np.int32), empty) * 6))
    if geo.kind == SH3D:
        return BoardArrays(np.int64(geo.kind), groups, no_mahjong, sh3d_grid(geo), _PAIRINGS)
    if geo.kind == SHISEN:
        row = np.array([c[0] for c in geo.cells], dtype=np.int32)
        col = np.array([c[1] for c in geo.cells], dtype=np.int32)
        grid = GridTables(row, col, np.int64(geo.shape[0]), np.int64(geo.shape[1]))
        return BoardArrays(np.int64(geo.kind), groups, no_mahjong, grid, _PAIRINGS)
    mj = geo.csr if geo.csr else (
        *_csr(geo.above), *_csr(geo.one), *_csr(geo.two),
        *_csr(geo.covered), *_csr(geo.ones_of), *_csr(geo.twos_of),
    )  # fmt: skip
    grid = GridTables(empty, empty, np.int64(1), np.int64(1))
    return BoardArrays(np.int64(MAHJONG), groups, MahjongTables(*mj), grid, _PAIRINGS)


def workspace(n: int, ngroups: int, cells: int) -> Workspace:
    """Scratch arrays of the kernels for ``n`` tiles, ``ngroups`` groups, a grid of ``cells``
    (each slot is documented in :class:`~mjsat.search.config.Workspace`).

    Notes
    -----
    :math:`O(n^2 + G^2 + C)` memory: the playouts' list of legal moves holds up to
    ``n^2 / 2`` pairs, the search one mask per group and depth.
    """
    i32, u8 = np.int32, np.uint8
    return Workspace(
        above=np.zeros(n, i32), one=np.zeros(n, i32), two=np.zeros(n, i32),
        queue=np.zeros(n + ngroups + 1, i32), queued=np.zeros(n, u8), grid=np.zeros(cells, u8),
        scan_present=np.zeros(n, u8), scan_above=np.zeros(n, i32), scan_one=np.zeros(n, i32),
        scan_two=np.zeros(n, i32), scan_queue=np.zeros(n + 1, i32), scan_queued=np.zeros(n, u8),
        opened=np.zeros(ngroups, u8), free_seen=np.zeros(ngroups, i32), scan_grid=np.zeros(cells, u8),
        legal=np.zeros(n * n // 2 + 2, i32), live=np.zeros(MAX_GROUP, i32), probe_ok=np.zeros(MAX_PAIRINGS, u8),
        removed=np.zeros(n + 1, i32), group_stack=np.zeros(ngroups + 1, i32), group_queued=np.zeros(ngroups, u8),
        weight=np.zeros(ngroups, np.float64), fours_alive=np.full((ngroups + 2, ngroups), 255, u8),
    )  # fmt: skip


# --------------------------------------------------------------------------- every kind
# ``board`` is a BoardArrays, ``pres``/``partner`` a position and pairing set, ``moves``
# the move list, ``rules`` a Rules, ``ws`` a Workspace (see mjsat.search.config).


@njit(**JIT_FLAGS)
def _apply(board, pres, partner, moves, mptr, rules, ws):
    """Apply the pairing set and the cleaning rules (:func:`_mj_apply` or
    :func:`~mjsat.search.kernels_shisen._sh_apply`); returns the new ``mptr``."""
    if board.kind != MAHJONG:
        return _sh_apply(board.kind == SH3D, board.groups, board.grid, pres, partner, moves, mptr, rules, ws)
    return _mj_apply(board.groups, board.mahjong, pres, partner, moves, mptr, rules, ws)


@njit(**JIT_FLAGS)
def _scan(board, pres, partner, ws):
    """The pruning scan of ``pres`` (read only): True iff the relaxed game clears it."""
    if board.kind != MAHJONG:
        return _sh_scan(board.kind == SH3D, board.groups, board.grid, pres, partner, ws)
    return _mj_scan(board.groups, board.mahjong, pres, partner, ws)


@njit(**JIT_FLAGS)
def _scan_after_apply(board, pres, partner, ws):
    """:func:`_scan` right after :func:`_apply` on the same ``pres`` (Mahjong reuses the
    apply's counters: :func:`_mj_scan_warm`)."""
    if board.kind != MAHJONG:
        return _sh_scan(board.kind == SH3D, board.groups, board.grid, pres, partner, ws)
    return _mj_scan_warm(board.groups, board.mahjong, pres, partner, ws)


@njit(**JIT_FLAGS)
def _playable(board, a, b, pres, ws):
    """After an apply on ``pres``: can present tiles ``a`` and ``b`` go together now?"""
    if board.kind != MAHJONG:
        return _sh_ok(board.kind == SH3D, a, b, board.grid, ws.grid)
    return _free(a, pres, ws.above, ws.one, ws.two) and _free(b, pres, ws.above, ws.one, ws.two)


@njit(**JIT_FLAGS)
def _legal_moves(board, pres, partner, ws):
    """After an apply on ``pres``: the playable pairs of present tiles of groups without a
    pairing, as ``a * n + b`` in ``ws.legal[:m]``; returns ``m``."""
    if board.kind == MAHJONG:  # the apply's free-test counters
        return _mj_legal(board.groups, pres, partner, ws.above, ws.one, ws.two, ws.legal)
    start, tiles, legal = board.groups.start, board.groups.tiles, ws.legal
    n = pres.shape[0]
    m = 0
    for g in range(start.shape[0] - 1):
        for k in range(start[g], start[g + 1]):
            x = tiles[k]
            if not pres[x] or partner[x] >= 0:
                continue
            for j in range(k + 1, start[g + 1]):
                y = tiles[j]
                if pres[y] and _playable(board, x, y, pres, ws):
                    legal[m] = x * n + y
                    m += 1
    return m


# --------------------------------------------------------------------------- random playouts


@njit(**JIT_FLAGS)
def _fresh_playouts(guided, board, rules, count, rng, pres, partner, moves, ws):
    """Random playouts with a fresh apply after every random move (Shisen-Sho); ``guided``:
    a random move is kept only when the pruning scan still clears the position after it,
    another one is drawn otherwise.

    Parameters
    ----------
    guided : bool
    board : BoardArrays
    rules : Rules
    count : int
        Playouts to run.
    rng : numpy.ndarray
        ``uint64[1]``, the state of :func:`_xorshift`.
    pres, partner, moves : numpy.ndarray
        Scratch position, pairing set and move list; the clearing playout's moves stay in
        ``moves[:n // 2]``.
    ws : Workspace

    Returns
    -------
    int
        The number of the playout that cleared the board, or -1.
    """
    legal = ws.legal
    n = pres.shape[0]
    for a in range(count):
        _fresh_start(board.groups, pres, partner)
        mptr = np.int64(0)
        while True:
            mptr = _apply(board, pres, partner, moves, mptr, rules, ws)
            if 2 * mptr == n:
                return a
            m = _legal_moves(board, pres, partner, ws)
            x = -1
            y = -1
            while m > 0:
                i, x, y = _draw(legal, m, rng, n)
                pres[x] = 0
                pres[y] = 0
                if not guided or _scan(board, pres, partner, ws):
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
            _autopair(board.groups, pres, partner)
    return -1


@njit(**JIT_FLAGS)
def _attempts(board, rules, count, rng, pres, partner, moves, ws):
    """Random playouts with the cleaning rules (de Bondt 2012, section 3.3).

    Parameters
    ----------
    board, rules, count, rng, pres, partner, moves, ws
        As for :func:`_fresh_playouts`. On Mahjong each playout is one
        :func:`_mj_playout`.

    Returns
    -------
    int
        The number of the playout that cleared the board, or -1.
    """
    n = pres.shape[0]
    if board.kind != MAHJONG:
        return _fresh_playouts(np.bool_(False), board, rules, count, rng, pres, partner, moves, ws)
    for a in range(count):
        _fresh_start(board.groups, pres, partner)
        if 2 * _mj_playout(board.groups, board.mahjong, pres, partner, moves, rules, rng, ws) == n:
            return a
    return -1


@njit(**JIT_FLAGS)
def _guided(board, rules, count, rng, pres, partner, moves, ws):
    """Random playouts in which a random move is kept only when the pruning scan still
    clears the position after it (another one is drawn otherwise).

    Parameters
    ----------
    board, rules, count, rng, pres, partner, moves, ws
        As for :func:`_fresh_playouts`.

    Returns
    -------
    int
        The number of the playout that cleared the board, or -1.
    """
    if board.kind == MAHJONG:
        return _mj_guided(board.groups, board.mahjong, rules, count, rng, pres, partner, moves, ws)
    return _fresh_playouts(np.bool_(True), board, rules, count, rng, pres, partner, moves, ws)


# --------------------------------------------------------------------------- the search


@njit(**JIT_FLAGS)
def _node(d, board, rules, tree, mptr, ws):
    """Apply, scan and choose the branching group of the node at depth ``d``.

    Parameters
    ----------
    d : int
    board : BoardArrays
    rules : Rules
    tree : Tree
        Row ``d`` holds the node's position and pairing set (changed in place); the
        branching group and its pairings to try are written to row ``d``.
    mptr : int
        The length of the path's move list before this node.
    ws : Workspace

    Returns
    -------
    (int, int, int)
        ``(code, mptr, scans)``: code ``_OPEN`` (children to try), ``_DEAD`` or ``SOLVED``.
    """
    ptab, pstart, pcount = board.pairings.partner, board.pairings.start, board.pairings.count
    start, tiles, of_tile = board.groups.start, board.groups.tiles, board.groups.of_tile
    live, probe_ok, weight, fours_alive = ws.live, ws.probe_ok, ws.weight, ws.fours_alive
    moves = tree.moves
    pres = tree.present[d]
    partner = tree.partner[d]
    n = pres.shape[0]
    scans = 0
    while True:
        mptr = _apply(board, pres, partner, moves, mptr, rules, ws)
        if 2 * mptr == n:
            return SOLVED, mptr, scans
        if rules.scan:
            scans += 1
            if not _scan_after_apply(board, pres, partner, ws):
                if d > 0:
                    weight[of_tile[tree.branch_tiles[d - 1, 0]]] += 1.0
                return _DEAD, mptr, scans
        best_count = 1 << 30
        best_score = 1e300
        forced = False
        order = np.argsort(-weight, kind="mergesort")  # likely failures first: dead nodes end early
        for g in order:
            r = 0
            for k in range(start[g], start[g + 1]):
                t = tiles[k]
                if pres[t]:
                    if partner[t] >= 0:
                        r = -1
                        break
                    live[r] = t
                    r += 1
            if r <= 0:
                continue
            base = pstart[r // 2]
            cnt = pcount[r // 2]
            if not rules.critical:
                for i in range(r):
                    for j in range(i + 1, r):
                        if _playable(board, live[i], live[j], pres, ws):
                            for q in range(r):
                                tree.branch_tiles[d, q] = live[q]
                            tree.branch_size[d] = r
                            tree.allowed[d, :cnt] = 1
                            return _OPEN, mptr, scans
                continue
            c = 0
            last = 0
            mask = fours_alive[d, g] if r == 4 else 255
            for k in range(cnt):
                if r == 4 and not (mask >> k) & 1:  # failed at an ancestor: fails here too
                    probe_ok[k] = 0
                    weight[g] += 1.0
                    continue
                for i in range(r):
                    partner[live[i]] = live[ptab[base + k, i]]
                scans += 1
                ok = _scan_after_apply(board, pres, partner, ws)
                for i in range(r):
                    partner[live[i]] = -1
                probe_ok[k] = 1 if ok else 0
                if ok:
                    c += 1
                    last = k
                else:
                    weight[g] += 1.0
            if r == 4:
                fours_alive[d, g] = probe_ok[0] | (probe_ok[1] << 1) | (probe_ok[2] << 2)
            if c == 0:
                return _DEAD, mptr, scans
            if c == 1:
                for i in range(r):
                    partner[live[i]] = live[ptab[base + last, i]]
                forced = True
            elif c / (1.0 + weight[g]) < best_score:
                best_count = c
                best_score = c / (1.0 + weight[g])
                for q in range(r):
                    tree.branch_tiles[d, q] = live[q]
                tree.branch_size[d] = r
                tree.allowed[d, :cnt] = probe_ok[:cnt]
        if forced:
            continue
        if not rules.critical or best_count == 1 << 30:
            return _DEAD, mptr, scans
        return _OPEN, mptr, scans


@njit(**JIT_FLAGS)
def _dfs(board, rules, tree, budget, ws):
    """Run the depth-first search for at most ``budget`` nodes from the state in ``tree``.

    Parameters
    ----------
    board : BoardArrays
    rules : Rules
    tree : Tree
        The search's state, updated (``stats[DEPTH]``, ``stats[STEP]``, ``stats[NODES]``,
        ``stats[SCANS]``, and ``stats[MOVES]`` once solved), so that a call that returns
        ``RUNNING`` can be followed by another one that goes on where it stopped.
    budget : int
        Nodes to evaluate at most.
    ws : Workspace

    Returns
    -------
    int
        ``RUNNING``, ``SOLVED`` (the path is ``tree.moves[:stats[MOVES]]``) or ``EXHAUSTED``.
    """
    ptab, pstart, pcount = board.pairings.partner, board.pairings.start, board.pairings.count
    st = tree.stats
    d = st[DEPTH]
    step = st[STEP]
    nodes = st[NODES]
    stop = nodes + budget
    code = RUNNING
    while True:
        if step == _ENTER:
            if nodes >= stop:
                break
            nodes += 1
            mptr = np.int64(tree.moves_end[d - 1]) if d > 0 else np.int64(0)
            res, mptr, sc = _node(d, board, rules, tree, mptr, ws)
            st[SCANS] += sc
            if res == SOLVED:
                st[MOVES] = mptr
                code = SOLVED
                break
            if res == _DEAD:
                d -= 1
                step = _NEXT
                if d < 0:
                    code = EXHAUSTED
                    break
                continue
            tree.moves_end[d] = mptr
            tree.next_pairing[d] = 0
            step = _NEXT
        else:
            r = tree.branch_size[d]
            base = pstart[r // 2]
            cnt = pcount[r // 2]
            k = tree.next_pairing[d]
            while k < cnt and not tree.allowed[d, k]:
                k += 1
            if k >= cnt:
                d -= 1
                if d < 0:
                    code = EXHAUSTED
                    break
                continue
            tree.next_pairing[d] = k + 1
            tree.present[d + 1, :] = tree.present[d, :]
            ws.fours_alive[d + 1, :] = ws.fours_alive[d, :]
            tree.partner[d + 1, :] = tree.partner[d, :]
            for i in range(r):
                tree.partner[d + 1, tree.branch_tiles[d, i]] = tree.branch_tiles[d, ptab[base + k, i]]
            d += 1
            step = _ENTER
    st[DEPTH] = d
    st[STEP] = step
    st[NODES] = nodes
    return code


# --------------------------------------------------------------------------- the public wrappers


def _check(name: str, array: Any, dtype: Any, shape: tuple[int, ...]) -> np.ndarray:
    if not isinstance(array, np.ndarray) or array.dtype != dtype or array.shape != shape:
        got = f"{array.dtype}{list(array.shape)}" if isinstance(array, np.ndarray) else type(array).__name__
        raise KernelArgumentError(f"{name} must be a {np.dtype(dtype)} array of shape {list(shape)}, got {got}")
    if not array.flags.c_contiguous:
        raise KernelArgumentError(f"{name} must be C-contiguous")
    return array


class Kernels:
    """The numba kernels bound to one board: its checked arrays, a workspace, one method per kernel.

    Parameters
    ----------
    geo : Geometry
        The board's geometry (:func:`mjsat.search.pairing.geometry`).
    rules : Rules
        The improvements the kernels apply.

    Raises
    ------
    GroupTooLargeError
        A group has more than :data:`MAX_GROUP` tiles.

    Notes
    -----
    A position is a ``uint8[n]`` array, a pairing set an ``int32[n]`` array, a move list an
    ``int32[n // 2 + 1, 2]`` array; every method checks what it is given
    (:class:`KernelArgumentError`) and calls its private kernel. Building costs
    :math:`O(n^2)` memory for the workspace.

    Examples
    --------
    >>> from mjsat.board import Layout, MahjongBoard
    >>> from mjsat.search.config import Rules
    >>> from mjsat.search.pairing import geometry
    >>> board = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 1, 1, 0])
    >>> k = Kernels(geometry(board), Rules(True, True, True, True))
    >>> present, partner = k.start()
    >>> k.scan(present, partner), k.apply(present, partner, k.move_list()), int(present.sum())
    (True, 2, 0)
    """

    def __init__(self, geo: Geometry, rules: Rules) -> None:
        self.geo = geo
        self.n = geo.n
        self.rules = Rules(*(bool(v) for v in rules))
        self.board = board_arrays(geo)
        self.ngroups = len(geo.members)
        grid = self.board.grid
        self.ws = workspace(self.n, self.ngroups, int(grid.height * grid.width))

    # ------------------------------------------------------------------ arrays
    def start(self) -> tuple[np.ndarray, np.ndarray]:
        """The full board and its pairing set (the groups of two paired)."""
        present = np.ones(self.n, dtype=np.uint8)
        partner = np.full(self.n, -1, dtype=np.int32)
        _autopair(self.board.groups, present, partner)
        return present, partner

    def move_list(self) -> np.ndarray:
        """An empty move list (``int32[n // 2 + 1, 2]``)."""
        return np.zeros((self.n // 2 + 1, 2), dtype=np.int32)

    def _position(self, present: Any, partner: Any) -> None:
        _check("present", present, np.uint8, (self.n,))
        _check("partner", partner, np.int32, (self.n,))

    def _moves(self, moves: Any, mptr: int) -> None:
        _check("moves", moves, np.int32, (self.n // 2 + 1, 2))
        if not 0 <= mptr <= self.n // 2:
            raise KernelArgumentError(f"the move count must be in 0..{self.n // 2}, got {mptr}")

    def _tile(self, t: Any) -> int:
        if not 0 <= int(t) < self.n:
            raise KernelArgumentError(f"tile {t} does not exist (the board has tiles 0..{self.n - 1})")
        return int(t)

    # ------------------------------------------------------------------ one position
    def autopair(self, present: np.ndarray, partner: np.ndarray) -> None:
        """Pair the last two present tiles of every group without a pairing (:func:`_autopair`)."""
        self._position(present, partner)
        _autopair(self.board.groups, present, partner)

    def apply(self, present: np.ndarray, partner: np.ndarray, moves: np.ndarray, mptr: int = 0) -> int:
        """Apply the pairing set and the cleaning rules in place (:func:`_apply`); the moves go
        to ``moves[mptr:]``, the new count is returned. The workspace then describes
        ``present`` (for :meth:`scan_warm`, :meth:`resume`, :meth:`playable`, :meth:`legal_moves`)."""
        self._position(present, partner)
        self._moves(moves, mptr)
        return int(_apply(self.board, present, partner, moves, mptr, self.rules, self.ws))

    def scan(self, present: np.ndarray, partner: np.ndarray) -> bool:
        """The pruning scan (:func:`_scan`): True iff the relaxed game clears ``present``."""
        self._position(present, partner)
        return bool(_scan(self.board, present, partner, self.ws))

    def scan_warm(self, present: np.ndarray, partner: np.ndarray) -> bool:
        """:meth:`scan` right after :meth:`apply` on the same ``present`` (:func:`_scan_after_apply`)."""
        self._position(present, partner)
        return bool(_scan_after_apply(self.board, present, partner, self.ws))

    def playable(self, a: int, b: int, present: np.ndarray) -> bool:
        """After :meth:`apply` on ``present``: can tiles ``a`` and ``b`` go together (:func:`_playable`)?"""
        _check("present", present, np.uint8, (self.n,))
        return bool(_playable(self.board, self._tile(a), self._tile(b), present, self.ws))

    def legal_moves(self, present: np.ndarray, partner: np.ndarray) -> list[tuple[int, int]]:
        """After :meth:`apply` on ``present``: the playable pairs of groups without a pairing
        (:func:`_legal_moves`), as ``(a, b)`` with ``a < b``."""
        self._position(present, partner)
        m = int(_legal_moves(self.board, present, partner, self.ws))
        return [(int(v) // self.n, int(v) % self.n) for v in self.ws.legal[:m]]

    def scan_without(self, present: np.ndarray, partner: np.ndarray, a: int, b: int) -> bool:
        """Mahjong, right after :meth:`apply` on ``present``: the scan of ``present`` without
        tiles ``a`` and ``b`` (:func:`_mj_scan_without`)."""
        self._position(present, partner)
        self._mahjong_only("scan_without")
        return bool(_mj_scan_without(self.board.groups, self.board.mahjong, present, self._tile(a), self._tile(b),
                                     partner, self.ws))

    def resume(self, present: np.ndarray, partner: np.ndarray, moves: np.ndarray, mptr: int, a: int, b: int) -> int:
        """Mahjong, after :meth:`apply` (or :meth:`resume`) on ``present`` and the move ``(a,
        b)`` played on it: go on with the apply (:func:`_mj_resume`); the new move count."""
        self._position(present, partner)
        self._moves(moves, mptr)
        self._mahjong_only("resume")
        a, b = self._tile(a), self._tile(b)
        if present[a] or present[b]:
            raise KernelArgumentError(f"resume needs the move ({a}, {b}) played: both tiles taken off")
        self.ws.removed[0], self.ws.removed[1] = a, b
        return int(_mj_resume(self.board.groups, self.board.mahjong, present, partner, moves, mptr, self.rules,
                              self.ws))

    def _mahjong_only(self, name: str) -> None:
        if self.geo.kind != MAHJONG:
            raise KernelArgumentError(f"{name} is a kernel of the Mahjong games only")

    # ------------------------------------------------------------------ playouts and searches
    def playouts(self, count: int, rng: np.ndarray, moves: np.ndarray, *, guided: bool = False) -> int:
        """``count`` random playouts (:func:`_attempts`, or :func:`_guided` with ``guided``);
        the number of the one that cleared the board (its moves in ``moves``), or -1.
        ``rng`` is the ``uint64[1]`` state of the generator, advanced in place."""
        _check("rng", rng, np.uint64, (1,))
        self._moves(moves, 0)
        if count < 0:
            raise KernelArgumentError(f"the number of playouts must be >= 0, got {count}")
        present = np.empty(self.n, dtype=np.uint8)
        partner = np.empty(self.n, dtype=np.int32)
        kernel = _guided if guided else _attempts
        return int(kernel(self.board, self.rules, count, rng, present, partner, moves, self.ws))

    def tree(self) -> Tree:
        """A fresh state of the critical-group search, at the root."""
        depth = self.ngroups + 2
        present = np.zeros((depth, self.n), dtype=np.uint8)
        present[0] = 1
        partner = np.full((depth, self.n), -1, dtype=np.int32)
        _autopair(self.board.groups, present[0], partner[0])
        return Tree(
            present=present, partner=partner, branch_tiles=np.zeros((depth, MAX_GROUP), dtype=np.int32),
            branch_size=np.zeros(depth, dtype=np.int32), allowed=np.zeros((depth, MAX_PAIRINGS), dtype=np.uint8),
            next_pairing=np.zeros(depth, dtype=np.int32), moves_end=np.zeros(depth, dtype=np.int32),
            moves=self.move_list(), stats=np.zeros(STATS_SIZE, dtype=np.int64),
        )  # fmt: skip

    def search(self, tree: Tree, budget: int) -> int:
        """Run the critical-group search (:func:`_dfs`) for at most ``budget`` nodes:
        ``RUNNING``, ``SOLVED`` or ``EXHAUSTED``."""
        if not isinstance(tree, Tree) or tree.present.shape != (self.ngroups + 2, self.n):
            raise KernelArgumentError("search needs a tree made by this Kernels' tree()")
        return int(_dfs(self.board, self.rules, tree, max(0, int(budget)), self.ws))


def moves_of(moves: np.ndarray, count: int) -> list[tuple[int, int]]:
    """The first ``count`` rows of a move list as ``(a, b)`` pairs with ``a < b``."""
    m = moves[:count]
    return list(zip(np.minimum(m[:, 0], m[:, 1]).tolist(), np.maximum(m[:, 0], m[:, 1]).tolist()))
