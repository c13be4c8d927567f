"""The pairing-set search on Shisen-Sho on the Mahjong grid (mjsat.search.kernels_sh3d):
kernels against their pure-Python references, both engines against the reference solver."""

from __future__ import annotations

import numpy as np
import pytest
from kernel_states import apply_against_twins, kernel_args, random_state

from mjsat.board import Layout, ShisenShoBoard, ShisenShoMahjongBoard
from mjsat.generate import random_grid_board, random_small_board
from mjsat.ref import solve_ref
from mjsat.replay import replay
from mjsat.search import kernels as K
from mjsat.search.config import W_GRID
from mjsat.search.kernels_sh3d import s3_connect, sh3d_arrays
from mjsat.search.pairing import SH3D, PythonSearch, geometry
from mjsat.search.solver import solve_search
from mjsat.shisen import connectable3d


def _board(rng, max_tiles=16):
    return random_small_board(rng, game="shisen-sho-3d", max_tiles=max_tiles, max_levels=3, group_sizes=(2, 4, 6))


def test_geometry_and_arrays():
    board = ShisenShoMahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 1, 1), (2, 0, 0)]), [0, 0, 1, 1])
    geo = geometry(board)
    assert geo.kind == SH3D and geo.shape == (2, 6, 6) and geo.cells[2] == (1, 2, 1)
    cy, cx, h, w = sh3d_arrays(geo)
    assert cy.tolist() == [1, 1, 7, 3, 6] and cx.tolist() == [1, 3, 2, 1] and (h, w) == (12, 6)
    assert K.arrays(geo)[0] == SH3D


def test_connect_kernel_equals_reference():
    rng = np.random.default_rng(31)
    answers = set()
    for _ in range(200):
        board = _board(rng)
        geo = geometry(board)
        _, _, _, sh, ws, _ = kernel_args(geo)
        levels, h1, w = geo.shape
        present, _ = random_state(geo, rng)
        occ = PythonSearch(geo)._occ(bytearray(present.tobytes()))
        grid = occ.astype(np.uint8).ravel().copy()
        for _ in range(10):
            a, b = (int(v) for v in rng.choice(geo.n, size=2, replace=False))
            (ra, ca, la), (rb, cb, lb) = geo.cells[a], geo.cells[b]
            want = connectable3d(occ, geo.cells[a], geo.cells[b])
            assert s3_connect(grid, levels, h1, w, ra, ca, la, rb, cb, lb) == want, (board.layout.positions, a, b)
            assert K._playable(SH3D, a, b, present, sh, ws[:W_GRID] + (grid,) + ws[W_GRID + 1 :]) == want
            answers.add(want)
        assert np.array_equal(grid, occ.astype(np.uint8).ravel())  # left as it was
    assert answers == {True, False}


@pytest.mark.parametrize("flags", [(1, 1, 1, 1), (0, 0, 1, 1)], ids=["freeze", "plain"])
def test_scan_and_apply_kernels_equal_reference(flags):
    opts = K.rules(freeze=bool(flags[0]), loose=bool(flags[1]), scan=bool(flags[2]), critical=bool(flags[3]))
    rng = np.random.default_rng(32)
    results = set()
    for _ in range(150):
        board = _board(rng)
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        ref = PythonSearch(geo, freeze=bool(flags[0]), loose=False)
        for _ in range(4):
            present, partner = random_state(geo, rng)
            want = ref.scan(bytearray(present.tobytes()), partner.tolist())
            got = K._scan(kind, gr, mj, sh, present.copy(), partner.copy(), moves, opts, ws)
            assert bool(got) == want, repr(board)
            results.add(want)
            p_ref, q_ref = bytearray(present.tobytes()), partner.tolist()
            ref.apply(p_ref, q_ref, [])
            p, q = present.copy(), partner.copy()
            K._apply(kind, gr, mj, sh, p, q, moves, 0, opts, ws)
            assert bytes(p) == bytes(p_ref), repr(board)
    assert results == {True, False}


def test_apply_kernel_plays_legal_moves():
    opts = K.rules()
    rng = np.random.default_rng(33)
    for _ in range(80):
        board = _board(rng)
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        p = np.ones(geo.n, dtype=np.uint8)
        q = np.full(geo.n, -1, dtype=np.int32)
        K._autopair(gr, p, q)
        m = K._apply(kind, gr, mj, sh, p, q, moves, 0, opts, ws)
        after = replay(board, [tuple(x) for x in moves[:m]], require_clear=False)
        assert [after.is_present(t) for t in range(geo.n)] == [bool(x) for x in p]


