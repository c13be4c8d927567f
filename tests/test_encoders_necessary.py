"""encoders/necessary.py: necessary predecessors of Shisen-Sho tiles, checked on every clearing.

The reference is an exhaustive walk of the move graph (states are bitsets of the tiles
still present, moves come from the breadth-first path test of ``tests/naive.py``): a
move of a state that is reachable from the full board and leads to a clearable state
lies on some clearing, and every move of every clearing is such a move. So a property
checked on all these "good" moves holds in every clearing, and a precedence that fails
on one of them fails in some clearing.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from naive import bfs_connectable

from mjsat.board import Layout, ShisenShoBoard
from mjsat.encoders import sat as sat_module
from mjsat.encoders.errors import EncodingError
from mjsat.encoders.necessary import WINDOWS, necessary_before, simplify_requirements
from mjsat.encoders.pairings import feasible_pairings, linearize, perfect_matchings
from mjsat.encoders.requirements import Requirements, requirements
from mjsat.encoders.sat import WEAK_PATH_CAP, solve_sat
from mjsat.encoders.shisen_paths import ShisenLines, bits_members, shisen_paths
from mjsat.methods import solve
from mjsat.reductions.shisen import shisen_from_stacks
from mjsat.reductions.stacks import board_from_stacks
from mjsat.replay import replay

# ---------------------------------------------------------------------------------------
# boards and the exhaustive reference


def make_board(cells, groups) -> ShisenShoBoard:
    """A Shisen-Sho board on grid cells ``(y, x)``."""
    return ShisenShoBoard(Layout([(2 * y, 2 * x, 0) for y, x in cells]), list(groups))


@st.composite
def small_boards(draw, max_h=4, max_w=4, max_tiles=12):
    """A random grid of at most ``max_h x max_w`` cells, some of them holes, at most
    ``max_tiles`` tiles in groups of 2 and 4, dealt at random."""
    h = draw(st.sampled_from([min(v, max_h) for v in (1, 2, max_h - 1, max_h, max_h)]))  # mostly big and dense
    w = draw(st.sampled_from([min(v, max_w) for v in (2, 3, max_w - 1, max_w, max_w)]))
    grid = [(y, x) for y in range(h) for x in range(w)]
    most = min(len(grid), max_tiles) // 2
    k = 2 * draw(st.sampled_from([m for m in (1, most - 2, most - 1, most, most) if m > 0]))
    cells = sorted(draw(st.permutations(grid))[:k])
    n = len(cells)
    sizes, left = [], n
    while left:
        s = draw(st.sampled_from([x for x in (2, 2, 4) if x <= left]))
        sizes.append(s)
        left -= s
    tiles = [g for g, s in enumerate(sizes) for _ in range(s)]
    groups = draw(st.permutations(tiles))
    return make_board(cells, groups)


def random_board(rng: np.random.Generator, *, max_h=4, max_w=4, max_tiles=12) -> ShisenShoBoard:
    """The numpy-seeded twin of :func:`small_boards`."""
    while True:
        h, w = int(rng.integers(1, max_h + 1)), int(rng.integers(1, max_w + 1))
        p = float(rng.uniform(0.5, 1.0))
        cells = [(y, x) for y in range(h) for x in range(w) if rng.random() < p]
        if len(cells) > max_tiles:
            cells = [cells[i] for i in sorted(rng.choice(len(cells), max_tiles, replace=False))]
        cells = cells[: len(cells) - len(cells) % 2]
        if len(cells) >= 2:
            break
    sizes, left = [], len(cells)
    while left:
        s = int(rng.choice([x for x in (2, 4) if x <= left]))
        sizes.append(s)
        left -= s
    groups = rng.permutation(np.repeat(np.arange(len(sizes)), sizes)).tolist()
    return make_board(cells, groups)


def dense_pair_board(rng: np.random.Generator, *, fours: int = 0) -> ShisenShoBoard:
    """A 3 x 3 or 3 x 4 grid full but for at most three holes, of pairs and ``fours``
    groups of four: locks and dead ends are common."""
    h, w = (3, 3) if rng.random() < 0.5 else (3, 4)
    cells = [(y, x) for y in range(h) for x in range(w)]
    k = len(cells) - len(cells) % 2 - 2 * int(rng.integers(0, 2))
    cells = [cells[j] for j in sorted(rng.choice(len(cells), k, replace=False))]
    fours = min(fours, k // 4)
    sizes = [4] * fours + [2] * ((k - 4 * fours) // 2)
    return make_board(cells, rng.permutation(np.repeat(np.arange(len(sizes)), sizes)).tolist())


class MoveGraph:
    """Every state reachable from the full board, and which of them can still be cleared.

    States are bitsets of the tiles present; a move is legal when its two tiles are of one
    group and :func:`naive.bfs_connectable` joins them (no code of mjsat.encoders).
    """

    def __init__(self, board: ShisenShoBoard) -> None:
        self.board = board
        self.n = n = len(board)
        self.full = (1 << n) - 1
        self.groups = list(board.groups)
        self.cell1 = [(y + 1, x + 1) for y, x in board.cells]
        self.shape = (board.grid_shape[0] + 2, board.grid_shape[1] + 2)
        self.candidates = [(a, b) for a, b in itertools.combinations(range(n), 2) if self.groups[a] == self.groups[b]]
        self._moves: dict[int, list[tuple[int, int]]] = {}
        self._clearable: dict[int, bool] = {0: True}
        self.reachable = self._reach()

    def moves(self, state: int) -> list[tuple[int, int]]:
        out = self._moves.get(state)
        if out is None:
            occ = np.zeros(self.shape, dtype=bool)
            for t in bits_members(state):
                occ[self.cell1[t]] = True
            out = [
                (a, b)
                for a, b in self.candidates
                if (state >> a) & 1 and (state >> b) & 1 and bfs_connectable(occ, self.cell1[a], self.cell1[b])
            ]
            self._moves[state] = out
        return out

    def _reach(self) -> list[int]:
        seen = {self.full}
        stack = [self.full]
        while stack:
            s = stack.pop()
            for a, b in self.moves(s):
                nxt = s & ~((1 << a) | (1 << b))
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return sorted(seen, key=lambda s: -s.bit_count())

    def clearable(self, state: int) -> bool:
        known = self._clearable.get(state)
        if known is None:
            known = any(self.clearable(state & ~((1 << a) | (1 << b))) for a, b in self.moves(state))
            self._clearable[state] = known
        return known

    @functools.cached_property
    def solvable(self) -> bool:
        for s in reversed(self.reachable):  # fewest tiles first: memo fills bottom-up
            self.clearable(s)
        return self.clearable(self.full)

    @functools.cached_property
    def good_moves(self) -> list[tuple[int, tuple[int, int]]]:
        """``(state, move)`` for every move of every clearing (each pair once per state)."""
        if not self.solvable:
            return []
        out = []
        for s in self.reachable:
            if not self.clearable(s):
                continue
            for a, b in self.moves(s):
                if self.clearable(s & ~((1 << a) | (1 << b))):
                    out.append((s, (a, b)))
        return out

    @functools.cached_property
    def pairings(self) -> set[tuple[tuple[int, int], ...]]:
        """The pairing of every clearing."""
        memo: dict[int, set[frozenset]] = {0: {frozenset()}}

        def rec(s: int) -> set[frozenset]:
            if s not in memo:
                out: set[frozenset] = set()
                for a, b in self.moves(s):
                    nxt = s & ~((1 << a) | (1 << b))
                    if self.clearable(nxt):
                        out |= {rest | {(a, b)} for rest in rec(nxt)}
                memo[s] = out
            return memo[s]

        if not self.solvable:
            return set()
        return {tuple(sorted(p)) for p in rec(self.full)}


def req_linearize(req: Requirements, pairing) -> list[tuple[int, int]] | None:
    """An order of ``pairing`` meeting ``req`` (need gone, some path set gone, pairs
    candidates), or None. Greedy, like :func:`linearize`: the conditions are monotone in
    the set of removed tiles."""
    left = sorted(tuple(sorted(p)) for p in pairing)
    if any(p not in set(req.pairs) for p in left):
        return None
    gone: set[int] = set()
    order = []
    progress = True
    while left and progress:
        progress = False
        for p in list(left):
            a, b = p
            if not set(req.need[a]) <= gone or not set(req.need[b]) <= gone:
                continue
            if not any(s <= gone for s in req.paths.get(p, (frozenset(),))):
                continue
            gone |= {a, b}
            order.append(p)
            left.remove(p)
            progress = True
    return order if not left else None


WINDOW_SETS = [WINDOWS, (), ((2, 2), (3, 3), (2, 4), (4, 2), (1, 3), (4, 4))]


def check_necessary(board: ShisenShoBoard, graph: MoveGraph, windows=WINDOWS):
    """Assert that :func:`necessary_before` holds in every clearing; returns it."""
    raw = requirements(board, simplify=False)
    nec = necessary_before(board, raw, windows=windows)
    if nec.unsolvable:
        assert not graph.solvable, (board.cells, board.groups, windows, nec.unsolvable)
        return nec
    for state, (a, b) in graph.good_moves:
        for t in (a, b):
            late = nec.before[t] & state  # tiles said to go strictly before t, still present
            assert late == 0, (board.cells, board.groups, windows, (a, b), t, bits_members(late))
        # every raw path set all gone at this move is a feasible option and is kept
        opts = set(nec.options.get((a, b), ()))
        used = [m for m in raw.path_bits[(a, b)] if m & state == 0]
        assert used, (board.cells, board.groups, (a, b))  # the naive test and shisen_paths agree
        for m in used:
            assert m in opts, (board.cells, board.groups, windows, (a, b), bits_members(m), nec.options.get((a, b)))
    # options only ever drop raw sets; a pair without any is absent
    for p, opts in nec.options.items():
        assert opts and set(opts) <= set(raw.path_bits[p])
    # before is transitively closed
    for t, x in enumerate(nec.before):
        for o in bits_members(x):
            assert nec.before[o] & ~x == 0, (t, o)
    return nec


def all_pairings(board) -> list[tuple[tuple[int, int], ...]]:
    """Every pairing of ``board`` into pairs of one group."""
    per_group = [list(perfect_matchings(sorted(ts))) for ts in board.group_members().values()]
    return [tuple(sorted(p for part in combo for p in part)) for combo in itertools.product(*per_group)]


# ---------------------------------------------------------------------------------------
# 1. necessary_before is sound


@settings(max_examples=200, deadline=None)
@given(board=small_boards(), windows=st.sampled_from(WINDOW_SETS))
def test_necessary_before_holds_in_every_clearing(board, windows):
    check_necessary(board, MoveGraph(board), windows)


def test_necessary_before_on_seeded_locked_boards():
    """Dense boards of pairs (where locks occur): the same checks, and the rules bite."""
    rng = np.random.default_rng(7)
    counts = {"precedence": 0, "dropped": 0, "refuted": 0, "unsolvable": 0}
    for _ in range(150):
        board = dense_pair_board(rng)
        graph = MoveGraph(board)
        for windows in WINDOW_SETS:
            nec = check_necessary(board, graph, windows)
        nec = check_necessary(board, graph)
        counts["unsolvable"] += not graph.solvable
        counts["refuted"] += bool(nec.unsolvable)
        if not nec.unsolvable:
            raw = requirements(board, simplify=False)
            counts["precedence"] += any(nec.before)
            counts["dropped"] += sum(map(len, nec.options.values())) < sum(map(len, raw.path_bits.values()))
    # the checks above were not vacuous
    assert counts["precedence"] >= 10 and counts["dropped"] >= 3 and counts["refuted"] >= 8, counts


def check_necessary_rules(board: ShisenShoBoard, graph: MoveGraph, locked: bool, held: bool):
    """:func:`check_necessary` with the locked-set rules (4 and 5) on or off."""
    raw = requirements(board, simplify=False)
    nec = necessary_before(board, raw, locked=locked, held=held)
    if nec.unsolvable:
        assert not graph.solvable, (board.cells, board.groups, locked, held, nec.unsolvable)
        return nec
    for state, (a, b) in graph.good_moves:
        for t in (a, b):
            assert nec.before[t] & state == 0, (board.cells, board.groups, locked, held, (a, b), t)
    return nec


@settings(max_examples=150, deadline=None)
@given(board=small_boards(), locked=st.booleans(), held=st.booleans())
def test_locked_set_rules_hold_in_every_clearing(board, locked, held):
    check_necessary_rules(board, MoveGraph(board), locked, held)


def test_locked_set_rules_refute_full_boards_like_the_search():
    """Random full 8 x 12 boards of groups of four (too big for the move graph): rules 4
    and 5 refute a board only when the search finds it unsolvable, each rule refutes
    boards the rules before it miss, and rule 5 only adds precedences."""
    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout

    layout = load_layout("rect-12x8")
    configs = ((False, False), (True, False), (True, True))
    refuted = dict.fromkeys(configs, 0)
    for seed in range(60):
        board = deal_random(layout, seed=seed, game="shisen-sho")
        raw = requirements(board, simplify=False)
        necs = {cfg: necessary_before(board, raw, locked=cfg[0], held=cfg[1]) for cfg in configs}
        if any(nec.unsolvable for nec in necs.values()):
            assert solve(board, "search", time_limit=60).status == "unsolvable", seed
        for cfg, nec in necs.items():
            refuted[cfg] += bool(nec.unsolvable)
        plain, both = necs[(True, False)], necs[(True, True)]
        if not both.unsolvable:
            assert not plain.unsolvable
            assert all(x & ~y == 0 for x, y in zip(plain.before, both.before)), seed
    assert refuted[(False, False)] < refuted[(True, False)] < refuted[(True, True)], refuted


def test_necessary_before_rejects_other_games():
    from mjsat.board import MahjongBoard

    board = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0)]), [0, 0])
    with pytest.raises(EncodingError):
        necessary_before(board, requirements(board))


# ---------------------------------------------------------------------------------------
# 2. simplify_requirements keeps the clearable pairings


@settings(max_examples=80, deadline=None)
@given(board=small_boards(max_tiles=10), windows=st.sampled_from(WINDOW_SETS))
def test_simplified_requirements_keep_the_clearable_pairings(board, windows):
    graph = MoveGraph(board)
    raw = requirements(board, simplify=False)
    simple = simplify_requirements(board, raw, windows=windows)
    truth = graph.pairings
    assert truth == feasible_pairings(board)
    for pairing in all_pairings(board):
        ok = pairing in truth
        assert (req_linearize(raw, pairing) is not None) == ok
        order = req_linearize(simple, pairing)
        assert (order is not None) == ok, (board.cells, board.groups, windows, pairing, ok)
        if order is not None:
            assert linearize(board, order) is not None
    if not graph.solvable:
        return
    # the default simplification is the one requirements() applies
    if windows == WINDOWS:
        assert requirements(board) == simple
    # need[] is a transitive reduction of the necessary predecessors
    nec = necessary_before(board, raw, windows=windows)
    for t in range(len(board)):
        closure = 0
        for o in simple.need[t]:
            closure |= (1 << o) | nec.before[o]
        assert closure == nec.before[t]


def test_simplify_requirements_on_seeded_locked_boards():
    rng = np.random.default_rng(11)
    changed = 0
    for _ in range(120):
        board = dense_pair_board(rng, fours=int(rng.integers(0, 3)))
        truth = MoveGraph(board).pairings
        raw = requirements(board, simplify=False)
        simple = requirements(board)
        changed += simple.paths != raw.paths or any(simple.need)
        for pairing in all_pairings(board):
            assert (req_linearize(simple, pairing) is not None) == (pairing in truth), (
                board.cells,
                board.groups,
                pairing,
            )
    assert changed >= 6


# ---------------------------------------------------------------------------------------
# 3. the weaker requirements (cap) are met by every clearing


@settings(max_examples=80, deadline=None)
@given(board=small_boards(), cap=st.sampled_from([0, 1, 2, 3, 5]))
def test_weak_requirements_are_met_by_every_clearing(board, cap):
    graph = MoveGraph(board)
    exact = requirements(board, simplify=False)
    weak = requirements(board, simplify=False, cap=cap)
    weak_simple = requirements(board, cap=cap)
    assert weak.pairs == exact.pairs
    for p in exact.pairs:
        # each exact set holds a weak one: whenever a path is open, a weak set is gone
        assert all(any(w <= s for w in weak.paths[p]) for s in exact.paths[p]), (board.cells, p, cap)
        assert all(len(w) <= max(cap, 2) for w in weak.paths[p])
        # a weak set of more than two tiles is an uncut path: an exact set
        assert all(w in exact.paths[p] for w in weak.paths[p] if len(w) > 2)
    for state, (a, b) in graph.good_moves:
        gone = {t for t in range(len(board)) if not (state >> t) & 1}
        assert any(w <= gone for w in weak.paths[(a, b)]), (board.cells, board.groups, cap, (a, b), sorted(gone))
        # the simplified weak requirements (what solve_sat encodes first) as well
        assert (a, b) in weak_simple.pairs, (board.cells, board.groups, cap, (a, b))
        assert set(weak_simple.need[a]) | set(weak_simple.need[b]) <= gone
        assert any(w <= gone for w in weak_simple.paths[(a, b)]), (board.cells, board.groups, cap, (a, b))
    if weak_simple.impossible:
        assert not graph.solvable


@settings(max_examples=60, deadline=None)
@given(board=small_boards(max_tiles=16))
def test_cap_none_is_the_exact_paths(board):
    lines = ShisenLines(board)
    big = requirements(board, simplify=False, cap=len(board))
    none = requirements(board, simplify=False, cap=None)
    for a, b in none.pairs:
        exact = set(shisen_paths(board, a, b))
        assert set(none.paths[(a, b)]) == exact
        assert set(big.paths[(a, b)]) == exact
        assert lines.path_bits(a, b, cap=None) == lines.path_bits(a, b)
        assert set(none.path_bits[(a, b)]) == {sum(1 << t for t in s) for s in exact}


@settings(max_examples=100, deadline=None)
@given(board=small_boards(max_tiles=16), cap=st.sampled_from([0, 2, 3, 4, None]), data=st.data())
def test_weak_sets_on_every_occupancy(board, cap, data):
    """On any set of removed tiles, not only those of clearings: a pair the naive path test
    joins has a weak set gone (and with ``cap=None`` exactly then)."""
    n = len(board)
    removed = data.draw(st.sets(st.sampled_from(range(n)), max_size=n))
    lines = ShisenLines(board)
    cell1 = [(y + 1, x + 1) for y, x in board.cells]
    occ = np.zeros((board.grid_shape[0] + 2, board.grid_shape[1] + 2), dtype=bool)
    for t in set(range(n)) - removed:
        occ[cell1[t]] = True
    gone = sum(1 << t for t in removed)
    for a, b in itertools.combinations(sorted(set(range(n)) - removed), 2):
        joined = bfs_connectable(occ, cell1[a], cell1[b])
        met = any(m & ~gone == 0 for m in lines.path_bits(a, b, cap=cap))
        if cap is None:
            assert met == joined, (board.cells, sorted(removed), (a, b))
        else:
            assert met or not joined, (board.cells, sorted(removed), (a, b), cap)


def test_cap_cuts_a_long_path_to_its_ends():
    # pair 0 in the middle row of a 3 x 5 block: straight through 6, 7, 8, round the top
    # through 0 and 4, or round the bottom through 10 (cell (2, 4) is empty)
    cells = [(y, x) for y in range(3) for x in range(5)][:14]
    board = make_board(cells, [1, 2, 1, 2, 3, 0, 4, 5, 4, 0, 3, 5, 6, 6])
    exact = {frozenset({0, 4}), frozenset({6, 7, 8}), frozenset({10})}
    assert set(shisen_paths(board, 5, 9)) == exact
    ends = {frozenset({0, 4}), frozenset({6, 8}), frozenset({10})}
    for cap in (0, 1, 2):  # a path of at most two tiles is its own two ends
        assert set(requirements(board, simplify=False, cap=cap).paths[(5, 9)]) == ends
    assert set(requirements(board, simplify=False, cap=3).paths[(5, 9)]) == exact
    assert set(ShisenLines(board).path_bits(5, 9, cap=2)) == {sum(1 << t for t in s) for s in ends}


# ---------------------------------------------------------------------------------------
# 4. solve_sat: the weak CNF first, then the exact one


def _check_solve_sat(board, graph, encoding):
    result = solve(board, "sat", encoding=encoding)  # replays a solvable answer (verified)
    assert result.status == ("solvable" if graph.solvable else "unsolvable"), (
        board.cells,
        board.groups,
        encoding,
        result.status,
        result.stats.get("tried"),
    )
    if result.status == "solvable":
        assert result.verified
        replay(board, result.moves)
    tried = result.stats["tried"]
    # the weak CNF first, or the exact one alone when the locked core refuted the board
    assert (tried[0].endswith("-weak") and len(tried) <= 2) or (len(tried) == 1 and result.status == "unsolvable")
    return result


@settings(max_examples=60, deadline=None)
@given(
    board=small_boards(),
    encoding=st.sampled_from(["acyclic", "order", "auto", None]),
    cap=st.sampled_from([0, 2, None]),
)
def test_solve_sat_weak_first_agrees_with_brute_force(board, encoding, cap):
    """With the default cap and with tiny caps, where the weak CNF is much weaker."""
    graph = MoveGraph(board)
    with pytest.MonkeyPatch.context() as mp:
        if cap is not None:
            mp.setattr(sat_module, "WEAK_PATH_CAP", cap)
        _check_solve_sat(board, graph, encoding)


def test_solve_sat_on_seeded_boards_all_encodings():
    rng = np.random.default_rng(3)
    kinds = [0, 0]
    for i in range(60):
        board = random_board(rng) if i % 3 == 0 else dense_pair_board(rng)
        graph = MoveGraph(board)
        assert graph.solvable == (solve(board, "ref").status == "solvable")  # the brute force itself
        for encoding in ("acyclic", "order", "auto"):
            for cap in (0, WEAK_PATH_CAP):
                with pytest.MonkeyPatch.context() as mp:
                    mp.setattr(sat_module, "WEAK_PATH_CAP", cap)
                    _check_solve_sat(board, graph, encoding)
        kinds[graph.solvable] += 1
    assert min(kinds) >= 3, kinds


def test_weak_cnf_pairing_that_does_not_clear_falls_back_to_the_exact_cnf():
    # 3 x 4, pairs only: with cap 0 the weak requirements accept a pairing no order plays
    cells = [(y, x) for y in range(3) for x in range(4)]
    board = make_board(cells, [0, 5, 3, 1, 3, 2, 4, 5, 0, 2, 1, 4])
    graph = MoveGraph(board)
    assert not graph.solvable
    weak = requirements(board, cap=0)
    fake = [p for p in all_pairings(board) if req_linearize(weak, p) is not None]
    assert fake and all(linearize(board, p) is None for p in fake)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sat_module, "QUICK_REFUTE_SECONDS", 0.0)  # no refutation by the locked core
        mp.setattr(sat_module, "WEAK_PATH_CAP", 0)
        for encoding in ("acyclic", "order"):
            result = solve_sat(board, encoding=encoding)
            assert result.status == "unsolvable"
            assert result.stats["tried"] == [f"{encoding}-weak", encoding]
        mp.setattr(sat_module, "WEAK_PATH_CAP", 12)
        # the default cap keeps every path of this board exact: one CNF decides
        assert solve_sat(board, encoding="acyclic").stats["tried"] == ["acyclic-weak"]
    # by default the locked core of the exact requirements refutes it: one empty CNF
    result = solve_sat(board, encoding="acyclic")
    assert result.status == "unsolvable" and result.stats["tried"] == ["acyclic"]


def test_solve_sat_without_weak_stage_for_stepped_encodings():
    board = make_board([(0, 0), (0, 1), (1, 0), (1, 1)], [0, 0, 1, 1])
    for encoding in ("layered", "parity"):
        result = solve(board, "sat", encoding=encoding)
        assert result.status == "solvable" and not any(t.endswith("-weak") for t in result.stats["tried"])


# ---------------------------------------------------------------------------------------
# 5. Shisen-Sho images of isolated stacks: same status as the stack board


def random_stack_board(rng: np.random.Generator, *, max_stacks=5, max_height=3) -> list[list[int]]:
    """2..max_stacks stacks of heights 1..max_height, groups of 2 and 4 (top first)."""
    heights = [int(h) for h in rng.integers(1, max_height + 1, size=int(rng.integers(2, max_stacks + 1)))]
    if sum(heights) % 2:
        short = [i for i, h in enumerate(heights) if h < max_height]
        if short:
            heights[short[0]] += 1
        else:
            heights[0] -= 1
    sizes, left = [], sum(heights)
    while left:
        s = int(rng.choice([x for x in (2, 4) if x <= left]))
        sizes.append(s)
        left -= s
    tiles = iter(rng.permutation(np.repeat(np.arange(len(sizes)), sizes)).tolist())
    return [[next(tiles) for _ in range(h)] for h in heights]


def _check_stack_images(count, seed, gap, encoding="acyclic", **kw):
    rng = np.random.default_rng(seed)
    kinds = [0, 0]
    for _ in range(count):
        stacks = random_stack_board(rng, **kw)
        expect = solve(board_from_stacks(stacks), "ref").status
        image, _main = shisen_from_stacks(stacks, gap=gap)
        got = solve(image, "sat", encoding=encoding)  # replayed when solvable
        assert got.status == expect, (stacks, gap, encoding, got.status, expect, got.stats.get("tried"))
        kinds[expect == "solvable"] += 1
    return kinds


@pytest.mark.parametrize("gap", [0, 1])
def test_stack_images_decided_like_the_stack_board(gap):
    kinds = _check_stack_images(130, seed=40 + gap, gap=gap)
    assert min(kinds) >= 20, kinds  # both answers occur


@pytest.mark.slow
@pytest.mark.parametrize("gap", [0, 1])
@pytest.mark.parametrize(
    "encoding, count, kw",
    [("acyclic", 1000, {"max_stacks": 6, "max_height": 4}), ("auto", 300, {}), ("order", 60, {"max_stacks": 4})],
)
def test_stack_images_decided_like_the_stack_board_many(gap, encoding, count, kw):
    # the order encoding has a variable per pair of tiles: seconds per image of 200 tiles
    kinds = _check_stack_images(count, seed=400 + gap, gap=gap, encoding=encoding, **kw)
    assert min(kinds) >= count // 10, kinds


# ---------------------------------------------------------------------------------------
# 6. the supertile lock: a block opens at its a tile


def _blocks(board, main):
    """For each block's ``a`` tile, the other eight tiles of its 3 x 3 block."""
    cells = board.cells
    out = {}
    for a in main.values():
        y, x = cells[a]  # a is the middle of the block's top row
        out[a] = [t for t, (yy, xx) in enumerate(cells) if y <= yy < y + 3 and x - 1 <= xx <= x + 1 and t != a]
        assert len(out[a]) == 8
    return out


