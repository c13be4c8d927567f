"""Theorem 3 of de Bondt (2012): 3-SAT -> Mahjong with peeking on isolated stacks ``aab``/``abb``.

The construction follows ``../shared/design/reductions.md`` section 1 step by step:

1. eight start stacks ``[x1,x1,x2] [x2,x1,x1] [x2,x2,SAT] [SAT,y1,y1] [y1,y2,y2]
   [y1,y3,y3] [y2,y2,SAT] [y3,y3,SAT]`` (top first);
2. per variable ``Vi``: the x-chain end ``[xM,xM,SAT]`` and the y-chain end
   ``[yN,yN,SAT]`` are replaced by an x-part and a y-part, and a true chain
   ``[Vi,ti2,ti2] [ti1,ti1,ti2] [ti2,ti1,ti1]`` and a false chain (``f``) are added;
3. per clause ``Cj`` (padded to three literals): an x-part with label ``Cj``, and per
   literal a gadget of four stacks that replaces the head ``[Vi,tiK,tiK]`` of the
   literal's chain and ends in ``[tiK+1,tiK+1,Cj]``.

Sizes for ``n`` variables and ``m`` clauses: ``8 + 12n + 12m`` stacks, ``24 + 36n + 36m``
tiles, ``6 + 9n + 9m`` groups of four tiles.

The stacks are placed on the Mahjong grid two half-units apart, so no two touch and the
board is an ordinary :class:`~mjsat.board.MahjongBoard`: a tile is free exactly when it
is the top of its stack. Each gadget (the x-chain, the y-chain, each variable's true and
false chain) starts a new line of the picture; ``board.meta["gadgets"]`` lists their
tiles for :func:`mjsat.render.svg_board`, ``board.names`` the group names.

The steps are not replayed one by one: the stacks that survive them are written down
directly, as integer arrays (the closed form of the steps: which stacks each step adds
and which later step removes). The board itself is built on first use of
:attr:`StackReduction.board`, so the rows and Shisen-Sho targets never build it unless a
witness map needs it.

>>> from mjsat.reductions.cnf import normalize_3cnf
>>> red = reduce_to_stacks(normalize_3cnf([[1]]))
>>> len(red.stacks), len(red.board), len(red.board.group_sizes())
(32, 96, 24)
>>> red.stacks[0]
['x1', 'x1', 'x2']

References
----------
.. [dB12] M. de Bondt, "Solving Mahjong Solitaire boards with peeking", arXiv:1203.6559, 2012.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np

from mjsat.board import Layout, MahjongBoard, TileId
from mjsat.encoders.clauses import gc_paused
from mjsat.limits import MAX_TILES
from mjsat.reductions.cnf import Formula3

__all__ = [
    "StackReduction",
    "reduce_to_stacks",
    "stack_sizes",
    "board_from_stacks",
    "flow_positions",
]

Stack = list[str]

# what a stack is for (StackReduction.stack_note), coded per stack
_START, _XPART, _YPART, _HEAD, _BASE, _LITERAL = range(6)


def stack_sizes(n: int, m: int) -> dict[str, int]:
    """The sizes the design note gives for ``n`` variables and ``m`` (padded) clauses.

    >>> stack_sizes(3, 8)
    {'stacks': 140, 'tiles': 420, 'groups': 105}
    """
    return {"stacks": 8 + 12 * n + 12 * m, "tiles": 24 + 36 * n + 36 * m, "groups": 6 + 9 * n + 9 * m}


def flow_positions(
    gadget_lengths: Sequence[int] | np.ndarray, *, item_width: int, line_height: int, width: int | None = None
) -> np.ndarray:
    """``(row, col)`` in half-tile units of every item, gadget after gadget: an ``(N, 2)``
    int64 array.

    Small constructions (at most 3,000 items) start every gadget on a new line and wrap
    lines at ``width`` items (default 24); larger ones flow gadgets on without breaks on
    a roughly square page, so coordinates stay in the grid's range.

    >>> flow_positions([2, 3], item_width=4, line_height=6, width=2).tolist()
    [[0, 0], [0, 4], [6, 0], [6, 4], [12, 0]]

    Notes
    -----
    :math:`O(N)` for ``N`` items (numpy).
    """
    lengths = np.asarray(gadget_lengths, dtype=np.int64).reshape(-1)
    total = int(lengths.sum())
    per_gadget_lines = total <= 3000
    if width is None:
        width = 24 if per_gadget_lines else max(24, math.ceil(math.sqrt(total * line_height / item_width)))
    if per_gadget_lines:
        lines = -(-lengths // width)  # each gadget starts a line of its own
        first_line = np.cumsum(lines) - lines
        starts = np.cumsum(lengths) - lengths
        idx = np.arange(total, dtype=np.int64) - np.repeat(starts, lengths)
        line = np.repeat(first_line, lengths) + idx // width
    else:
        idx = np.arange(total, dtype=np.int64)
        line = idx // width
    out = np.empty((total, 2), dtype=np.int64)
    out[:, 0] = line * line_height
    out[:, 1] = (idx % width) * item_width
    return out


def _stack_tiles(
    stacks: Sequence[Sequence[int]] | np.ndarray, positions: np.ndarray, *, row_step: int = 0, col_step: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Positions ``(T, 3)`` and groups ``(T,)`` of stacks (groups top first) standing at
    ``positions``; tile ``k`` of a stack is ``k`` from the top."""
    if isinstance(stacks, np.ndarray) and stacks.ndim == 2:
        n_stacks, h = stacks.shape
        heights = np.full(n_stacks, h, dtype=np.int64)
        groups = stacks.reshape(-1).astype(np.int64)
    else:
        heights = np.fromiter(map(len, stacks), dtype=np.int64, count=len(stacks))
        groups = np.fromiter(itertools.chain.from_iterable(stacks), dtype=np.int64, count=int(heights.sum()))
    n_stacks = min(len(heights), len(positions))  # as zip() would
    heights = heights[:n_stacks]
    groups = groups[: int(heights.sum())]
    s = np.repeat(np.arange(n_stacks), heights)
    k = np.arange(len(s), dtype=np.int64) - np.repeat(np.cumsum(heights) - heights, heights)
    pos = np.empty((len(s), 3), dtype=np.int64)
    pos[:, 0] = positions[s, 0]
    pos[:, 1] = positions[s, 1]
    pos[:, 2] = heights[s] - 1 - k
    return pos, groups


