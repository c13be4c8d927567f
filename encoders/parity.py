"""The parity encoding: parallel steps as in the layered encoding, no pairing variables.

A pairing plus an order is the same thing as a removal step per tile such that, in every
group, an even number of tiles goes at every step: pair the tiles of one group and one
step in any way. With cumulative step variables ``r(t, s)`` ("tile ``t`` is gone by the
end of step ``s``") this is one XOR per group and step: the number of the group's tiles
gone by step ``s`` is even. The pairing variables, the matching and the ``2PT``
synchronisation clauses of :mod:`mjsat.encoders.layered` go away, and so does any
choice that does not matter (which of two tiles of one step a tile is paired with).

The layout's part of the formula (monotone steps, tiles above, sides) is the same for
every deal of a layout: it is built once per ``(layout, game, T)`` and kept by the layout
(:meth:`mjsat.layout.Layout.memo`); a deal adds only its XORs and a few window units. Step variables
outside each tile's window are constants (see :func:`layout_windows`), folded away.

Variables (``T`` steps, ``n`` tiles)
------------------------------------
* ``('r', t, s)`` for ``early[t] <= s < late[t]`` (false before, true from ``late[t]``
  on): at most :math:`nT`;
* ``('side', t)`` -- the tile goes with its first side clear, else its second: only for
  a tile with both sides occupied by more than two tiles each (otherwise the
  disjunction "one whole side gone" is distributed into clauses, which the solvers
  refute with fewer conflicts than a side variable fixed for all steps);
* one auxiliary variable per group, step and three tiles beyond four (groups of more than
  four tiles chain their XOR); plus variable 1, the constant *true*.

Clauses
-------
* monotone ``r(t, s) -> r(t, s+1)`` and goal: at most :math:`nT`;
* tiles above gone one step earlier: :math:`T \\sum_t |above_t|`; one side gone one
  step earlier: :math:`T \\sum_t |left_t| |right_t|` ternary clauses (with a side
  variable, :math:`T \\sum_t (|left_t| + |right_t|)`); all fewer inside the windows;
* per group of ``k`` tiles and step: :math:`2^{k-1}` clauses of ``k`` literals for
  :math:`k \\le 4`, a chain of four-literal XORs beyond: :math:`O(G T 2^{\\min(k, 4)})`.

Size: :math:`O(nT)` variables and :math:`O(T (n d + G))` clauses, about half the
layered CNF with pairs. Unsatisfiable with ``T`` steps proves the board unsolvable when ``T`` is at least
:func:`mjsat.encoders.layered.step_bound` (the same parallel plans as the layered
encoding). Shisen-Sho is not encoded this way (a pair's path depends on the partner, so
the pairs are needed): :func:`encode_parity` hands a Shisen-Sho board to
:func:`mjsat.encoders.layered.encode_layered`. :class:`ParityDecoder` reads a model back:
each tile's step, and in every group the tiles of one step paired in tile order.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterable
from typing import Any

import numpy as np
from pysat.formula import CNF, IDPool

from mjsat.board import Board, Move
from mjsat.encoders.decoding import Decoded, Decoder, InvalidMapError, is_map_int, true_set
from mjsat.encoders.errors import EncodingError, check_build_size, check_deadline
from mjsat.encoders.layered import encode_layered, step_bound, step_windows, stepped_literals
from mjsat.encoders.requirements import Requirements, requirements

__all__ = ["encode_parity", "ParityDecoder", "first_parity_steps", "layout_windows", "xor_zero_clauses"]

TRUE = 1
"""Variable 1 is the constant *true* (unit clause); ``-1`` is *false*."""


def first_parity_steps(n: int) -> int:
    """The first number of steps the ``sat`` method tries with this encoding: ``ceil(2 sqrt(n))``.

    A compromise, not a bound: a deal that needs more goes on to an exhaustive CNF.
    Fewer steps make a smaller CNF (the time follows the size), more steps send fewer
    deals on (``benchmarks/README.md`` measures the share).

    >>> first_parity_steps(144)
    24
    """
    return max(2, math.ceil(2 * math.sqrt(max(n, 1))))


def layout_windows(req: Requirements, steps: int, deadline: float | None = None) -> tuple[list[int], list[int]]:
    """Earliest and latest removal step of every tile from the layout alone.

    ``early[t]``: a tile goes after everything above it and after one whole side
    (fixpoint from 0); ``late[t]``: a tile goes before every tile it is above
    (``T - 1`` minus the height of the chain beneath it). Every plan of ``steps`` steps
    removes ``t`` in a step ``early[t] <= s <= late[t]`` (``early > late``: none exists).

    Notes
    -----
    At most ``T + 1`` rounds of :math:`O(n d)` each; run once per layout and ``T``.
    """
    return step_windows(req, steps, partners=False, deadline=deadline, what="parity encoding's step windows")


def xor_zero_clauses(lits: list[int], top: int) -> tuple[list[list[int]], int]:
    """Clauses saying an even number of ``lits`` is true, constants folded.

    ``lits`` may hold ``1`` (true) and ``-1`` (false). Four literals or fewer: the
    :math:`2^{k-1}` clauses forbidding each odd assignment; more: a chain of
    four-literal XORs through auxiliary variables numbered from ``top + 1``.

    Returns
    -------
    clauses : list of list of int
    top : int
        The highest variable used.
    """
    parity = 0
    vs: list[int] = []
    for x in lits:
        if x == TRUE:
            parity ^= 1
        elif x != -TRUE:
            vs.append(x)
    out: list[list[int]] = []
    while len(vs) > 4:
        top += 1
        y = top
        head, vs = vs[:3], vs[3:]
        out.extend(_odd_forbidden([*head, y], 0))  # y = x1 ^ x2 ^ x3
        vs.insert(0, y)
    if not vs:
        if parity:
            out.append([-TRUE])
        return out, top
    out.extend(_odd_forbidden(vs, parity))
    return out, top


def _odd_forbidden(vs: list[int], parity: int) -> list[list[int]]:
    """One clause per assignment of ``vs`` whose number of trues plus ``parity`` is odd."""
    out = []
    for bits in itertools.product((0, 1), repeat=len(vs)):
        if (sum(bits) + parity) % 2:
            out.append([-v if b else v for b, v in zip(bits, vs)])
    return out


_PATTERNS: dict[tuple[int, int], np.ndarray] = {}


def _patterns(k: int, parity: int) -> np.ndarray:
    """Sign patterns (rows) of the clauses of :func:`_odd_forbidden` for ``k`` literals."""
    key = (k, parity)
    if key not in _PATTERNS:
        rows = [
            [-1 if b else 1 for b in bits] for bits in itertools.product((0, 1), repeat=k) if (sum(bits) + parity) % 2
        ]
        _PATTERNS[key] = np.array(rows, dtype=np.int64)
    return _PATTERNS[key]


@dataclasses.dataclass
class _Template:
    """The layout's part of the formula for one ``(game, T)``."""

    steps: int
    lit: np.ndarray  # (n, T) literal of r(t, s): a variable, TRUE or -TRUE
    early: np.ndarray
    late: np.ndarray
    clauses: list[list[int]]
    top: int
    keys: dict[tuple, int]


