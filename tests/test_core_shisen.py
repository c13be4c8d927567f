"""The Shisen-Sho pair test against breadth-first path search on random grids."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mjsat.board import Layout, ShisenShoBoard
from mjsat.shisen import connectable
from naive import bfs_connectable


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