def board_from_stacks(
    stacks: Sequence[Sequence[int]] | np.ndarray,
    *,
    names: dict[int, str] | None = None,
    meta: dict[str, Any] | None = None,
    positions: Sequence[tuple[int, int]] | np.ndarray | None = None,
) -> MahjongBoard:
    """A Mahjong board of isolated stacks; ``stacks[s]`` lists groups top first.

    Tile ``t`` of the board is level ``k`` from the top of its stack, stacks in order:
    stack ``s`` holds the tiles ``offset[s] .. offset[s] + len(stacks[s]) - 1``.
    Stacks stand 4 half-units apart (one line of 24), unless ``positions`` says where.
    ``stacks`` may be a list of lists or an ``(S, h)`` integer array.

    >>> b = board_from_stacks([[0, 1], [1, 0]])
    >>> sorted(b.generate_legal_moves())
    []
    >>> b.layout.is_isolated_stacks()
    True

    Notes
    -----
    :math:`O(T)` for ``T`` tiles (numpy), plus the board's own checks.
    """
    if positions is None:
        positions = flow_positions([len(stacks)], item_width=4, line_height=4)
    pos, groups = _stack_tiles(stacks, np.asarray(positions, dtype=np.int64).reshape(-1, 2))
    with gc_paused():  # millions of small tuples and ints, none in a cycle
        layout = Layout(pos, name="isolated-stacks")
        return MahjongBoard(layout, groups, names=names, meta=meta)


