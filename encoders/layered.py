"""The layered encoding: removal-by-step variables with parallel steps.

Planning as satisfiability [1]_ with parallel-step semantics [2]_: several pairs may go
in one step when each was free before the step. Freeness is
monotone, so any parallel plan linearises into a legal move list (steps in order, any
order inside a step).

Variables (``T`` steps, ``n`` tiles, ``P`` candidate pairs)
------------------------------------------------------------
* ``('r', t, s)`` -- tile ``t`` is gone by the end of step ``s`` (cumulative): ``nT``;
* ``('m', a, b)`` -- the pair ``(a, b)`` is chosen: ``P = sum_g k_g (k_g - 1) / 2``;
* ``('side', t)`` -- Mahjong: the tile goes with its first side (left, or front) clear,
  else with its second side clear; one per tile with both sides occupied;
* ``('path', a, b, j)`` -- Shisen-Sho: candidate path ``j`` of the pair is used.

Clauses
-------
* monotone ``r(t, s) -> r(t, s+1)`` and goal ``r(t, T-1)``: :math:`nT`;
* a chosen pair goes in one step, ``m -> (r(a, s) <-> r(b, s))``: :math:`2PT`;
* tiles above gone one step earlier, ``r(t, s) -> r(o, s-1)``: :math:`T \\sum_t |above_t|`;
* one side gone earlier, chosen by ``side``: :math:`T \\sum_t (|left_t| + |right_t|)`;
* Shisen-Sho: a chosen pair uses one of its paths, whose tiles are gone one step
  earlier: :math:`P + T \\sum_p \\sum_j |path_{p,j}|`;
* the matching (:func:`mjsat.encoders.clauses.add_matching`).

Size: :math:`O(nT + P)` variables and :math:`O(T (n d + P))` clauses for ``d`` the
largest number of neighbours (Mahjong). Unsatisfiable with ``T`` steps proves the board
unsolvable only when ``T`` is at least :func:`step_bound` (at most ``n/2``).
:class:`LayeredDecoder` reads a model back: the chosen pairs, ordered by the first step
their tiles are gone in.

References
----------
.. [1] H. Kautz and B. Selman, "Planning as satisfiability", ECAI, 1992.
.. [2] J. Rintanen, K. Heljanko and I. Niemela, "Planning as satisfiability: parallel
   plans and algorithms for plan search", Artificial Intelligence 170, 2006.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from pysat.formula import CNF, IDPool

from mjsat.board import Board, TileId
from mjsat.encoders.clauses import add_matching, pair_vars
from mjsat.encoders.decoding import Decoded, Decoder, true_set
from mjsat.encoders.errors import EncodingError, check_build_size, check_deadline
from mjsat.encoders.requirements import Requirements, requirements
from mjsat.encoders.shisen_paths import bits_members

__all__ = ["encode_layered", "LayeredDecoder", "step_bound", "step_windows", "first_steps", "stepped_literals"]


def stepped_literals(req: Requirements, steps: int) -> int:
    """The literals of the layered encoding with ``steps`` steps, counted before it is
    built (the parity encoding of the same steps has 0.9 to 1.3 times as many): per step,
    two per tile, six per candidate pair, two per needed tile and three per side tile.

    Within 1 % of the built clauses on the reductions' boards of n = 3 to 10 variables
    (1.8 to 19 million literals); the paths of Shisen-Sho pairs are not counted.

    Notes
    -----
    :math:`O(n d)`.
    """
    sides = sum(len(s0) + len(s1) for s in req.sides if s for s0, s1 in [s])
    return int(steps) * (2 * req.n + 6 * len(req.pairs) + 2 * sum(map(len, req.need)) + 3 * sides)


def step_bound(req: Requirements, groups: dict[int, list[int]]) -> int:
    """A number of parallel steps that suffices for every solvable board of this kind.

    Parameters
    ----------
    req : Requirements
        The requirements the encoding uses (exact, simplified or weak: the bound holds
        for the clearings of the requirements it is computed from).
    groups : dict of group -> tiles
        :meth:`mjsat.board.Board.group_members`.

    Returns
    -------
    int
        ``1 + sum_g w_g``, at most ``n/2``, where ``w_g`` bounds the number of pairs of
        group ``g`` that can wait for something:

        * ``k_g / 2`` when some candidate pair of the group has a path requirement with
          no empty alternative (Shisen-Sho: no open path on the full board);
        * otherwise ``min(k_g / 2, b_g)``, where ``b_g`` counts the tiles of the group
          with a requirement of their own: ``need[t]`` (Mahjong: a tile above;
          Shisen-Sho: a necessary predecessor found by
          :mod:`mjsat.encoders.necessary`) or ``sides[t]`` (Mahjong: both sides
          occupied).

    Notes
    -----
    Proof, the same for every game the requirements describe: take any plan that meets
    the requirements (every clearing is one, with one pair a step) and move each pair to
    the earliest step its requirements allow (ASAP; requirements only ask for tiles gone
    in *earlier* steps, so the moved plan still meets them). Then no step before the last
    is empty, and a pair in a step after step 0 waits for a tile removed in the step
    before it: the pair has a tile with a requirement of its own (``need`` or ``sides``)
    or a path requirement without an empty alternative. A group holds ``k_g/2`` pairs,
    and at most ``b_g`` of them contain a tile with a requirement of its own. So the
    last step is at most ``sum_g w_g``. :math:`O(n + P)` time.
    """
    waits = [bool(req.need[t]) or bool(req.sides[t]) for t in range(req.n)]
    closed_tiles = {p[0] for p, alts in req.path_bits.items() if alts and all(alts)}
    total = 0
    for ts in groups.values():
        half = len(ts) // 2
        if any(t in closed_tiles for t in ts):
            total += half
        else:
            total += min(half, sum(waits[t] for t in ts))
    return max(1, min(req.n // 2, 1 + total))


def first_steps(n: int) -> int:
    """The first number of steps :func:`mjsat.encoders.sat.solve_sat` tries: ``ceil(2 sqrt(n))``.

    A guess, not a bound: ``layered`` alone goes on to :func:`step_bound` steps when
    these are too few.

    >>> first_steps(144)
    24
    """
    return max(2, math.ceil(2 * math.sqrt(max(n, 1))))


def step_windows(
    req: Requirements, steps: int, *, partners: bool = True, deadline: float | None = None, what: str = "step windows"
) -> tuple[list[int], list[int]]:
    """Earliest and latest step of every tile in any plan of ``steps`` steps.

    With ``partners=False`` the rules that look at a tile's candidate partners (and at
    Shisen-Sho paths, which depend on the partner) are left out: the windows then depend
    on the layout alone, hold for every deal on it, and are a little wider. Past
    ``deadline`` (a :func:`mjsat.clock.now` value) :class:`~mjsat.encoders.errors.BuildTimeLimit`
    is raised, naming ``what``.

    Returns
    -------
    early, late : list of int
        Tile ``t`` goes in a step ``s`` with ``early[t] <= s <= late[t]`` in every
        plan (``early[t] > late[t]``: no plan of that length exists).

    Notes
    -----
    Fixpoints of monotone rules: a tile goes after everything above it, after one whole
    side, after one whole path (Shisen-Sho), and with one of its candidate partners;
    a tile above another goes before it. Each round is :math:`O(n d + P)`, at most
    ``steps`` rounds per direction.

    Why the windows hold for every game (the encodings drop the variables of a tile
    outside its window, so an unsolvable claim rests on this): fix any plan of ``steps``
    steps that meets ``req`` (one pair a step or more, each requirement met by tiles gone
    in *earlier* steps) and let ``s(t)`` be the step of tile ``t``. By induction on the
    rounds, ``early[t] <= s(t) <= late[t]`` holds after every round. It holds at the start
    (``0`` and ``steps - 1``). Each update replaces a bound by one that every such plan
    also meets: ``s(t) > s(o)`` for every ``o`` in ``need[t]`` (a tile above, or a
    necessary predecessor in Shisen-Sho); ``s(t) > s(o)`` for every ``o`` of at least one
    side of ``sides[t]``, hence ``s(t)`` exceeds the smallest over the sides of the
    largest ``early`` on that side; ``t`` leaves with a partner ``u`` in the same step,
    which meets the same rules and, for a path requirement with no empty alternative, has
    one alternative's tiles all gone before, hence ``s(t)`` is at least the smallest such
    bound over ``t``'s candidate pairs; backwards, ``s(o) < s(t) <= late[t]`` for ``o`` in
    ``need[t]``, and ``s(t) = s(u) <= late[u]`` for the partner. The rules read only
    ``req``, so they hold for every game the requirements describe (Mahjong, transposed,
    Shisen-Sho); with ``partners=False`` the partner rules are left out, which only widens
    the windows. ``early[t] > late[t]`` therefore means no plan of ``steps`` steps exists.
    """
    n, T = req.n, steps
    inc = req.incident() if partners else None
    early = [0] * n

    def own(t: int) -> int:
        v = 0
        for o in req.need[t]:
            v = max(v, early[o] + 1)
        if req.sides[t]:
            v = max(v, min(max(early[o] for o in side) + 1 for side in req.sides[t]))
        return v

    for _ in range(T + 1):
        check_deadline(deadline, what)
        changed = False
        base = [own(t) for t in range(n)]
        for t in range(n):
            if inc is None:
                v = min(T, base[t])
                if v > early[t]:
                    early[t] = v
                    changed = True
                continue
            best = T
            for p in inc[t]:
                v = max(base[p[0]], base[p[1]])
                alts = req.path_bits.get(p)
                if alts and all(alts):
                    v = max(v, min(max(early[o] for o in bits_members(alt)) + 1 for alt in alts))
                best = min(best, v)
            v = min(T, max(base[t], best))
            if v > early[t]:
                early[t] = v
                changed = True
        if not changed:
            break
    late = [T - 1] * n
    below: list[list[int]] = [[] for _ in range(n)]
    for t in range(n):
        for o in req.need[t]:
            below[o].append(t)
    for _ in range(T + 1):
        check_deadline(deadline, what)
        changed = False
        for t in range(n):
            v = late[t]
            for b in below[t]:
                v = min(v, late[b] - 1)
            if inc is not None and inc[t]:
                v = min(v, max(late[p[0] if p[1] == t else p[1]] for p in inc[t]))
            v = max(v, -1)
            if v < late[t]:
                late[t] = v
                changed = True
        if not changed:
            break
    return early, late


def encode_layered(
    board: Board,
    *,
    vpool: IDPool | None = None,
    steps: int | None = None,
    req: Requirements | None = None,
    windows: bool = False,
    deadline: float | None = None,
) -> tuple[CNF, Decoder]:
    """Encode ``board`` with ``steps`` parallel steps (default: :func:`step_bound`).

    Parameters
    ----------
    board : Board
        Mahjong, transposed Mahjong or Shisen-Sho.
    vpool : IDPool, optional
        Variable pool to allocate from (a fresh one by default).
    steps : int, optional
        Number of parallel steps ``T``; default the proved :func:`step_bound`.
    req : Requirements, optional
        Precomputed :func:`mjsat.encoders.requirements.requirements` of the board.
    windows : bool, optional (default=False)
        Add the units of :func:`step_windows` (redundant: implied by the clauses, but
        not by unit propagation).
    deadline : float, optional
        A :func:`mjsat.clock.now` value; past it the build raises
        :class:`~mjsat.encoders.errors.BuildTimeLimit`.

    Returns
    -------
    cnf : pysat.formula.CNF
    decoder : LayeredDecoder
        ``params['exhaustive']`` is True iff ``steps >= step_bound``.

    Raises
    ------
    EncodingError
        ``steps`` below 1.

    Notes
    -----
    Builds :math:`O(T (n d + P))` clauses in as much time (see the module docstring).
    """
    req = requirements(board, deadline=deadline) if req is None else req
    bound = step_bound(req, board.group_members())
    T = bound if steps is None else int(steps)
    if T < 1:
        raise EncodingError(f"the layered encoding needs at least one step, got {T}")
    check_build_size(stepped_literals(req, T), "layered encoding")
    vpool = IDPool() if vpool is None else vpool
    cnf = CNF()
    n = req.n
    m = pair_vars(req, vpool)
    r = [[vpool.id(("r", t, s)) for s in range(T)] for t in range(n)]
    cl = cnf.clauses
    for t in range(n):
        rt = r[t]
        for s in range(T - 1):
            cl.append([-rt[s], rt[s + 1]])
        cl.append([rt[T - 1]])
    for p, mv in m.items():
        ra, rb = r[p[0]], r[p[1]]
        for s in range(T):
            cl.append([-mv, -ra[s], rb[s]])
            cl.append([-mv, ra[s], -rb[s]])
    for t in range(n):
        if t % 256 == 0:
            check_deadline(deadline, "layered encoding")
        rt = r[t]
        if req.need[t] or req.sides[t]:
            cl.append([-rt[0]])
        for o in req.need[t]:
            ro = r[o]
            for s in range(1, T):
                cl.append([-rt[s], ro[s - 1]])
        if req.sides[t]:
            c = vpool.id(("side", t))
            s0, s1 = req.sides[t]
            for sign, side in ((-c, s0), (c, s1)):
                for o in sorted(side):
                    ro = r[o]
                    for s in range(1, T):
                        cl.append([-rt[s], sign, ro[s - 1]])
    for p, alts in req.path_bits.items():
        if not alts or 0 in alts:
            continue
        ra = r[p[0]]
        ks = [vpool.id(("path", p[0], p[1], j)) for j in range(len(alts))]
        cl.append([-m[p], *ks])
        for k, alt in zip(ks, alts):
            cl.append([-k, -ra[0]])
            for o in bits_members(alt):
                ro = r[o]
                for s in range(1, T):
                    cl.append([-k, -ra[s], ro[s - 1]])
    if windows:
        early, late = step_windows(req, T, deadline=deadline)
        for t in range(n):
            rt = r[t]
            for s in range(min(early[t], T)):
                cl.append([-rt[s]])
            for s in range(max(late[t], 0), T - 1):
                cl.append([rt[s]])
    add_matching(cnf, req, m, vpool)
    cnf.nv = max(cnf.nv, vpool.top)
    keys = {k: v for k, v in vpool.obj2id.items() if isinstance(k, tuple)}
    return cnf, LayeredDecoder(keys, {"steps": T, "bound": bound, "exhaustive": T >= bound})


class LayeredDecoder(Decoder):
    """Reads a model of :func:`encode_layered`: the chosen pairs ``('m', a, b)``, ordered
    by the first step ``s`` with ``('r', a, s)`` true (then by pair).

    ``params``: ``steps``, ``bound`` (:func:`step_bound`) and ``exhaustive``.
    """

    encoding = "layered"
    stepped = True

    def decode(self, model: Iterable[int]) -> Decoded:
        on = true_set(model)
        pairing = self.pairing(on)
        first: dict[TileId, int] = {}
        for k, v in self.keys.items():
            if k[0] == "r" and v in on:
                t, s = k[1], k[2]
                first[t] = min(first.get(t, s), s)
        steps = int(self.params["steps"])
        return Decoded(pairing, sorted(pairing, key=lambda p: (first.get(p[0], steps), p)))