@pytest.mark.parametrize("gap", [0, 1])
@pytest.mark.parametrize(
    "stacks",
    [[[0], [0]], [[0, 1], [0, 1]], [[0, 1, 2], [0, 1, 2]], [[0, 1], [0, 2], [2, 1]], [[3, 0, 1], [3, 2, 0, 1], [2]]],
)
def test_supertile_private_tiles_wait_for_their_a(stacks, gap):
    image, main = shisen_from_stacks(stacks, gap=gap)
    nec = necessary_before(image, requirements(image, simplify=False))
    assert not nec.unsolvable, nec.unsolvable  # every one of these stack boards is solvable
    assert solve(board_from_stacks(stacks), "ref").status == "solvable"
    for a, private in _blocks(image, main).items():
        for t in private:
            assert (nec.before[t] >> a) & 1, (stacks, gap, a, t, bits_members(nec.before[t]))
        assert not (nec.before[a] >> a) & 1
    # only tops play: a block's a waits for the a of the block above it
    for (s, k), a in main.items():
        if k:
            assert (nec.before[a] >> main[(s, k - 1)]) & 1, (stacks, gap, (s, k))


@pytest.mark.parametrize("gap", [0, 1])
@pytest.mark.parametrize("stacks", [[[0], [0]], [[0, 1], [0, 1]], [[0, 1], [1, 0]], [[0, 1, 0], [1]]])
def test_necessary_before_on_images_holds_in_every_clearing(stacks, gap):
    image, main = shisen_from_stacks(stacks, gap=gap)
    graph = MoveGraph(image)
    assert graph.solvable == (solve(board_from_stacks(stacks), "ref").status == "solvable")
    nec = check_necessary(image, graph)
    if graph.solvable:
        # the lock is not only derived but real: in every clearing a goes before its block
        for a, private in _blocks(image, main).items():
            for state, move in graph.good_moves:
                if set(move) & set(private):
                    assert not (state >> a) & 1
    else:
        assert nec.unsolvable


@pytest.mark.slow
@pytest.mark.parametrize("gap", [0, 1])
@pytest.mark.parametrize("stacks", [[[0], [0], [1], [1]], [[0, 1], [0, 2], [1, 2]]])
def test_necessary_before_on_bigger_images_holds_in_every_clearing(stacks, gap):
    image, _main = shisen_from_stacks(stacks, gap=gap)
    graph = MoveGraph(image)
    assert graph.solvable
    check_necessary(image, graph)