class StackReduction:
    """The Theorem 3 board of a formula and where every gadget tile went.

    Attributes
    ----------
    formula : Formula3
    stack_groups : numpy.ndarray
        ``(S, 3)`` group ids, top first; stack ``s`` holds tiles ``3s, 3s+1, 3s+2``.
    names : list of str
        The name of each group id (``SAT``, ``x1``, ..., ``V1``, ``C1``, ``t1,1``, ...).
    gadget_labels : list of str
        The gadgets in layout order (``x-chain``, ``y-chain``, ``V1 true chain``, ...).
    gadget_starts : numpy.ndarray
        Gadget ``g`` is stacks ``gadget_starts[g] .. gadget_starts[g+1] - 1``.
    positions : numpy.ndarray
        ``(S, 2)`` row and column of each stack on the half-tile grid.
    roles : dict
        Tiles with a role in the intended play: ``("xlabel", i)``, ``("ylabel", i)``,
        ``("thead", i)``, ``("fhead", i)``, ``("xclause", j)``, ``("lit", j, k)`` (the
        ``Cj`` tile freed by the ``k``-th literal), ``("sat", k)`` for the four SATs (x-chain
        end, the start ``[SAT,y1,y1]``, ``[y2,y2,SAT]``, y-chain end).
    board : MahjongBoard
        Built on first use (a 10,000-clause board has 444,516 tiles).
    stacks, stack_gadget, stack_note : list of str
        Per stack, in words: its groups, its gadget, what it is for (built on first use).
    """

    def __init__(
        self,
        formula: Formula3,
        stack_groups: np.ndarray,
        names: list[str],
        gadget_labels: list[str],
        gadget_starts: np.ndarray,
        positions: np.ndarray,
        roles: dict[tuple[Any, ...], TileId],
        note_kind: np.ndarray,
        note_arg: np.ndarray,
        meta: dict[str, Any],
    ) -> None:
        self.formula = formula
        self.stack_groups = stack_groups
        self.names = names
        self.gadget_labels = gadget_labels
        self.gadget_starts = gadget_starts
        self.positions = positions
        self.roles = roles
        self._note_kind = note_kind
        self._note_arg = note_arg
        self._meta = meta

    def __repr__(self) -> str:
        return f"<StackReduction: {len(self.stack_groups)} stacks, {self.formula.n_vars} variables, {self.formula.n_clauses} clauses>"

    def __len__(self) -> int:
        return len(self.stack_groups)

    @cached_property
    def board(self) -> MahjongBoard:
        board = board_from_stacks(self.stack_groups, names=dict(enumerate(self.names)), positions=self.positions)
        board.layout.name = "3sat-stacks"
        board.meta.update(self._meta)
        board.meta["gadgets"] = self.gadget_tiles(3)
        return board

    def gadget_tiles(self, per_stack: int) -> list[dict[str, Any]]:
        """``[{"label", "tiles"}]`` of each gadget for a board with ``per_stack`` tiles per
        stack, numbered stack by stack; empty for more than 3,000 stacks (the picture
        would not show them)."""
        if len(self.stack_groups) > 3000:
            return []
        b = self.gadget_starts.tolist()
        return [
            {"label": label, "tiles": list(range(per_stack * b[g], per_stack * b[g + 1]))}
            for g, label in enumerate(self.gadget_labels)
        ]

    def tile(self, stack: int, level_from_top: int) -> TileId:
        return 3 * stack + level_from_top

    def to_stack_tile(self, t: TileId) -> TileId:
        """The stack-board tile of board tile ``t``: itself (as the other targets' maps)."""
        return t

    def source_stack(self, t: TileId) -> int:
        """The stack that board tile ``t`` stands in."""
        return t // 3

    def group_of_name(self, name: str) -> int:
        return self._ids[name]

    @cached_property
    def _ids(self) -> dict[str, int]:
        return {v: k for k, v in enumerate(self.names)}

    @cached_property
    def stacks(self) -> list[Stack]:
        names = self.names
        return [[names[g] for g in row] for row in self.stack_groups.tolist()]

    @cached_property
    def stack_gadget(self) -> list[str]:
        lengths = np.diff(self.gadget_starts).tolist()
        return [label for label, k in zip(self.gadget_labels, lengths) for _ in range(k)]

    @cached_property
    def stack_note(self) -> list[str]:
        n_vars = self.formula.n_vars
        out = []
        for gadget, kind, arg in zip(self.stack_gadget, self._note_kind.tolist(), self._note_arg.tolist()):
            if kind == _START:
                out.append("start")
            elif kind == _XPART:
                out.append(f"x-part of V{arg}" if arg <= n_vars else f"x-part of C{arg - n_vars}")
            elif kind == _YPART:
                out.append(f"y-part of V{arg}")
            else:
                var, word = gadget.split()[:2]
                if kind == _HEAD:
                    out.append(f"head of {var}'s {word} chain")
                elif kind == _BASE:
                    out.append(f"{var}'s {word} chain")
                else:
                    out.append(f"literal {'' if word == 'true' else '-'}{var} of C{arg}")
        return out

    def gadgets(self) -> list[tuple[str, list[int]]]:
        """``(label, stacks)`` of each gadget in layout order."""
        b = self.gadget_starts.tolist()
        return [(label, list(range(b[g], b[g + 1]))) for g, label in enumerate(self.gadget_labels)]


