"""Clause builders the encodings share: pairing variables, the matching, the rules as precedences."""

from __future__ import annotations

import contextlib
import gc
import itertools
from collections.abc import Callable, Iterator

from pysat.card import CardEnc, EncType
from pysat.formula import CNF, IDPool

from mjsat.board import Move, TileId
from mjsat.encoders.requirements import Requirements
from mjsat.encoders.shisen_paths import bits_members

__all__ = ["cnf_of", "gc_paused", "pair_vars", "add_matching", "add_precedence"]


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off inside the block (as it was after it).

    A CNF is tens of thousands of small lists, a reduction's board millions of small
    tuples: each allocation counts towards the collector's next pass, which walks every
    tracked object of the process, so a build pays passes over the whole heap that find
    nothing (lists and tuples of ints make no cycles).

    Examples
    --------
    >>> import gc
    >>> with gc_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def cnf_of(clauses: list[list[int]]) -> CNF:
    """A CNF of ``clauses`` (the list itself, not a copy); its ``nv`` is their largest variable.

    The encoders add clauses to ``cnf.clauses`` and set ``cnf.nv`` themselves, never through
    ``CNF(from_clauses=...)``, ``CNF.extend`` or ``CNF.append(..., update_vpool=True)``:
    those also record the formula's variables in python-sat's process-wide variable pool,
    in a list that grows with every formula and is sorted on every call, so a process that
    builds many formulas (a sample, a cross-validation, a worker, a long test) would slow
    down in proportion to how many it has built.

    Notes
    -----
    :math:`O(L)` for ``L`` literals.

    Examples
    --------
    >>> cnf_of([[1, -3], [2]]).nv
    3
    """
    cnf = CNF()
    cnf.clauses = clauses
    cnf.nv = max((abs(lit) for clause in clauses for lit in clause), default=0)
    return cnf


def pair_vars(req: Requirements, vpool: IDPool) -> dict[Move, int]:
    """The pairing variables ``('m', a, b)`` of every candidate pair."""
    return {p: vpool.id(("m", p[0], p[1])) for p in req.pairs}


def add_matching(cnf: CNF, req: Requirements, m: dict[Move, int], vpool: IDPool) -> None:
    """Clauses making the chosen pairs a perfect matching inside every group.

    Every tile is in exactly one chosen pair: python-sat's pairwise encoding for up to
    five candidates (groups of up to six), its ladder encoding beyond. A tile with no
    candidate partner gets the empty clause.

    Notes
    -----
    A group of size :math:`k` has :math:`k(k-1)/2` pair variables and, pairwise,
    :math:`k (1 + (k-1)(k-2)/2)` clauses; the ladder adds :math:`O(k^2)` variables and
    clauses for large groups.
    """
    inc = req.incident()
    for t in range(req.n):
        lits = [m[p] for p in inc[t]]
        if not lits:
            cnf.append([])
        elif len(lits) == 1:
            cnf.append(lits)
        elif len(lits) <= 5:
            # python-sat's pairwise encoding, written out (the same clauses, in its order)
            cnf.clauses.append(lits)
            cnf.clauses.extend([-a, -b] for a, b in itertools.combinations(lits, 2))
        else:
            cnf.clauses.extend(CardEnc.equals(lits, 1, vpool=vpool, encoding=EncType.ladder).clauses)


def add_precedence(
    cnf: CNF,
    req: Requirements,
    m: dict[Move, int],
    vpool: IDPool,
    lt: Callable[[TileId, TileId], int],
) -> None:
    """The rules as clauses over precedence literals ``lt(u, v)`` (u gone before v).

    ``need``: unit ``lt(o, t)``; ``sides``: a side variable ``('side', t)`` true for the
    first set, ``-side -> lt(o, t)`` per tile of the second; Shisen-Sho: a path variable
    ``('path', a, b, j)`` per candidate path, at least one when the pair is chosen, each
    implying ``lt(o, a)`` for its tiles. Used by the order and acyclicity encodings.

    Notes
    -----
    :math:`\\sum_t (|need_t| + |sides_t|)` clauses for Mahjong; for Shisen-Sho one clause
    per chosen-path implication, :math:`O(P (h + w)^2)` at most.
    """
    for t in range(req.n):
        for o in req.need[t]:
            cnf.append([lt(o, t)])
        if req.sides[t]:
            c = vpool.id(("side", t))
            s0, s1 = req.sides[t]
            for o in s0:
                cnf.append([-c, lt(o, t)])
            for o in s1:
                cnf.append([c, lt(o, t)])
    for p, alts in req.path_bits.items():
        if not alts or 0 in alts:
            continue  # an open path: nothing to wait for
        a = p[0]
        ks = [vpool.id(("path", p[0], p[1], j)) for j in range(len(alts))]
        cnf.append([-m[p], *ks])
        for k, alt in zip(ks, alts):
            for o in bits_members(alt):
                cnf.append([-k, lt(o, a)])