def _fold(clause: list[int]) -> list[int] | None:
    """Drop a clause with a true literal; drop false literals (``[-1]`` if none is left)."""
    out = []
    for x in clause:
        if x == TRUE:
            return None
        if x != -TRUE:
            out.append(x)
    return out if out else [-TRUE]


def _template(board: Board, req: Requirements, T: int, deadline: float | None = None) -> _Template:
    """The layout's part of the formula for ``T`` steps, built once per layout, game and
    ``T`` and kept by the layout (:meth:`mjsat.layout.Layout.memo`)."""
    return board.layout.memo(("parity-template", board.game, T), lambda: _build_template(req, T, deadline))


def _build_template(req: Requirements, T: int, deadline: float | None) -> _Template:
    n = req.n
    early, late = layout_windows(req, T, deadline)
    vpool = IDPool(start_from=TRUE + 1)
    lit = np.empty((n, T), dtype=np.int64)
    for t in range(n):
        if t % 64 == 0:
            check_deadline(deadline, "parity encoding")
        for s in range(T):
            if s < early[t]:
                lit[t, s] = -TRUE
            elif s >= late[t]:
                lit[t, s] = TRUE
            else:
                lit[t, s] = vpool.id(("r", t, s))
    R = lit.tolist()
    clauses: list[list[int]] = [[TRUE]]

    def add(c: list[int]) -> None:
        f = _fold(c)
        if f is not None:
            clauses.append(f)

    for t in range(n):
        if t % 256 == 0:
            check_deadline(deadline, "parity encoding")
        rt = R[t]
        if early[t] > late[t]:
            clauses.append([-TRUE])  # no plan of T steps removes t
        for s in range(max(early[t], 0), min(late[t], T - 1) + 1):
            if s + 1 < T:
                add([-rt[s], rt[s + 1]])
        add([rt[T - 1]])
        lo = max(early[t], 1)  # r(t, s) is false below early[t]: nothing to require
        if req.need[t] or req.sides[t]:
            add([-rt[0]])
        for o in req.need[t]:
            ro = R[o]
            for s in range(lo, T):
                add([-rt[s], ro[s - 1]])
        if req.sides[t]:
            s0, s1 = sorted(req.sides[t][0]), sorted(req.sides[t][1])
            if len(s0) * len(s1) <= len(s0) + len(s1):
                # (all of s0) or (all of s1), distributed: no side variable
                for o0 in s0:
                    for o1 in s1:
                        r0, r1 = R[o0], R[o1]
                        for s in range(lo, T):
                            add([-rt[s], r0[s - 1], r1[s - 1]])
            else:
                c = vpool.id(("side", t))
                for sign, side in ((-c, s0), (c, s1)):
                    for o in side:
                        ro = R[o]
                        for s in range(lo, T):
                            add([-rt[s], sign, ro[s - 1]])
    keys = {k: v for k, v in vpool.obj2id.items() if isinstance(k, tuple)}
    return _Template(T, lit, np.array(early), np.array(late), clauses, vpool.top, keys)


