"""encoders/shisen_paths.py: the candidate path sets agree with the path test on every occupancy."""

from __future__ import annotations

import itertools

from hypothesis import given, settings, strategies as st

from mjsat.board import Layout, ShisenShoBoard
from mjsat.encoders.shisen_paths import bits_members, shisen_paths
from mjsat.shisen import connectable


@settings(max_examples=150, deadline=None)
@given(
    h=st.integers(1, 4),
    w=st.integers(1, 5),
    data=st.data(),
)
def test_shisen_paths_agree_with_connectable(h, w, data):
    """Some candidate set is all removed <=> mjsat.shisen.connectable, on every occupancy."""
    cells = [(y, x) for y in range(h) for x in range(w)]
    cells = cells[: len(cells) - len(cells) % 2]
    if len(cells) < 2:
        return
    layout = Layout([(2 * y, 2 * x, 0) for y, x in cells])
    board = ShisenShoBoard(layout, [0] * len(cells))
    a, b = data.draw(st.lists(st.sampled_from(range(len(cells))), min_size=2, max_size=2, unique=True))
    removed = set(data.draw(st.lists(st.sampled_from(range(len(cells))), max_size=len(cells))))
    removed -= {a, b}
    for t in removed:
        board.push((t, t))  # unchecked: only clears the cells
    occ = board.occupancy()
    ref = connectable(occ, board._cell1(a), board._cell1(b))
    alts = shisen_paths(board, a, b)
    assert any(alt <= removed for alt in alts) == ref
    # minimal and without the endpoints
    assert all(a not in s and b not in s for s in alts)
    assert not any(s < o for s, o in itertools.permutations(alts, 2))


@given(st.sets(st.integers(0, 300), max_size=80))
def test_bits_members_lists_the_set_sorted(members):
    bits = sum(1 << t for t in members)
    assert bits_members(bits) == sorted(members)
