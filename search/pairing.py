"""The pairing-set search in pure Python: the readable reference of :mod:`mjsat.search.kernels`.

A solution of a Mahjong Solitaire or Shisen-Sho board is, first of all, a *pairing* of
every group: which tile goes with which [GF05]_. Because removing tiles never blocks
another tile (freeness and Shisen-Sho connections are monotone), the order of the moves
does not matter once the pairings are fixed: *applying* a pairing set (removing any pair
it allows, as long as one is playable) either clears the board or gets stuck, whatever
the order. So the search enumerates pairings of groups, not move orders.

The search here is group-directed ([dB12]_, section 3.2). A node holds a position and a
partial pairing set. It

1. **applies** the pairing set, with the cleaning rules of [GF05]_ and [dB12]_ on the groups
   without a pairing: the *freeze* rule (every remaining tile of the group is free, so any
   pairing does) and the *loose-tile* rule (three of the four remaining tiles are free and
   one of them blocks nothing: play the other two); as options, the two rules of [GF05]_
   that look one pair ahead in a group of four tiles left (``freeze_pair``: one pair
   goes and the other can follow at once; ``loose_pair``: two free tiles whose removal
   leaves a third one free and loose);
2. runs the **pruning scan** ([dB12]_, section 3.1): a relaxed game in which a group
   without a pairing plays its first two tiles together (any match) and its other tiles
   one by one as soon as they are free (Shisen-Sho: as soon as they connect to a tile of
   their group, present or already gone, [dB20]_); groups with a pairing play by it. The
   relaxed game cannot go wrong, so when it cannot clear the board neither can the real
   one;
3. picks a group to branch on. Without ``critical``: the first group with a playable pair
   (with ``joint``, every group with a playable pair at once, over the product of their
   pairings, as [GF05]_ does). With ``critical``: every pairing of every unpaired group is *probed* with a
   scan; a group with no surviving pairing prunes the node, a group with one is forced
   (assigned at once, and the node starts again), and otherwise the group with the
   fewest surviving pairings is branched on, over those pairings only (the "fewest
   pairings in the scan" heuristic of [dB12]_, section 3.2). Ties are broken by
   *conflict weights*: every failed probe of a group, and every child of a group pruned
   by the scan, adds one to the group's weight, and the choice minimises surviving
   pairings / (1 + weight) (the dom/wdeg rule of constraint solvers): the search keeps
   coming back to the groups that took part in earlier dead ends, so a proof of
   unsolvability names few groups.

With ``bondt`` the tree is de Bondt's own "pairing one, then two" tree with backward
adaptation instead ([dB12]_, section 3.2; :meth:`PythonSearch._search_bondt`): one apply
and one scan per step, no probes.

Before the exhaustive search, ``attempts`` random playouts (random playable pairs with
the cleaning rules, [dB12]_, section 3.3) look for an easy solution; a *guided* playout
keeps a random move only when the pruning scan survives it.

The numba kernels follow the same steps over flat arrays; this module is the version to
read, and the one the tests compare the kernels with.

References
----------
.. [GF05] P. Gimeno Fortea, "Mahjongg Solitaire Solver", web page, 2005.
.. [dB12] M. de Bondt, "Solving Mahjong Solitaire boards with peeking", arXiv:1203.6559, 2012.
.. [dB20] M. de Bondt, "Solving Shisen-Sho boards", arXiv:2010.09014, 2020.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

import numpy as np

from mjsat import clock
from mjsat.board import Board, Move
from mjsat.result import MethodNotApplicableError
from mjsat.shisen import connectable, connectable3d

__all__ = [
    "MAHJONG",
    "SHISEN",
    "SH3D",
    "Geometry",
    "geometry",
    "pairings",
    "SearchLimit",
    "PythonSearch",
]

MAHJONG = 0
"""Kind of a geometry whose pair test is 'both tiles free' (Mahjong, transposed Mahjong)."""
SHISEN = 1
"""Kind of a geometry whose pair test is a Shisen-Sho path of at most three segments."""
SH3D = 2
"""Kind of a geometry whose pair test is Shisen-Sho on the Mahjong grid ([dB20]_, section 4.1)."""


@cache
def pairings(r: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every way to split ``r`` (even) items into pairs, as tuples of index pairs.

    >>> pairings(4)
    (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)))
    >>> [len(pairings(r)) for r in (2, 4, 6, 8)]
    [1, 3, 15, 105]

    Notes
    -----
    ``(r - 1)!!`` pairings, built recursively in time proportional to their number.
    """
    if r % 2:
        raise ValueError(f"cannot pair an odd number of items ({r})")

    def rec(items: tuple[int, ...]) -> list[tuple[tuple[int, int], ...]]:
        if not items:
            return [()]
        first, rest = items[0], items[1:]
        out = []
        for i, other in enumerate(rest):
            for tail in rec(rest[:i] + rest[i + 1 :]):
                out.append(((first, other),) + tail)
        return out

    return tuple(rec(tuple(range(r))))


