"""Theorem 3 of seed 001: 3-SAT -> Mahjong with peeking on isolated stacks ``aab``/``abb``.

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

>>> from mjsat.reductions.cnf import normalize_3cnf
>>> red = reduce_to_stacks(normalize_3cnf([[1]]))
>>> len(red.stacks), len(red.board), len(red.board.group_sizes())
(32, 96, 24)
>>> red.stacks[0]
['x1', 'x1', 'x2']
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

from mjsat.board import Layout, MahjongBoard, TileId
from mjsat.reductions.cnf import Formula3

__all__ = [
    "StackReduction",
    "reduce_to_stacks",
    "stack_sizes",
    "board_from_stacks",
    "flow_positions",
]

Stack = list[str]


def stack_sizes(n: int, m: int) -> dict[str, int]:
    """The sizes the design note gives for ``n`` variables and ``m`` (padded) clauses.

    >>> stack_sizes(3, 8)
    {'stacks': 140, 'tiles': 420, 'groups': 105}
    """
    return {"stacks": 8 + 12 * n + 12 * m, "tiles": 24 + 36 * n + 36 * m, "groups": 6 + 9 * n + 9 * m}


def flow_positions(
    gadget_lengths: Sequence[int], *, item_width: int, line_height: int, width: int | None = None
) -> list[tuple[int, int]]:
    """``(row, col)`` in half-tile units of every item, gadget after gadget.

    Small constructions (at most 3,000 items) start every gadget on a new line and wrap
    lines at ``width`` items (default 24); larger ones flow gadgets on without breaks on
    a roughly square page, so coordinates stay in the grid's range.

    Notes
    -----
    :math:`O(N)` for ``N`` items.
    """
    total = sum(gadget_lengths)
    per_gadget_lines = total <= 3000
    if width is None:
        width = 24 if per_gadget_lines else max(24, math.ceil(math.sqrt(total * line_height / item_width)))
    out: list[tuple[int, int]] = []
    line, col = 0, 0
    for length in gadget_lengths:
        if per_gadget_lines and col:
            line, col = line + 1, 0
        for _ in range(length):
            if col == width:
                line, col = line + 1, 0
            out.append((line * line_height, col * item_width))
            col += 1
    return out


def board_from_stacks(
    stacks: Sequence[Sequence[int]],
    *,
    names: dict[int, str] | None = None,
    meta: dict[str, Any] | None = None,
    positions: Sequence[tuple[int, int]] | None = None,
) -> MahjongBoard:
    """A Mahjong board of isolated stacks; ``stacks[s]`` lists groups top first.

    Tile ``t`` of the board is level ``k`` from the top of its stack, stacks in order:
    stack ``s`` holds the tiles ``offset[s] .. offset[s] + len(stacks[s]) - 1``.
    Stacks stand 4 half-units apart (one line of 24), unless ``positions`` says where.

    >>> b = board_from_stacks([[0, 1], [1, 0]])
    >>> sorted(b.generate_legal_moves())
    []
    >>> b.layout.is_isolated_stacks()
    True

    Notes
    -----
    :math:`O(T)` for ``T`` tiles (plus the board's own checks).
    """
    if positions is None:
        positions = flow_positions([len(stacks)], item_width=4, line_height=4)
    tiles: list[tuple[int, int, int]] = []
    groups: list[int] = []
    for (r, c), st in zip(positions, stacks):
        h = len(st)
        for k, g in enumerate(st):
            tiles.append((r, c, h - 1 - k))
            groups.append(int(g))
    return MahjongBoard(Layout(tiles, name="isolated-stacks"), groups, names=names, meta=meta)


@dataclasses.dataclass
class StackReduction:
    """The Theorem 3 board of a formula and where every gadget tile went.

    Attributes
    ----------
    formula : Formula3
    stacks : list of list of str
        Group names, top first; stack ``s`` holds tiles ``3s, 3s+1, 3s+2`` (top first).
    stack_gadget : list of str
        The gadget of each stack (``x-chain``, ``y-chain``, ``V2 true chain``, ...).
    stack_note : list of str
        What each stack is for, in words (``x-part of V1``, ``literal -V2 of C3``, ...).
    roles : dict
        Tiles with a role in the intended play: ``("xlabel", i)``, ``("ylabel", i)``,
        ``("thead", i)``, ``("fhead", i)``, ``("xclause", j)``, ``("lit", j, k)`` (the
        ``Cj`` tile freed by the ``k``-th literal), ``("sat", k)`` for the four SATs (x-chain
        end, the start ``[SAT,y1,y1]``, ``[y2,y2,SAT]``, y-chain end).
    board : MahjongBoard
    """

    formula: Formula3
    stacks: list[Stack]
    stack_gadget: list[str]
    stack_note: list[str]
    roles: dict[tuple[Any, ...], TileId]
    board: MahjongBoard

    def tile(self, stack: int, level_from_top: int) -> TileId:
        return 3 * stack + level_from_top

    def group_of_name(self, name: str) -> int:
        return self._ids[name]

    @property
    def _ids(self) -> dict[str, int]:
        return {v: k for k, v in self.board.names.items()}

    def gadgets(self) -> list[tuple[str, list[int]]]:
        """``(label, stacks)`` of each gadget in layout order."""
        out: dict[str, list[int]] = {}
        for s, g in enumerate(self.stack_gadget):
            out.setdefault(g, []).append(s)
        return list(out.items())


class _Builder:
    def __init__(self) -> None:
        self.stacks: list[Stack | None] = []
        self.gadget: list[str] = []
        self.note: list[str] = []
        self.role_at: dict[tuple[Any, ...], tuple[int, int]] = {}

    def add(self, st: Stack, gadget: str, note: str) -> int:
        self.stacks.append(st)
        self.gadget.append(gadget)
        self.note.append(note)
        return len(self.stacks) - 1


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

    Notes
    -----
    :math:`O(n + m)` stacks and time; the board's checks dominate for large formulas.
    The board is solvable iff the formula is satisfiable (seed 001, Theorem 3).
    """
    n, clauses = formula.n_vars, formula.clauses
    B = _Builder()
    start = [
        (["x1", "x1", "x2"], "x-chain"), (["x2", "x1", "x1"], "x-chain"), (["x2", "x2", "SAT"], "x-chain"),
        (["SAT", "y1", "y1"], "y-chain"), (["y1", "y2", "y2"], "y-chain"), (["y1", "y3", "y3"], "y-chain"),
        (["y2", "y2", "SAT"], "y-chain"), (["y3", "y3", "SAT"], "y-chain"),
    ]
    for st, g in start:
        B.add(st, g, "start")
    B.role_at[("sat", 1)] = (3, 0)
    B.role_at[("sat", 2)] = (6, 2)
    x_end, y_end = 2, 7
    M, N = 2, 3
    heads: dict[tuple[str, int], int] = {}
    K: dict[tuple[str, int], int] = {}

    def x_part(label: str, gadget_note: str) -> int:
        nonlocal x_end, M
        B.stacks[x_end] = None
        B.add([f"x{M}", f"x{M}", f"x{M + 2}"], "x-chain", gadget_note)
        s = B.add([label, f"x{M + 1}", f"x{M + 1}"], "x-chain", gadget_note)
        B.add([f"x{M + 1}", f"x{M + 1}", f"x{M + 2}"], "x-chain", gadget_note)
        x_end = B.add([f"x{M + 2}", f"x{M + 2}", "SAT"], "x-chain", gadget_note)
        M += 2
        return s

    for i in range(1, n + 1):
        V = f"V{i}"
        s = x_part(V, f"x-part of {V}")
        B.role_at[("xlabel", i)] = (s, 0)
        B.stacks[y_end] = None
        note = f"y-part of {V}"
        B.add([f"y{N}", f"y{N + 1}", f"y{N + 1}"], "y-chain", note)
        s = B.add([f"y{N + 1}", f"y{N + 1}", V], "y-chain", note)
        B.role_at[("ylabel", i)] = (s, 2)
        B.add([f"y{N}", f"y{N + 2}", f"y{N + 2}"], "y-chain", note)
        y_end = B.add([f"y{N + 2}", f"y{N + 2}", "SAT"], "y-chain", note)
        N += 2
        for pol, word in (("t", "true"), ("f", "false")):
            g = f"{V} {word} chain"
            a1, a2 = f"{pol}{i},1", f"{pol}{i},2"
            heads[(pol, i)] = B.add([V, a2, a2], g, f"head of {V}'s {word} chain")
            B.add([a1, a1, a2], g, f"{V}'s {word} chain")
            B.add([a2, a1, a1], g, f"{V}'s {word} chain")
            K[(pol, i)] = 2
    for j, clause in enumerate(clauses, 1):
        C = f"C{j}"
        s = x_part(C, f"x-part of {C}")
        B.role_at[("xclause", j)] = (s, 0)
        for k, lit in enumerate(clause):
            i, pol = abs(lit), ("t" if lit > 0 else "f")
            word = "true" if lit > 0 else "false"
            g = f"V{i} {word} chain"
            k0 = K[(pol, i)]
            a, b, c = f"{pol}{i},{k0}", f"{pol}{i},{k0 + 1}", f"{pol}{i},{k0 + 2}"
            B.stacks[heads[(pol, i)]] = None
            lit_txt = f"{'' if lit > 0 else '-'}V{i}"
            note = f"literal {lit_txt} of {C}"
            heads[(pol, i)] = B.add([f"V{i}", c, c], g, f"head of V{i}'s {word} chain")
            B.add([c, a, a], g, note)
            B.add([c, b, b], g, note)
            s = B.add([b, b, C], g, note)
            B.role_at[("lit", j, k)] = (s, 2)
            K[(pol, i)] = k0 + 2
    for (pol, i), s in heads.items():
        B.role_at[("thead" if pol == "t" else "fhead", i)] = (s, 0)
    B.role_at[("sat", 0)] = (x_end, 2)
    B.role_at[("sat", 3)] = (y_end, 2)

    # order the live stacks gadget by gadget: x-chain, y-chain, then each variable's chains
    order_keys = ["x-chain", "y-chain"] + [f"V{i} {w} chain" for i in range(1, n + 1) for w in ("true", "false")]
    rank = {g: r for r, g in enumerate(order_keys)}
    live = [s for s, st in enumerate(B.stacks) if st is not None]
    live.sort(key=lambda s: (rank[B.gadget[s]], s))
    new_index = {s: k for k, s in enumerate(live)}
    stacks = [B.stacks[s] for s in live]  # type: ignore[misc]
    gadget = [B.gadget[s] for s in live]
    note = [B.note[s] for s in live]
    roles = {key: 3 * new_index[s] + lev for key, (s, lev) in B.role_at.items()}

    names = _group_order(stacks, n, len(clauses))
    ids = {name: g for g, name in enumerate(names)}
    by_gadget: dict[str, list[int]] = {}
    for k, g in enumerate(gadget):
        by_gadget.setdefault(g, []).append(k)
    lengths = [len(by_gadget.get(key, ())) for key in order_keys]
    positions = flow_positions([x for x in lengths if x], item_width=4, line_height=6)
    board = board_from_stacks(
        [[ids[x] for x in st] for st in stacks],
        names=dict(enumerate(names)),
        positions=positions,
    )
    board.layout.name = "3sat-stacks"
    board.meta.update(_provenance(formula, "stacks"))
    board.meta.update(meta or {})
    gadgets: list[dict[str, Any]] = []
    if len(stacks) <= 3000:
        for key in order_keys:
            tiles = [3 * k + lev for k in by_gadget.get(key, ()) for lev in range(3)]
            if tiles:
                gadgets.append({"label": key, "tiles": tiles})
    board.meta["gadgets"] = gadgets
    return StackReduction(formula, stacks, gadget, note, roles, board)


def _group_order(stacks: list[Stack], n: int, m: int) -> list[str]:
    """Group names in a readable order: SAT, x.., y.., V.., C.., then t/f by variable."""
    seen = {x for st in stacks for x in st}

    def key(name: str) -> tuple[int, int, int]:
        if name == "SAT":
            return (0, 0, 0)
        head, rest = name[0], name[1:]
        if head in "xyVC":
            return ({"x": 1, "y": 2, "V": 3, "C": 4}[head], int(rest), 0)
        i, k = rest.split(",")
        return (5, int(i), 2 * int(k) + (head == "f") * 10**9)

    return sorted(seen, key=key)


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
