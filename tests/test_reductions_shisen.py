"""Shisen-Sho images (our supertile): proved on thousands of random isolated-stack boards."""

from __future__ import annotations

import numpy as np
import pytest

from mjsat.generate import random_grid_board
from mjsat.methods import solve
from mjsat.reductions.cnf import normalize_3cnf
from mjsat.reductions.shisen import (
    SUPERTILE,
    reduce_to_shisen,
    shisen_from_stacks,
    solve_shisen_exact,
    supertile_checks,
)
from mjsat.reductions.stacks import board_from_stacks
from mjsat.reductions.witness import lift, witness
from mjsat.replay import replay


def random_stacks(rng, *, max_tiles=10, max_height=4, sizes=(2, 4, 6)):
    n = int(rng.integers(1, max_tiles // 2 + 1)) * 2
    groups, left = [], n
    while left:
        s = int(rng.choice([x for x in sizes if x <= left]))
        groups.append(s)
        left -= s
    tiles = rng.permutation(np.repeat(np.arange(len(groups)), groups)).tolist()
    stacks = []
    while tiles:
        h = int(rng.integers(1, max_height + 1))
        stacks.append(tiles[:h])
        tiles = tiles[h:]
    return stacks


def test_supertile_lock_unlock_and_seal():
    assert supertile_checks() == {"lock": True, "unlock": True, "sealed": True}
    cells = "".join(SUPERTILE)
    assert cells.count("a") == 1 and all(cells.count(c) == 2 for c in set(cells) - {"a"})


def test_exact_shisen_solver_agrees_with_the_reference_on_random_grids():
    rng = np.random.default_rng(2)
    for _ in range(150):
        b = random_grid_board(rng, max_width=5, max_height=4)
        ours = solve_shisen_exact(b)
        if ours.status == "solvable":
            replay(b, ours.moves)
        assert ours.status == solve(b, "ref").status


def _check_images(count, seed, gap, **kw):
    rng = np.random.default_rng(seed)
    kinds = [0, 0]
    for _ in range(count):
        stacks = random_stacks(rng, **kw)
        expect = solve(board_from_stacks(stacks), "ref").status
        image, main = shisen_from_stacks(stacks, gap=gap)
        got = solve_shisen_exact(image)
        assert got.status == expect, (stacks, gap)
        if got.status == "solvable":
            replay(image, got.moves)
        kinds[got.status == "solvable"] += 1
    return kinds


@pytest.mark.parametrize("gap", [1, 0])
def test_image_solvable_iff_stack_board_solvable(gap):
    kinds = _check_images(250, seed=10 + gap, gap=gap)
    assert min(kinds) > 20  # both answers occur


@pytest.mark.slow
@pytest.mark.parametrize("gap", [1, 0])
def test_image_solvable_iff_stack_board_solvable_thousands(gap):
    kinds = _check_images(3000, seed=100 + gap, gap=gap, max_tiles=14, max_height=5)
    assert min(kinds) > 200


def test_shisen_rows_is_a_full_rectangle_of_nine_rows():
    red = reduce_to_shisen(normalize_3cnf([[1, -2]]), gap=0)
    h, w = red.board.grid_shape
    assert h == 9 and len(red.board) == h * w == 9 * (24 + 36 * 2 + 36)
    red1 = reduce_to_shisen(normalize_3cnf([[1, -2]]), gap=1)
    assert red1.board.grid_shape == (9, w + len(red1.stack.stacks) - 1)
    assert all(red1.board.group_sizes()[red1.board.groups[t]] == 4 for t in red1.main.values())


@pytest.mark.parametrize("gap", [1, 0])
def test_witness_and_lift_on_reduction_images(gap):
    clauses = [[1, -2], [-1, 2]]
    red = reduce_to_shisen(normalize_3cnf(clauses), gap=gap)
    for a in ({1: True, 2: True},) if gap else ({1: False, 2: False},):
        moves = witness(red, a)
        replay(red.board, moves)
        assert lift(red, moves) == a
    # the image's own legal moves at the start are exactly the stack board's, on the a tiles
    stack_moves = set(red.stack.board.generate_legal_moves())
    image_moves = set(red.lift_moves(red.board.generate_legal_moves()))
    assert image_moves == stack_moves and len(list(red.board.generate_legal_moves())) == len(stack_moves)


def test_small_reduction_images_decided_exactly():
    # the empty formula's image (216 tiles) is in reach of the exact search
    red = reduce_to_shisen(normalize_3cnf([]), gap=0)
    got = solve_shisen_exact(red.board, time_limit=60)
    assert got.status == "solvable"
    replay(red.board, got.moves)