def reduce_to_stacks(formula: Formula3, *, meta: dict[str, Any] | None = None) -> StackReduction:
    """Build the Theorem 3 board of a formula with exactly three literals per clause.

    Parameters
    ----------
    formula : Formula3
        From :func:`~mjsat.reductions.cnf.normalize_3cnf`.
    meta : dict, optional
        Provenance merged into ``board.meta`` (command line, seed, ...).

    Returns
    -------
    StackReduction

    Raises
    ------
    SizeLimitError
        The board would have more tiles than :data:`mjsat.limits.MAX_TILES`.

    Notes
    -----
    :math:`O(n + m)` stacks and time (numpy); the board (built on first use of
    ``.board``) and its checks dominate for large formulas. The board is solvable iff the
    formula is satisfiable (de Bondt (2012), Theorem 3).

    The surviving stacks in closed form, group ids in the order of the names (``SAT``,
    ``x1..xX``, ``y1..yY``, ``V1..Vn``, ``C1..Cm``, then per variable its ``t`` and its
    ``f`` groups): the x-chain is ``[x1,x1,x2] [x2,x1,x1]``, three stacks per label
    (``V1..Vn`` then ``C1..Cm``) and the end ``[xX,xX,SAT]``; the y-chain four start
    stacks, three per variable and the end ``[yY,yY,SAT]``; a chain with ``c`` literal
    occurrences is its two base stacks, three stacks per occurrence and its head, which
    stands before the last occurrence's three (the order in which the steps add them).
    """
    n, m = formula.n_vars, formula.n_clauses
    MAX_TILES.check(stack_sizes(n, m)["tiles"], "the stacks board of this formula")
    n_labels = n + m
    X, Y = 2 + 2 * n_labels, 3 + 2 * n
    v0, c0 = X + Y, X + Y + n  # group of V_i is v0 + i, of C_j is c0 + j
    tf0 = X + Y + n + m + 1

    # x-chain
    k = np.arange(n_labels, dtype=np.int64)
    M, lab = 2 + 2 * k, v0 + 1 + k
    xp = np.empty((n_labels, 3, 3), dtype=np.int64)
    xp[:, 0, 0], xp[:, 0, 1], xp[:, 0, 2] = M, M, M + 2
    xp[:, 1, 0], xp[:, 1, 1], xp[:, 1, 2] = lab, M + 1, M + 1
    xp[:, 2, 0], xp[:, 2, 1], xp[:, 2, 2] = M + 1, M + 1, M + 2
    x_chain = np.concatenate([[[1, 1, 2], [2, 1, 1]], xp.reshape(-1, 3), [[X, X, 0]]])
    x_kind = np.full(len(x_chain), _XPART, dtype=np.int8)
    x_arg = np.concatenate([[0, 0], np.repeat(k + 1, 3), [n_labels]])
    x_kind[:2] = _START
    if n_labels == 0:
        x_kind[-1] = _START

    # y-chain
    i = np.arange(n, dtype=np.int64)
    N = X + 3 + 2 * i  # the group of y_N
    yp = np.empty((n, 3, 3), dtype=np.int64)
    yp[:, 0, 0], yp[:, 0, 1], yp[:, 0, 2] = N, N + 1, N + 1
    yp[:, 1, 0], yp[:, 1, 1], yp[:, 1, 2] = N + 1, N + 1, v0 + 1 + i
    yp[:, 2, 0], yp[:, 2, 1], yp[:, 2, 2] = N, N + 2, N + 2
    y1, y2, y3 = X + 1, X + 2, X + 3
    y_chain = np.concatenate(
        [[[0, y1, y1], [y1, y2, y2], [y1, y3, y3], [y2, y2, 0]], yp.reshape(-1, 3), [[X + Y, X + Y, 0]]]
    )
    y_kind = np.full(len(y_chain), _YPART, dtype=np.int8)
    y_arg = np.concatenate([[0, 0, 0, 0], np.repeat(i + 1, 3), [n]])
    y_kind[:4] = _START
    if n == 0:
        y_kind[-1] = _START

    # the 2n literal chains: chain ch = 2(i-1) + (0 true, 1 false)
    lits = np.asarray(formula.clauses, dtype=np.int64).reshape(-1)
    ch_of = 2 * (np.abs(lits) - 1) + (lits < 0)
    occ = np.argsort(ch_of, kind="stable")  # occurrences chain by chain, in clause order
    och = ch_of[occ]
    count = np.bincount(och, minlength=2 * n).astype(np.int64)
    q = np.arange(len(occ), dtype=np.int64) - np.repeat(np.cumsum(count) - count, count)
    chain_len = 3 + 3 * count
    off = np.cumsum(chain_len) - chain_len  # first stack of each chain (within the chains)
    ng = 2 + 2 * count
    g0 = tf0 + np.cumsum(ng) - ng  # group of t_{i,1} (f_{i,1})
    var_group = v0 + 1 + np.arange(2 * n, dtype=np.int64) // 2
    chains = np.empty((int(chain_len.sum()), 3), dtype=np.int64)
    c_kind = np.full(len(chains), _LITERAL, dtype=np.int8)
    c_arg = np.zeros(len(chains), dtype=np.int64)
    base = off + (count == 0)
    chains[base] = np.stack([g0, g0, g0 + 1], axis=1)
    chains[base + 1] = np.stack([g0 + 1, g0, g0], axis=1)
    c_kind[base] = c_kind[base + 1] = _BASE
    head = off + np.where(count == 0, 0, 3 * count - 1)
    kf = g0 + 1 + 2 * count  # t_{i,Kf}
    chains[head] = np.stack([var_group, kf, kf], axis=1)
    c_kind[head] = _HEAD
    a = g0[och] + 1 + 2 * q  # t_{i,K} with K = 2 + 2q
    first = off[och] + 2 + 3 * q + (q == count[och] - 1)
    clause_group = c0 + 1 + occ // 3
    chains[first] = np.stack([a + 2, a, a], axis=1)
    chains[first + 1] = np.stack([a + 2, a + 1, a + 1], axis=1)
    chains[first + 2] = np.stack([a + 1, a + 1, clause_group], axis=1)
    for d in range(3):
        c_arg[first + d] = occ // 3 + 1

    stack_groups = np.concatenate([x_chain, y_chain, chains]).astype(np.int64)
    x_len, y_len = len(x_chain), len(y_chain)
    lengths = np.concatenate([[x_len, y_len], chain_len])
    starts = np.concatenate([[0], np.cumsum(lengths)])
    labels = ["x-chain", "y-chain"] + [f"V{v} {w} chain" for v in range(1, n + 1) for w in ("true", "false")]
    positions = flow_positions(lengths, item_width=4, line_height=6)

    names = ["SAT"] + [f"x{j}" for j in range(1, X + 1)] + [f"y{j}" for j in range(1, Y + 1)]
    names += [f"V{j}" for j in range(1, n + 1)] + [f"C{j}" for j in range(1, m + 1)]
    for ch, c in enumerate(count.tolist()):
        prefix = f"{'tf'[ch % 2]}{ch // 2 + 1},"
        names += [prefix + str(j) for j in range(1, 3 + 2 * c)]

    roles = _roles(n, m, x_len, y_len, head, first, occ)
    out_meta = _provenance(formula, "stacks")
    out_meta.update(meta or {})
    return StackReduction(
        formula,
        stack_groups,
        names,
        labels,
        starts,
        positions,
        roles,
        np.concatenate([x_kind, y_kind, c_kind]),
        np.concatenate([x_arg, y_arg, c_arg]),
        out_meta,
    )


