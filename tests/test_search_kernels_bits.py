"""The bitset pair test (mjsat.search.kernels_bits) against the cell-walking kernels, the
board model's rule (mjsat.shisen) and its pure-Python reference (tests/naive.py), and the
search with either test."""

from __future__ import annotations

import numpy as np
import pytest
from kernel_states import kernel_args, random_state
from naive import NaiveBitsets, naive_bits_connect3d

from mjsat.board import Layout, ShisenShoBoard
from mjsat.deals import deal_random
from mjsat.generate import random_grid_board, random_small_board
from mjsat.layouts import load_layout
from mjsat.replay import replay
from mjsat.search import kernels as K, kernels_bits as KB, kernels_shisen as KS
from mjsat.search.config import PAIR_TESTS, W_BITS, W_GRID
from mjsat.search.kernels_sh3d import s3_connect
from mjsat.search.pairing import SH3D, PythonSearch, geometry
from mjsat.search.solver import DEFAULT_PAIR_TEST, UnknownPairTestError, check_search_options, solve_search
from mjsat.shisen import connectable, connectable3d, connecting_path


def _bits(grid: np.ndarray, levels: int, h1: int, w: int) -> np.ndarray:
    bits = np.zeros(levels * KB.level_words(h1, w), dtype=np.uint64)
    KB._bits_fill(grid, bits, levels, h1, w)
    return bits


def _random_occupancy(rng, h: int, w: int) -> np.ndarray:
    """An ``h x w`` grid with its empty margin, the board's cells filled at a random density."""
    occ = np.zeros((h, w), dtype=bool)
    occ[1:-1, 1:-1] = rng.random((h - 2, w - 2)) < rng.uniform(0.3, 0.95)
    return occ


def test_rectangle_test_equals_cell_walk_board_rule_and_reference():
    """Random grids up to :data:`~mjsat.search.kernels_bits.LINE_BITS` cells a line (the
    most a word holds), random cell pairs: the bitset kernel, the cell-walking kernel,
    :func:`mjsat.shisen.connectable` and the pure-Python reference agree; some joining
    paths run through the margin."""
    rng = np.random.default_rng(41)
    answers = {True: 0, False: 0}
    through_margin = 0
    for i in range(400):
        h, w = (
            (int(rng.integers(3, 12)), int(rng.integers(3, 12)))
            if i % 4
            else (KB.LINE_BITS, int(rng.integers(3, KB.LINE_BITS + 1)))
        )
        if i % 8 == 4:
            h, w = w, h
        occ = _random_occupancy(rng, h, w)
        grid = occ.astype(np.uint8).ravel().copy()
        bits = _bits(grid, 1, h, w)
        ref = NaiveBitsets(occ)
        for _ in range(12):
            a = (int(rng.integers(1, h - 1)), int(rng.integers(1, w - 1)))
            b = (int(rng.integers(1, h - 1)), int(rng.integers(1, w - 1)))
            occ2 = occ.copy()
            occ2[a] = occ2[b] = True
            want = connectable(occ2, a, b) if a != b else False
            assert KB._bits_connect(bits, h, w, *a, *b) == want, (occ.astype(int), a, b)
            assert KS._connect(grid, h, w, *a, *b) == want
            assert ref.connect(a, b) == want
            answers[want] += 1
            if want:
                path = connecting_path(occ2, a, b)
                through_margin += any(p[0] in (0, h - 1) or p[1] in (0, w - 1) for p in path)
    assert min(answers.values()) > 500 and through_margin > 50


def test_mahjong_grid_test_equals_cell_walk_board_rule_and_reference():
    """Random positions of random 3-D boards and of turtle deals: the bitset kernel, the
    cell-walking kernel, :func:`mjsat.shisen.connectable3d` and the reference agree."""
    rng = np.random.default_rng(42)
    boards = [
        random_small_board(rng, game="shisen-sho-3d", max_tiles=int(rng.integers(4, 30)), max_levels=3)
        for _ in range(150)
    ]
    boards += [deal_random(load_layout("turtle"), seed=s, game="shisen-sho-3d") for s in range(6)]
    answers = {True: 0, False: 0}
    for board in boards:
        geo = geometry(board)
        levels, h1, w = geo.shape
        for _ in range(3):
            present, _ = random_state(geo, rng)
            occ = PythonSearch(geo)._occ(bytearray(present.tobytes()))
            grid = occ.astype(np.uint8).ravel().copy()
            bits = _bits(grid, levels, h1, w)
            for _ in range(15):
                a, b = (int(v) for v in rng.choice(geo.n, size=2, replace=False))
                (ra, ca, la), (rb, cb, lb) = geo.cells[a], geo.cells[b]
                want = connectable3d(occ, geo.cells[a], geo.cells[b])
                got = KB._bits_connect3d(grid, bits, levels, h1, w, ra, ca, la, rb, cb, lb)
                assert got == want, (board.layout.positions, a, b)
                assert s3_connect(grid, levels, h1, w, ra, ca, la, rb, cb, lb) == want
                assert naive_bits_connect3d(occ, geo.cells[a], geo.cells[b]) == want
                answers[want] += 1
    assert min(answers.values()) > 500


