"""The numba kernels against their pure-Python references (mjsat.search.pairing, mjsat.shisen)."""

from __future__ import annotations

import numpy as np
import pytest
from kernel_states import apply_against_twins, kernel_args, random_state
from naive import naive_free, naive_mahjong_moves, naive_moves, naive_xorshift

from mjsat.board import Layout, MahjongBoard
from mjsat.generate import random_grid_board, random_small_board
from mjsat.search import kernels as K, kernels_shisen as KS
from mjsat.search.config import (
    PLAYOUTS,
    S_MOVES,
    S_NODES,
    W_ABOVE,
    W_HINT,
    W_ONE,
    W_PLAYOUT_START,
    W_REMOVED,
    W_RNG,
    W_RUNS,
    W_SCAN_PRESENT,
    W_SCAN_QUEUED,
    W_STACKED,
    W_TWO,
)
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
    opts = K.rules(freeze=bool(flags[0]), loose=bool(flags[1]), scan=bool(flags[2]), critical=bool(flags[3]))
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
    opts = K.rules(freeze=False, loose=False)
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


def test_apply_kernel_with_freeze_pair_equals_reference():
    """With ``freeze_pair`` alone the apply has one outcome whatever the order (it only ever
    takes whole groups off, and what it may take only grows): kernel and twin agree tile
    for tile, on Mahjong and Shisen-Sho, and the rule does fire."""
    opts = K.rules(freeze=False, loose=False, freeze_pair=True)
    fired = 0
    for board, rng in _boards(25, 150):
        geo = geometry(board)
        ref = PythonSearch(geo, freeze=False, loose=False, freeze_pair=True)
        (bare,) = apply_against_twins(board, geo, rng, opts, ref, [PythonSearch(geo, freeze=False, loose=False)])
        fired += bare
    assert fired >= 10


@pytest.mark.parametrize(
    "flags",
    [{"freeze_pair": True}, {"loose_pair": True}, {"freeze": False, "loose": False, "loose_pair": True}],
    ids=["freeze-pair", "loose-pair", "loose-pair-alone"],
)
def test_apply_kernel_with_the_pair_rules_plays_legal_moves(flags):
    """The kernel's apply with the rules that look one pair ahead, from the full board,
    records moves that replay to the position it leaves."""
    from mjsat.replay import replay

    opts = K.rules(**flags)
    for board, _ in _boards(26, 90):
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        p = np.ones(geo.n, dtype=np.uint8)
        q = np.full(geo.n, -1, dtype=np.int32)
        K._autopair(gr, p, q)
        m = K._apply(kind, gr, mj, sh, p, q, moves, 0, opts, ws)
        after = replay(board, [tuple(x) for x in moves[:m]], require_clear=False)
        assert [after.is_present(t) for t in range(geo.n)] == [bool(x) for x in p]


def test_apply_kernel_with_the_default_rules_equals_reference():
    """With the default cleaning rules (freeze, loose) the kernel's apply leaves the
    position its twin leaves, on Mahjong boards of up to 64 tiles, and both rules change
    the outcome often: the kernel passes over a group (from its count of free tiles) only
    when no rule could fire on it."""
    opts = K.rules()
    fired = loose = 0
    rng = np.random.default_rng(27)
    for i in range(150):
        game = ("mahjong", "mahjong-transposed")[i % 2]
        board = random_small_board(rng, game=game, max_tiles=64, group_sizes=(2, 4, 4, 4, 6))
        geo = geometry(board)
        others = [PythonSearch(geo, freeze=False, loose=False), PythonSearch(geo, loose=False)]
        bare, freeze = apply_against_twins(board, geo, rng, opts, PythonSearch(geo), others)
        fired += bare
        loose += freeze
    assert fired >= 100
    assert loose >= 50


