"""The Shisen-Sho pair test against breadth-first path search on random grids."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings, strategies as st
from naive import bfs_connectable

from mjsat.board import Layout, ShisenShoBoard
from mjsat.shisen import connectable, connectable_masks


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), h=st.integers(1, 7), w=st.integers(1, 8), p=st.floats(0.2, 0.95))
def test_connectable_agrees_with_bfs(seed, h, w, p):
    rng = np.random.default_rng(seed)
    occ = np.zeros((h + 2, w + 2), dtype=bool)
    occ[1:-1, 1:-1] = rng.random((h, w)) < p
    cells = [tuple(int(v) for v in c) for c in np.argwhere(occ)]
    if len(cells) < 2:
        return
    for _ in range(10):
        i, j = rng.choice(len(cells), size=2, replace=False)
        a, b = cells[i], cells[j]
        assert connectable(occ, a, b) == bfs_connectable(occ, a, b), (occ.astype(int), a, b)
        cleared = occ.copy()
        cleared[a] = cleared[b] = False
        rows = [sum(1 << x for x in range(occ.shape[1]) if cleared[y, x]) for y in range(occ.shape[0])]
        cols = [sum(1 << y for y in range(occ.shape[0]) if cleared[y, x]) for x in range(occ.shape[1])]
        assert connectable_masks(rows, cols, a, b) == connectable(occ, a, b), (occ.astype(int), a, b)


def test_path_may_use_the_margin_but_not_three_turns():
    # a full 3 x 4 board; tile y*4+x; groups: A at 0,3  D at 1,2  C at 4,7  B at 5,6 ...
    lay = Layout([(2 * y, 2 * x, 0) for y in range(3) for x in range(4)])
    b = ShisenShoBoard(lay, [0, 3, 3, 0, 2, 1, 1, 2, 4, 5, 5, 4])
    assert b.is_legal((0, 3))  # top corners: up into the margin, across, down
    assert b.is_legal((8, 11))  # bottom corners, through the bottom margin
    assert b.is_legal((5, 6))  # neighbours
    assert "no path" in b.illegal_reason((4, 7))  # middle-row ends need five segments
    assert sorted(b.legal_moves) == [(0, 3), (1, 2), (5, 6), (8, 11), (9, 10)]
    b.play((1, 2))
    assert b.is_legal((5, 6)) and b.is_legal((0, 3))
    b.play((5, 6))
    assert b.is_legal((4, 7))  # now straight through the emptied middle row


def _cells_along(p, q):
    """Half-tile cells ``(row, col)`` that the piece from ``p`` to ``q`` (one level) touches."""
    out = set()
    steps = int(round(4 * (abs(q[0] - p[0]) + abs(q[1] - p[1])))) or 1
    for k in range(steps + 1):
        r = p[0] + (q[0] - p[0]) * k / steps
        c = p[1] + (q[1] - p[1]) * k / steps
        rows = {int(np.floor(r))} | ({int(r) - 1} if r == int(r) else set())
        cols = {int(np.floor(c))} | ({int(c) - 1} if c == int(c) else set())
        out.update((y, x) for y in rows for x in cols)
    return out


def _check_path(board, a, b, path, margin):
    pos = board.layout.positions
    r0, c0, r1, c1 = board.layout.bounds()
    own = {(pos[t][0] + dr, pos[t][1] + dc, pos[t][2]) for t in (a, b) for dr in (0, 1) for dc in (0, 1)}
    covered = {
        (pos[t][0] + dr, pos[t][1] + dc, pos[t][2]) for t in board.present_tiles() for dr in (0, 1) for dc in (0, 1)
    }

    def on(point, tile):
        return point[2] == tile[2] and tile[0] <= point[0] <= tile[0] + 2 and tile[1] <= point[1] <= tile[1] + 2

    ends = sorted([pos[a], pos[b]], key=lambda p: p[2])
    assert (on(path[0], ends[0]) and on(path[-1], ends[1])) or (on(path[0], ends[1]) and on(path[-1], ends[0]))
    turns, last = 0, None
    for p, q in itertools.pairwise(path):
        moved = [k for k in range(3) if p[k] != q[k]]
        assert len(moved) == 1, (p, q)  # axis-parallel pieces
        if moved == [2]:  # the pillar line: first piece, up from the lower tile
            assert p is path[0] and q[2] == ends[1][2]
            continue
        if last is not None and moved[0] != last:
            turns += 1
        last = moved[0]
        for y, x in _cells_along(p, q):
            assert r0 - margin <= y <= r1 + margin and c0 - margin <= x <= c1 + margin, (y, x)
            assert (y, x, p[2]) in own or (y, x, p[2]) not in covered, (a, b, path, (y, x))
    assert turns <= 2


def _random_play_paths(board, rng, margin):
    from mjsat.board import normalize_move

    checked = 0
    while True:
        legal = sorted(board.generate_legal_moves())
        for a, b in legal:
            _check_path(board, a, b, board.pair_path((a, b)), margin)
            checked += 1
        for ts in board.group_members().values():
            live = [t for t in ts if board.is_present(t)]
            for i, a in enumerate(live):
                for b in live[i + 1 :]:
                    if normalize_move(a, b) not in legal:
                        assert board.pair_path((a, b)) is None
        if not legal:
            return checked
        board.push(legal[int(rng.integers(len(legal)))])


def test_pair_path_of_every_legal_move_is_a_path_of_the_rules():
    from mjsat.deals import deal_solvable
    from mjsat.layouts import load_layout

    rng = np.random.default_rng(11)
    checked = 0
    for spec, game, margin in (
        ("rect-6x4", "shisen-sho", 2),
        ("rect-5x6", "shisen-sho", 2),
        ("pyramid", "shisen-sho-3d", 1),
        ("turtle", "shisen-sho-3d", 1),
    ):
        for seed in range(1 if spec == "turtle" else 2):
            board, _ = deal_solvable(load_layout(spec), seed=seed, game=game)
            checked += _random_play_paths(board, rng, margin)
    assert checked > 300
    mahjong, _ = deal_solvable(load_layout("pyramid"), seed=1)
    assert all(mahjong.pair_path(m) is None for m in mahjong.generate_legal_moves())


def test_pair_path_round_the_margin():
    board = ShisenShoBoard(
        Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0)] + [(2, 0, 0), (2, 2, 0), (2, 4, 0)]), [0, 1, 0, 1, 2, 2]
    )
    # tiles 0 and 2 on the top row, tile 1 between them: up into the margin and over
    assert board.pair_path((0, 2)) == [(1.0, 1.0, 0), (-1.0, 1.0, 0), (-1.0, 5.0, 0), (1.0, 5.0, 0)]
    assert board.pair_path((1, 3)) is None  # groups differ


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_grid_tables_hold_the_cells_their_arrays_and_the_occupancy_masks(seed):
    """The layout's grid tables (built in one pass) against the board's occupancy grid."""
    from mjsat.generate import random_grid_board

    board = random_grid_board(np.random.default_rng(seed), max_tiles=20)
    tables = board.rule_tables()
    occ = board.occupancy()
    assert tables.shape == occ.shape
    assert [tuple(map(int, a)) for a in tables.cell_arrays] == list(zip(*tables.cells)) or not tables.cells
    assert all(a.dtype == np.int32 and a.flags.c_contiguous for a in tables.cell_arrays)
    assert sorted(tables.cells) == sorted(tuple(map(int, c)) for c in np.argwhere(occ))
    rows, cols = tables.masks
    for y, x in itertools.product(range(occ.shape[0]), range(occ.shape[1])):
        assert bool(rows[y] >> x & 1) == bool(occ[y, x]) == bool(cols[x] >> y & 1)
