"""The numba kernels against their pure-Python references (mjsat.search.pairing, mjsat.shisen).

Every test whose name holds ``kernel`` runs twice: compiled, and as Python with
``NUMBA_DISABLE_JIT=1`` in a subprocess (:func:`test_kernel_tests_pass_with_the_jit_off`),
so that the kernels' bodies are covered and their indexing is bounds-checked.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mjsat.board import Layout, MahjongBoard
from mjsat.generate import random_grid_board, random_small_board
from mjsat.replay import replay
from mjsat.search import kernels as K
from mjsat.search import kernels_bondt as KB
from mjsat.search import kernels_mahjong as KM
from mjsat.search import kernels_shisen as KS
from mjsat.search.config import EXHAUSTED, MOVES, NODES, SOLVED
from mjsat.search.pairing import PythonSearch, geometry
from mjsat.shisen import connectable

from kernel_states import kernels_of, random_state

REPO = Path(__file__).resolve().parents[1]
JIT_OFF = os.environ.get("NUMBA_DISABLE_JIT") == "1"


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
    checked = 0
    for board, rng in _boards(21, 120):
        geo = geometry(board)
        k = kernels_of(geo, flags)
        ref = PythonSearch(geo)
        for _ in range(4):
            present, partner = random_state(geo, rng)
            want = ref.scan(bytearray(present.tobytes()), partner.tolist())
            assert k.scan(present.copy(), partner.copy()) == want, repr(board)
            checked += 1
    assert checked == 480


def test_apply_kernel_equals_reference_without_cleaning():
    for board, rng in _boards(22, 120):
        geo = geometry(board)
        k = kernels_of(geo, (0, 0, 1, 1))
        ref = PythonSearch(geo, freeze=False, loose=False)
        for _ in range(3):
            present, partner = random_state(geo, rng)
            p_ref = bytearray(present.tobytes())
            q_ref = partner.tolist()
            ref.apply(p_ref, q_ref, [])
            p = present.copy()
            q = partner.copy()
            k.apply(p, q, k.move_list(), 0)
            assert bytes(p) == bytes(p_ref), repr(board)


def test_apply_kernel_with_cleaning_plays_legal_moves():
    for board, _ in _boards(23, 90):
        geo = geometry(board)
        k = kernels_of(geo)
        p, q = k.start()
        moves = k.move_list()
        m = k.apply(p, q, moves, 0)
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
        grid = occ.astype(np.uint8)
        assert KS.connect(grid, a, b) == connectable(occ, a, b)
        assert np.array_equal(grid, occ.astype(np.uint8))  # the grid is left as it was


def test_arrays_reject_big_groups():
    lay = Layout([(0, 2 * i, 0) for i in range(10)])
    with pytest.raises(K.GroupTooLargeError):
        K.board_arrays(geometry(MahjongBoard(lay, [0] * 10)))
    with pytest.raises(K.GroupTooLargeError):
        K.check_group_sizes([0] * 10)
    K.check_group_sizes([0] * 8 + [1] * 2)


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


def test_incremental_kernels_match_fresh_kernels_and_reference():
    """The guided playout's two incremental kernels: the scan after taking a pair off
    (``scan_without``) answers as a fresh scan of that position and as the Python twin's
    scan, and going on with the apply (``resume``) plays legal moves, leaves no cleaning
    rule unfired (the event-driven loose-tile recheck) and keeps its counters equal to a
    fresh count."""
    scans = resumes = 0
    for board, rng in _mahjong_boards(31, 150):
        geo = geometry(board)
        k = kernels_of(geo)
        ref = PythonSearch(geo)
        p, q = k.start()
        moves = k.move_list()
        mptr = k.apply(p, q, moves, 0)
        _assert_cleaned(geo, ref, p, q, board)
        while True:
            pairs = k.legal_moves(p, q)
            if not pairs:
                break
            for x, y in pairs[:3]:
                warm = k.scan_without(p, q, x, y)
                cold = p.copy()
                cold[x] = cold[y] = 0
                assert warm == k.scan(cold, q.copy()), repr(board)
                assert warm == ref.scan(bytearray(cold.tobytes()), q.tolist()), repr(board)
                scans += 1
            x, y = pairs[int(rng.integers(len(pairs)))]
            p[x] = p[y] = 0
            moves[mptr] = (x, y)
            mptr += 1
            live = [t for t in geo.members[geo.group[x]] if p[t]]
            if len(live) == 2:
                q[live[0]], q[live[1]] = live[1], live[0]
            mptr = k.resume(p, q, moves, mptr, x, y)
            resumes += 1
            _assert_cleaned(geo, ref, p, q, board)
            na, no, nt = (np.zeros(geo.n, np.int32) for _ in range(3))
            KM._mj_init(p, k.board.mahjong, na, no, nt, np.zeros(geo.n + 1, np.int32), np.zeros(geo.n, np.uint8))
            live_tiles = p == 1
            for mine, fresh_count in zip((k.ws.above, k.ws.one, k.ws.two), (na, no, nt)):
                assert np.array_equal(mine[live_tiles], fresh_count[live_tiles]), repr(board)
        after = replay(board, [tuple(int(v) for v in mv) for mv in moves[:mptr]], require_clear=False)
        assert [after.is_present(t) for t in range(geo.n)] == [bool(v) for v in p]
    assert scans > 300 and resumes > 150


def test_playout_kernel_ends_where_the_reference_is_stuck():
    """A Mahjong random playout (``_mj_playout``) plays legal moves and stops only when the
    board is clear or the Python twin finds nothing more to play: its apply plays no pair
    and no cleaning rule, and no group without a pairing has a playable pair."""
    outcomes = set()
    for board, _ in _mahjong_boards(41, 120):
        geo = geometry(board)
        k = kernels_of(geo)
        ref = PythonSearch(geo)
        rng = np.array([12345 + geo.n], dtype=np.uint64)
        for _ in range(3):
            p, q = k.start()
            moves = k.move_list()
            mptr = KM._mj_playout(k.board.groups, k.board.mahjong, p, q, moves, k.rules, rng, k.ws)
            after = replay(board, [tuple(int(v) for v in mv) for mv in moves[:mptr]], require_clear=False)
            assert [after.is_present(t) for t in range(geo.n)] == [bool(v) for v in p], repr(board)
            present, partner, more = bytearray(p.tobytes()), q.tolist(), []
            ref.apply(present, partner, more)
            assert more == [] and present == bytearray(p.tobytes()), repr(board)
            for tiles in geo.members:
                live = [t for t in tiles if present[t]]
                if live and partner[live[0]] < 0:
                    assert not any(ref.playable(a, b, present) for a in live for b in live if a < b), repr(board)
            outcomes.add(2 * mptr == geo.n)
    assert outcomes == {True, False}


def test_playouts_kernel_clears_with_replayable_moves():
    """Plain and guided playouts (every game) answer the number of the clearing playout,
    whose moves replay; on an unsolvable board they never clear."""
    hits = {False: 0, True: 0}
    for board, _ in _boards(42, 60):
        geo = geometry(board)
        solvable = PythonSearch(geo).search() is not None
        k = kernels_of(geo)
        for guided in (False, True):
            moves = k.move_list()
            hit = k.playouts(8, np.array([99], dtype=np.uint64), moves, guided=guided)
            if hit >= 0:
                assert solvable, repr(board)
                replay(board, K.moves_of(moves, geo.n // 2))
                hits[guided] += 1
    assert hits[False] > 0 and hits[True] > 0


@pytest.mark.parametrize("critical", [True, False], ids=["critical", "first-playable"])
def test_search_kernel_decides_as_the_reference(critical):
    """The critical-group search kernel (``_dfs``, run in chunks of 3 nodes to go through its
    resumption) decides every board as the Python twin, and its moves replay."""
    decided = set()
    for board, _ in _boards(43, 90):
        geo = geometry(board)
        want = PythonSearch(geo, critical=critical).search() is not None
        k = kernels_of(geo, (1, 1, 1, critical))
        tree = k.tree()
        code = K.RUNNING
        while code == K.RUNNING:
            code = k.search(tree, 3)
        assert code == (SOLVED if want else EXHAUSTED), repr(board)
        if code == SOLVED:
            replay(board, K.moves_of(tree.moves, int(tree.stats[MOVES])))
        decided.add(code)
    assert decided == {SOLVED, EXHAUSTED}


def test_bondt_kernel_decides_as_the_reference():
    """de Bondt's tree in the kernel (``_bondt``, in chunks of 2 evaluations) decides as
    :meth:`PythonSearch._search_bondt`, with the same number of evaluations."""
    decided = set()
    for board, _ in _boards(44, 90):
        geo = geometry(board)
        ref = PythonSearch(geo, bondt=True)
        want = ref.search()
        k = kernels_of(geo)
        tree = KB.bondt_tree(k)
        code = K.RUNNING
        while code == K.RUNNING:
            code = KB.bondt_search(k, tree, 2)
        assert code == (EXHAUSTED if want is None else SOLVED), repr(board)
        assert int(tree.stats[NODES]) == ref.nodes, repr(board)
        if code == SOLVED:
            replay(board, K.moves_of(tree.moves, int(tree.stats[MOVES])))
        decided.add(code)
    assert decided == {SOLVED, EXHAUSTED}


def test_kernel_wrappers_refuse_what_the_kernels_cannot_take():
    board = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 1, 1, 0])
    k = kernels_of(geometry(board))
    p, q = k.start()
    for bad in (p.astype(np.int64), p[:3], [1, 1, 1, 1], np.ones(8, np.uint8)[::2]):
        with pytest.raises(K.KernelArgumentError):
            k.scan(bad, q)
    with pytest.raises(K.KernelArgumentError):
        k.apply(p, q, k.move_list(), 3)
    with pytest.raises(K.KernelArgumentError):
        k.playable(0, 4, p)
    with pytest.raises(K.KernelArgumentError):
        k.resume(p, q, k.move_list(), 0, 0, 3)  # the move is not played
    with pytest.raises(K.KernelArgumentError):
        k.playouts(1, np.array([1], dtype=np.int64), k.move_list())
    with pytest.raises(K.KernelArgumentError):
        KB.bondt_search(k, k.tree(), 5)
    with pytest.raises(ValueError):
        KS.connect(np.zeros((3, 3), dtype=np.uint8), (0, 0), (3, 0))


def test_every_njit_takes_its_flags_from_the_config():
    """Every ``@njit`` of the search kernels is ``@njit(**JIT_FLAGS)`` or
    ``@njit(**INLINE_FLAGS)`` (mjsat.search.config)."""
    seen = 0
    for path in sorted((REPO / "search").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef):
                continue
            for deco in node.decorator_list:
                name = deco.func if isinstance(deco, ast.Call) else deco
                if getattr(name, "id", getattr(name, "attr", None)) not in ("njit", "jit"):
                    continue
                seen += 1
                ok = (
                    isinstance(deco, ast.Call) and not deco.args and len(deco.keywords) == 1
                    and deco.keywords[0].arg is None
                    and getattr(deco.keywords[0].value, "id", None) in ("JIT_FLAGS", "INLINE_FLAGS")
                )  # fmt: skip
                assert ok, f"{path.name}: {node.name} has @{ast.unparse(deco)}"
    assert seen > 40


@pytest.mark.skipif(JIT_OFF, reason="this is the run with the JIT off")
def test_kernel_tests_pass_with_the_jit_off():
    """The kernel tests (those whose name holds ``kernel``, here and in
    test_search_sh3d.py) pass with ``NUMBA_DISABLE_JIT=1``: the kernels run as Python."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    cmd = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", "-m", "not slow",
        "-k", "kernel and not jit_off", "tests/test_search_kernels.py", "tests/test_search_sh3d.py",
    ]  # fmt: skip
    done = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and " failed" not in done.stdout