def test_apply_kernel_with_cleaning_plays_legal_moves():
    from mjsat.replay import replay

    opts = K.rules()
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
    """The guided playout's two incremental kernels: the scan after taking a pair off
    (``_mj_scan_after_move``) answers as a fresh scan of that position, and going on with
    the apply (``_mj_apply_after_move``) plays legal moves, leaves no cleaning rule unfired (the event-driven
    loose-tile recheck) and keeps its counters equal to a fresh count."""
    from mjsat.replay import replay

    opts = K.rules()
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
        mptr = K._mj_apply(gr, mj, p, q, moves, 0, opts, ws)
        _assert_cleaned(geo, ref, p, q, board)
        while True:
            m = K._legal_moves(kind, gr, sh, p, q, ws, legal)
            if m == 0:
                break
            pairs = [(int(legal[i] // geo.n), int(legal[i] % geo.n)) for i in range(m)]
            for x, y in pairs[:3]:
                ps = ws[W_SCAN_PRESENT]
                ps[:] = p
                ps[x] = ps[y] = 0
                ws[W_REMOVED][0], ws[W_REMOVED][1] = x, y
                warm = K._mj_scan_after_move(gr, mj, ps, q, moves, opts, ws)
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
            ws[W_REMOVED][0], ws[W_REMOVED][1] = x, y
            mptr = K._mj_apply_after_move(gr, mj, p, q, moves, mptr, opts, ws)
            resumes += 1
            _assert_cleaned(geo, ref, p, q, board)
            na, no, nt = (np.zeros(geo.n, np.int32) for _ in range(3))
            K._mj_init(p, mj, na, no, nt, np.zeros(geo.n + 1, np.int32), np.zeros(geo.n, np.uint8))
            live_tiles = p == 1
            for mine, fresh_count in zip((ws[W_ABOVE], ws[W_ONE], ws[W_TWO]), (na, no, nt)):
                assert np.array_equal(mine[live_tiles], fresh_count[live_tiles]), repr(board)
        after = replay(board, [tuple(int(v) for v in mv) for mv in moves[:mptr]], require_clear=False)
        assert [after.is_present(t) for t in range(geo.n)] == [bool(v) for v in p]
    assert scans > 300 and resumes > 150


def test_legal_moves_kernel_equals_naive_moves():
    """After an apply, ``_legal_moves`` lists the moves of the naive rules among the groups
    without a pairing (Mahjong through ``_mj_legal``, Shisen-Sho through the path test)."""
    opts = K.rules()
    kinds = set()
    nonempty = 0
    for board, rng in _boards(25, 90):
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        legal = np.zeros(geo.n * geo.n // 2 + 2, dtype=np.int32)
        for _ in range(3):
            present, partner = random_state(geo, rng)
            p, q = present.copy(), partner.copy()
            K._apply(kind, gr, mj, sh, p, q, moves, 0, opts, ws)
            m = K._legal_moves(kind, gr, sh, p, q, ws, legal)
            got = {(min(int(v) // geo.n, int(v) % geo.n), max(int(v) // geo.n, int(v) % geo.n)) for v in legal[:m]}
            want = {(a, b) for a, b in naive_moves(board, p) if q[a] < 0 and q[b] < 0}
            assert got == want, repr(board)
            kinds.add(int(kind))
            nonempty += bool(want)
    assert kinds == {0, 1} and nonempty > 20


def test_init_kernel_queues_the_naive_free_tiles():
    for board, rng in _boards(26, 60):
        if board.game == "shisen-sho":
            continue
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        present, _ = random_state(geo, rng)
        na, no, nt = (np.zeros(geo.n, np.int32) for _ in range(3))
        queue, queued = np.zeros(geo.n + 1, np.int32), np.zeros(geo.n, np.uint8)
        tail = K._mj_init(present, mj, na, no, nt, queue, queued)
        want = {
            t
            for t in range(geo.n)
            if present[t]
            and naive_free(board.layout.positions, present, t, transposed=board.game == "mahjong-transposed")
        }
        assert set(queue[:tail].tolist()) == want and tail == len(want), repr(board)
        assert {t for t in range(geo.n) if queued[t]} == want


def test_xorshift_kernel_equals_reference():
    state = np.array([88172645463325252], dtype=np.uint64)
    x = int(state[0])
    for _ in range(1000):
        x = naive_xorshift(x)
        assert int(K._xorshift(state)) == x == int(state[0])


@pytest.mark.parametrize("guided", [False, True], ids=["plain", "guided"])
def test_playout_kernels_clear_only_by_legal_moves(guided):
    """A playout that reports a clear board (``_attempts``, ``_guided``) left moves that
    the rules replay to an empty board; some do clear."""
    from mjsat.replay import replay

    opts = K.rules()
    kernel = K._guided if guided else K._attempts
    cleared = 0
    for board, _ in _boards(27, 60):
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        pres = np.ones(geo.n, dtype=np.uint8)
        partner = np.full(geo.n, -1, dtype=np.int32)
        rng = np.array([12345], dtype=np.uint64)
        hit = kernel(kind, gr, mj, sh, opts, 4, rng, pres, partner, moves, ws)
        if hit >= 0:
            replay(board, [tuple(int(v) for v in mv) for mv in moves[: geo.n // 2]], require_clear=True)
            cleared += 1
    assert cleared > 10


def test_opening_kernel_is_the_scan_then_the_attempts():
    """``_opening`` answers as the pruning scan of the full deal followed by ``_attempts``
    with the same generator state: refuted exactly when the scan refutes, else the same
    clearing playout, moves and generator state after."""
    opts = K.rules()
    refuted = cleared = 0
    for board, _ in _boards(29, 90):
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        pres = np.ones(geo.n, dtype=np.uint8)
        partner = np.full(geo.n, -1, dtype=np.int32)
        K._autopair(gr, pres, partner)
        scan = K._scan(kind, gr, mj, sh, pres, partner, moves, opts, ws)
        rng = np.array([987654321], dtype=np.uint64)
        want = K._attempts(kind, gr, mj, sh, opts, 3, rng, pres, partner, moves, ws) if scan else K.OPENING_REFUTED
        want_moves, want_rng = moves.copy(), rng.copy()
        rng2 = np.array([987654321], dtype=np.uint64)
        pres[:] = 0  # the kernel starts from the full deal whatever it is given
        got = K._opening(kind, gr, mj, sh, opts, 3, rng2, pres, partner, moves, ws)
        assert got == want, repr(board)
        if got >= 0:
            assert (moves[: geo.n // 2] == want_moves[: geo.n // 2]).all() and rng2[0] == want_rng[0]
            cleared += 1
        refuted += got == K.OPENING_REFUTED
    assert cleared > 10 and refuted > 0


def _probe_boards(game, rng, count):
    for i in range(count):
        if game == "mahjong":
            name = "mahjong" if i % 2 else "mahjong-transposed"
            yield random_small_board(rng, game=name, max_tiles=32, group_sizes=(2, 4, 4, 6, 8))
        elif game == "shisen-sho":
            yield random_grid_board(rng, group_sizes=(2, 4, 4, 6))
        else:
            yield random_small_board(rng, game=game, max_tiles=20, max_levels=3, group_sizes=(2, 4, 4, 6))


@pytest.mark.parametrize("game", ["mahjong", "shisen-sho", "shisen-sho-3d"])
@pytest.mark.parametrize("flags", [(1, 1), (0, 0)], ids=["cleaning", "plain"])
def test_probe_scans_answer_as_full_scans(game, flags):
    """The search's probes (:func:`_mj_probe`, :func:`_sh_probe`: one hold scan per group,
    then each pairing resumed from its state) against a full scan of the same position and
    pairing, for every pairing of every group without a pairing, after an apply, groups
    of 4, 6 and 8, each pair test of Shisen-Sho."""
    from mjsat.search import kernels_shisen as KSH
    from mjsat.search.pairing import MAHJONG, SH3D, pairings

    opts = K.rules(freeze=bool(flags[0]), loose=bool(flags[1]))
    rng = np.random.default_rng(31)
    probes = failed = 0
    for i, board in enumerate(_probe_boards(game, rng, 150)):
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo, pair_test="bits" if i % 2 else "cells")
        fresh = kernel_args(geo)[4]
        for _ in range(3):
            pres, partner = random_state(geo, rng)
            K._apply(kind, gr, mj, sh, pres, partner, moves, 0, opts, ws)
            for g, tiles in enumerate(geo.members):
                live = [t for t in tiles if pres[t]]
                if len(live) < 2 or any(partner[t] >= 0 for t in live):
                    continue
                for k, pairing in enumerate(pairings(len(live))):
                    for a, b in pairing:
                        partner[live[a]], partner[live[b]] = live[b], live[a]
                    if kind == MAHJONG:
                        want = K._mj_scan(gr, mj, pres.copy(), partner, moves, opts, fresh)
                        got = K._mj_probe(g, k == 0, gr, mj, pres, partner, moves, opts, ws)
                    else:
                        want = KSH._sh_scan(kind == SH3D, gr, sh, pres.copy(), partner, fresh)
                        got = KSH._sh_probe(kind == SH3D, g, k == 0, gr, sh, pres, partner, ws)
                    assert got == want, (repr(board), g, k)
                    probes += 1
                    failed += not got
                    for t in live:
                        partner[t] = -1
    assert probes > 200 and 0 < failed < probes


def _stack_masks_naive(board, geo):
    """Bit ``k`` of tile ``t``: ``t`` and the ``k``-th member of its group lie one above the
    other, read from the layout's descendants."""
    desc = board.layout.descendants
    want = [0] * geo.n
    for tiles in geo.members:
        for t in tiles:
            for k, u in enumerate(tiles):
                if u != t and ((desc[t] >> u) & 1 or (desc[u] >> t) & 1):
                    want[t] |= 1 << k
    return want


def test_stack_masks_kernel_equals_the_layout_descendants_and_sides():
    """``_stack_masks`` writes the stacked masks (by the layout's descendants) and the rows
    ``W_RUNS`` (by its side relations, :func:`_run_links_naive`)."""
    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout

    boards = [deal_random(load_layout("turtle"), seed=s) for s in range(3)]
    boards += [b for b, _ in _boards(31, 60) if b.game != "shisen-sho"]
    boards += [b for b, _ in _boards(33, 60) if b.game != "shisen-sho"]
    stacked = links = 0
    for board in boards:
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        ws[W_STACKED][:] = 0xA5  # garbage: the kernel writes every entry
        ws[W_RUNS][:] = 77
        ws[W_SCAN_QUEUED][:] = 1
        K._stack_masks(gr, mj, ws)
        want = _stack_masks_naive(board, geo)
        assert ws[W_STACKED].tolist() == want, repr(board)
        assert ws[W_RUNS].tolist() == _run_links_naive(board), repr(board)
        stacked += sum(1 for m in want if m)
        links += sum(1 for v in ws[W_RUNS][: geo.n] if v >= 0)
    assert stacked > 0 and links > 100


def _playout_board(positions, groups):
    return MahjongBoard(Layout(positions), groups)


# one group of four: tile 1 lies on tile 0, tiles 2 and 3 stand alone; taking (2, 3) first
# leaves 0 and 1, which can never go together
_TRAP = [(0, 0, 0), (0, 0, 1), (4, 0, 0), (8, 0, 0)]


def _playout(board, policy, state, opts_extra=None):
    geo = geometry(board)
    kind, gr, mj, sh, ws, moves = kernel_args(geo)
    opts = K.rules(freeze=False, loose=False, playout=PLAYOUTS.index(policy), **(opts_extra or {}))
    pres = np.ones(geo.n, dtype=np.uint8)
    partner = np.full(geo.n, -1, dtype=np.int32)
    rng = np.array([state], dtype=np.uint64)
    hit = K._attempts(kind, gr, mj, sh, opts, 1, rng, pres, partner, moves, ws)
    return hit, moves[: geo.n // 2].tolist(), int(rng[0])


def _plain_playouts_from_the_deal(gr, mj, opts, ws, moves, n, state, count):
    """The plain playouts of ``_attempts`` made the long way: each playout from the start is
    ``_mj_playout`` from the full deal, and each that fails is followed by ``_mj_playout``
    from the position after the moves before its first draw and half of the rest, its moves
    put after those. ``(number of the playout that cleared or -1, generator state, moves or
    None)``."""
    ng = gr[1].shape[0] - 1
    K._stack_masks(gr, mj, ws)
    ws[W_RNG][0] = state
    pres = np.ones(n, dtype=np.uint8)
    partner = np.full(n, -1, dtype=np.int32)
    failed = None
    for a in range(count):
        pres[:] = 1
        if failed is None:
            partner[:] = -1
            K._autopair(gr, pres, partner)
            m = K._mj_playout(gr, mj, pres, partner, moves, opts, ws)
            played = moves[:m].tolist()
            drawn = int(ws[W_PLAYOUT_START][7 * n + ng])  # the moves before its first draw
            failed = played[: drawn + (m - drawn) // 2]
        else:
            for x, y in failed:
                pres[x] = pres[y] = 0
            partner[:] = -1
            K._autopair(gr, pres, partner)
            m = K._mj_playout(gr, mj, pres, partner, moves, opts, ws)
            played = failed + moves[:m].tolist()
            failed = None
        if 2 * len(played) == n:
            return a, int(ws[W_RNG][0]), played
    return -1, int(ws[W_RNG][0]), None


@pytest.mark.parametrize("policy", PLAYOUTS)
@pytest.mark.parametrize("rules", [True, False], ids=["rules", "no-rules"])
def test_playouts_from_the_kept_start_are_playouts_from_the_deal(policy, rules):
    """``_attempts`` plays its later playouts from the first one's state at its first draw
    (``_mj_playout_again``) and after each that fails one from half way through it
    (``_mj_playout_on``), and ``_more_attempts`` goes on from there: each must be the
    playout that ``_mj_playout`` from the same position gives, the random state going on:
    the same playout clears, with the same moves, after the same number of draws, in one
    call or in two (split after a playout that goes on)."""
    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout

    boards = [deal_random(load_layout("turtle"), seed=s) for s in range(6)]
    boards += [random_small_board(np.random.default_rng(s), max_tiles=24) for s in range(6)]
    opts = K.rules(freeze=rules, loose=rules, playout=PLAYOUTS.index(policy))
    went_on = 0
    for board in boards:
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        n = geo.n
        for state in (7, 12345):
            pres = np.ones(n, dtype=np.uint8)
            partner = np.full(n, -1, dtype=np.int32)
            rng = np.array([state], dtype=np.uint64)
            hit = K._attempts(kind, gr, mj, sh, opts, 12, rng, pres, partner, moves, ws)
            got = (hit, int(rng[0]), moves[: n // 2].tolist() if hit >= 0 else None)
            went_on += hit > 0 and hit % 2 == 1
            rng[0] = state
            split = K._attempts(kind, gr, mj, sh, opts, 6, rng, pres, partner, moves, ws)
            if split < 0:
                more = K._more_attempts(kind, gr, mj, sh, opts, 6, rng, pres, partner, moves, ws)
                split = 6 + more if more >= 0 else -1
            assert (split, int(rng[0]), moves[: n // 2].tolist() if split >= 0 else None) == got
            assert _plain_playouts_from_the_deal(gr, mj, opts, ws, moves, n, state, 12) == got
    assert went_on > 0  # some deal was cleared by a playout that went on


def test_safe_playout_never_takes_a_fatal_pair():
    """On the trap board a uniform playout takes the fatal pair (2, 3) about one time in
    three and fails; the safe one never does, draws both other pairs, and its moves replay
    to an empty board."""
    from mjsat.replay import replay

    board = _playout_board(_TRAP, [0, 0, 0, 0])
    uniform_failed = 0
    safe_first = set()
    for state in range(1, 61):
        hit, moves, _ = _playout(board, "uniform", state)
        uniform_failed += hit < 0
        if hit < 0:
            assert moves[0] == [2, 3]
        hit, moves, _ = _playout(board, "safe", state)
        assert hit == 0
        assert [2, 3] not in moves
        safe_first.add(tuple(moves[0]))
        replay(board, [tuple(m) for m in moves], require_clear=True)
    assert 10 <= uniform_failed <= 35
    assert safe_first == {(1, 2), (1, 3)}


def test_safe_playout_stops_when_every_pair_is_fatal():
    """Tiles 0, 1, 2 stacked, tile 3 alone: the only playable pair, the top tile and tile 3,
    leaves two stacked tiles; the safe playout plays nothing, the uniform one plays it."""
    board = _playout_board([(0, 0, 0), (0, 0, 1), (0, 0, 2), (4, 0, 0)], [0, 0, 0, 0])
    geo = geometry(board)
    kind, gr, mj, sh, ws, moves = kernel_args(geo)
    for policy, played in (("uniform", 1), ("safe", 0)):
        opts = K.rules(freeze=False, loose=False, playout=PLAYOUTS.index(policy))
        pres = np.ones(geo.n, dtype=np.uint8)
        partner = np.full(geo.n, -1, dtype=np.int32)
        ws[W_RNG][0] = 99
        K._stack_masks(gr, mj, ws)
        assert K._mj_playout(gr, mj, pres, partner, moves, opts, ws) == played
        if played:
            assert moves[0].tolist() == [2, 3]


@pytest.mark.parametrize("guided", [False, True], ids=["plain", "guided"])
def test_safe_playouts_are_deterministic_and_replay(guided):
    """The same state gives the same playouts (moves and generator state); the clearing ones
    replay to an empty board."""
    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout
    from mjsat.replay import replay

    kernel = K._guided if guided else K._attempts
    cleared = {"uniform": 0, "safe": 0}
    for seed in range(12):
        board = deal_random(load_layout("turtle"), seed=seed)
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        for policy in cleared:
            opts = K.rules(playout=PLAYOUTS.index(policy))
            runs = []
            for _ in range(2):
                pres = np.ones(geo.n, dtype=np.uint8)
                partner = np.full(geo.n, -1, dtype=np.int32)
                rng = np.array([1234567 + seed], dtype=np.uint64)
                hit = kernel(kind, gr, mj, sh, opts, 8 if not guided else 2, rng, pres, partner, moves, ws)
                runs.append((hit, moves.tolist(), int(rng[0])))
            assert runs[0] == runs[1]
            if runs[0][0] >= 0:
                cleared[policy] += 1
                replay(board, [tuple(m) for m in runs[0][1][: geo.n // 2]], require_clear=True)
    assert cleared["safe"] > 0


def _run_links_naive(board):
    """``W_RUNS`` by the layout's side relations: ``[t]`` the one tile on ``t``'s second side
    when ``t`` is the only tile on that tile's first side, ``[n + t]`` the reverse; then
    each tile's row's first tile and its place in the row."""
    lay = board.layout
    one, two = (lay.front, lay.rear) if board.game == "mahjong-transposed" else (lay.left, lay.right)
    n = len(lay)
    want = [-1] * (2 * n) + [0] * (2 * n)
    for t in range(n):
        if len(two[t]) == 1 and len(one[two[t][0]]) == 1:
            want[t] = two[t][0]
            want[n + two[t][0]] = t
    for t in range(n):
        if want[n + t] < 0:
            u, k = t, 0
            while u >= 0:
                want[2 * n + u], want[3 * n + u] = t, k
                u, k = want[u], k + 1
    return want


def _rows_naive(board):
    """The layout's rows by the side relations (:func:`_run_links_naive`): each tile's row,
    a list of tiles from its first side to its second."""
    w = _run_links_naive(board)
    n = len(board.layout)
    rows = {}
    for t in range(n):
        if w[n + t] < 0:
            row = [t]
            while w[row[-1]] >= 0:
                row.append(w[row[-1]])
            for u in row:
                rows[u] = row
    return rows


def _cycle_naive(board, present, partner, x, y, c, d):
    """Whether ``c`` and ``d`` lie in one row and, once paired (``x`` and ``y`` gone), they
    and a pair of ``partner`` must each go before the other: two pairs of the row not
    nested, a tile between ``c`` and ``d`` whose partner lies on ``c`` or ``d``, or a tile
    of the row outside them whose partner lies under ``c`` or ``d``."""
    row = _rows_naive(board)[c]
    if d not in row:
        return False
    above = board.layout.above
    lo, hi = sorted((row.index(c), row.index(d)))
    for i, u in enumerate(row):
        q = int(partner[u])
        if not present[u] or q < 0 or u in (x, y, c, d):
            continue
        inside = lo < i < hi
        if q in row:
            j = row.index(q)
            if inside != (lo < j < hi) or (not inside and (i < lo) == (j < lo)):
                return True
        elif inside and q in above[c] + above[d]:
            return True
        elif not inside and (c in above[q] or d in above[q]):
            return True
    return False


def _reachable_state(board, geo, rng):
    """A position reached by random legal moves from the full board, and a partial pairing
    set: the last two tiles of a group paired, some groups of four paired at random."""
    present = np.ones(geo.n, dtype=np.uint8)
    transposed = board.game == "mahjong-transposed"
    for _ in range(int(rng.integers(0, geo.n // 2))):
        moves = naive_mahjong_moves(board.layout.positions, board.groups, present, transposed=transposed)
        if not moves:
            break
        a, b = moves[int(rng.integers(len(moves)))]
        present[[a, b]] = 0
    partner = np.full(geo.n, -1, dtype=np.int32)
    for tiles in geo.members:
        live = [t for t in tiles if present[t]]
        if len(live) == 2 or (len(live) == 4 and rng.random() < 0.5):
            live = list(rng.permutation(live))
            for i in range(0, len(live), 2):
                partner[live[i]], partner[live[i + 1]] = live[i + 1], live[i]
    return present, partner


def _row_boards(seed, count):
    """Boards of a few rows on level 0 (tiles of a row side by side), some tiles on level 1,
    groups of two and four: many pairs in one row."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        pos = []
        for r in range(int(rng.integers(1, 4))):
            start = int(rng.integers(0, 3))
            for k in range(int(rng.integers(3, 8))):
                pos.append((2 * r, start + 2 * k, 0))
        for r, c, _lev in list(pos):
            if rng.random() < 0.15:
                pos.append((r, c, 1))
        if len(pos) % 2:
            pos.pop()
        groups = []
        g = 0
        while len(groups) < len(pos):
            size = 4 if len(pos) - len(groups) >= 4 and rng.random() < 0.6 else 2
            groups += [g] * size
            g += 1
        rng.shuffle(groups)
        game = "mahjong" if rng.random() < 0.5 else "mahjong-transposed"
        if game == "mahjong-transposed":
            pos = [(c, r, lev) for r, c, lev in pos]
        from mjsat.board import find_variant

        yield find_variant(game)(Layout(pos), [int(v) for v in groups]), rng


def _clearable(board, present, partner):
    """Whether the tiles ``present`` can all go, each tile with a partner only with it (naive
    rules, memoised on the position)."""
    from functools import cache

    positions = board.layout.positions
    groups = board.groups
    transposed = board.game == "mahjong-transposed"

    @cache
    def rec(live):
        if not live:
            return True
        pres = [t in live for t in range(len(positions))]
        for a, b in naive_mahjong_moves(positions, groups, pres, transposed=transposed):
            if (partner[a] >= 0 and partner[a] != b) or (partner[b] >= 0 and partner[b] != a):
                continue
            if rec(live - {a, b}):
                return True
        return False

    return rec(frozenset(t for t in range(len(present)) if present[t]))


def test_row_cycle_kernel_equals_naive_and_is_sound():
    """``_doomed`` with ``rows`` on positions reached by random play on row boards: its
    answer is the naive one (rows by the side relations), and every position it calls
    doomed by a cycle (the pair taken, the group's other two then partners) cannot be
    cleared (a brute force)."""
    doomed = 0
    for board, rng in _row_boards(41, 300):
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        ws[W_RUNS][:] = 77  # garbage: the kernel writes every entry
        K._stack_masks(gr, mj, ws)
        for _ in range(8):
            present, partner = _reachable_state(board, geo, rng)
            for x, y in naive_mahjong_moves(
                board.layout.positions, board.groups, present, transposed=board.game == "mahjong-transposed"
            ):
                if partner[x] >= 0:
                    continue
                left = [u for u in geo.members[geo.group[x]] if present[u] and u not in (x, y)]
                args = (ws[W_STACKED], mj[0], mj[1], ws[W_RUNS])
                got = K._doomed(x, y, gr, present, partner, *args, True)
                fatal = K._doomed(x, y, gr, present, partner, *args, False)
                cycle = len(left) == 2 and _cycle_naive(board, present, partner, x, y, *left)
                assert got == (fatal or cycle), (repr(board), present.tolist(), partner.tolist(), x, y)
                if cycle and not fatal:
                    doomed += 1
                    after, pairs = present.copy(), partner.copy()
                    after[[x, y]] = 0
                    pairs[left[0]], pairs[left[1]] = left[1], left[0]
                    assert not _clearable(board, after, pairs)
    assert doomed > 30


# tiles 0-3 in one row, tiles 4-7 alone (A A B B): taking (4, 5) and then (6, 7) leaves A
# and B two pairs in the row; with the groups A B A B they cross, with A A B B they stand
# side by side: either way neither pair can go
_ROW_TRAP = [(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0), (4, 0, 0), (8, 0, 0), (12, 0, 0), (16, 0, 0)]


@pytest.mark.parametrize("row", [[0, 1, 0, 1], [0, 0, 1, 1]], ids=["crossing", "side-by-side"])
def test_rows_playout_never_leaves_two_pairs_of_a_row_unnested(row):
    """On the row trap a safe playout leaves the two pairs in the row about one time in
    four and fails; the rows playout never does, and its moves replay to an empty board."""
    from mjsat.replay import replay

    board = _playout_board(_ROW_TRAP, [*row, 0, 0, 1, 1])
    safe_failed = 0
    for state in range(1, 81):
        hit, moves, _ = _playout(board, "safe", state)
        safe_failed += hit < 0
        hit, moves, _ = _playout(board, "rows", state)
        assert hit == 0
        replay(board, [tuple(m) for m in moves], require_clear=True)
    assert 5 <= safe_failed <= 60


def _search_order(allow_row, cnt):
    """The pairings in the order ``_dfs`` tries them: the highest rank first, the first of
    equals first, each once; unranked (0) never."""
    row = [int(v) for v in allow_row[:cnt]]
    order = []
    while max(row, default=0) > 0:
        k = row.index(max(row))
        order.append(k)
        row[k] = 0
    return order


def test_rank_pairings_kernel_orders_as_naive():
    """``_rank_pairings`` ranks the pairings the probes let through by the pairs they share
    with the hint (the longest guided playout), the index breaking ties; refuted pairings
    never come; without a hint the order is the index order."""
    rng = np.random.default_rng(5)
    ptab, pstart, pcount = K._PTAB
    for _ in range(300):
        r = int(rng.choice([2, 4, 6, 8]))
        n = r + int(rng.integers(0, 6))
        tmp = rng.permutation(n)[:r].astype(np.int32)
        base, cnt = int(pstart[r // 2]), int(pcount[r // 2])
        okk = (rng.random(128) < 0.7).astype(np.uint8)
        hint = np.full(n + 1, -1, dtype=np.int32)
        tiles = rng.permutation(n)
        made = 2 * int(rng.integers(0, n // 2 + 1))
        for a, b in zip(tiles[0:made:2], tiles[1:made:2]):
            hint[a], hint[b] = b, a
        hint[n] = made // 2 if rng.random() < 0.8 else 0
        allow = np.zeros((3, 128), dtype=np.uint8)
        K._rank_pairings(1, r, base, cnt, tmp, ptab, okk, allow, hint)

        def shared(k):
            pairs = {frozenset((int(tmp[i]), int(tmp[ptab[base + k, i]]))) for i in range(r)}
            return sum(1 for p in pairs if hint[n] > 0 and hint[min(p)] == max(p))

        want = sorted((k for k in range(cnt) if okk[k]), key=lambda k: (-shared(k), k))
        assert _search_order(allow[1], cnt) == want
        if hint[n] == 0:
            assert want == [k for k in range(cnt) if okk[k]]


def test_guided_playouts_keep_the_longest_failed_one_as_the_hint():
    """After guided playouts, ``W_HINT`` holds the pairs of the first of the longest ones
    that failed (and its number of moves): six playouts in one call leave what the same six
    one call each leave, the longest kept."""
    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout

    checked = 0
    for seed in range(8):
        board = deal_random(load_layout("turtle"), seed=seed)
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        n = geo.n
        opts = K.rules()
        pres = np.ones(n, dtype=np.uint8)
        partner = np.full(n, -1, dtype=np.int32)
        rng = np.array([4242 + seed], dtype=np.uint64)
        singles = []
        for _ in range(6):
            K.restart(ws)
            hit = K._guided(kind, gr, mj, sh, opts, 1, rng, pres, partner, moves, ws)
            if hit >= 0:
                break
            hint = ws[W_HINT].copy()
            m = int(hint[n])
            assert m > 0 and (hint[:n] >= 0).sum() == 2 * m
            for t in np.nonzero(hint[:n] >= 0)[0]:
                assert hint[hint[t]] == t and geo.group[t] == geo.group[hint[t]]
            assert sorted(map(sorted, moves[:m].tolist())) == sorted(
                [int(t), int(hint[t])] for t in np.nonzero(hint[:n] >= 0)[0] if t < hint[t]
            )
            singles.append(hint)
        else:
            K.restart(ws)
            rng[0] = 4242 + seed
            assert K._guided(kind, gr, mj, sh, opts, 6, rng, pres, partner, moves, ws) == -1
            longest = max(range(6), key=lambda i: (singles[i][n], -i))
            assert ws[W_HINT].tolist() == singles[longest].tolist()
            checked += 1
    assert checked > 0


def _search(board, opts, hint=None):
    """The critical-group search kernel, exhaustive, from the deal (the solver's scratch and
    stacks), with ``hint`` (pairs of tiles) in ``W_HINT``: ``(code, moves, nodes)``."""
    from mjsat.search.scratch import Scratch

    geo = geometry(board)
    kind, gr, mj, sh, pt = K.arrays(geo)
    scratch = Scratch(K, (geo.n, len(geo.members), int(sh[2] * sh[3]), 0))
    ws = scratch.ws
    if hint is not None:
        for a, b in hint:
            ws[W_HINT][a], ws[W_HINT][b] = b, a
        ws[W_HINT][geo.n] = max(1, len(hint))
    P, Q, bg, bgr, allow, nxt, mend, moves, st = scratch.search_stacks(K, gr)
    code = K._dfs(kind, gr, mj, sh, pt, opts, P, Q, bg, bgr, allow, nxt, mend, moves, st, 10**9, ws)
    return code, moves[: int(st[S_MOVES])].tolist(), int(st[S_NODES])


def _random_hint(geo, rng):
    """A random pairing of every group, as pairs of tiles."""
    hint = []
    for tiles in geo.members:
        tiles = [int(t) for t in rng.permutation(list(tiles))]
        hint += list(zip(tiles[0::2], tiles[1::2]))
    return hint


def test_search_with_any_hint_answers_as_brute_force():
    """The hint only orders the pairings: with a random pairing of each group as the hint
    the search still finds every solvable deal (its moves replay) and refutes the others:
    as brute force on small boards, and as the search without a hint on turtle deals (where
    it branches: the hint changes the nodes it visits)."""
    from naive import brute_force_solvable

    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout
    from mjsat.replay import replay

    rng = np.random.default_rng(19)
    opts = K.rules()
    boards = [
        (b, brute_force_solvable(b)[0])
        for b in (random_small_board(np.random.default_rng(1000 + i), max_tiles=14) for i in range(40))
    ]
    turtle = [deal_random(load_layout("turtle"), seed=s) for s in range(24)]
    boards += [(b, _search(b, opts)[0] == K.SOLVED) for b in turtle]
    differ = 0
    for board, truth in boards:
        plain = _search(board, opts)
        assert plain[0] == (K.SOLVED if truth else K.EXHAUSTED)
        for _ in range(2):
            code, moves, nodes = _search(board, opts, _random_hint(geometry(board), rng))
            assert code == plain[0]
            if truth:
                replay(board, [tuple(m) for m in moves], require_clear=True)
            differ += nodes != plain[2]
    assert differ > 10


def test_keep_hint_keeps_the_first_of_the_longest():
    """``_keep_hint`` replaces the hint only by a playout of more moves."""
    n = 8
    hint = np.full(n + 1, -1, dtype=np.int32)
    hint[n] = 0
    plays = [[[0, 1], [2, 3]], [[4, 5], [6, 7]], [[1, 2], [3, 4], [5, 6]], [[7, 0]]]
    kept = []
    for m in plays:
        K._keep_hint(np.array(m + [[0, 0]] * 3, dtype=np.int32), len(m), hint)
        kept.append(hint.tolist())
    assert kept[0] == [1, 0, 3, 2, -1, -1, -1, -1, 2]
    assert kept[1] == kept[0]  # as long: the first stays
    assert kept[2] == [-1, 2, 1, 4, 3, 6, 5, -1, 3]
    assert kept[3] == kept[2]
