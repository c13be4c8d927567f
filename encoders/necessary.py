"""Tiles that must go before a tile in every clearing of a Shisen-Sho board.

The requirements of a Shisen-Sho board (:func:`mjsat.encoders.requirements.requirements`)
give each candidate pair the minimal tile sets of its candidate paths: one set must be
gone when the pair goes. On large boards these sets are long (a path across the board
crosses many tiles) and numerous, and an exhaustive encoding pays for every one of them:
the ``acyclic`` encoding's elimination fills the "before" graph they make.

This module derives **necessary predecessors**: ``N[t]``, tiles gone strictly before
``t`` in *every* clearing, by three sound rules run to a fixpoint (``R`` below is what
must be gone when a pair ``{t, u}`` goes by a path set ``S``: ``S``, the necessary
predecessors of the tiles of ``S``, and ``N[t]``, ``N[u]``):

1. **Infeasible options.** The option ``(u, S)`` of ``t`` is impossible when ``t`` or
   ``u`` lies in ``R`` (a tile cannot go before itself, and ``u`` goes with ``t``).
2. **Intersection.** ``t`` goes by one of its feasible options, so everything in every
   option's ``R`` goes before ``t``.
3. **First move in a window.** For a set ``X`` of tiles (every ``k x l`` window of the
   grid), consider the first move that removes a tile of ``X``: every other tile of
   ``X`` is still there, so its option's ``R`` must miss them. Tiles of ``X`` that are in
   no such first move go strictly after every tile that is in all of them. (This is the
   argument that a locked block of tiles opens at one tile only.) When no move can be
   first, the board cannot be cleared.
4. **Locked core.** The same argument for a set ``X`` that is computed, not a window:
   peel off every tile with an option whose ``R`` misses ``X``, until none leaves. A
   non-empty rest is a set no tile of which can make the first move touching it, so
   the board cannot be cleared. (The search's pruning scan finds the same sets,
   :mod:`mjsat.search.kernels_shisen`; on random full boards of groups of four most
   unsolvable deals are such.)
5. **Held tile.** Peel again with one tile ``v`` never peeled: the first move touching
   the rest is ``v``'s, so every tile of the rest outside ``v``'s group goes strictly
   after ``v``.

All five only drop impossible options and add precedences that hold in every
clearing, so they keep the set of clearings. :func:`simplify_requirements` then rewrites
the requirements with them: ``need[t]`` holds the immediate necessary predecessors, pairs
without a feasible option are gone, and each remaining path set loses the tiles already
in ``N[a] | N[b]`` (they are gone anyway), keeping only the sets no other set is implied
by. When one reduced set is empty, the pair's constraint is just its ``need``. On the
supertile images of :mod:`mjsat.reductions.shisen` with empty lanes between the columns
every Mahjong pair ends up so: the image's requirements become the stack board's, plus a
few local sets of the private pairs. Edge to edge, some Mahjong pairs keep a few small
sets (tiles of the neighbouring columns).

Sets are Python ints used as bitsets (bit ``t`` for tile ``t``), as the requirements
hold them. This module reads the requirements through :class:`PathRequirements` and
does not import :mod:`mjsat.encoders.requirements`, which calls it.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from mjsat.board import Move, ShisenShoBoard, TileId
from mjsat.encoders.errors import EncodingError, check_deadline
from mjsat.encoders.shisen_paths import bits_members

__all__ = ["Necessary", "PathRequirements", "necessary_before", "simplify_requirements", "WINDOWS", "HELD_MAX_TILES"]

WINDOWS: tuple[tuple[int, int], ...] = ((3, 3),)
"""Window shapes (rows, columns) of the first-move rule."""
HELD_MAX_TILES = 100
"""Largest board on which the held-tile rule (rule 5) runs by default (an 8 x 12 board
has 96 tiles): its cost grows as the square of the tiles, a peel per held tile per
round (figures in ``benchmarks/README.md``)."""


class PathRequirements(Protocol):
    """What this module reads of :class:`mjsat.encoders.requirements.Requirements` (a
    dataclass, which :func:`simplify_requirements` copies with new values)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def n(self) -> int: ...

    @property
    def pairs(self) -> tuple[Move, ...]: ...

    @property
    def need(self) -> tuple[tuple[TileId, ...], ...]: ...

    @property
    def path_bits(self) -> dict[Move, tuple[int, ...]]: ...