def encode_parity(
    board: Board,
    *,
    vpool: IDPool | None = None,
    steps: int | None = None,
    req: Requirements | None = None,
    deadline: float | None = None,
) -> tuple[CNF, Decoder]:
    """Encode ``board`` with ``steps`` parallel steps and group parities (no pair variables).

    Parameters
    ----------
    board : Board
        Mahjong or transposed Mahjong (Shisen-Sho goes to the layered encoding).
    vpool : IDPool, optional
        Ignored unless fresh: the variables are numbered by the layout's cached template
        (variable 1 is *true*); a pool that already holds variables is refused.
    steps : int, optional
        Number of parallel steps ``T``; default the proved
        :func:`mjsat.encoders.layered.step_bound`.
    req : Requirements, optional
        Precomputed requirements of the board.
    deadline : float, optional
        A :func:`mjsat.clock.now` value; past it the build of the layout's template
        raises :class:`~mjsat.encoders.errors.BuildTimeLimit`.

    Returns
    -------
    cnf : pysat.formula.CNF
        Its clause lists are partly shared with the layout's cache: do not modify them
        in place.
    decoder : ParityDecoder
        ``params['exhaustive']`` is True iff ``steps >= step_bound``.

    Raises
    ------
    EncodingError
        ``steps`` below 1, or a used ``vpool``.

    Notes
    -----
    First call per layout and ``T``: :math:`O(T n d)` Python work for the template;
    then :math:`O(n + P + G T)`, vectorised (see the module docstring for the size).
    """
    if board.kind != "sides":  # Shisen-Sho: paths, no template
        return encode_layered(board, vpool=vpool, steps=steps, req=req, deadline=deadline)
    if vpool is not None and vpool.top > 0:
        raise EncodingError("the parity encoding numbers its own variables (pass no vpool or a fresh one)")
    req = requirements(board, deadline=deadline) if req is None else req
    groups = board.group_members()
    bound = step_bound(req, groups)
    T = bound if steps is None else int(steps)
    if T < 1:
        raise EncodingError(f"the parity encoding needs at least one step, got {T}")
    check_build_size(stepped_literals(req, T), "parity encoding")
    tpl = _template(board, req, T, deadline)
    lit = tpl.lit
    n = req.n
    deal: list[list[int]] = []
    # windows of the deal: a tile goes with a partner, so not before the earliest
    # partner can and not after the latest partner must (one pass over the pairs)
    if req.impossible:
        deal.append([-TRUE])
    if req.pairs:
        pa = np.array(req.pairs, dtype=np.int64)
        a, b = pa[:, 0], pa[:, 1]
        e, l = tpl.early, tpl.late
        both = np.maximum(e[a], e[b])
        e2 = np.full(n, T, dtype=np.int64)
        np.minimum.at(e2, a, both)
        np.minimum.at(e2, b, both)
        e2 = np.maximum(e2, e)
        l2 = np.full(n, -1, dtype=np.int64)
        np.maximum.at(l2, a, l[b])
        np.maximum.at(l2, b, l[a])
        l2 = np.minimum(l2, l)
        rows = np.arange(n)
        up = (e2 > e) & (e2 - 1 < T)
        x = lit[rows[up], np.minimum(e2[up] - 1, T - 1)]
        deal.extend([-v] for v in x.tolist() if v != -TRUE)
        down = (l2 < l) & (l2 >= 0)
        x = lit[rows[down], l2[down]]
        deal.extend([v] for v in x.tolist() if v != TRUE)
        if np.any(l2 < 0) or np.any(e2 >= T):
            deal.append([-TRUE])
    # the parities, vectorised by group size (four or fewer), chained beyond
    top = tpl.top
    by_size: dict[int, list[list[int]]] = {}
    for ts in groups.values():
        by_size.setdefault(len(ts), []).append(ts)
    for k, gs in by_size.items():
        if k > 4:
            for ts in gs:
                for s in range(T):
                    cls, top = xor_zero_clauses(lit[ts, s].tolist(), top)
                    deal.extend(cls)
            continue
        L = lit[np.array(gs, dtype=np.int64)]  # (G, k, T)
        L = L.transpose(0, 2, 1).reshape(-1, k)  # one row per group and step
        # every odd assignment of the k literals is forbidden; constants are literals too
        # (a clause with a true one is dropped, false ones are removed)
        P = _patterns(k, 0)  # (m, k)
        C = (L[:, None, :] * P[None, :, :]).reshape(-1, k)
        C = C[~(C == TRUE).any(axis=1)]
        if C.size == 0:
            continue
        live = C != -TRUE
        if not live.all():
            # false literals: replace by a live literal of the row (duplicates are
            # harmless), or keep -TRUE when the whole clause is false
            first = np.where(live.any(axis=1), live.argmax(axis=1), 0)
            fill = C[np.arange(len(C)), first]
            C = np.where(live, C, fill[:, None])
        deal.extend(C.tolist())
    cnf = CNF()
    cnf.clauses = tpl.clauses + deal
    cnf.nv = top
    params = {
        "steps": T,
        "bound": bound,
        "exhaustive": T >= bound,
        "late": tpl.late.tolist(),
        "groups": [int(g) for g in board.groups],
    }
    return cnf, ParityDecoder(tpl.keys, params, lit=tpl.lit)