@pytest.mark.parametrize("game", ["shisen-sho", "shisen-sho-3d"])
def test_takes_keep_the_bitsets_equal_to_a_fresh_fill(game):
    """Taking tiles off one by one, then putting them back, keeps the leaves and every tree
    node equal to the bitsets filled afresh from the position, and the kernels' pair test
    then answers as the cell walk."""
    rng = np.random.default_rng(43)
    for _ in range(60):
        if game == "shisen-sho":
            board = random_grid_board(rng, max_width=10, max_height=8)
        else:
            board = random_small_board(rng, game=game, max_tiles=24, max_levels=3)
        geo = geometry(board)
        d3 = geo.kind == SH3D
        _, _, _, sh, _, _ = kernel_args(geo)
        grid = np.zeros(int(sh[2] * sh[3]), dtype=np.uint8)
        bits = np.zeros(KB.bit_words(sh, d3), dtype=np.uint64)
        pres = np.ones(geo.n, dtype=np.uint8)
        KS._sh_grid(d3, pres, sh, grid, bits)
        for t in rng.permutation(geo.n)[: geo.n - 2]:
            KS._sh_take(d3, int(t), pres, sh, grid, bits)
            fresh = np.zeros_like(bits)
            KS._sh_grid(d3, pres, sh, np.zeros_like(grid), fresh)
            assert np.array_equal(bits, fresh)
            a, b = (int(v) for v in rng.choice(geo.n, size=2, replace=False))
            no_bits = np.zeros(0, dtype=np.uint64)
            assert KS._sh_ok(d3, a, b, sh, grid, bits) == KS._sh_ok(d3, a, b, sh, grid, no_bits)
        for t in np.flatnonzero(pres == 0)[::-1]:  # put back (seed 000's pair rule tries a pair so)
            KS._sh_put(d3, int(t), pres, sh, grid, bits)
            fresh_grid, fresh = np.zeros_like(grid), np.zeros_like(bits)
            KS._sh_grid(d3, pres, sh, fresh_grid, fresh)
            assert np.array_equal(bits, fresh) and np.array_equal(grid, fresh_grid)


@pytest.mark.parametrize("game", ["shisen-sho", "shisen-sho-3d"])
def test_scan_and_apply_answer_alike_with_either_test(game):
    """The pruning scan and the apply on random positions give the same answer and the
    same position with the bitsets as with the cell walk."""
    rng = np.random.default_rng(44)
    opts = K.rules()
    results = set()
    for i in range(100):
        if game == "shisen-sho":
            board = random_grid_board(rng, max_width=8, max_height=6, group_sizes=(4, 6), full=i % 2 == 0)
        else:
            board = random_small_board(rng, game=game, max_tiles=20, max_levels=3, group_sizes=(2, 4, 6))
        geo = geometry(board)
        kind, gr, mj, sh, ws, moves = kernel_args(geo)
        _, _, _, _, ws_bits, _ = kernel_args(geo, pair_test="bits")
        assert ws[W_BITS].shape[0] == 0 < ws_bits[W_BITS].shape[0]
        for _ in range(4):
            present, partner = random_state(geo, rng)
            answers = [
                bool(K._scan(kind, gr, mj, sh, present.copy(), partner.copy(), moves, opts, w)) for w in (ws, ws_bits)
            ]
            assert answers[0] == answers[1], repr(board)
            results.add(answers[0])
            after = []
            for w in (ws, ws_bits):
                p, q = present.copy(), partner.copy()
                m = K._apply(kind, gr, mj, sh, p, q, moves, 0, opts, w)
                after.append((bytes(p), [tuple(x) for x in moves[:m]]))
            assert after[0] == after[1], repr(board)
            assert np.array_equal(ws[W_GRID], ws_bits[W_GRID])
    assert results == {True, False}


def _search_boards(rng):
    for i in range(300):
        if i % 2:
            yield random_grid_board(
                rng, max_width=7, max_height=6, group_sizes=(2, 4, 6), max_tiles=24, full=i % 4 == 1
            )
        else:
            yield random_small_board(rng, game="shisen-sho-3d", max_tiles=20, max_levels=3, group_sizes=(2, 4, 6))
    for seed in range(4):
        yield deal_random(load_layout("rect-12x8"), seed=seed, game="shisen-sho")
        yield deal_random(load_layout("turtle"), seed=seed, game="shisen-sho-3d")