R = TypeVar("R", bound=PathRequirements)


@dataclasses.dataclass(frozen=True)
class Necessary:
    """The fixpoint of :func:`necessary_before`.

    Attributes
    ----------
    before : tuple of int
        ``before[t]``: bitset of the tiles gone strictly before ``t`` in every clearing
        (transitively closed).
    options : dict of (a, b) -> tuple of int
        The feasible path sets (bitsets) of each candidate pair; a pair with none is absent.
    unsolvable : str
        Empty, or why no clearing exists (then ``before`` and ``options`` mean nothing).
    rounds : int
        Rounds until the fixpoint.
    """

    before: tuple[int, ...]
    options: dict[Move, tuple[int, ...]]
    unsolvable: str = ""
    rounds: int = 0


def _close(before: list[int]) -> None:
    """Make ``before`` transitively closed, in place."""
    changed = True
    while changed:
        changed = False
        for t, x in enumerate(before):
            c = x
            for o in bits_members(x):
                c |= before[o]
            if c != x:
                before[t] = c
                changed = True


def _windows(board: ShisenShoBoard, shapes: Sequence[tuple[int, int]]) -> list[int]:
    """Bitsets of the tiles of every window of the given shapes (margin included) holding
    at least two tiles, without repeats."""
    at = {tuple(c): t for t, c in enumerate(board.cells)}
    h, w = board.grid_shape
    out: set[int] = set()
    for wh, ww in shapes:
        for y in range(-wh + 1, h):
            for x in range(-ww + 1, w):
                bits = 0
                for yy in range(y, y + wh):
                    for xx in range(x, x + ww):
                        t = at.get((yy, xx))
                        if t is not None:
                            bits |= 1 << t
                if bits & (bits - 1):
                    out.add(bits)
    return sorted(out)


def _locked_core(opts: list[list[int]], waiting: list[list[int]], keep: int = -1) -> int:
    """The largest set ``X`` of tiles none of which can make the first move touching ``X``
    (rule 4), as a bitset; ``0`` when every tile can be peeled off. With ``keep``, that
    tile never leaves (rule 5).

    ``opts[t]`` are the sets that must be gone when ``t`` goes, one per option;
    ``waiting[o]`` the tiles with an option that needs ``o`` gone. A tile ``t`` leaves
    ``X`` when one of its options needs nothing of ``X`` gone (``r & X == 0``); the union
    of two locked sets is locked, so peeling until nothing leaves gives the largest one,
    whatever the order.
    """
    n = len(opts)
    X = (1 << n) - 1
    queue = [t for t in range(n) if t != keep]
    while queue:
        t = queue.pop()
        if not (X >> t) & 1:
            continue
        if any(r & X == 0 for r in opts[t]):
            X &= ~(1 << t)
            queue.extend(u for u in waiting[t] if u != keep and (X >> u) & 1)
    return X