@dataclasses.dataclass(frozen=True)
class Geometry:
    """What the search needs of a board: groups, and the relations of its pair test.

    For :data:`MAHJONG`: ``above``/``one``/``two`` (the tiles covering a tile and those on
    its two sides) and their reverses ``covered``/``ones_of``/``twos_of`` (``u`` is in
    ``ones_of[t]`` when ``t`` is in ``one[u]``). For :data:`SHISEN`: ``cells`` (grid cell
    of each tile, margin included) and ``shape`` (the grid with its margin). For
    :data:`SH3D`: ``cells`` holds ``(row, col, lev)`` of each tile's top-left half-tile
    cell and ``shape`` is ``(levels, h, w)`` (see :class:`~mjsat.board.ShisenShoMahjongBoard`).
    """

    kind: int
    n: int
    group: tuple[int, ...]
    members: tuple[tuple[int, ...], ...]
    above: tuple[tuple[int, ...], ...] = ()
    one: tuple[tuple[int, ...], ...] = ()
    two: tuple[tuple[int, ...], ...] = ()
    covered: tuple[tuple[int, ...], ...] = ()
    ones_of: tuple[tuple[int, ...], ...] = ()
    twos_of: tuple[tuple[int, ...], ...] = ()
    cells: tuple[tuple[int, ...], ...] = ()
    shape: tuple[int, ...] = (0, 0)
    csr: tuple[Any, ...] = ()
    """:data:`MAHJONG`: the twelve CSR arrays of :attr:`mjsat.layout.SideTables.csr`."""
    cell_arrays: tuple[Any, ...] = ()
    """:data:`SHISEN` and :data:`SH3D`: :attr:`mjsat.board.GridTables.cell_arrays`."""


_KIND_OF: dict[str, int] = {"sides": MAHJONG, "grid-path": SHISEN, "cell-path": SH3D}
""":attr:`mjsat.board.Board.kind` -> the kind of the geometry."""


def geometry(board: Board) -> Geometry:
    """The :class:`Geometry` of ``board`` (groups renumbered ``0..G-1`` by first tile).

    Notes
    -----
    :math:`O(n)`; the layout's tables are built once per layout
    (:meth:`mjsat.board.Board.rule_tables`).
    """
    ids: dict[int, int] = {}
    number = ids.setdefault
    group = tuple([number(g, len(ids)) for g in board.groups])
    members: list[list[int]] = [[] for _ in ids]
    for t, g in enumerate(group):
        members[g].append(t)
    n = len(group)
    mem = tuple(map(tuple, members))
    kind = _KIND_OF.get(board.kind)
    if kind is None:
        raise MethodNotApplicableError(
            "search", board.game, f"the pairing search does not know the game {board.game!r}"
        )
    tables = board.rule_tables()
    if kind != MAHJONG:
        return Geometry(kind, n, group, mem, cells=tables.cells, shape=tables.shape, cell_arrays=tables.cell_arrays)
    return Geometry(
        MAHJONG, n, group, mem,
        above=tables.above, one=tables.one, two=tables.two,
        covered=tables.covered, ones_of=tables.ones_of, twos_of=tables.twos_of, csr=tables.csr,
    )  # fmt: skip


