"""Corollary 4's board: one-level rows ``p q r c c c c``."""

from __future__ import annotations

import pytest

from mjsat.methods import solve
from mjsat.reductions.cnf import normalize_3cnf
from mjsat.reductions.rows import reduce_to_rows, row_sizes, rows_from_stacks
from mjsat.reductions.stacks import board_from_stacks


@pytest.mark.parametrize("clauses, n", [([], 0), ([[1]], 1), ([[1, -2, 3], [-1, 2], [2, -3]], 3), ([[1, 2, 3, 4]], 4)])
def test_sizes_and_row_shape(clauses, n):
    f = normalize_3cnf(clauses, n_vars=n)
    red = reduce_to_rows(f)
    b = red.board
    sizes = row_sizes(f.n_vars, f.n_clauses)
    assert len(b) == sizes["tiles"] == 56 + 84 * f.n_vars + 84 * f.n_clauses
    assert len(b.group_sizes()) == sizes["groups"] == 14 + 21 * f.n_vars + 21 * f.n_clauses
    assert b.layout.levels == 1
    st = red.stack
    for k in range(len(st.stacks)):
        row = [b.group_label(b.groups[7 * k + i]) for i in range(7)]
        assert row[:3] == st.stacks[k] and row[3:] == [f"c{k}"] * 4
        # the row's tiles touch only each other, left to right
        for i in range(7):
            t = 7 * k + i
            assert b.layout.left[t] == ((t - 1,) if i else ())
            assert b.layout.right[t] == ((t + 1,) if i < 6 else ())
    assert sorted(b.free_tiles()) == sorted(t for k in range(len(st.stacks)) for t in (7 * k, 7 * k + 6))


def test_rows_and_stacks_agree_on_random_small_boards():
    import numpy as np

    rng = np.random.default_rng(3)
    for _ in range(40):
        groups = rng.permutation(np.repeat(np.arange(3), 4)).tolist()
        stacks = [groups[i : i + 3] for i in range(0, 12, 3)]
        expect = solve(board_from_stacks(stacks), "ref").status
        rows = rows_from_stacks(stacks)
        assert len(rows) == 28
        assert solve(rows, "ref", node_limit=400_000).status == expect


def test_lower_and_lift_moves_are_inverse():
    from mjsat.reductions.witness import playbook_moves
    from mjsat.replay import replay

    red = reduce_to_rows(normalize_3cnf([[1, 2]]))
    stack_moves = playbook_moves(red.stack, {1: True, 2: False})
    moves = red.lower_moves(stack_moves)
    replay(red.board, moves)
    assert red.lift_moves(moves) == stack_moves
    with pytest.raises(ValueError, match="c tile"):
        red.lift_moves([(0, 3)])