def necessary_before(
    board: ShisenShoBoard,
    req: PathRequirements,
    *,
    windows: Sequence[tuple[int, int]] = WINDOWS,
    locked: bool = True,
    held: bool | None = None,
    deadline: float | None = None,
) -> Necessary:
    """The necessary predecessors of every tile of a Shisen-Sho board (module docstring).

    Parameters
    ----------
    board : ShisenShoBoard
    req : Requirements
        The board's raw requirements (``req.path_bits`` as
        :meth:`~mjsat.encoders.shisen_paths.ShisenLines.path_bits` gives them).
    windows : sequence of (int, int)
        Window shapes of the first-move rule; ``()`` switches the rule off.
    locked : bool (default True)
        Run rule 4, the locked core (:math:`O(\\sum_{p,S} |S|)` big-integer operations per round).
    held : bool, optional
        With ``locked``, also run rule 5, a peel with each tile held (``n`` times rule 4's cost
        per round); by default only on boards of at most :data:`HELD_MAX_TILES` tiles.
    deadline : float, optional
        A :func:`mjsat.clock.now` value; past it :class:`~mjsat.encoders.errors.BuildTimeLimit`
        is raised.

    Returns
    -------
    Necessary

    Raises
    ------
    EncodingError
        The board is not a Shisen-Sho board.
    BuildTimeLimit
        ``deadline`` passed.

    Notes
    -----
    A round costs :math:`O(\\sum_{p,S} |S| + W k)` big-integer operations on ``n``-bit
    integers for ``W`` windows of ``k`` tiles; every round but the last adds a
    precedence or drops an option, so there are at most :math:`n^2 + \\sum_p |S_p|`
    rounds (:attr:`Necessary.rounds` says how many ran).

    Examples
    --------
    A block of private pairs around a tile ``a`` (the supertile of
    :mod:`mjsat.reductions.shisen`) opens at ``a`` only:

    >>> from mjsat.board import Layout, ShisenShoBoard
    >>> from mjsat.encoders.requirements import requirements
    >>> from mjsat.encoders.shisen_paths import bits_members
    >>> rows = ["BaCa", "DBE.", "CED."]
    >>> cells = [(y, x) for y, r in enumerate(rows) for x, c in enumerate(r) if c != "."]
    >>> layout = Layout([(2 * y, 2 * x, 0) for y, x in cells])
    >>> board = ShisenShoBoard(layout, ["BaCDE".index(rows[y][x]) for y, x in cells])
    >>> nec = necessary_before(board, requirements(board, simplify=False))
    >>> [bits_members(nec.before[t]) for t in (0, 5, 9)]  # wait for the a pair, tiles 1 and 3
    [[1, 3], [1, 3], [1, 3]]
    """
    if board.kind != "grid-path":
        raise EncodingError(f"necessary predecessors are for Shisen-Sho boards, not {board.game}")
    n = req.n
    if held is None:
        held = n <= HELD_MAX_TILES
    before = [0] * n
    for t in range(n):
        for o in req.need[t]:
            before[t] |= 1 << o
    _close(before)
    options: dict[Move, list[tuple[int, list[TileId]]]] = {}  # (bitset, its tiles)
    for p in req.pairs:
        options[p] = [(m, bits_members(m)) for m in req.path_bits.get(p, (0,))]
    incident: list[list[Move]] = [[] for _ in range(n)]
    for p in req.pairs:
        incident[p[0]].append(p)
        incident[p[1]].append(p)
    wins = [(X, bits_members(X)) for X in (_windows(board, windows) if windows else [])]
    group_of = [0] * n
    for ts in board.group_members().values():
        bits = sum(1 << t for t in ts)
        for t in ts:
            group_of[t] = bits
    rounds = 0
    while True:
        rounds += 1
        changed = False
        # rule 1: what must be gone when the pair goes by each path set; drop impossible ones
        gone: dict[Move, list[int]] = {}
        for i, (p, sets) in enumerate(options.items()):
            if i % 256 == 0:
                check_deadline(deadline, "necessary predecessors")
            a, b = p
            both = (1 << a) | (1 << b)
            keep, rs = [], []
            for s, tiles in sets:
                r = s | before[a] | before[b]
                for o in tiles:
                    r |= before[o]
                if r & both:
                    continue
                keep.append((s, tiles))
                rs.append(r)
            if len(keep) != len(sets):
                changed = True
                options[p] = keep
            gone[p] = rs
        # rule 2: the intersection over every way a tile can go
        for t in range(n):
            if t % 256 == 0:
                check_deadline(deadline, "necessary predecessors")
            inter = -1
            for p in incident[t]:
                for r in gone[p]:
                    inter &= r
            if inter == -1:
                return Necessary(tuple(before), {}, f"tile {t} can go with no partner by any path", rounds)
            if inter & ~before[t]:
                before[t] |= inter
                changed = True
        # rule 3: the first move touching each window
        for i, (X, tiles_x) in enumerate(wins):
            if i % 256 == 0:
                check_deadline(deadline, "necessary predecessors")
            in_all = -1
            can_be_first = 0
            for t in tiles_x:
                for p in incident[t]:
                    move = (1 << p[0]) | (1 << p[1])
                    rest = X & ~move
                    if any(r & rest == 0 for r in gone[p]):
                        can_be_first |= move & X
                        in_all &= move & X
            if not can_be_first:
                return Necessary(tuple(before), {}, f"no tile of the window {bits_members(X)} can go first", rounds)
            later = X & ~can_be_first
            for x in bits_members(later):
                if in_all & ~before[x]:
                    before[x] |= in_all
                    changed = True
        # rule 4: the largest set no tile of which can go first (the locked core)
        if locked:
            opts = [[r for p in incident[t] for r in gone[p]] for t in range(n)]
            waiting: list[list[int]] = [[] for _ in range(n)]
            for t in range(n):
                for o in bits_members(functools.reduce(operator.or_, opts[t], 0)):
                    waiting[o].append(t)
            core = _locked_core(opts, waiting)
            if core:
                return Necessary(
                    tuple(before), {}, f"no tile of the locked set {bits_members(core)} can go first", rounds
                )
            # rule 5: with one tile v kept, the locked set around it goes after v
            for v in range(n if held else 0):
                if v % 16 == 0:
                    check_deadline(deadline, "necessary predecessors")
                kept = _locked_core(opts, waiting, v) & ~group_of[v]
                for x in bits_members(kept & ~(1 << v)):
                    if not (before[x] >> v) & 1:
                        before[x] |= 1 << v
                        changed = True
        _close(before)
        for t in range(n):
            if (before[t] >> t) & 1:
                return Necessary(tuple(before), {}, f"tile {t} would have to go before itself", rounds)
        if not changed:
            break
    return Necessary(tuple(before), {p: tuple(s for s, _ in sets) for p, sets in options.items() if sets}, "", rounds)


