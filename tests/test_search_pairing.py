"""The pure-Python pairing-set search against the reference solver, and its parts."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

from mjsat.board import Layout, MahjongBoard, ShisenShoBoard, TransposedMahjongBoard
from mjsat.generate import random_grid_board, random_small_board
from mjsat.methods import solve
from mjsat.replay import replay
from mjsat.search.pairing import MAHJONG, SHISEN, PythonSearch, geometry, pairings


def _boards(seed: int, count: int):
    rng = np.random.default_rng(seed)
    for i in range(count):
        k = i % 3
        if k == 2:
            yield random_grid_board(rng, group_sizes=(2, 4, 6))
        else:
            game = "mahjong" if k == 0 else "mahjong-transposed"
            yield random_small_board(rng, game=game, max_tiles=16, group_sizes=(2, 4, 6))


@given(st.integers(min_value=1, max_value=5))
def test_pairings_are_all_perfect_matchings(h):
    r = 2 * h
    ps = pairings(r)
    count = 1
    for k in range(r - 1, 0, -2):
        count *= k
    assert len(ps) == count
    seen = set()
    for p in ps:
        flat = sorted(x for pair in p for x in pair)
        assert flat == list(range(r))
        seen.add(frozenset(frozenset(pair) for pair in p))
    assert len(seen) == count


def test_pairings_reject_odd():
    with pytest.raises(ValueError):
        pairings(3)


def test_geometry_kinds_and_sides():
    lay = Layout([(0, 0, 0), (2, 0, 0), (0, 2, 0), (2, 2, 0)])
    g = geometry(MahjongBoard(lay, [0, 0, 1, 1]))
    assert g.kind == MAHJONG and g.one == lay.left and g.ones_of[0] == (2,)
    t = geometry(TransposedMahjongBoard(lay, [0, 0, 1, 1]))
    assert t.one == lay.front
    s = geometry(ShisenShoBoard(lay, [0, 0, 1, 1]))
    assert s.kind == SHISEN and s.shape == (4, 4) and s.cells[3] == (2, 2)
    assert g.members == ((0, 1), (2, 3))


def _solve_python(board, **opts):
    search = PythonSearch(geometry(board), **opts)
    return search.search()


@pytest.mark.parametrize(
    "opts",
    [
        {},
        {"freeze": False},
        {"loose": False},
        {"scan": False},
        {"critical": False},
        {"freeze": False, "loose": False, "scan": False, "critical": False},
        {"bondt": True},
        {"bondt": True, "scan": False},
        {"bondt": True, "freeze": False, "loose": False},
        {"freeze_pair": True, "loose_pair": True},
        {"freeze": False, "loose": False, "freeze_pair": True, "loose_pair": True},
        {"critical": False, "joint": True},
        {"critical": False, "scan": False, "joint": True},
    ],
    ids=[
        "all",
        "no-freeze",
        "no-loose",
        "no-scan",
        "no-critical",
        "bare",
        "bondt",
        "bondt-no-scan",
        "bondt-no-cleaning",
        "pair-rules",
        "pair-rules-alone",
        "joint",
        "joint-no-scan",
    ],
)
def test_python_search_agrees_with_ref(opts):
    for board in _boards(11, 60):
        ref = solve(board, "ref")
        moves = _solve_python(board, **opts)
        assert (moves is not None) == (ref.status == "solvable"), repr(board)
        if moves is not None:
            replay(board, moves)


def test_scan_never_prunes_a_solvable_position():
    for board in _boards(12, 80):
        if solve(board, "ref").status != "solvable":
            continue
        search = PythonSearch(geometry(board))
        assert search.scan(bytearray(b"\x01") * len(board), [-1] * len(board))


def test_apply_of_a_solution_pairing_clears():
    for board in _boards(13, 60):
        ref = solve(board, "ref")
        if ref.status != "solvable":
            continue
        partner = [-1] * len(board)
        for a, b in ref.moves:
            partner[a], partner[b] = b, a
        search = PythonSearch(geometry(board), freeze=False, loose=False)
        present = bytearray(b"\x01") * len(board)
        moves = []
        search.apply(present, partner, moves)
        assert not any(present)
        replay(board, moves)


def test_random_attempt_moves_replay():
    rng = np.random.default_rng(3)
    for board in _boards(14, 30):
        moves = PythonSearch(geometry(board)).attempt(rng)
        if moves is not None:
            replay(board, moves)


def test_loose_tile_rule():
    # row a b a a with b-pair elsewhere: tiles 0, 2 free ends... a standalone tile is loose
    lay = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (4, 0, 0), (4, 4, 0), (8, 0, 0)])
    board = MahjongBoard(lay, [0, 1, 0, 0, 1, 0])
    search = PythonSearch(geometry(board))
    present = bytearray(b"\x01") * 6
    assert search.is_loose(5, present) and search.is_loose(3, present)
    assert not search.is_loose(0, present)  # tile 1 has its right side blocked by tile 2


ROW_OF_FOUR = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 0, 0, 0])
"""One group in a row: the two ends are free, and once they are gone so are the middle two."""

LOOSE_AFTER_PAIR = MahjongBoard(
    Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (4, 0, 0), (8, 0, 0), (8, 0, 1)]), [0, 0, 1, 0, 0, 1]
)
"""Group 0: tiles 0 and 3 free; tile 1 between tile 0 and tile 2 (whose far side is open),
so free and loose once tile 0 is gone; tile 4 under tile 5."""


def _apply_all(board, **opts):
    geo = geometry(board)
    search = PythonSearch(geo, **opts)
    present = bytearray(b"\x01") * geo.n
    partner = [-1] * geo.n
    for tiles in geo.members:
        if len(tiles) == 2:
            partner[tiles[0]], partner[tiles[1]] = tiles[1], tiles[0]
    moves: list = []
    search.apply(present, partner, moves)
    return present, partner, moves


def test_freeze_pair_rule():
    """The row of four: no tile is loose and only two are free, so freeze and loose leave it;
    with ``freeze_pair`` the ends go, then the middle."""
    present, _, moves = _apply_all(ROW_OF_FOUR)
    assert sum(present) == 4 and moves == []
    present, _, moves = _apply_all(ROW_OF_FOUR, freeze_pair=True)
    assert not any(present) and moves == [(0, 3), (1, 2)]
    replay(ROW_OF_FOUR, moves)


def test_loose_pair_rule():
    """Tiles 0 and 3 go because tile 1 is then free and loose; tile 1 waits for tile 4, which
    is free once group 1 goes. Without the rule (and without freeze) group 0 stays whole."""
    present, partner, moves = _apply_all(LOOSE_AFTER_PAIR, freeze=False, loose=False)
    assert [i for i, x in enumerate(present) if x] == [0, 1, 3, 4]
    present, partner, moves = _apply_all(LOOSE_AFTER_PAIR, freeze=False, loose=False, loose_pair=True)
    assert not any(present) and moves[0] == (0, 3) and (1, 4) in moves
    assert partner[1] == 4
    replay(LOOSE_AFTER_PAIR, moves)


@pytest.mark.parametrize(
    "board, flags",
    [(ROW_OF_FOUR, {"freeze_pair": True}), (LOOSE_AFTER_PAIR, {"freeze": False, "loose": False, "loose_pair": True})],
    ids=["freeze-pair", "loose-pair"],
)
def test_pair_rules_in_the_kernel(board, flags):
    """The kernel's apply takes the same tiles off the two hand-made boards as the twin,
    with the rule and without it."""
    from mjsat.search import kernels as K

    geo = geometry(board)
    kind, gr, mj, sh, pt = K.arrays(geo)
    ws = K.workspace(geo.n, len(geo.members), int(sh[2] * sh[3]))
    moves = np.zeros((geo.n // 2 + 1, 2), dtype=np.int32)
    without = {key: value for key, value in flags.items() if key in ("freeze", "loose")}
    for rules in (without, flags):
        p = np.ones(geo.n, dtype=np.uint8)
        q = np.full(geo.n, -1, dtype=np.int32)
        K._autopair(gr, p, q)
        m = K._apply(kind, gr, mj, sh, p, q, moves, 0, K.rules(**rules), ws)
        want, _, _ = _apply_all(board, **rules)
        assert bytes(p) == bytes(want)
        assert sum(p) == (0 if rules is flags else 4)
        replay(board, [tuple(x) for x in moves[:m]], require_clear=False)


def test_freeze_pair_rule_on_shisen_sho():
    """Shisen-Sho: on some random grids of groups of four, a group the freeze rule leaves
    (not every pair meets) goes with ``freeze_pair``; its moves replay."""
    rng = np.random.default_rng(41)
    fired = 0
    for _ in range(200):
        board = random_grid_board(rng, group_sizes=(4,))
        plain, _, _ = _apply_all(board)
        present, _, moves = _apply_all(board, freeze_pair=True)
        if sum(present) < sum(plain):
            fired += 1
            replay(board, moves, require_clear=False)
    assert fired >= 5


def test_stack_of_three_is_unsolvable():
    lay = Layout([(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 4, 0)])
    board = MahjongBoard(lay, [0, 0, 0, 0])
    assert _solve_python(board) is None
    assert _solve_python(board, scan=False, critical=False) is None
    assert solve(board, "ref").status == "unsolvable"


def test_bondt_tree_adapts_backwards_and_agrees_with_probing():
    """The "pairing one, then two" tree takes groups out of the tree (their rotation moves)
    on some boards, and decides every board as the probing search does."""
    rotated = 0
    for board in _boards(15, 80):
        geo = geometry(board)
        probing = PythonSearch(geo).search()
        search = PythonSearch(geo, bondt=True)
        calls = []
        original = search._bondt_eval

        def spy(stack, rot, skip=-1, _orig=original, _calls=calls):
            _calls.append((skip, list(rot)))
            return _orig(stack, rot, skip)

        search._bondt_eval = spy
        moves = search.search()
        assert (moves is None) == (probing is None), repr(board)
        if moves is not None:
            replay(board, moves)
        rotated += any(any(r) for _, r in calls)
    assert rotated > 0
