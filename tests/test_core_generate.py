"""The height-two board generator: shape, groups, seeds, planted cycles, solvable deals."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from mjsat.generate import (
    height2_boards,
    planted_cycle_board,
    random_height2_board,
    random_heights,
    stack_layout,
)
from mjsat.replay import replay
from mjsat.search.height2 import applies, is_blocked_cycle


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 60), sizes=st.sampled_from([(2,), (2, 4), (4,)]))
def test_random_boards_are_height_two(seed, n, sizes):
    n_tiles = 4 * n if sizes == (4,) else 2 * n
    b = random_height2_board(np.random.default_rng(seed), n_tiles=n_tiles, group_sizes=sizes)
    assert len(b) == n_tiles
    assert b.layout.is_isolated_stacks()
    assert max(len(s) for s in b.layout.stacks()) <= 2
    assert set(Counter(b.groups).values()) <= set(sizes)
    assert applies(b)


def test_same_seed_same_board_and_heights_add_up():
    a = random_height2_board(np.random.default_rng(9), n_tiles=30)
    b = random_height2_board(np.random.default_rng(9), n_tiles=30)
    assert a.groups == b.groups and a.layout == b.layout
    h = random_heights(np.random.default_rng(1), 21, p_two=0.7)
    assert sum(h) == 21 and set(h) <= {1, 2}
    assert [b.groups for b in height2_boards(3, 5)] == [b.groups for b in height2_boards(3, 5)]


def test_planted_cycle_is_a_blocked_cycle():
    rng = np.random.default_rng(0)
    for _ in range(100):
        n = int(rng.integers(1, 20)) * 2
        b = planted_cycle_board(rng, n_tiles=n)
        assert len(b) == n and applies(b)
        assert is_blocked_cycle(b, b.meta["planted_cycle"])


def test_solvable_deals_replay_their_construction():
    rng = np.random.default_rng(4)
    for n in (2, 4, 6, 10, 50, 300):
        for _ in range(5):
            b = random_height2_board(rng, n_tiles=n, solvable=True)
            replay(b, b.meta["construction"])


def test_bad_arguments():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="even"):
        random_height2_board(rng, n_tiles=7)
    with pytest.raises(ValueError, match="groups of 2 and 4"):
        random_height2_board(rng, n_tiles=12, group_sizes=(6,))
    with pytest.raises(ValueError, match="multiple of 4"):
        random_height2_board(rng, n_tiles=10, group_sizes=(4,))
    with pytest.raises(ValueError, match="cycle of length"):
        planted_cycle_board(rng, n_tiles=4, cycle_length=3)
    with pytest.raises(ValueError, match="at least 1"):
        stack_layout([1, 0])