def test_search_answers_alike_with_either_test():
    """The whole search (playouts and the exhaustive search, no playouts at all) decides
    random boards alike with both pair tests; every clearing move list replays."""
    rng = np.random.default_rng(45)
    tally = {"solvable": 0, "unsolvable": 0}
    for board in _search_boards(rng):
        for attempts in (None, 0):
            statuses = []
            for pair_test in PAIR_TESTS:
                res = solve_search(board, attempts=attempts, guided=attempts, pair_test=pair_test, time_limit=60)
                assert res.stats["pair_test"] == pair_test
                if res.status == "solvable":
                    replay(board, res.moves)
                statuses.append(res.status)
            assert statuses[0] == statuses[1] != "unknown", repr(board)
            tally[statuses[0]] += 1
    assert min(tally.values()) > 40


def test_long_lines_walk_cells_and_options_are_checked():
    """A row longer than a word falls back to the cell walk (and says so); the longest
    that fits uses the bitsets; an unknown pair test is refused before any board; each
    game has its default."""
    for width, used in ((KB.LINE_BITS - 2, "bits"), (KB.LINE_BITS - 1, "cells")):
        layout = Layout([(2 * y, 2 * x, 0) for y in range(2) for x in range(width)])
        board = ShisenShoBoard(layout, [x for _ in range(2) for x in range(width)])
        res = solve_search(board, pair_test="bits")
        assert res.status == "solvable" and res.stats["pair_test"] == used
        replay(board, res.moves)
    with pytest.raises(UnknownPairTestError):
        check_search_options(pair_test="bitset")
    for game, default in (("shisen-sho", "cells"), ("shisen-sho-3d", "bits")):
        board = deal_random(load_layout("rect-4x4"), seed=1, game=game)
        assert solve_search(board).stats["pair_test"] == default == DEFAULT_PAIR_TEST[geometry(board).kind]
    assert set(KB.WORDS_OF_PAIR_TEST) == set(PAIR_TESTS)


@pytest.mark.parametrize("game", ["shisen-sho", "shisen-sho-3d"])
def test_kernel_pairs_are_the_board_models_legal_moves(game):
    """After random pairs of each group are taken off a board (unchecked), the pairs of
    present tiles of one group that the bitset kernels accept are exactly the board
    model's legal moves."""
    rng = np.random.default_rng(46)
    seen = 0
    for i in range(80):
        if game == "shisen-sho":
            board = random_grid_board(rng, max_width=9, max_height=7, group_sizes=(2, 4, 6), full=i % 2 == 0)
        else:
            board = random_small_board(rng, game=game, max_tiles=24, max_levels=3, group_sizes=(2, 4, 6))
        geo = geometry(board)
        present, _ = random_state(geo, rng)
        gone = [t for t in range(geo.n) if not present[t]]
        for k in range(0, len(gone), 2):
            board.push((gone[k], gone[k + 1]))
        d3 = geo.kind == SH3D
        _, _, _, sh, _, _ = kernel_args(geo)
        grid = np.zeros(int(sh[2] * sh[3]), dtype=np.uint8)
        bits = np.zeros(KB.bit_words(sh, d3), dtype=np.uint64)
        KS._sh_grid(d3, present, sh, grid, bits)
        accepted = {
            (a, b)
            for tiles in geo.members
            for j, a in enumerate(tiles)
            for b in tiles[j + 1 :]
            if present[a] and present[b] and KS._sh_ok(d3, a, b, sh, grid, bits)
        }
        legal = {tuple(sorted(m)) for m in board.generate_legal_moves()}
        assert accepted == legal, repr(board)
        seen += len(legal)
    assert seen > 200


def test_cli_takes_the_pair_test_and_refuses_an_unknown_one():
    """``mjsat solve -O pair_test=...``: each test decides the deal (and ``--json`` names the
    test that ran); an unknown one is one line and exit code 2."""
    import json

    from click.testing import CliRunner

    from mjsat.cli import cli

    base = ["solve", "--layout", "rect-6x4", "--game", "shisen-sho", "--seed", "3", "--method", "search", "--json"]
    for pair_test in PAIR_TESTS:
        res = CliRunner().invoke(cli, [*base, "-O", f"pair_test={pair_test}"])
        assert res.exit_code == 0, res.output
        assert json.loads(res.output)["stats"]["pair_test"] == pair_test
    res = CliRunner().invoke(cli, [*base, "-O", "pair_test=bitset"])
    assert res.exit_code == 2 and "unknown pair_test 'bitset'" in res.output and "Traceback" not in res.output