class SearchLimit(Exception):
    """Raised inside the search when the node or time limit is reached."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class PythonSearch:
    """The pairing-set search over a :class:`Geometry`, in plain Python.

    Parameters
    ----------
    geo : Geometry
    freeze, loose, scan, critical : bool
        The improvements (see the module docstring); each can be switched off.
    freeze_pair : bool
        Cleaning rule of [GF05]_ ("a pair of tiles such that, when removing it, the other
        pair of the same group can be immediately removed"): a group without a pairing
        and with four tiles left, one pair of which is playable and leaves the other
        pair playable once it is gone, plays both pairs at once. Every game.
    loose_pair : bool
        Cleaning rule of [GF05]_ ("two tiles free which when removed cause a third tile
        of the same group to become loose"): in a group without a pairing and with four
        tiles left, two free tiles ``p``, ``q`` go when, without them, a third tile ``c``
        is free and loose (:meth:`is_loose`); ``c`` is paired with the fourth ``d``. (When
        ``d`` is free then as well, the apply plays it at once.) Mahjong only: the
        looseness of a Shisen-Sho tile (its cell blocks no path that matters) has no
        local test.
    joint : bool
        Without ``critical``: a node branches jointly on the pairings of every group
        without a pairing that has a playable pair (the product of their pairings, the
        ternary enumeration of [GF05]_), instead of on the first such group.
    node_limit : int or None
        Nodes before :class:`SearchLimit` is raised.
    deadline : float or None
        ``mjsat.clock.now()`` value after which :class:`SearchLimit` is raised.

    Notes
    -----
    A node costs :math:`O(n^2)` for apply and scan (rounds over the tiles until nothing
    changes; a Shisen-Sho pair test costs :math:`O((h + w)^2)` more), and with
    ``critical`` one scan per pairing of every unpaired group. The tree has at most one
    level per group and ``(r-1)!!`` children per node for a group of ``r`` tiles left.

    The cleaning rules never turn a solvable position into a dead one. Freeness (and a
    Shisen-Sho connection) only grows as tiles go, so when a solution ``S`` of a position
    exists, leaving out the moves of one group keeps the other moves of ``S`` playable
    in the same order. Hence:

    * ``freeze`` and ``freeze_pair``: a group whose tiles can all go now, by moves of
      that group only, may go first; ``S`` without that group's moves finishes the board.
    * ``loose`` and ``loose_pair``: say ``p`` and ``q`` are free, and without them ``c`` is
      free and loose: it covers no present tile, and every present tile beside it has
      its other side open. Both stay true as tiles go (a tile under ``c`` cannot go
      while ``c`` is there), so from then on ``c`` is always free and decides no tile's
      freeness. Play ``(p, q)``, then the moves of ``S`` of the other groups in order,
      and ``(c, d)`` as soon as ``d`` is free: each move of ``S`` finds its tiles free,
      since the position differs from the one of ``S`` only by tiles gone and by ``c``,
      which blocks nothing; and ``d`` is free at the latest when ``S`` plays it.
    * ``joint`` only changes how the pairings of the search tree are enumerated: every
      combination is still tried.
    """

    def __init__(
        self,
        geo: Geometry,
        *,
        freeze: bool = True,
        loose: bool = True,
        scan: bool = True,
        critical: bool = True,
        bondt: bool = False,
        freeze_pair: bool = False,
        loose_pair: bool = False,
        joint: bool = False,
        node_limit: int | None = None,
        deadline: float | None = None,
    ) -> None:
        self.geo = geo
        self.freeze = freeze
        self.loose = loose and geo.kind == MAHJONG
        self.freeze_pair = freeze_pair
        self.loose_pair = loose_pair and geo.kind == MAHJONG
        self.joint = joint
        self.use_scan = scan
        self.critical = critical
        self.bondt = bondt
        self.node_limit = node_limit
        self.deadline = deadline
        self.nodes = 0
        self.scans = 0
        self.weight = [0.0] * len(geo.members)

    # ------------------------------------------------------------------ the pair test
    def _occ(self, present: bytearray) -> np.ndarray:
        occ = np.zeros(self.geo.shape, dtype=bool)
        if self.geo.kind == SH3D:
            for t, (r, c, l) in enumerate(self.geo.cells):
                if present[t]:
                    occ[l, r : r + 2, c : c + 2] = True
            return occ
        for t, (y, x) in enumerate(self.geo.cells):
            if present[t]:
                occ[y, x] = True
        return occ

    def is_free(self, t: int, present: bytearray) -> bool:
        """Mahjong freeness of a present tile ``t``."""
        g = self.geo
        if any(present[o] for o in g.above[t]):
            return False
        return not any(present[o] for o in g.one[t]) or not any(present[o] for o in g.two[t])

    def playable(self, a: int, b: int, present: bytearray) -> bool:
        """True iff present tiles ``a`` and ``b`` could go together now (groups aside)."""
        if self.geo.kind == MAHJONG:
            return self.is_free(a, present) and self.is_free(b, present)
        if self.geo.kind == SH3D:
            return connectable3d(self._occ(present), self.geo.cells[a], self.geo.cells[b])  # type: ignore[arg-type]  # cells: (row, col, lev) for SH3D, (row, col) otherwise
        return connectable(self._occ(present), self.geo.cells[a], self.geo.cells[b])  # type: ignore[arg-type]  # cells: (row, col, lev) for SH3D, (row, col) otherwise

    def is_loose(self, t: int, present: bytearray) -> bool:
        """True iff the presence of ``t`` can never block another tile [GF05]_.

        ``t`` covers no present tile, and every present tile touching one of its sides
        already has its other side open (so ``t`` does not decide its freeness).
        """
        g = self.geo
        if any(present[u] for u in g.covered[t]):
            return False
        for u in g.ones_of[t]:  # t is on u's first side
            if present[u] and any(present[o] for o in g.two[u]):
                return False
        for u in g.twos_of[t]:
            if present[u] and any(present[o] for o in g.one[u]):
                return False
        return True

    # ------------------------------------------------------------------ apply
    def apply(self, present: bytearray, partner: list[int], moves: list[Move]) -> None:
        """Play every pair the pairing set allows, and the cleaning moves, until stuck.

        Tiles of a group with a pairing have ``partner[t] >= 0``; a group left with two
        tiles is paired at once. Moves are appended to ``moves`` in playing order.
        """
        changed = True
        while changed:
            changed = False
            for tiles in self.geo.members:
                live = [t for t in tiles if present[t]]
                if not live:
                    continue
                if partner[live[0]] >= 0:
                    for t in live:
                        p = partner[t]
                        if t < p and present[t] and present[p] and self.playable(t, p, present):
                            present[t] = present[p] = 0
                            moves.append((t, p))
                            changed = True
                elif self._clean(live, present, partner, moves):
                    changed = True

    def _clean(self, live: list[int], present: bytearray, partner: list[int], moves: list[Move]) -> bool:
        if len(live) == 2:
            partner[live[0]], partner[live[1]] = live[1], live[0]
            return True
        if self.freeze:
            if self.geo.kind == MAHJONG:
                frozen = all(self.is_free(t, present) for t in live)
            else:
                frozen = all(self.playable(a, b, present) for a, b in itertools.combinations(live, 2))
            if frozen:
                for i in range(0, len(live), 2):
                    present[live[i]] = present[live[i + 1]] = 0
                    moves.append((live[i], live[i + 1]))
                return True
        if self.loose and len(live) == 4:
            free = [t for t in live if self.is_free(t, present)]
            if len(free) == 3:
                for loose in free:
                    if self.is_loose(loose, present):
                        a, b = (t for t in free if t != loose)
                        present[a] = present[b] = 0
                        moves.append((a, b))
                        (last,) = (t for t in live if t not in free)
                        partner[loose], partner[last] = last, loose
                        return True
        if len(live) == 4 and (self.freeze_pair or self.loose_pair):
            return self._pair_rules(live, present, partner, moves)
        return False

    def _pair_rules(self, live: list[int], present: bytearray, partner: list[int], moves: list[Move]) -> bool:
        """``freeze_pair`` and ``loose_pair`` on the four tiles ``live`` of a group without a
        pairing: every playable pair is taken off for a moment, in member order, and the
        first one after which a rule applies is played."""
        for p, q in itertools.combinations(live, 2):
            if not self.playable(p, q, present):
                continue
            present[p] = present[q] = 0
            c, d = (t for t in live if t not in (p, q))
            if self.geo.kind == MAHJONG:
                c_free, d_free = self.is_free(c, present), self.is_free(d, present)
                clear = c_free and d_free
            else:
                c_free = d_free = False
                clear = self.playable(c, d, present)
            if clear and self.freeze_pair:
                present[c] = present[d] = 0
                moves.extend(((p, q), (c, d)))
                return True
            if self.loose_pair:
                for x, y, x_free in ((c, d, c_free), (d, c, d_free)):
                    if x_free and self.is_loose(x, present):
                        moves.append((p, q))
                        partner[x], partner[y] = y, x
                        return True
            present[p] = present[q] = 1
        return False

    # ------------------------------------------------------------------ the pruning scan
    def scan(self, present: bytearray, partner: list[int]) -> bool:
        """True iff the relaxed game of the pruning scan clears the position."""
        self.scans += 1
        pres = bytearray(present)
        opened: set[int] = set()
        start = [[t for t in tiles if pres[t]] for tiles in self.geo.members]
        changed = True
        while changed:
            changed = False
            for g, tiles in enumerate(start):
                live = [t for t in tiles if pres[t]]
                if not live:
                    continue
                if partner[live[0]] >= 0:
                    for t in live:
                        p = partner[t]
                        if t < p and pres[t] and pres[p] and self.playable(t, p, pres):
                            pres[t] = pres[p] = 0
                            changed = True
                    continue
                if g not in opened:
                    for a, b in itertools.combinations(live, 2):
                        if self.playable(a, b, pres):
                            pres[a] = pres[b] = 0
                            opened.add(g)
                            changed = True
                            break
                if g in opened:
                    for t in live:
                        if pres[t] and self._single(t, tiles, pres):
                            pres[t] = 0
                            changed = True
        return not any(pres)

    def _single(self, t: int, tiles: list[int], pres: bytearray) -> bool:
        if self.geo.kind == MAHJONG:
            return self.is_free(t, pres)
        occ = self._occ(pres)
        cells = self.geo.cells
        test = connectable3d if self.geo.kind == SH3D else connectable
        return any(test(occ, cells[t], cells[u]) for u in tiles if u != t)  # type: ignore[arg-type]  # cells: (row, col, lev) for SH3D, (row, col) otherwise

    def _probe(
        self, live: list[int], pairing: Sequence[tuple[int, int]], present: bytearray, partner: list[int]
    ) -> bool:
        for i, j in pairing:
            partner[live[i]], partner[live[j]] = live[j], live[i]
        ok = self.scan(present, partner)
        for t in live:
            partner[t] = -1
        return ok

    # ------------------------------------------------------------------ the search
    def _tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchLimit("node limit")
        if self.deadline is not None and clock.now() > self.deadline:
            raise SearchLimit("time limit")

    def search(self) -> list[Move] | None:
        """A clearing move list, or ``None`` when there is none (exhaustive).

        Raises
        ------
        SearchLimit
            When the node or time limit is reached.
        """
        if self.bondt:
            return self._search_bondt()
        present = bytearray(b"\x01") * self.geo.n
        partner = [-1] * self.geo.n
        path: list[Move] = []
        return path if self._node(present, partner, path, -1) else None

    def _node(self, present: bytearray, partner: list[int], path: list[Move], parent_group: int) -> bool:
        self._tick()
        here: list[Move] = []
        weight = self.weight
        while True:
            self.apply(present, partner, here)
            if not any(present):
                path.extend(here)
                return True
            if self.use_scan and not self.scan(present, partner):
                if parent_group >= 0:
                    weight[parent_group] += 1.0
                return False
            open_groups = []
            for g, tiles in enumerate(self.geo.members):
                live = [t for t in tiles if present[t]]
                if live and partner[live[0]] < 0:
                    open_groups.append((g, live))
            if not open_groups:
                return False
            if not self.critical:
                playable = [
                    (g, live)
                    for g, live in open_groups
                    if any(self.playable(a, b, present) for a, b in itertools.combinations(live, 2))
                ]
                if not playable:
                    return False
                if self.joint:  # every combination of their pairings, the first group fastest
                    group = playable[0][0]
                    tables = [[[(live[i], live[j]) for i, j in p] for p in pairings(len(live))] for _, live in playable]
                    branches: Iterable[list[tuple[int, int]]] = (  # lazily: 3 ** k of them
                        [pair for part in reversed(combo) for pair in part]
                        for combo in itertools.product(*reversed(tables))
                    )
                    break
                group, live = playable[0]
                choices = list(pairings(len(live)))
                branches = [[(live[i], live[j]) for i, j in p] for p in choices]
                break
            # critical groups: probe every pairing; the groups that failed most often go
            # first (a dead node ends sooner) and weigh in the choice (conflict weights)
            best: tuple[float, int, list[int], list] | None = None
            forced = False
            for g, live in sorted(open_groups, key=lambda gl: -weight[gl[0]]):
                ok = []
                for p in pairings(len(live)):
                    if self._probe(live, p, present, partner):
                        ok.append(p)
                    else:
                        weight[g] += 1.0
                if not ok:
                    return False
                if len(ok) == 1:
                    for i, j in ok[0]:
                        partner[live[i]], partner[live[j]] = live[j], live[i]
                    forced = True
                elif best is None or len(ok) / (1.0 + weight[g]) < best[0]:
                    best = (len(ok) / (1.0 + weight[g]), g, live, ok)
            if forced:
                continue
            assert best is not None
            _, group, live, choices = best
            branches = [[(live[i], live[j]) for i, j in p] for p in choices]
            break
        path.extend(here)
        for branch in branches:
            child_present = bytearray(present)
            child_partner = list(partner)
            for a, b in branch:
                child_partner[a], child_partner[b] = b, a
            if self._node(child_present, child_partner, path, group):
                return True
        del path[len(path) - len(here) :]
        return False

    # ------------------------------------------------------------------ "pairing one, then two"
    def _bondt_eval(self, stack: list[list[int]], rot: list[int], skip: int = -1) -> tuple[int, list[Move], int]:
        """Apply the pairings of ``stack`` (all but entry ``skip``) to the full board, then scan.

        Returns ``(code, moves, next_group)``: code 0 when the scan lets the position
        live (``next_group`` is then the first group without a pairing that still has
        tiles), 1 when it prunes, 2 when the apply clears the board (``moves`` solve it).
        """
        g = self.geo
        present = bytearray(b"\x01") * g.n
        partner = [-1] * g.n
        for i, (grp, k) in enumerate(stack):
            if i == skip:
                continue
            tiles = g.members[grp]
            table = pairings(len(tiles))
            for a, b in table[(k + rot[grp]) % len(table)]:
                partner[tiles[a]], partner[tiles[b]] = tiles[b], tiles[a]
        moves: list[Move] = []
        self.apply(present, partner, moves)
        if not any(present):
            return 2, moves, -1
        if self.use_scan and not self.scan(present, partner):
            return 1, moves, -1
        nxt = -1
        playable = False
        for grp, tiles in enumerate(g.members):
            live = [t for t in tiles if present[t]]
            if not live or partner[live[0]] >= 0:
                continue
            if nxt < 0:
                nxt = grp
            if not playable and any(self.playable(a, b, present) for a, b in itertools.combinations(live, 2)):
                playable = True
        return (0, moves, nxt) if playable else (1, moves, -1)

    def _search_bondt(self) -> list[Move] | None:
        """de Bondt's "pairing one, then two" tree ([dB12]_, section 3.2).

        The tree is a stack of ``[group, pairing]`` entries (pairing ``0`` is "pairing
        one"). While the scan lets the position live, the next group without a pairing
        (in group order, no heuristic) is pushed with pairing one. When the scan prunes
        and the last entry has pairing one, the entries of the run of pairing-one groups
        just added are taken out of the tree in backward order, from the one before the
        last up to the previous entry with a larger pairing, whenever the scan still
        prunes without them ("adapting the search tree backwards"); a group taken out
        has its tiles two, three and four cycled forward (its pairing one becomes its old
        pairing two; for groups of 6 or 8 tiles, the next pairing in the table). Then the
        last entry goes to its next pairing, and an exhausted entry is popped, as in any
        depth-first search. Every evaluation starts from the full board.
        """
        g = self.geo
        rot = [0] * len(g.members)
        stack: list[list[int]] = []
        while True:
            self._tick()
            code, moves, nxt = self._bondt_eval(stack, rot)
            if code == 2:
                return moves
            if code == 0:
                stack.append([nxt, 0])
                continue
            if not stack:
                return None
            if stack[-1][1] == 0:  # a run of pairing-one groups ended in a prune: adapt it
                j = len(stack) - 2
                while j >= 0 and stack[j][1] == 0:
                    code, moves, _ = self._bondt_eval(stack, rot, skip=j)
                    if code == 2:
                        return moves
                    if code == 1:
                        grp = stack.pop(j)[0]
                        rot[grp] = (rot[grp] + 1) % len(pairings(len(g.members[grp])))
                    j -= 1
            while stack:
                grp, k = stack[-1]
                if k + 1 < len(pairings(len(g.members[grp]))):
                    stack[-1][1] = k + 1
                    break
                stack.pop()
            if not stack:
                return None

    # ------------------------------------------------------------------ random attempts
    def attempt(self, rng: np.random.Generator, *, guided: bool = False) -> list[Move] | None:
        """One random playout with the cleaning rules; its moves when it clears the board.

        ``guided``: a random move is kept only when the pruning scan still clears the
        position after it; another one is drawn otherwise (the playout ends when none is
        left). Every playable pair is drawn alike: the numba engine's policy ``"uniform"``
        (:data:`mjsat.search.config.PLAYOUTS`); its default (``"rows"``) and ``"safe"`` are
        not implemented here.
        """
        present = bytearray(b"\x01") * self.geo.n
        partner = [-1] * self.geo.n
        moves: list[Move] = []
        while True:
            self.apply(present, partner, moves)
            if not any(present):
                return moves
            legal: list[Move] = []
            for tiles in self.geo.members:
                live = [t for t in tiles if present[t]]
                if len(live) >= 2 and partner[live[0]] < 0:
                    legal.extend((a, b) for a, b in itertools.combinations(live, 2) if self.playable(a, b, present))
            while legal:
                i = int(rng.integers(len(legal)))
                a, b = legal[i]
                present[a] = present[b] = 0
                if not guided or self.scan(present, partner):
                    break
                present[a] = present[b] = 1
                legal[i] = legal[-1]
                legal.pop()
            if not legal:
                return None
            moves.append((a, b))
