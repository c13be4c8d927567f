"""Isolated stacks of height one and two: a polynomial decision and a clearing sequence.

de Bondt [dB12]_, Theorems 5 and 7 and Definition 6. When the layout is made only of
isolated stacks (no tile touches another on its own level, every upper tile lies exactly
on the one below it) of height one or two, and every group has two or four tiles, the
top tile of a stack is always free and a bottom tile is free exactly when its top tile is
gone. Solvability is then decided by one structure:

*Blocked cycle* (Definition 6). Distinct groups ``A_1, ..., A_k`` of two tiles each, stacked
as ``A_1`` over ``A_2``, ``A_2`` over ``A_3``, ..., ``A_k`` over ``A_1`` (``k`` stacks of
height two); for ``k = 1`` one stack holding both tiles of ``A_1``. No tile of a blocked
cycle can ever be played: the bottom tile of ``A_{i+1}`` waits for the top tile of
``A_i``, whose only partner is the bottom tile of ``A_i``, which waits for ``A_{i-1}``...

Theorem 7: such a board can be cleared iff no blocked cycle is present; and for every
group with a match, some match of it creates no new blocked cycle. :func:`blocked_cycle_graph`
builds the graph whose cycles are exactly the blocked cycles (networkx),
:func:`clearing_sequence` follows the proof of Theorem 7 move by move, and
:func:`solve_height2` is the registered method ``height2``.

>>> from mjsat.board import Layout, MahjongBoard
>>> lay = Layout([(0, 0, 0), (0, 0, 1), (0, 4, 0), (0, 4, 1)])
>>> blocked = MahjongBoard(lay, [0, 1, 1, 0])      # 0 under 1, 1 under 0
>>> [sorted(c) for c in blocked_cycles(blocked)]
[[0, 1]]
>>> solve_height2(blocked).status
'unsolvable'
>>> fine = MahjongBoard(lay, [0, 1, 0, 1])         # 0 under 1 twice
>>> clearing_sequence(fine)
[(1, 3), (0, 2)]

References
----------
.. [dB12] M. de Bondt, "Solving Mahjong Solitaire boards with peeking", arXiv:1203.6559, 2012.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from mjsat.board import Board, GroupId, Layout, Move, TileId, normalize_move
from mjsat.result import SOLVABLE, UNSOLVABLE, MethodNotApplicableError, MjsatUnfeasible, SolverError, SolveResult

if TYPE_CHECKING:
    import networkx as nx

__all__ = [
    "NotHeightTwoError",
    "BlockedCycleError",
    "check_height2",
    "applies",
    "blocked_cycle_graph",
    "blocked_cycles",
    "has_blocked_cycle",
    "is_blocked_cycle",
    "safe_matches",
    "clearing_sequence",
    "solve_height2",
]


class NotHeightTwoError(MethodNotApplicableError):
    """The board is not one the height-two method covers (``reason`` says why): the
    method ``height2`` does not apply to it."""

    def __init__(self, game: str | None, reason: str) -> None:
        super().__init__("height2", game, reason)


class BlockedCycleError(MjsatUnfeasible):
    """The position holds a blocked cycle, so it cannot be cleared (``cycle`` names its groups)."""

    def __init__(self, cycle: list[GroupId]) -> None:
        self.cycle = cycle
        super().__init__(f"blocked cycle of {len(cycle)} group(s): {cycle}")


# --------------------------------------------------------------------------- structure


class _Stacks:
    """``below[t]`` / ``above[t]``: the present tile under / over present tile ``t`` (or -1)."""

    __slots__ = ("below", "above")

    def __init__(self, below: list[int], above: list[int]) -> None:
        self.below = below
        self.above = above


def _not_isolated_reason(board: Board) -> str:
    """Why the layout is not isolated stacks, naming the first tile at fault (read off the
    layout's CSR tables, so a large layout builds no tuples; kept by the layout, as ``auto``
    asks on every deal)."""
    return board.layout.memo(("height2", "not-isolated"), lambda: _not_isolated(board.layout))


def _not_isolated(lay: Layout) -> str:
    for side in ("left", "right", "front", "rear"):
        ptr, idx = lay.csr(side)
        if ptr[-1]:
            t = int(np.flatnonzero(np.diff(ptr))[0])
            return f"tile {t} at {lay.positions[t]} touches tile {int(idx[ptr[t]])} on its {side}"
    for t, (r, c, l) in enumerate(lay.positions):
        if l > 0:
            below = lay.below[t]
            if len(below) != 1 or lay.positions[below[0]][:2] != (r, c):
                return f"tile {t} at {(r, c, l)} does not lie exactly on one tile"
        for o in lay.above[t]:
            if lay.positions[o][:2] != (r, c):
                return f"tile {o} at {lay.positions[o]} half-overlaps tile {t}"
    return "the layout is not made of isolated stacks"  # pragma: no cover - is_isolated_stacks disagreed


def check_height2(board: Board) -> _Stacks:
    """Check that ``board`` is a height-two board and return its stack relations.

    Parameters
    ----------
    board : Board
        A Mahjong (or transposed Mahjong) board; its current position is checked.

    Returns
    -------
    _Stacks
        ``below`` and ``above`` lists over all tiles (-1 where there is none present).

    Raises
    ------
    NotHeightTwoError
        A Shisen-Sho board, a layout that is not isolated stacks, a stack of three or more
        present tiles, or a group with a number of present tiles other than 0, 2 or 4.

    Notes
    -----
    :math:`O(n)` for ``n`` tiles (the layout's relations are built once per layout).
    """
    if board.kind != "sides":
        raise NotHeightTwoError(
            board.game, f"it decides Mahjong Solitaire boards of isolated stacks, not {board.game} boards"
        )
    lay = board.layout
    if not lay.is_isolated_stacks():
        raise NotHeightTwoError(
            board.game, f"it needs a layout of isolated stacks of height one and two: {_not_isolated_reason(board)}"
        )
    n = len(lay)
    below = [-1] * n
    above = [-1] * n
    if board.remaining() == n:  # the full deal: the layout's own relation is the stack
        for t, under in enumerate(lay.below):
            if under:
                b = under[0]
                if lay.below[b]:
                    r, c, _ = lay.positions[t]
                    raise NotHeightTwoError(
                        board.game,
                        f"it needs stacks of height one and two: the stack at row {r}, col {c} "
                        f"holds 3 tiles or more (tile {t} is on level {lay.positions[t][2]})",
                    )
                below[t] = b
                above[b] = t
        stacks: list[list[TileId]] = []
    else:
        stacks = lay.stacks()
    for stack in stacks:
        live = [t for t in stack if board.is_present(t)]
        if len(live) > 2:
            r, c, _ = lay.positions[live[0]]
            raise NotHeightTwoError(
                board.game,
                f"it needs stacks of height one and two: the stack at row {r}, col {c} "
                f"holds {len(live)} tiles ({', '.join(map(str, live))})",
            )
        if len(live) == 2:
            below[live[1]] = live[0]
            above[live[0]] = live[1]
    counts: dict[GroupId, int] = {}
    for t in board.present_tiles():
        g = board.groups[t]
        counts[g] = counts.get(g, 0) + 1
    for g, k in sorted(counts.items()):
        if k not in (2, 4):
            raise NotHeightTwoError(
                board.game, f"it needs groups of two or four tiles (Theorem 7): group {board.group_label(g)} has {k}"
            )
    return _Stacks(below, above)


def applies(board: Board) -> bool:
    """True iff :func:`solve_height2` covers ``board`` (see :func:`check_height2`).

    Notes
    -----
    :math:`O(n)`.
    """
    try:
        check_height2(board)
    except NotHeightTwoError:
        return False
    return True


# --------------------------------------------------------------------------- blocked cycles


def blocked_cycle_graph(board: Board) -> nx.DiGraph:
    """The directed graph whose cycles are exactly the blocked cycles of the position.

    Nodes are the groups with exactly two present tiles. For every stack of height two
    whose top tile belongs to such a group ``g`` and whose bottom tile to such a group
    ``h``, there is an edge ``g -> h`` (a self-loop when ``g == h``) with the attribute
    ``stack = (bottom, top)``.

    Why the cycles are exactly the blocked cycles of Definition 6: a node has two tiles, and
    each tile is in at most one stack, either on top (an out-edge) or at the bottom (an
    in-edge) or in neither; so every node has in-degree plus out-degree at most 2. On a
    simple cycle ``g_1 -> g_2 -> ... -> g_k -> g_1`` every node has one out-edge and one
    in-edge, so one of its tiles is on top of the stack over ``g_{i+1}`` and the other at the
    bottom of the stack under ``g_{i-1}``: this is Definition 6 with ``A_i = g_i`` (all
    groups distinct and of two tiles); a self-loop is the degenerate ``k = 1`` stack of
    two equal tiles. Conversely the stacks of a blocked cycle are edges
    ``A_1 -> A_2 -> ... -> A_k -> A_1`` among nodes. Groups of four tiles are not nodes:
    Definition 6 uses groups of two only (a group of four always has a playable match in
    a position without matches elsewhere, see Theorem 7). Since degrees are at most 2,
    the weak components are paths and cycles, and each strongly connected component
    with an edge is one blocked cycle.

    Parameters
    ----------
    board : Board
        A height-two board (:func:`check_height2`); its current position is used.

    Returns
    -------
    networkx.DiGraph

    Raises
    ------
    NotHeightTwoError
        The board is not a height-two board.

    Notes
    -----
    :math:`O(n)` time and space for ``n`` tiles.
    """
    st = check_height2(board)
    return _graph(board, st)


def _graph(board: Board, st: _Stacks) -> nx.DiGraph:
    counts: dict[GroupId, int] = {}
    for t in board.present_tiles():
        counts[board.groups[t]] = counts.get(board.groups[t], 0) + 1
    import networkx as nx  # on first use: a board the method refuses never pays for it

    G = nx.DiGraph()
    G.add_nodes_from(g for g, k in counts.items() if k == 2)
    groups = board.groups
    for top, bot in enumerate(st.below):
        if bot >= 0:
            g, h = groups[top], groups[bot]
            if counts[g] == 2 and counts[h] == 2:
                G.add_edge(g, h, stack=(bot, top))
    return G


def blocked_cycles(board: Board) -> Iterator[list[GroupId]]:
    """Yield every blocked cycle of the position as its groups ``[A_1, ..., A_k]``
    (``A_i`` on top of ``A_{i+1}``, cyclically).

    Raises
    ------
    NotHeightTwoError
        The board is not a height-two board.

    Notes
    -----
    :math:`O(n)`: the cycles are vertex-disjoint (see :func:`blocked_cycle_graph`), so
    ``networkx.simple_cycles`` (Johnson's algorithm) does linear work in all.
    """
    import networkx as nx

    G = blocked_cycle_graph(board)
    for comp in nx.strongly_connected_components(G):
        if len(comp) > 1 or G.has_edge(next(iter(comp)), next(iter(comp))):
            sub = G.subgraph(comp)
            for cyc in nx.simple_cycles(sub):
                yield list(cyc)


def has_blocked_cycle(board: Board) -> bool:
    """True iff the position holds a blocked cycle (so it cannot be cleared, Theorem 7).

    Notes
    -----
    :math:`O(n)`.
    """
    return next(blocked_cycles(board), None) is not None


def is_blocked_cycle(board: Board, cycle: list[GroupId]) -> bool:
    """Check Definition 6 directly: ``cycle`` lists distinct groups of two present tiles,
    ``cycle[i]`` lying on top of ``cycle[i+1]`` (cyclically) in stacks of height two.

    Independent of :func:`blocked_cycle_graph`; used to check its answers.

    Notes
    -----
    :math:`O(n)`.
    """
    if not cycle or len(set(cycle)) != len(cycle):
        return False
    st = check_height2(board)
    tiles: dict[GroupId, list[TileId]] = {}
    for t in board.present_tiles():
        tiles.setdefault(board.groups[t], []).append(t)
    if any(len(tiles.get(g, ())) != 2 for g in cycle):
        return False
    used: set[TileId] = set()
    k = len(cycle)
    for i, g in enumerate(cycle):
        h = cycle[(i + 1) % k]
        found = False
        for top in tiles[g]:
            bot = st.below[top]
            if bot >= 0 and board.groups[bot] == h and top not in used and bot not in used:
                used.update((top, bot))
                found = True
                break
        if not found:
            return False
    return True


# --------------------------------------------------------------------------- Theorem 7


class _Position:
    """The mutable position of the constructive clearing (plain lists, O(1) updates)."""

    def __init__(self, board: Board, st: _Stacks) -> None:
        self.groups = board.groups
        self.below = st.below
        self.above = st.above
        self.present = bytearray(board.position_key())
        self.members: dict[GroupId, list[TileId]] = {}
        for t in board.present_tiles():
            self.members.setdefault(board.groups[t], []).append(t)
        self.free: dict[GroupId, set[TileId]] = {g: set() for g in self.members}
        for t in board.present_tiles():
            if self.is_free(t):
                self.free[self.groups[t]].add(t)
        self.walked = 0

    def is_free(self, t: TileId) -> bool:
        a = self.above[t]
        return bool(self.present[t]) and (a < 0 or not self.present[a])

    def on_ground(self, t: TileId) -> bool:
        b = self.below[t]
        return b < 0 or not self.present[b]

    def count(self, g: GroupId) -> int:
        return len(self.members.get(g, ()))

    def remove(self, t: TileId) -> GroupId | None:
        """Remove ``t``; return the group of the tile it uncovers (now free), if any."""
        g = self.groups[t]
        self.present[t] = 0
        self.members[g].remove(t)
        self.free[g].discard(t)
        b = self.below[t]
        if b >= 0 and self.present[b]:
            h = self.groups[b]
            self.free[h].add(b)
            return h
        return None

    def _out(self, h: GroupId) -> GroupId | None:
        """The group under the top tile of two-tile group ``h`` reached through an in-edge
        (``h`` then has at most one tile on top of a stack), or ``None`` at a dead end."""
        if self.count(h) != 2:
            return None
        for t in self.members[h]:
            b = self.below[t]
            if b >= 0 and self.present[b] and self.is_free(t):
                return self.groups[b]
        return None

    def leave_choice(self, g: GroupId) -> TileId:
        """Group ``g`` has four tiles, three free and off the ground, one covered: which free
        tile to leave so that the two played create no blocked cycle (Theorem 7, claim 2).

        Leaving top tile ``t`` (over group ``h``) with the covered tile ``x`` under a tile of
        group ``f`` closes the cycle ``g -> h -> ... -> f -> g`` iff ``f`` will be a node
        and ``h`` reaches ``f``. At most one of the three ``h`` does (the chain of in-edges
        into ``f`` is unique), so the three walks run in lockstep and stop at the first
        dead end: that tile is safe to leave.
        """
        free = sorted(self.free[g])
        (x,) = [t for t in self.members[g] if t not in self.free[g]]
        f = self.groups[self.above[x]]
        if f != g and self.count(f) != 2:
            return free[0]
        heads: dict[TileId, GroupId | None] = {t: self.groups[self.below[t]] for t in free}
        steps = 0
        while True:
            for t in free:
                h = heads[t]
                if h is None:
                    continue
                if h == f:
                    heads[t] = None  # reaches f: never leave this one
                    continue
                nxt = self._out(h)
                steps += 1
                if nxt is None:
                    self.walked += steps
                    return t
                heads[t] = nxt
            if all(h is None for h in heads.values()) or steps > 4 * len(self.present) + 12:
                # pragma: no cover - at most one walk reaches f, and walks cannot loop
                raise SolverError("height2: no safe tile to leave (inconsistent position: a bug)")


def safe_matches(board: Board) -> list[Move]:
    """Every legal move of the position that creates no new blocked cycle.

    Checked by playing each move and looking for a new cycle: a slow, direct statement of
    Theorem 7's second claim, for tests and explanations.

    Notes
    -----
    :math:`O(m n)` for ``m`` legal moves and ``n`` tiles.
    """
    before = {frozenset(c) for c in blocked_cycles(board)}
    out = []
    for move in list(board.generate_legal_moves()):
        board.push(move)
        try:
            after = {frozenset(c) for c in blocked_cycles(board)}
        finally:
            board.pop()
        if after <= before:
            out.append(move)
    return out


def _pick(pos: _Position, g: GroupId) -> Move:
    free = sorted(pos.free[g])
    if pos.count(g) == 4 and len(free) == 3:
        ground = [t for t in free if pos.on_ground(t)]
        leave = ground[0] if ground else pos.leave_choice(g)
        a, b = (t for t in free if t != leave)
        return normalize_move(a, b)
    return normalize_move(free[0], free[1])


def clearing_sequence(board: Board, *, stats: dict[str, Any] | None = None) -> list[Move]:
    """A move list that clears a height-two position, built as in the proof of Theorem 7.

    At each step take a group with a match and play a match of it that creates no blocked
    cycle: a group of two goes whole; a group of four with four free tiles, or with two
    free and two covered, can play any match; with three free tiles and one covered,
    leave a free tile on the ground if there is one, else the free top tile whose leaving
    closes no cycle (:meth:`_Position.leave_choice`).

    Parameters
    ----------
    board : Board
        A height-two board; the moves start from its current position.
    stats : dict, optional
        Filled with ``walk_steps`` (work of the cycle walks) and ``guesses`` (steps that
        needed a walk).

    Returns
    -------
    list of (a, b)

    Raises
    ------
    NotHeightTwoError
        The board is not a height-two board.
    BlockedCycleError
        The position holds a blocked cycle (it cannot be cleared).

    Notes
    -----
    :math:`O(n + W)` for ``n`` tiles, where ``W`` is the total length of the walks along
    chains of two-tile groups; :math:`W = O(n^2)` in the worst case, and small on random
    boards (see ``benchmarks/bench_height2.py``).
    """
    st = check_height2(board)
    cyc = next(_cycles_of(_graph(board, st)), None)
    if cyc is not None:
        raise BlockedCycleError(cyc)
    return _clear(board, st, stats)


def _clear(board: Board, st: _Stacks, stats: dict[str, Any] | None) -> list[Move]:
    pos = _Position(board, st)
    work = [g for g in sorted(pos.free) if len(pos.free[g]) >= 2]
    moves: list[Move] = []
    guesses = 0
    while work:
        g = work.pop()
        if len(pos.free[g]) < 2:
            continue
        if pos.count(g) == 4 and len(pos.free[g]) == 3:
            guesses += 1
        a, b = _pick(pos, g)
        moves.append((a, b))
        for t in (a, b):
            h = pos.remove(t)
            if h is not None and len(pos.free[h]) >= 2:
                work.append(h)
        if len(pos.free[g]) >= 2:
            work.append(g)
    left = sum(pos.present)
    if left:
        raise SolverError(
            f"height2: stuck with {left} tiles left and no blocked cycle at the start "
            "(Theorem 7 says this cannot happen: a bug)"
        )
    if stats is not None:
        stats["walk_steps"] = pos.walked
        stats["guesses"] = guesses
    return moves


def _cycles_of(G: nx.DiGraph) -> Iterator[list[GroupId]]:
    import networkx as nx

    for comp in nx.strongly_connected_components(G):
        node = next(iter(comp))
        if len(comp) > 1 or G.has_edge(node, node):
            yield from (list(c) for c in nx.simple_cycles(G.subgraph(comp)))


def solve_height2(board: Board, *, time_limit: float | None = None, seed: int = 0) -> SolveResult:
    """Decide a height-two board in polynomial time (the method ``height2``).

    ``unsolvable`` when a blocked cycle is present (named in ``stats["blocked_cycle"]``),
    else ``solvable`` with the clearing sequence of Theorem 7.

    Parameters
    ----------
    board : Board
        Isolated stacks of height one and two, groups of two or four tiles (its current
        position).
    time_limit : float or None
        Unused: the method always finishes (accepted for the common interface).
    seed : int
        Unused (deterministic).

    Returns
    -------
    SolveResult

    Raises
    ------
    NotHeightTwoError
        Any other board, with the reason (Shisen-Sho, touching or half-overlapping tiles,
        a stack of three, a group of six...).

    Notes
    -----
    :math:`O(n)` to decide (networkx strongly connected components), :math:`O(n + W)` to
    build the sequence (see :func:`clearing_sequence`).
    """
    st = check_height2(board)
    G = _graph(board, st)
    cycles = list(_cycles_of(G))
    stats: dict[str, Any] = {"groups_of_two": G.number_of_nodes(), "edges": G.number_of_edges()}
    if cycles:
        first = cycles[0]
        stats["blocked_cycles"] = len(cycles)
        stats["blocked_cycle"] = [board.group_label(g) for g in first]
        return SolveResult(
            UNSOLVABLE,
            "height2",
            stats=stats,
            reason=f"blocked cycle of {len(first)} group(s): {' over '.join(stats['blocked_cycle'])}",
        )
    moves = _clear(board, st, stats)
    return SolveResult(SOLVABLE, "height2", moves=moves, stats=stats)
