"""The board model and the Mahjong rules, against naive geometry."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from naive import naive_free

from mjsat.board import (
    IllegalMoveError,
    InvalidBoardError,
    InvalidLayoutError,
    Layout,
    MahjongBoard,
    ShisenShoBoard,
    Status,
    TransposedMahjongBoard,
    find_variant,
)
from mjsat.generate import random_small_board, random_small_layout


def test_layout_rejects_overlap_odd_and_range():
    with pytest.raises(InvalidLayoutError, match="overlap"):
        Layout([(0, 0, 0), (1, 1, 0)])
    with pytest.raises(InvalidLayoutError, match="even"):
        Layout([(0, 0, 0)])
    with pytest.raises(InvalidLayoutError, match="row and col"):
        Layout([(-1, 0, 0), (0, 2, 0)])
    with pytest.raises(InvalidLayoutError, match="level"):
        Layout([(0, 0, 200), (0, 2, 0)])
    Layout([(0, 0, 0), (1, 1, 1)])  # overlap on different levels is fine


def test_relations_of_a_small_pile():
    # a row of three with one tile on top of the middle, half-offset
    lay = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (1, 3, 1)])
    assert lay.left[1] == (0,) and lay.right[1] == (2,)
    assert lay.above[1] == (3,) and lay.above[2] == (3,) and lay.above[0] == ()
    assert lay.below[3] == (1, 2)
    assert lay.level_counts() == [3, 1]
    ptr, idx = lay.csr("above")
    assert list(idx[ptr[2] : ptr[3]]) == [3]
    rptr, ridx = lay.reverse_csr("above")
    assert list(ridx[rptr[3] : rptr[4]]) == [1, 2] and lay.reverse("above")[3] == (1, 2)
    st = lay.side_tables(("left", "right"))
    assert st.dependents[1] == (0, 2) and st.dependents[3] == (1, 2)
    assert MahjongBoard(lay, [0, 0, 1, 1]).rule_tables() is st  # one table per layout and sides
    assert TransposedMahjongBoard(lay, [0, 0, 1, 1]).rule_tables().sides == ("front", "rear")


@pytest.mark.parametrize("seed", range(30))
def test_vectorised_relations_agree_with_a_cell_by_cell_definition(seed):
    """Every relation and reverse against the definition on the raw positions."""
    rng = np.random.default_rng(seed)
    lay0 = random_small_layout(rng, max_tiles=24, max_levels=4)
    for gnome in (False, True):
        lay = Layout(lay0.positions, block_any_higher=gnome)
        pos = lay.positions

        def overlap(p, q):
            return abs(p[0] - q[0]) < 2 and abs(p[1] - q[1]) < 2

        for t, p in enumerate(pos):
            higher = [u for u, q in enumerate(pos) if overlap(p, q) and (q[2] > p[2] if gnome else q[2] == p[2] + 1)]
            assert lay.above[t] == tuple(higher)
            assert lay.below[t] == tuple(u for u, q in enumerate(pos) if overlap(p, q) and q[2] == p[2] - 1)
            same = [(u, q) for u, q in enumerate(pos) if q[2] == p[2] and u != t]
            assert lay.left[t] == tuple(u for u, q in same if abs(q[0] - p[0]) < 2 and q[1] == p[1] - 2)
            assert lay.right[t] == tuple(u for u, q in same if abs(q[0] - p[0]) < 2 and q[1] == p[1] + 2)
            assert lay.front[t] == tuple(u for u, q in same if abs(q[1] - p[1]) < 2 and q[0] == p[0] - 2)
            assert lay.rear[t] == tuple(u for u, q in same if abs(q[1] - p[1]) < 2 and q[0] == p[0] + 2)
            assert lay.reverse("above")[t] == tuple(u for u in range(len(pos)) if t in lay.above[u])
            for dr in (-1, 0, 1, 2):
                for dc in (-1, 0, 1, 2):
                    cell = (p[0] + dr, p[1] + dc)
                    want = [
                        u
                        for u, q in enumerate(pos)
                        if q[2] == p[2] and 0 <= cell[0] - q[0] < 2 and 0 <= cell[1] - q[1] < 2
                    ]
                    assert lay.tile_at(cell[0], cell[1], p[2]) == (want[0] if want else None)


def test_group_validation():
    lay = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)])
    with pytest.raises(InvalidBoardError, match="odd"):
        MahjongBoard(lay, [0, 0, 0, 1])
    with pytest.raises(InvalidBoardError, match="groups given"):
        MahjongBoard(lay, [0, 0])
    b = MahjongBoard(
        lay,
        [
            5,
            5,
            5,
            5,
        ],
    )
    assert b.status() == Status.VALID and b.group_sizes() == {5: 4}


def test_push_pop_play():
    lay = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)])
    b = MahjongBoard(lay, [0, 1, 1, 0])
    assert list(b.legal_moves) == [(0, 3)] and (0, 3) in b.legal_moves and b.legal_moves.count() == 1
    with pytest.raises(IllegalMoveError, match="blocked"):
        b.play((1, 2))
    b.play((3, 0))
    assert b.move_stack == [(0, 3)] and b.remaining() == 2
    b.play((1, 2))
    assert b.is_solved() and not b.legal_moves
    assert b.pop() == (1, 2) and b.remaining() == 2
    with pytest.raises(IllegalMoveError, match="already gone"):
        b.play((0, 1))


def test_illegal_reasons_name_the_failure():
    b = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 1, 0, 1])
    assert "groups differ" in b.illegal_reason((0, 3))
    assert "does not exist" in b.illegal_reason((0, 9))
    assert "twice" in b.illegal_reason((0, 0))
    assert "blocked" in b.illegal_reason((0, 2))


def test_gnome_any_higher_rule():
    # tile 0 on level 0, tile 1 floats on level 2 above it: only GNOME's rule blocks
    pos = [(0, 0, 0), (0, 0, 2)]
    assert MahjongBoard(Layout(pos), [0, 0]).is_free(0)
    assert not MahjongBoard(Layout(pos, block_any_higher=True), [0, 0]).is_free(0)


def test_transposed_uses_front_and_rear():
    col = Layout([(0, 0, 0), (2, 0, 0), (4, 0, 0), (6, 0, 0)])
    assert not TransposedMahjongBoard(col, [0, 1, 1, 0]).is_free(1)
    assert MahjongBoard(col, [0, 1, 1, 0]).is_free(1)
    assert find_variant("transposed") is TransposedMahjongBoard
    with pytest.raises(InvalidBoardError):
        find_variant("chess")


def test_shisen_needs_a_grid():
    with pytest.raises(InvalidBoardError, match="Shisen-Sho"):
        ShisenShoBoard(Layout([(0, 0, 0), (1, 2, 0)]), [0, 0])
    with pytest.raises(InvalidBoardError, match="Shisen-Sho"):
        ShisenShoBoard(Layout([(0, 0, 0), (0, 0, 1)]), [0, 0])


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), transposed=st.booleans())
def test_free_agrees_with_naive_geometry(seed, transposed):
    rng = np.random.default_rng(seed)
    b = random_small_board(rng, game="mahjong-transposed" if transposed else "mahjong", max_tiles=20)
    # remove a random subset of pairs (unchecked) and compare every tile
    order = rng.permutation(len(b))
    for k in range(0, int(rng.integers(0, len(b) // 2 + 1)) * 2, 2):
        b.push((int(order[k]), int(order[k + 1])))
    present = [b.is_present(t) for t in range(len(b))]
    for t in range(len(b)):
        expect = present[t] and naive_free(b.layout.positions, present, t, transposed=transposed)
        assert b.is_free(t) == expect


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_freeness_is_monotone(seed):
    rng = np.random.default_rng(seed)
    b = random_small_board(rng, max_tiles=20)
    before = set(b.free_tiles())
    order = rng.permutation(len(b))
    b.push((int(order[0]), int(order[1])))
    after = set(b.free_tiles())
    assert before - {int(order[0]), int(order[1])} <= after


def test_repr_round_trips():
    lay = random_small_layout(np.random.default_rng(3))
    b = MahjongBoard(lay, [t // 2 for t in range(len(lay))])
    again = eval(repr(b), {"MahjongBoard": MahjongBoard, "Layout": Layout})
    assert again.layout == b.layout and again.groups == b.groups
    assert eval(repr(lay), {"Layout": Layout}) == lay
    assert "top view" in str(b)


def test_layout_and_board_take_numpy_arrays_as_lists():
    rng = np.random.default_rng(5)
    pos = [(r, c, 0) for r in range(0, 8, 2) for c in range(0, 12, 2)] + [(1, 1, 1), (1, 5, 1)]
    groups = rng.permutation(np.repeat(np.arange(len(pos) // 2), 2))
    for dtype in (np.int16, np.int32, np.int64, np.uint8):
        arr = np.asarray(pos, dtype=dtype)
        lay = Layout(arr)
        assert lay.positions == Layout(pos).positions and lay.above == Layout(pos).above
        assert all(type(v) is int for p in lay.positions for v in p)
        board = MahjongBoard(lay, groups.astype(dtype))
        assert board.groups == tuple(int(g) for g in groups) and all(type(g) is int for g in board.groups)
    with pytest.raises(InvalidLayoutError, match="overlap"):
        Layout(np.asarray(pos + [(0, 1, 0), (20, 0, 0)], dtype=np.int32))
    with pytest.raises(InvalidLayoutError, match="level must lie"):
        Layout(np.asarray([(0, 0, 0), (0, 2, -1)]))


@pytest.mark.parametrize("seed", range(20))
def test_columns_agree_with_a_cell_by_cell_check(seed):
    """``is_columns`` against its definition on the cells: each tile above level 0 has a
    tile at its own row and column one level down, and no tile of another footprint
    overlaps it on the level above; isolated stacks are columns that do not touch."""
    rng = np.random.default_rng(seed)
    if seed % 2:
        lay = random_small_layout(rng)
    else:  # six columns, the second line touching the first or not, maybe one tile askew
        rows = [0, 0, 0] + [int(rng.integers(1, 3)) * 2] * 3
        heights = [int(h) for h in rng.integers(1, 4, size=6)]
        heights[-1] += sum(heights) % 2
        tiles = [[rows[k], 4 * (k % 3), l] for k in range(6) for l in range(heights[k])]
        if seed % 4 == 0:
            tiles[-1][1] += 1
        lay = Layout(tiles)
    pos = set(lay.positions)

    def overlaps(a, b):
        return abs(a[0] - b[0]) < 2 and abs(a[1] - b[1]) < 2

    expect = all(
        (p[2] == 0 or (p[0], p[1], p[2] - 1) in pos)
        and not any(q[2] == p[2] + 1 and overlaps(p, q) and q[:2] != p[:2] for q in pos)
        for p in pos
    )
    assert lay.is_columns() == expect
    if lay.is_isolated_stacks():
        assert lay.is_columns()


def test_rect_layout_with_depth_is_columns_but_not_isolated():
    from mjsat.layouts import load_layout

    lay = load_layout("rect-4x2x3")
    assert lay.is_columns() and not lay.is_isolated_stacks()
    assert sorted(len(s) for s in lay.stacks()) == [3] * 8
    assert not load_layout("turtle").is_columns()


def _position_cases():
    from mjsat.layouts import load_layout

    turtle = load_layout("turtle")
    gnome_turtle = Layout(turtle.positions, name="turtle", block_any_higher=True)
    return [
        ("mahjong", turtle),
        ("mahjong", gnome_turtle),
        ("mahjong", load_layout("pyramid")),
        ("mahjong-transposed", turtle),
        ("mahjong-transposed", load_layout("cross")),
        ("shisen-sho", load_layout("rect-6x4")),
        ("shisen-sho", load_layout("rect-5x4")),
        ("shisen-sho-3d", turtle),
        ("shisen-sho-3d", load_layout("pyramid")),
        ("shisen-sho-3d", load_layout("rect-6x4")),
    ]


@pytest.mark.parametrize("case", range(10))
def test_position_board_has_the_same_rules_in_every_position_of_random_play(case):
    from mjsat.deals import deal_random, deal_solvable

    game, layout = _position_cases()[case]
    rng = np.random.default_rng(100 + case)
    positions = shrunk = 0
    for deal in range(100):  # random and solvable deals until 40 positions were seen
        if positions >= 40:
            break
        seed = int(rng.integers(1 << 30))
        board = (
            deal_random(layout, seed=seed, game=game) if deal % 2 else deal_solvable(layout, seed=seed, game=game)[0]
        )
        while True:
            sub, back = board.position_board()
            assert type(sub) is type(board) and sub.layout.block_any_higher == layout.block_any_higher
            assert back == board.present_tiles() and sub.move_stack == []
            assert [sub.groups[i] for i in range(len(sub))] == [board.groups[t] for t in back]
            assert [sub.layout.positions[i] for i in range(len(sub))] == [layout.positions[t] for t in back]
            assert [sub.is_free(i) for i in range(len(sub))] == [board.is_free(t) for t in back]
            mapped = sorted(tuple(sorted((back[a], back[b]))) for a, b in sub.generate_legal_moves())
            legal = sorted(board.generate_legal_moves())
            assert mapped == legal
            positions += 1
            if sub.layout.bounds() != layout.bounds():
                shrunk += 1
            if not legal:
                break
            board.push(legal[int(rng.integers(len(legal)))])
    assert positions >= 40 and shrunk > 0  # the margin moved inwards at least once


def test_position_board_of_a_cleared_board_is_empty():
    board = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0)]), [3, 3], meta={"seed": 4})
    board.play((0, 1))
    sub, back = board.position_board()
    assert len(sub) == 0 and back == [] and sub.is_solved()
    assert sub.meta == {"from": {"seed": 4}, "after_moves": 1}


def test_position_board_keeps_paths_when_the_bounding_box_shrinks():
    # 4 x 3 Shisen-Sho grid (whole tiles), groups by letter:
    #   P A B        A-A needs the left column empty; B-B runs through the right margin
    #   P C D        once the P and Q pairs are gone the position's box starts one column
    #   Q C D        further right, so its margin is where the left column was
    #   Q A B
    lay = Layout([(2 * y, 2 * x, 0) for y in range(4) for x in range(3)])
    board = ShisenShoBoard(lay, [0, 1, 2, 0, 3, 4, 5, 3, 4, 5, 1, 2])
    assert not board.is_legal((1, 10))
    board.play((0, 3))
    board.play((6, 9))
    sub, back = board.position_board()
    assert sub.layout.bounds()[1] == lay.bounds()[1] + 2
    mapped = sorted(tuple(sorted((back[a], back[b]))) for a, b in sub.generate_legal_moves())
    assert mapped == sorted(board.generate_legal_moves()) == [(1, 10), (2, 11), (4, 7), (5, 8)]


def test_boards_read_from_two_files_share_their_layout_tables(tmp_path):
    """Tables belong to a layout's content: two files of the same positions find one set of
    tables (the rules', the search's geometry), whatever object their Layout is."""
    import pickle

    from mjsat.boardio import load_board, write_board
    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout
    from mjsat.search.pairing import geometry

    turtle = load_layout("turtle")
    for seed in (1, 2):
        write_board(deal_random(turtle, seed=seed), tmp_path / f"b{seed}.json")
    a, b = load_board(tmp_path / "b1.json"), load_board(tmp_path / "b2.json")
    assert a.layout is not b.layout and a.groups != b.groups
    assert a.rule_tables() is b.rule_tables()
    assert a.layout.descendants is b.layout.descendants
    ga, gb = geometry(a), geometry(b)
    assert ga.csr is gb.csr and ga.above is gb.above
    assert pickle.loads(pickle.dumps(a.layout)).side_tables(("left", "right")) is a.rule_tables()
    # the rule flag is part of the content; another position is another content
    gnome = Layout(a.layout.positions, block_any_higher=True)
    assert gnome.csr("above") is not a.layout.csr("above")
    moved = Layout([(r, c + 2, l) for r, c, l in a.layout.positions])
    assert moved.csr("left") is not a.layout.csr("left")


def test_the_store_of_layout_tables_is_bounded():
    """Beyond SHARED_TABLES other contents, the least recently made one is dropped: a new
    layout of it builds its tables again, while a living layout keeps its own."""
    from mjsat import layout as layout_mod

    first = Layout([(0, 0, 0), (0, 2, 0)])
    tables = first.csr("right")
    assert Layout([(0, 0, 0), (0, 2, 0)]).csr("right") is tables
    for k in range(layout_mod.SHARED_TABLES + 1):
        Layout([(0, 0, 0), (0, 4 + 2 * k, 0)]).csr("right")
    assert len(layout_mod._SHARED) <= layout_mod.SHARED_TABLES
    assert first.csr("right") is tables
    again = Layout([(0, 0, 0), (0, 2, 0)]).csr("right")
    assert again is not tables and np.array_equal(again[0], tables[0]) and np.array_equal(again[1], tables[1])
