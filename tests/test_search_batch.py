"""The batch path (mjsat.search.batch): verdicts and moves against the per-deal search and
``ref``, the compiled prior analysis and replay against their Python references."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mjsat.board import InvalidBoardError, Layout, find_variant
from mjsat.generate import random_small_board, random_small_layout
from mjsat.methods import solve
from mjsat.replay import InvalidSolutionError, check_solution
from mjsat.search import kernels as K, kernels_batch as KB
from mjsat.search.batch import TAIL_STEPS, BatchInputError, BatchSolver, solve_batch
from mjsat.search.config import PLAYOUTS
from mjsat.search.options import FAST_PLAIN_SHARE, SearchOptions
from mjsat.search.pairing import geometry
from mjsat.search.solver import prior_conflict


def _deals(rng: np.random.Generator, board, count: int) -> np.ndarray:
    """``count`` deals of ``board``'s layout: its groups, shuffled."""
    base = np.array(board.groups, dtype=np.int64)
    return np.stack([rng.permutation(base) for _ in range(count)])


@pytest.mark.parametrize("game", ["mahjong", "mahjong-transposed"])
def test_batch_equals_the_search_deal_by_deal_and_ref_agrees(game):
    rng = np.random.default_rng(19)
    seen = {"solvable": 0, "unsolvable": 0}
    phases = set()
    for _ in range(25):
        board = random_small_board(rng, game=game, max_tiles=16, group_sizes=(2, 4, 6))
        deals = _deals(rng, board, 4)
        seeds = rng.integers(0, 1000, size=len(deals)).tolist()
        res = solve_batch(board.layout, deals, game=game, seed=seeds, node_limit=None, tail=False)
        for i, row in enumerate(deals):
            b = board.with_groups(row.tolist())
            ref = solve(b, "search", seed=seeds[i])
            assert res.status[i] == ref.status
            assert res.status[i] == solve(b, "ref").status
            seen[res.status[i]] += 1
            phases.add(res.decided_by[i])
            if ref.status == "solvable":
                assert res.moves(i) == [tuple(sorted(m)) for m in ref.moves]  # the same algorithm, the same seed
                check_solution(b, res.moves(i))
    assert seen["solvable"] > 10 and seen["unsolvable"] > 10
    assert {"attempts", "search"} <= phases


def test_budget_leaves_deals_to_the_auto_tail_and_every_deal_is_decided():
    rng = np.random.default_rng(5)
    tails = 0
    for _ in range(12):
        board = random_small_board(rng, max_tiles=20, group_sizes=(2, 4))
        deals = _deals(rng, board, 5)
        res = solve_batch(board.layout, deals, node_limit=1, attempts=0, guided=0, chunk=2)
        for i, row in enumerate(deals):
            b = board.with_groups(row.tolist())
            assert res.status[i] == solve(b, "ref").status
            if res.decided_by[i] == "auto":
                tails += 1
                assert res.tail[i].stats["decided_by"] in TAIL_STEPS
            if res.status[i] == "solvable":
                check_solution(b, res.moves(i))
    assert tails > 0


def test_without_the_tail_undecided_deals_stay_unknown():
    rng = np.random.default_rng(8)
    board = random_small_board(rng, max_tiles=20)
    deals = _deals(rng, board, 20)
    res = solve_batch(board.layout, deals, node_limit=0, attempts=0, guided=0, prior=False, tail=False)
    # node_limit 0 and no playouts: only the scan decides (unsolvable), the rest stays unknown
    assert set(res.status) <= {"unknown", "unsolvable"} and "unknown" in res.status
    assert all(res.decided_by[i] == "scan" for i, s in enumerate(res.status) if s == "unsolvable")


def _renumbered(row: np.ndarray):
    n = len(row)
    group = np.zeros(n, np.int32)
    gptr = np.zeros(n + 1, np.int32)
    gidx = np.zeros(n, np.int32)
    ng, big = KB._renumber(row.astype(np.int64), group, np.zeros(n + 1, np.int32), gptr, gidx, np.zeros(n, np.int64))
    return group, gptr[: ng + 1].copy(), gidx, big


