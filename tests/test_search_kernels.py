"""The numba kernels against their pure-Python references (mjsat.search.pairing, mjsat.shisen)."""

from __future__ import annotations

import numpy as np
import pytest
from kernel_states import kernel_args, random_state

from mjsat.board import Layout, MahjongBoard
from mjsat.generate import random_grid_board, random_small_board
from mjsat.search import kernels as K, kernels_shisen as KS
from mjsat.search.pairing import PythonSearch, geometry
from mjsat.shisen import connectable


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


def _mahjong_boards(seed: int, count: int):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        yield random_small_board(rng, game="mahjong", max_tiles=24, group_sizes=(2, 4, 6)), rng


def _assert_cleaned(geo, ref: PythonSearch, p: np.ndarray, q: np.ndarray, board) -> None:
    """No cleaning rule is left to fire after an apply: every free pair of ``partner`` is
    gone, no group without a pairing has all its (>= 4) tiles free, and no group of four
    with three free tiles has a loose one among them."""
    present = bytearray(p.tobytes())
    for t in range(geo.n):
        if present[t] and q[t] >= 0:
            assert not (ref.is_free(t, present) and ref.is_free(int(q[t]), present)), repr(board)
    for tiles in geo.members:
        live = [t for t in tiles if present[t]]
        if len(live) < 4 or any(q[t] >= 0 for t in live):
            continue
        free = [t for t in live if ref.is_free(t, present)]
        assert len(free) < len(live), (repr(board), live)
        if len(live) == 4 and len(free) == 3:
            assert not any(ref.is_loose(t, present) for t in free), (repr(board), live)


def test_incremental_modes_match_fresh_kernels():
    """The guided playout's two incremental modes of ``_mj_close``: the scan after taking a
    pair off (mode 4) answers as a fresh scan of that position, and going on with the apply
    (mode 5) plays legal moves, leaves no cleaning rule unfired (the event-driven
    loose-tile recheck) and keeps its counters equal to a fresh count."""
    from mjsat.replay import replay

    opts = np.array([1, 1, 1, 1, 1, 1], dtype=np.int64)
    legal = None
    scans = resumes = 0
    for board, rng in _mahjong_boards(31, 150):
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        ref = PythonSearch(geo)
        legal = np.zeros(geo.n * geo.n // 2 + 2, dtype=np.int32)
        p = np.ones(geo.n, dtype=np.uint8)
        q = np.full(geo.n, -1, dtype=np.int32)
        K._autopair(gr, p, q)
        mptr = K._mj_close(0, gr, mj, p, q, moves, 0, opts, ws)
        _assert_cleaned(geo, ref, p, q, board)
        while True:
            m = K._legal_moves(kind, gr, sh, p, q, ws, legal)
            if m == 0:
                break
            pairs = [(int(legal[i] // geo.n), int(legal[i] % geo.n)) for i in range(m)]
            for x, y in pairs[:3]:
                ps = ws[6]
                ps[:] = p
                ps[x] = ps[y] = 0
                ws[18][0], ws[18][1] = x, y
                warm = K._mj_close(4, gr, mj, ps, q, moves, 0, opts, ws) == 0
                cold = p.copy()
                cold[x] = cold[y] = 0
                fresh = K._scan(kind, gr, mj, sh, cold, q.copy(), moves, opts, ws)
                assert warm == bool(fresh), repr(board)
                scans += 1
            x, y = pairs[int(rng.integers(len(pairs)))]
            p[x] = p[y] = 0
            moves[mptr] = (x, y)
            mptr += 1
            live = [t for t in geo.members[geo.group[x]] if p[t]]
            if len(live) == 2:
                q[live[0]], q[live[1]] = live[1], live[0]
            ws[18][0], ws[18][1] = x, y
            mptr = K._mj_close(5, gr, mj, p, q, moves, mptr, opts, ws)
            resumes += 1
            _assert_cleaned(geo, ref, p, q, board)
            na, no, nt = (np.zeros(geo.n, np.int32) for _ in range(3))
            K._mj_init(p, mj, na, no, nt, np.zeros(geo.n + 1, np.int32), np.zeros(geo.n, np.uint8))
            live_tiles = p == 1
            for mine, fresh_count in zip(ws[0:3], (na, no, nt)):
                assert np.array_equal(mine[live_tiles], fresh_count[live_tiles]), repr(board)
        after = replay(board, [tuple(int(v) for v in mv) for mv in moves[:mptr]], require_clear=False)
        assert [after.is_present(t) for t in range(geo.n)] == [bool(v) for v in p]
    assert scans > 300 and resumes > 150