def test_search_agrees_with_ref_on_300_boards():
    rng = np.random.default_rng(34)
    tally = {"solvable": 0, "unsolvable": 0}
    for i in range(300):
        board = _board(rng)
        want = solve_ref(board).status
        tally[want] += 1
        for engine in ("numba", "python"):
            res = solve_search(board, engine=engine, seed=i)
            assert res.status == want, (engine, repr(board))
            if res.status == "solvable":
                assert replay(board, res.moves).is_solved()
    assert min(tally.values()) > 30


@pytest.mark.parametrize(
    "opts",
    [
        {},
        {"attempts": 0},
        {"freeze": False},
        {"scan": False},
        {"critical": False},
        {"attempts": 0, "scan": False, "critical": False, "freeze": False},
        {"attempts": 0, "bondt": True},
    ],
    ids=["all", "no-attempts", "no-freeze", "no-scan", "no-critical", "none", "bondt"],
)
def test_each_improvement_off_agrees_with_ref(opts):
    rng = np.random.default_rng(35)
    for i in range(60):
        board = _board(rng, max_tiles=14)
        want = solve_ref(board).status
        for engine in ("numba", "python"):
            res = solve_search(board, engine=engine, seed=i, **opts)
            assert res.status == want, (engine, opts, repr(board))
            if res.status == "solvable":
                assert replay(board, res.moves).is_solved()


def test_rectangular_boards_embedded_decide_alike():
    rng = np.random.default_rng(36)
    for _ in range(80):
        flat = random_grid_board(rng, group_sizes=(2, 4))
        deep = ShisenShoMahjongBoard(flat.layout, flat.groups)
        assert isinstance(flat, ShisenShoBoard)
        assert solve_search(deep).status == solve_search(flat).status == solve_ref(flat).status


@pytest.mark.slow
def test_search_agrees_with_ref_on_1500_boards_both_engines():
    rng = np.random.default_rng(37)
    for i in range(1500):
        board = _board(rng, max_tiles=20)
        want = solve_ref(board, node_limit=400_000)
        if want.status == "unknown":
            continue
        for engine in ("numba", "python"):
            res = solve_search(board, engine=engine, seed=i)
            assert res.status == want.status, (engine, repr(board))
            if res.status == "solvable":
                assert replay(board, res.moves).is_solved()


def test_sample_shisen_sho_3d_deals_agree_with_ref(tmp_path):
    from mjsat.deals import deal_random
    from mjsat.runs.sample import sample, summarize

    lay = Layout([(r, c, 0) for r in (0, 2) for c in (0, 2, 4, 6)] + [(1, 2, 1), (1, 4, 1)], name="ziggurat")
    rows = sample(lay, range(12), tmp_path / "z.jsonl", game="shisen-sho-3d")
    for row in rows:
        assert row["game"] == "shisen-sho-3d"
        assert row["status"] == solve_ref(deal_random(lay, seed=row["seed"], game="shisen-sho-3d")).status
    assert summarize(rows)["deals"] == 12


def test_turtle_deal_is_decided():
    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout

    board = deal_random(load_layout("turtle"), seed=1, game="shisen-sho-3d")
    res = solve_search(board, time_limit=60)
    assert res.status == "solvable"  # seed 1 is solvable: the moves below prove it
    assert replay(board, res.moves).is_solved()


def test_apply_kernel_with_freeze_pair_equals_reference():
    """``freeze_pair`` on the Mahjong grid: the kernel's apply (which takes the pair off the
    grid for a moment and puts it back) leaves the twin's position, and the rule fires."""
    opts = K.rules(freeze=False, freeze_pair=True)
    rng = np.random.default_rng(35)
    fired = 0
    for _ in range(150):
        board = _board(rng)
        geo = geometry(board)
        ref = PythonSearch(geo, freeze=False, freeze_pair=True)
        (bare,) = apply_against_twins(board, geo, rng, opts, ref, [PythonSearch(geo, freeze=False)])
        fired += bare
    assert fired >= 5


def test_freeze_pair_is_on_by_default_on_the_mahjong_grid():
    """``solve_search`` on ``shisen-sho-3d`` runs as with ``freeze_pair=True`` unless told
    otherwise (same node counts), and the rule changes the search on some boards."""
    rng = np.random.default_rng(36)
    differ = 0
    for _ in range(60):
        board = _board(rng, max_tiles=20)
        plain = {"attempts": 0, "guided": 0}
        default = solve_search(board, **plain).stats["nodes"]
        assert default == solve_search(board, freeze_pair=True, **plain).stats["nodes"]
        differ += default != solve_search(board, freeze_pair=False, **plain).stats["nodes"]
    assert differ >= 1