def simplify_requirements(
    board: ShisenShoBoard,
    req: R,
    *,
    windows: Sequence[tuple[int, int]] = WINDOWS,
    held: bool | None = None,
    deadline: float | None = None,
) -> R:
    """``req`` rewritten with the necessary predecessors (module docstring); the same clearings.

    Parameters
    ----------
    board : ShisenShoBoard
    req : Requirements
        The raw requirements of ``board``.
    windows, held : optional
        As in :func:`necessary_before`.
    deadline : float, optional
        As in :func:`necessary_before`.

    Returns
    -------
    Requirements
        ``need[t]``: the immediate necessary predecessors of ``t`` (a transitive
        reduction); ``pairs``: the pairs with a feasible path set; ``path_bits``: each
        pair's reduced, undominated sets (``(0,)``, the empty set, when nothing but
        ``need`` is left). A board proved unclearable gets no candidate pairs at all, so
        every encoding is unsatisfiable at once.

    Notes
    -----
    :func:`necessary_before`, plus :math:`O(\\sum_p s_p^2)` for the dominance tests of
    ``s_p`` sets per pair.
    """
    nec = necessary_before(board, req, windows=windows, held=held, deadline=deadline)
    n = req.n
    if nec.unsolvable:
        return dataclasses.replace(req, pairs=(), path_bits={}, impossible=tuple(range(n)))
    N = nec.before
    need = []
    for t in range(n):
        direct = N[t]
        for o in bits_members(N[t]):
            direct &= ~N[o]
        need.append(tuple(bits_members(direct)))
    paths: dict[Move, tuple[int, ...]] = {}
    for i, (p, sets) in enumerate(nec.options.items()):
        if i % 256 == 0:
            check_deadline(deadline, "necessary predecessors")
        base = N[p[0]] | N[p[1]]
        reduced = sorted({s & ~base for s in sets}, key=lambda m: (m.bit_count(), m))
        if reduced[0] == 0:
            paths[p] = (0,)
            continue
        minimal: list[int] = []
        for s in reduced:
            if not any(m & ~s == 0 for m in minimal):
                minimal.append(s)
        kept: list[int] = []
        for s in minimal:
            implied = s | base  # once s is gone, so is everything its tiles wait for
            for o in bits_members(s):
                implied |= N[o]
            if not any(m & ~implied == 0 for m in kept):  # else a kept set is gone whenever s is
                kept.append(s)
        paths[p] = tuple(kept)
    pairs = tuple(p for p in req.pairs if p in paths)
    covered = {t for p in pairs for t in p}
    impossible = tuple(t for t in range(n) if t not in covered)
    return dataclasses.replace(req, pairs=pairs, need=tuple(need), path_bits=paths, impossible=impossible)
