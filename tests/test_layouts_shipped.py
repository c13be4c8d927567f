"""Tests of mjsat.layouts.shipped: the turtle against the three games, small layouts, families."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjsat.board import MahjongBoard, ShisenShoBoard, Status
from mjsat.layouts.shipped import EXAMPLES, SHIPPED, cross, pyramid, rect, row, shipped_layout, tiny, turtle

SOURCES = Path(__file__).resolve().parents[1].parent / "shared" / "layout-sources"


def test_turtle_counts_and_shape() -> None:
    t = turtle()
    assert t.name == "turtle"
    assert len(t) == 144
    assert t.level_counts() == [87, 36, 16, 4, 1]
    assert t.bounds() == (0, 0, 15, 29)
    assert (7, 13, 4) in t.positions
    # tile ids go bottom level first, then row, then column
    assert list(t.positions) == sorted(t.positions, key=lambda p: (p[2], p[0], p[1]))
    # the turtle is symmetric top to bottom (rows r <-> 14 - r)
    assert sorted(t.positions) == sorted((14 - r, c, l) for r, c, l in t.positions)
    # every tile above level 0 rests on tiles of the level below, and covers them fully
    for r, c, l in t.positions:
        if l:
            cells = {(r + dr, c + dc) for dr in (0, 1) for dc in (0, 1)}
            assert all(t.tile_at(rr, cc, l - 1) is not None for rr, cc in cells)


def test_turtle_opening_position() -> None:
    board = MahjongBoard(turtle(), [i // 2 for i in range(144)])
    free = {turtle().positions[t] for t in board.free_tiles()}
    # the top tile, the two outer ends, and the row ends not hidden by the end tiles
    assert (7, 13, 4) in free and (7, 0, 0) in free and (7, 28, 0) in free
    assert (0, 2, 0) in free and (0, 24, 0) in free
    assert (6, 2, 0) not in free and (8, 24, 0) not in free
    # top 1, level 3 none, level 2 the 8 row ends, level 1 the 12 row ends, level 0 the
    # ends of 6 rows (rows 3 and 4 are closed by the end tiles) and the 2 outer end tiles
    assert len(free) == 1 + 0 + 8 + 12 + 14


@pytest.mark.parametrize(
    ("relpath", "map_name"),
    [("xmahjongg/default", None), ("kmahjongg/default.layout", None), ("gnome-mahjongg/mahjongg.map", "easy")],
)
def test_turtle_equals_the_games_default_up_to_translation(relpath: str, map_name: str | None) -> None:
    path = SOURCES / relpath
    if not path.is_file():
        pytest.skip(f"{path} not found")
    from mjsat.layouts.files import read_layout

    theirs = read_layout(path, map_name=map_name)
    assert turtle().same_shape(theirs)
    assert theirs.level_counts() == [87, 36, 16, 4, 1]
    # and not by accident: moving one tile breaks the equality
    moved = [(r, c + 2, l) if (r, c, l) == (7, 28, 0) else (r, c, l) for r, c, l in turtle().positions]
    from mjsat.board import Layout

    assert not Layout(moved).same_shape(theirs)


@pytest.mark.parametrize(
    ("layout", "per_level"),
    [(pyramid(), [12, 6, 2]), (tiny(), [6, 2]), (cross(), [13, 1])],
    ids=["pyramid", "tiny", "cross"],
)
def test_small_layouts(layout, per_level: list[int]) -> None:
    assert layout.level_counts() == per_level
    assert layout.normalized() == layout
    for t, (_, _, l) in enumerate(layout.positions):
        assert l == 0 or layout.below[t]


def test_registry_builds_fresh_named_layouts() -> None:
    assert set(SHIPPED) == {"turtle", "pyramid", "tiny", "cross"}
    for name, build in SHIPPED.items():
        assert build() == shipped_layout(name)
        assert shipped_layout(name).name == name
        assert shipped_layout(name) is not shipped_layout(name)
    for name in EXAMPLES:
        assert shipped_layout(name).name == name


@pytest.mark.parametrize(("w", "h", "d"), [(1, 2, 1), (4, 3, 1), (18, 8, 1), (3, 3, 2), (5, 1, 4)])
def test_rect(w: int, h: int, d: int) -> None:
    name = f"rect-{w}x{h}" if d == 1 else f"rect-{w}x{h}x{d}"
    layout = shipped_layout(name)
    assert layout == rect(w, h, d)
    assert layout.name == name
    assert len(layout) == w * h * d
    assert layout.level_counts() == [w * h] * d
    assert layout.bounds() == (0, 0, 2 * h - 1, 2 * w - 1)
    if d == 1:
        assert shipped_layout(f"rect-{w}x{h}x1") == rect(w, h)
        board = ShisenShoBoard(layout, [i // 2 for i in range(len(layout))])
        assert board.status() == Status.VALID and board.grid_shape == (h, w)
    else:
        # stacked exactly: every upper tile lies on the tile below at the same (row, col)
        for t, (r, c, l) in enumerate(layout.positions):
            if l:
                assert [layout.positions[b] for b in layout.below[t]] == [(r, c, l - 1)]


@pytest.mark.parametrize(
    "name", ["rect-3x3", "rect-0x4", "rect-3x1x3", "rect-4x4x0", "row-3", "row-0", "rect-100000x100000"]
)
def test_invalid_family_parameters(name: str) -> None:
    with pytest.raises(ValueError):
        shipped_layout(name)


def test_row() -> None:
    layout = row(6)
    assert layout.name == "row-6" and layout.positions == tuple((0, 2 * c, 0) for c in range(6))
    board = MahjongBoard(layout, [0] * 6)
    assert board.free_tiles() == [0, 5]


def test_unknown_name() -> None:
    with pytest.raises(KeyError):
        shipped_layout("rect-4")