@dataclasses.dataclass
class ParityDecoder(Decoder):
    """Reads a model of :func:`encode_parity`, which has no pairing variables: each
    tile's step is the first ``s`` with ``r(t, s)`` true (``params['late']`` when none
    is), and the tiles of one group and one step are paired in tile order.

    ``params``: ``steps``, ``bound``, ``exhaustive``, ``late`` (the step from which each
    tile is gone for sure) and ``groups`` (the group of each tile).
    """

    encoding = "parity"
    stepped = True
    pairing_variables = False
    lit: Any = dataclasses.field(default=None, repr=False, compare=False)
    """Not saved in maps: the ``(n, T)`` literal matrix of ``r(t, s)`` (a variable,
    ``1`` for true or ``-1`` for false), for a vectorised decode."""

    def pairing(self, model: Iterable[int]) -> list[Move]:
        return sorted(self._steps(true_set(model)))

    def decode(self, model: Iterable[int]) -> Decoded:
        steps_of = self._steps(true_set(model))
        return Decoded(sorted(steps_of), sorted(steps_of, key=lambda p: (steps_of[p], p)))

    def _steps(self, on: set[int]) -> dict[Move, int]:
        """The pairs (tiles of one group and one step, paired in tile order) with their steps."""
        late = self.params["late"]
        if self.lit is not None and on:
            lit = self.lit
            value = np.zeros(max(int(np.abs(lit).max()), max(on)) + 1, dtype=bool)
            value[np.fromiter(on, dtype=np.int64)] = True
            true = np.where(lit > 0, value[np.abs(lit)], ~value[np.abs(lit)])
            first = np.where(true.any(axis=1), true.argmax(axis=1), np.array(late)).tolist()
        else:
            first = list(late)
            for k, v in self.keys.items():
                if k[0] == "r" and v in on and k[2] < first[k[1]]:
                    first[k[1]] = k[2]
        members: dict[int, list[int]] = {}
        for t, g in enumerate(self.params["groups"]):
            members.setdefault(g, []).append(t)
        out: dict[Move, int] = {}
        for ts in members.values():
            ts = sorted(ts, key=lambda t: (first[t], t))
            for a, b in zip(ts[::2], ts[1::2]):
                out[(min(a, b), max(a, b))] = first[a]
        return out

    @classmethod
    def check_params(cls, params: dict, tiles: int | None) -> int | None:
        """``late`` and ``groups``, lists of integers with one entry per tile; the number
        of tiles when ``tiles`` is ``None``."""
        for key in ("late", "groups"):
            v = params.get(key)
            if not (isinstance(v, list) and all(is_map_int(x) for x in v)):
                raise InvalidMapError(f'the parity encoding needs "params": "{key}", a list of integers')
        if len(params["late"]) != len(params["groups"]) or (tiles is not None and len(params["late"]) != tiles):
            raise InvalidMapError('"params": "late" and "groups" must have one entry per tile')
        return len(params["late"]) if tiles is None else tiles
