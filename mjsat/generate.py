"""Random small boards for tests, cross-validation and experiments (seeded).

>>> import numpy as np
>>> b = random_small_board(np.random.default_rng(5), max_tiles=12)
>>> len(b) <= 12 and len(b) % 2 == 0
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mjsat.board import Board, Layout, find_variant

__all__ = ["random_group_sizes", "random_small_layout", "random_small_board", "random_grid_board"]


def random_group_sizes(rng: np.random.Generator, n: int, sizes: Sequence[int] = (2, 4)) -> list[int]:
    """A random list of group sizes drawn from ``sizes`` that adds up to ``n`` (even)."""
    if n % 2:
        raise ValueError(f"n must be even, got {n}")
    if any(s <= 0 or s % 2 for s in sizes):
        raise ValueError(f"group sizes must be positive and even, got {list(sizes)}")
    if min(sizes) != 2:
        raise ValueError("the sizes must include 2 so that every even n can be met")
    out: list[int] = []
    left = n
    while left:
        choices = [s for s in sizes if s <= left]
        s = int(choices[int(rng.integers(len(choices)))])
        out.append(s)
        left -= s
    return out


def random_small_layout(
    rng: np.random.Generator,
    *,
    max_tiles: int = 16,
    min_tiles: int = 2,
    max_levels: int = 3,
    rows: int = 6,
    cols: int = 10,
) -> Layout:
    """A random layout: tiles dropped at random half-tile positions, each on the lowest
    level where it fits (so stacks, half overlaps and touching rows all occur).
    """
    target = int(rng.integers(min_tiles // 2, max_tiles // 2 + 1)) * 2
    positions: list[tuple[int, int, int]] = []
    cells: set[tuple[int, int, int]] = set()
    tries = 0
    while len(positions) < target and tries < 50 * target:
        tries += 1
        r = int(rng.integers(0, rows))
        c = int(rng.integers(0, cols))
        cover = [(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)]
        for lev in range(max_levels):
            if all((lev, y, x) not in cells for y, x in cover):
                positions.append((r, c, lev))
                cells.update((lev, y, x) for y, x in cover)
                break
    if len(positions) % 2:
        positions.pop()
    if len(positions) < 2:
        positions = [(0, 0, 0), (0, 2, 0)]
    return Layout(positions, name="random-small")


def _groups(rng: np.random.Generator, n: int, sizes: Sequence[int]) -> list[int]:
    gs = random_group_sizes(rng, n, sizes)
    return rng.permutation(np.repeat(np.arange(len(gs)), gs)).tolist()


def random_small_board(
    rng: np.random.Generator,
    *,
    game: str = "mahjong",
    max_tiles: int = 16,
    max_levels: int = 3,
    group_sizes: Sequence[int] = (2, 4),
) -> Board:
    """A random small board of ``game`` (Mahjong variants; for Shisen-Sho see
    :func:`random_grid_board`)."""
    cls = find_variant(game)
    if cls.game == "shisen-sho":
        return random_grid_board(rng, group_sizes=group_sizes)
    layout = random_small_layout(rng, max_tiles=max_tiles, max_levels=max_levels)
    return cls(layout, _groups(rng, len(layout), group_sizes), meta={"generator": "random-small"})


def random_grid_board(
    rng: np.random.Generator,
    *,
    max_width: int = 6,
    max_height: int = 5,
    fill: float | None = None,
    group_sizes: Sequence[int] = (2, 4),
) -> Board:
    """A random Shisen-Sho board: a random ``h x w`` grid with some cells left empty."""
    for _ in range(100):
        w = int(rng.integers(1, max_width + 1))
        h = int(rng.integers(1, max_height + 1))
        p = float(rng.uniform(0.5, 1.0)) if fill is None else fill
        cells = [(y, x) for y in range(h) for x in range(w) if rng.random() < p]
        if len(cells) % 2:
            cells.pop(int(rng.integers(len(cells))))
        if len(cells) >= 2:
            break
    else:  # pragma: no cover
        cells = [(0, 0), (0, 1)]
    layout = Layout([(2 * y, 2 * x, 0) for y, x in cells], name="random-grid")
    cls = find_variant("shisen-sho")
    return cls(layout, _groups(rng, len(layout), group_sizes), meta={"generator": "random-grid"})