def test_renumbering_is_the_geometry_s():
    rng = np.random.default_rng(2)
    for _ in range(30):
        board = random_small_board(rng, max_tiles=16, group_sizes=(2, 4, 6))
        group, gptr, gidx, big = _renumbered(np.array(board.groups) * 7 + 3)
        geo = geometry(board)
        assert tuple(group.tolist()) == geo.group
        assert [tuple(gidx[gptr[g] : gptr[g + 1]].tolist()) for g in range(len(gptr) - 1)] == list(geo.members)
        assert big == max(len(m) for m in geo.members)
    assert _renumbered(np.array([0, 0, 1, 1, 1, 2]))[3] == -1  # a group of three tiles


def test_compiled_prior_analysis_equals_the_python_one():
    rng = np.random.default_rng(11)
    conflicts = 0
    for _ in range(300):
        layout = random_small_layout(rng, max_tiles=12, max_levels=5, rows=2, cols=3)
        n = len(layout)
        sizes = [4] * (n // 4) + [2] * ((n % 4) // 2)
        groups = rng.permutation(np.repeat(np.arange(len(sizes)), sizes))
        board = find_variant("mahjong")(layout, groups.tolist())
        solver = BatchSolver(layout)
        group, gptr, gidx, _ = _renumbered(groups)
        got = KB._prior_conflict(
            group, gptr, gidx, solver.desc, solver.top, solver.under, K._PTAB, np.zeros(n + 1, np.uint8)
        )
        want = prior_conflict(board)
        assert got == (-1 if want is None else want)
        conflicts += want is not None
    assert conflicts > 10


def _random_clear(board, rng: np.random.Generator) -> list[tuple[int, int]]:
    """A random sequence of legal moves from the full deal until none is left."""
    b = board.copy(stack=False)
    moves = []
    while True:
        legal = list(b.generate_legal_moves())
        if not legal:
            return moves
        m = legal[int(rng.integers(len(legal)))]
        b.push(m)
        moves.append(tuple(m))


def _python_clears(board, moves) -> bool:
    try:
        check_solution(board, moves)
    except InvalidSolutionError:
        return False
    return True


@pytest.mark.parametrize("game", ["mahjong", "mahjong-transposed"])
def test_compiled_replay_equals_the_python_replay(game):
    rng = np.random.default_rng(3)
    verdicts = {True: 0, False: 0}
    for _ in range(120):
        board = random_small_board(rng, game=game, max_tiles=16, group_sizes=(2, 4))
        n = len(board)
        solver = BatchSolver(board.layout, game=game)
        cands = []
        res = solve(board, "search")
        if res.status == "solvable":
            good = [tuple(m) for m in res.moves]
            cands.append(good)
            k = int(rng.integers(len(good)))
            cands.append(good[:k] + good[k + 1 :])  # a move left out
            if len(good) > 1:
                sw = list(good)
                j = int(rng.integers(len(good) - 1))
                sw[j], sw[j + 1] = sw[j + 1], sw[j]
                cands.append(sw)  # two moves swapped (legal or not)
            bad = list(good)
            a, b = bad[k]
            bad[k] = (a, int(rng.integers(n)))
            cands.append(bad)  # a tile changed
            cands.append(good[:k] + [good[k]] + good[k:-1])  # a move played twice
        walk = _random_clear(board, rng)  # legal moves that may get stuck
        cands.append(walk)
        cands.append(walk[::-1])
        for moves in cands:
            m = len(moves)
            arr = np.zeros((1, max(n // 2, m), 2), np.int32)
            if m:
                arr[0, :m] = moves
            ok = np.zeros(1, np.int64)
            KB._replay_rows(solver.mj, np.array([board.groups], np.int64), arr, np.array([m]), ok)
            want = _python_clears(board, moves)
            assert bool(ok[0]) == want, moves
            verdicts[want] += 1
    assert verdicts[True] > 30 and verdicts[False] > 100


def test_playout_counts_of_the_kernel_are_the_solver_s():
    """The batch kernel runs the counts of :meth:`SearchOptions.playout_counts` (its plan
    array holds their rule), and those are the defaults: 3/5 of the groups of four plain
    and all of them guided with the scan, all plain and none guided without it."""
    for given in ({}, {"scan": False}, {"attempts": 3}, {"guided": 5, "scan": False}, {"attempts": 0, "guided": 0}):
        opts = SearchOptions(**given)
        plan = KB.plan_array(opts)
        for fours in range(60):
            kernel = tuple(
                (fours * plan[k] + plan[k + 1] - 1) // plan[k + 1] + plan[k + 2]
                for k in (KB.PLAN_PLAIN, KB.PLAN_GUIDED)
            )
            assert kernel == opts.playout_counts(fours, True), (given, fours)
    for fours in range(60):
        assert SearchOptions().playout_counts(fours, True) == (math.ceil(fours * FAST_PLAIN_SHARE), fours)
        assert SearchOptions(scan=False).playout_counts(fours, True) == (fours, 0)
        assert SearchOptions().playout_counts(fours, False) == (fours, 0)


def test_bad_input_is_named():
    line = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)])
    with pytest.raises(BatchInputError, match="4 columns"):
        solve_batch(line, np.zeros((2, 3), dtype=int))
    with pytest.raises(BatchInputError, match="integer matrix"):
        solve_batch(line, np.zeros((2, 4)))
    with pytest.raises(BatchInputError, match="3 seeds given for 2 deals"):
        solve_batch(line, np.zeros((2, 4), dtype=int), seed=[1, 2, 3])
    with pytest.raises(InvalidBoardError, match="deal 1: "):
        solve_batch(line, np.array([[0, 0, 1, 1], [0, 0, 0, 1]]))


def test_no_deals():
    line = Layout([(0, 0, 0), (0, 2, 0)])
    res = solve_batch(line, np.zeros((0, 2), dtype=int))
    assert res.status == [] and res.tail == {}


def test_the_workspace_has_each_slot_s_array():
    """The one compiled workspace allocator (the batch's and the solver's) against the slots
    of mjsat.search.config, named here one by one; ``restart`` and the compiled ``_restart``
    put the slots a search carries from call to call back at their start, and only those."""
    from mjsat.search import config as C

    n, g, cells, words = 12, 5, 20, 3
    i32, u8, u64 = np.int32, np.uint8, np.uint64
    want = {
        C.W_ABOVE: (i32, (n,)), C.W_ONE: (i32, (n,)), C.W_TWO: (i32, (n,)),
        C.W_QUEUE: (i32, (n + g + 1,)), C.W_QUEUED: (u8, (n,)), C.W_GRID: (u8, (cells,)),
        C.W_SCAN_PRESENT: (u8, (n,)), C.W_SCAN_ABOVE: (i32, (n,)), C.W_SCAN_ONE: (i32, (n,)),
        C.W_SCAN_TWO: (i32, (n,)), C.W_SCAN_QUEUE: (i32, (n + 1,)), C.W_SCAN_QUEUED: (u8, (n,)),
        C.W_OPENED: (u8, (g,)), C.W_FREE_SEEN: (i32, (g,)), C.W_SCAN_GRID: (u8, (cells,)),
        C.W_LEGAL: (i32, (n * n // 2 + 2,)), C.W_LIVE: (i32, (K.MAX_GROUP,)), C.W_PROBE_OK: (u8, (128,)),
        C.W_REMOVED: (i32, (n + 1,)), C.W_GROUP_STACK: (i32, (g + 1,)), C.W_GROUP_QUEUED: (u8, (g,)),
        C.W_WEIGHT: (np.float64, (g,)), C.W_FOURS_ALIVE: (u8, (g + 2, g)), C.W_RNG: (u64, (1,)),
        C.W_JOINT_AT: (i32, (g + 2, g)), C.W_BITS: (u64, (words,)), C.W_SCAN_BITS: (u64, (words,)),
        C.W_STACKED: (u8, (n,)), C.W_HOLD: (i32, (max(5 * n + 2 * g, 1 + n + g + cells),)),
        C.W_HOLD_BITS: (u64, (words,)), C.W_PLAYOUT_START: (i32, (7 * n + g + 1,)),
        C.W_RUNS: (i32, (4 * n,)), C.W_HINT: (i32, (n + 1,)),
    }  # fmt: skip
    ws = K.workspace(n, g, cells, words)
    assert len(ws) == C.N_WORKSPACE == len(want)
    start = {C.W_FOURS_ALIVE: 255, C.W_HINT: [-1] * n + [0]}  # no hint yet: its length 0
    for slot, (dtype, shape) in want.items():
        assert ws[slot].dtype == dtype and ws[slot].shape == shape, slot
        assert (ws[slot] == start.get(slot, 0)).all(), slot
    for again in (K.restart, K._restart):  # the numpy twin and the compiled reset
        for array in ws:
            array.view(np.uint8).fill(0xA5)
        kept = [array.copy() for array in ws]
        again(ws)
        for slot in range(C.N_WORKSPACE):
            if slot in (C.W_WEIGHT, C.W_FOURS_ALIVE, C.W_HINT):
                assert (ws[slot] == start.get(slot, 0)).all(), (again, slot)
            else:  # the kernels write them before they read them: left as they were
                assert (ws[slot] == kept[slot]).all(), (again, slot)


def test_each_deal_s_cpu_time_is_read_inside_the_block():
    """``cpu_seconds``: every deal's time is positive (the thread's CPU clock read in the
    compiled loop), they add up to no more than the whole call, and the deals the search
    decides cost more than those the plain playouts clear."""
    import time

    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout

    layout = load_layout("turtle")
    deals = np.array([deal_random(layout, seed=s).groups for s in range(40)], dtype=np.int64)
    solver = BatchSolver(layout, node_limit=150)
    solve_batch(layout, deals[:2], solver=solver, tail=False)  # compiled before the clock
    c0 = time.process_time()
    res = solve_batch(layout, deals, solver=solver, tail=False)
    whole = time.process_time() - c0
    assert res.cpu_seconds.shape == (40,)
    assert (res.cpu_seconds > 0).all()
    assert res.cpu_seconds.sum() <= whole + 1e-3
    by = {p: [c for c, q in zip(res.cpu_seconds, res.decided_by) if q == p] for p in set(res.decided_by)}
    quick, slow = by.get("attempts", []), by.get("guided", []) + by.get("search", [])
    assert quick and slow and np.median(quick) < np.median(slow)


def test_under_a_node_budget_the_batch_answers_as_the_search_does():
    rng = np.random.default_rng(23)
    unknown = 0
    for _ in range(15):
        board = random_small_board(rng, max_tiles=40, group_sizes=(4,))
        deals = _deals(rng, board, 4)
        res = solve_batch(board.layout, deals, node_limit=1, attempts=1, guided=0, tail=False, seed=7)
        for i, row in enumerate(deals):
            ref = solve(board.with_groups(row.tolist()), "search", seed=7, node_limit=1, attempts=1, guided=0)
            assert res.status[i] == ref.status
            unknown += ref.status == "unknown"
    assert unknown > 0


@pytest.mark.parametrize("playout", PLAYOUTS)
def test_batch_draws_its_playouts_by_the_search_s_policy(playout):
    """The same policy, seed and deal: the batch path clears by the playout ``solve`` finds."""
    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout

    layout = load_layout("turtle")
    boards = [deal_random(layout, seed=s) for s in range(6)]
    deals = np.array([b.groups for b in boards], dtype=np.int64)
    res = solve_batch(layout, deals, seed=3, node_limit=0, tail=False, playout=playout)
    by_playout = 0
    for i, b in enumerate(boards):
        ref = solve(b, "search", seed=3, node_limit=0, playout=playout)
        assert res.status[i] == ref.status
        if ref.status == "solvable":
            assert res.moves(i) == [tuple(sorted(m)) for m in ref.moves]
            by_playout += 1
    assert by_playout > 0


def test_each_deal_s_search_is_ordered_by_its_own_guided_playouts():
    """Turtle deals that the playouts leave to the search, in one block: each deal's search
    (ordered by the longest of its own failed guided playouts, ``W_HINT``, which the block
    resets per deal) visits the nodes and finds the moves that ``solve`` finds for it alone."""
    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout

    layout = load_layout("turtle")
    boards = [deal_random(layout, seed=s) for s in (13, 11, 60, 27, 159, 40, 165, 200)]
    deals = np.array([b.groups for b in boards], dtype=np.int64)
    res = solve_batch(layout, deals, seed=0, node_limit=150, tail=False)
    for i, b in enumerate(boards):
        ref = solve(b, "search", seed=0, node_limit=150)
        assert res.decided_by[i] == "search" and ref.stats["guided"] == 36
        assert (res.status[i], int(res.nodes[i])) == (ref.status, ref.stats["nodes"])
        if ref.status == "solvable":
            assert res.moves(i) == [tuple(sorted(m)) for m in ref.moves]
