"""The numba kernels against their pure-Python references (mjsat.search.pairing, mjsat.shisen)."""

from __future__ import annotations

import numpy as np
import pytest

from mjsat.board import Layout, MahjongBoard
from mjsat.generate import random_grid_board, random_small_board
from mjsat.search import kernels as K
from mjsat.search import kernels_shisen as KS
from mjsat.search.pairing import PythonSearch, geometry
from mjsat.shisen import connectable

from kernel_states import kernel_args, random_state


def _boards(seed: int, count: int):
    rng = np.random.default_rng(seed)
    for i in range(count):
        if i % 3 == 2:
            yield random_grid_board(rng, group_sizes=(2, 4, 6)), rng
        else:
            game = "mahjong" if i % 3 == 0 else "mahjong-transposed"
            yield random_small_board(rng, game=game, max_tiles=20, group_sizes=(2, 4, 6)), rng


@pytest.mark.parametrize("flags", [(1, 1, 1, 1), (0, 0, 1, 1)], ids=["cleaning", "plain"])
def test_scan_kernel_equals_reference(flags):
    opts = np.array(flags, dtype=np.int64)
    checked = 0
    for board, rng in _boards(21, 120):
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        ref = PythonSearch(geo)
        for _ in range(4):
            present, partner = random_state(geo, rng)
            want = ref.scan(bytearray(present.tobytes()), partner.tolist())
            got = K._scan(kind, gr, mj, sh, present.copy(), partner.copy(), moves, opts, ws)
            assert bool(got) == want, repr(board)
            checked += 1
    assert checked == 480


def test_apply_kernel_equals_reference_without_cleaning():
    opts = np.array([0, 0, 1, 1], dtype=np.int64)
    for board, rng in _boards(22, 120):
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        ref = PythonSearch(geo, freeze=False, loose=False)
        for _ in range(3):
            present, partner = random_state(geo, rng)
            p_ref = bytearray(present.tobytes())
            q_ref = partner.tolist()
            ref.apply(p_ref, q_ref, [])
            p = present.copy()
            q = partner.copy()
            K._apply(kind, gr, mj, sh, p, q, moves, 0, opts, ws)
            assert bytes(p) == bytes(p_ref), repr(board)


def test_apply_kernel_with_cleaning_plays_legal_moves():
    from mjsat.replay import replay

    opts = np.array([1, 1, 1, 1], dtype=np.int64)
    for board, _ in _boards(23, 90):
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        p = np.ones(geo.n, dtype=np.uint8)
        q = np.full(geo.n, -1, dtype=np.int32)
        K._autopair(gr, p, q)
        m = K._apply(kind, gr, mj, sh, p, q, moves, 0, opts, ws)
        after = replay(board, [tuple(x) for x in moves[:m]], require_clear=False)
        assert [after.is_present(t) for t in range(geo.n)] == [bool(x) for x in p]


def test_connect_kernel_equals_reference():
    rng = np.random.default_rng(24)
    for _ in range(300):
        h, w = int(rng.integers(3, 9)), int(rng.integers(3, 9))
        occ = np.zeros((h, w), dtype=bool)
        occ[1:-1, 1:-1] = rng.random((h - 2, w - 2)) < 0.5
        cells = [(y, x) for y in range(1, h - 1) for x in range(1, w - 1)]
        a, b = (cells[int(i)] for i in rng.choice(len(cells), size=2, replace=len(cells) < 2))
        occ[a] = occ[b] = True
        grid = occ.astype(np.uint8).ravel().copy()
        got = KS._connect(grid, h, w, a[0], a[1], b[0], b[1])
        assert got == connectable(occ, a, b)
        assert np.array_equal(grid, occ.astype(np.uint8).ravel())  # the grid is left as it was


def test_arrays_reject_big_groups():
    lay = Layout([(0, 2 * i, 0) for i in range(10)])
    with pytest.raises(K.GroupTooLargeError):
        K.arrays(geometry(MahjongBoard(lay, [0] * 10)))