def _roles(
    n: int, m: int, x_len: int, y_len: int, head: np.ndarray, first: np.ndarray, occ: np.ndarray
) -> dict[tuple[Any, ...], TileId]:
    """The tiles of :attr:`StackReduction.roles` (stack ``s`` holds tiles ``3s..3s+2``)."""
    cs = x_len + y_len  # first stack of the chains
    roles: dict[tuple[Any, ...], TileId] = {("sat", 1): 3 * x_len, ("sat", 2): 3 * (x_len + 3) + 2}
    for i in range(1, n + 1):
        roles[("xlabel", i)] = 3 * (3 * i)
        roles[("ylabel", i)] = 3 * (x_len + 3 * i + 2) + 2
    by_position = np.empty_like(first)
    by_position[occ] = first  # the literal gadget of literal position 3(j-1)+k
    lit = (3 * (cs + by_position + 2) + 2).tolist()
    for j in range(1, m + 1):
        roles[("xclause", j)] = 3 * (3 * (n + j))
        for k in range(3):
            roles[("lit", j, k)] = lit[3 * (j - 1) + k]
    heads = (3 * (cs + head)).tolist()
    for i in range(1, n + 1):
        roles[("thead", i)] = heads[2 * i - 2]
        roles[("fhead", i)] = heads[2 * i - 1]
    roles[("sat", 0)] = 3 * (x_len - 1) + 2
    roles[("sat", 3)] = 3 * (x_len + y_len - 1) + 2
    return roles


def _provenance(formula: Formula3, target: str) -> dict[str, Any]:
    from mjsat import __version__

    return {
        "reduction": target,
        "formula_hash": formula.hash(),
        "variables": formula.original_vars,
        "clauses": len(formula.original),
        "normalized_variables": formula.n_vars,
        "normalized_clauses": formula.n_clauses,
        "normalization": formula.report.to_dict(),
        "mjsat_version": __version__,
    }
