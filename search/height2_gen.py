"""Seeded height-two boards: random isolated stacks of heights 1 and 2, and planted blocked cycles.

Every random choice comes from the ``numpy.random.Generator`` passed in. Stacks sit on a
grid with a pitch of three half-tiles, so no two touch (the layout is
:meth:`~mjsat.board.Layout.is_isolated_stacks`); tiles are numbered stack by stack,
bottom first.

>>> import numpy as np
>>> from mjsat.search.height2 import applies
>>> b = random_height2_board(np.random.default_rng(3), n_tiles=20)
>>> len(b), applies(b)
(20, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import numpy as np

from mjsat.board import Board, Layout, find_variant
from mjsat.generate import random_group_sizes

__all__ = [
    "PITCH",
    "stack_layout",
    "random_heights",
    "random_height2_board",
    "planted_cycle_board",
    "height2_boards",
]

PITCH = 3
"""Half-tile distance between neighbouring stacks (2 would make them touch)."""


def stack_layout(heights: Sequence[int], *, name: str = "height2") -> Layout:
    """A layout of isolated stacks with the given heights, laid out on a square-ish grid.

    Notes
    -----
    :math:`O(n)` for ``n`` tiles (plus the layout's own relation tables).
    """
    if any(h < 1 for h in heights):
        raise ValueError(f"stack heights must be at least 1, got {list(heights)}")
    width = max(1, math.ceil(math.sqrt(len(heights))))
    positions = []
    for i, h in enumerate(heights):
        r, c = divmod(i, width)
        positions.extend((PITCH * r, PITCH * c, lev) for lev in range(h))
    return Layout(positions, name=name)


def random_heights(rng: np.random.Generator, n_tiles: int, *, p_two: float = 0.5) -> list[int]:
    """Random stack heights (1 or 2) adding up to ``n_tiles``; each stack is of height two
    with probability ``p_two`` (while two tiles are left).

    Notes
    -----
    :math:`O(n)`.
    """
    if n_tiles < 0:
        raise ValueError(f"n_tiles must be non-negative, got {n_tiles}")
    if not 0.0 <= p_two <= 1.0:
        raise ValueError(f"p_two must lie in [0, 1], got {p_two}")
    out: list[int] = []
    left = n_tiles
    while left:
        h = 2 if left >= 2 and rng.random() < p_two else 1
        out.append(h)
        left -= h
    return out


def _sizes(rng: np.random.Generator, n: int, group_sizes: Sequence[int]) -> list[int]:
    sizes = sorted({int(s) for s in group_sizes})
    if not sizes or any(s not in (2, 4) for s in sizes):
        raise ValueError(f"height-two boards have groups of 2 and 4 tiles, got {list(group_sizes)}")
    if sizes == [4]:
        if n % 4:
            raise ValueError(f"groups of four need a multiple of 4 tiles, got {n}")
        return [4] * (n // 4)
    return random_group_sizes(rng, n, sizes)


def random_height2_board(
    rng: np.random.Generator,
    *,
    n_tiles: int | None = None,
    max_tiles: int = 16,
    min_tiles: int = 2,
    p_two: float | None = None,
    group_sizes: Sequence[int] = (2, 4),
    game: str = "mahjong",
    solvable: bool = False,
) -> Board:
    """A random board of isolated stacks of heights 1 and 2 with random groups of 2 and 4.

    Parameters
    ----------
    rng : numpy.random.Generator
    n_tiles : int, optional
        Number of tiles (even); default a random even number in ``min_tiles..max_tiles``.
    max_tiles, min_tiles : int
        Range of the random size when ``n_tiles`` is not given.
    p_two : float, optional
        Probability that a stack has height two; default random in ``[0.3, 1]``.
    group_sizes : sequence of int
        Sizes drawn at random for the groups: ``(2, 4)``, ``(2,)`` or ``(4,)``.
    game : str
        ``mahjong`` or ``mahjong-transposed`` (the same thing on isolated stacks).
    solvable : bool
        Deal solvable by construction instead of uniformly (seed 003, Algorithm 1: remove
        uniformly random free tiles of the blank board two by two, then give the pairs
        their groups); ``meta["construction"]`` holds the clearing order.

    Returns
    -------
    Board
        ``meta`` records the generator.

    Notes
    -----
    :math:`O(n)`.
    """
    if n_tiles is None:
        n_tiles = int(rng.integers(max(1, min_tiles // 2), max_tiles // 2 + 1)) * 2
    if n_tiles <= 0 or n_tiles % 2:
        raise ValueError(f"n_tiles must be positive and even, got {n_tiles}")
    p = float(rng.uniform(0.3, 1.0)) if p_two is None else p_two
    heights = random_heights(rng, n_tiles, p_two=p)
    if solvable and heights == [2]:
        heights = [1, 1]  # one stack of two tiles can never be cleared
    layout = stack_layout(heights)
    sizes = _sizes(rng, n_tiles, group_sizes)
    if not solvable:
        groups = rng.permutation(np.repeat(np.arange(len(sizes)), sizes)).tolist()
        return find_variant(game)(layout, groups, meta={"generator": "height2"})
    order = _random_clear_order(layout, rng)
    pair_groups = rng.permutation(np.repeat(np.arange(len(sizes)), [s // 2 for s in sizes]))
    groups = [0] * n_tiles
    for (a, b), g in zip(order, pair_groups.tolist()):
        groups[a] = groups[b] = g
    meta = {"generator": "height2-solvable", "construction": [list(m) for m in order]}
    return find_variant(game)(layout, groups, meta=meta)


def _random_clear_order(
    layout: Layout, rng: np.random.Generator, max_restarts: int = 1000
) -> list[tuple[int, int]]:
    """Remove two uniformly random free tiles of a blank stack layout at a time; restart
    when stuck (which happens only when the last two tiles form one stack)."""
    stacks = layout.stacks()
    uncovers: dict[int, int] = {hi: lo for s in stacks for lo, hi in zip(s, s[1:])}
    for _ in range(max_restarts):
        free = [s[-1] for s in stacks]
        order: list[tuple[int, int]] = []
        while len(free) >= 2:
            pair = []
            for _ in range(2):  # two free tiles at once: an uncovered tile waits for the next move
                i = int(rng.integers(len(free)))
                pair.append(free[i])
                free[i] = free[-1]
                free.pop()
            free.extend(uncovers[t] for t in pair if t in uncovers)
            order.append((min(pair), max(pair)))
        if not free:
            return order
    raise ValueError(f"no clearing order found in {max_restarts} restarts")  # pragma: no cover


def planted_cycle_board(
    rng: np.random.Generator,
    *,
    n_tiles: int,
    cycle_length: int | None = None,
    p_two: float | None = None,
    group_sizes: Sequence[int] = (2, 4),
    game: str = "mahjong",
) -> Board:
    """A height-two board holding a blocked cycle (Definition 6), so unsolvable.

    The cycle's ``k`` groups of two tiles form ``k`` stacks ``A_i`` over ``A_{i+1}``; the
    other ``n_tiles - 2k`` tiles are a random height-two board; then the stacks are
    shuffled and the group numbers permuted. ``meta["planted_cycle"]`` lists the cycle's
    groups ``[A_1, ..., A_k]``.

    Parameters
    ----------
    rng : numpy.random.Generator
    n_tiles : int
        Number of tiles (even, at least ``2 * cycle_length``).
    cycle_length : int, optional
        ``k``; default random in ``1..min(6, n_tiles // 2)``.
    p_two, group_sizes, game
        As for :func:`random_height2_board` (for the tiles outside the cycle).

    Notes
    -----
    :math:`O(n)`.
    """
    if n_tiles <= 0 or n_tiles % 2:
        raise ValueError(f"n_tiles must be positive and even, got {n_tiles}")
    k = int(rng.integers(1, min(6, n_tiles // 2) + 1)) if cycle_length is None else int(cycle_length)
    if k < 1 or 2 * k > n_tiles:
        raise ValueError(f"a blocked cycle of length {k} needs 2 <= 2k <= n_tiles = {n_tiles}")
    rest = n_tiles - 2 * k
    stacks: list[list[int]] = [[(i + 1) % k, i] for i in range(k)]  # bottom A_{i+1}, top A_i
    n_groups = k
    if rest:
        p = float(rng.uniform(0.3, 1.0)) if p_two is None else p_two
        heights = random_heights(rng, rest, p_two=p)
        sizes = _sizes(rng, rest, group_sizes)
        labels = iter((rng.permutation(np.repeat(np.arange(len(sizes)), sizes)) + k).tolist())
        stacks.extend([next(labels) for _ in range(h)] for h in heights)
        n_groups += len(sizes)
    stacks = [stacks[i] for i in rng.permutation(len(stacks))]
    relabel = rng.permutation(n_groups).tolist()
    layout = stack_layout([len(s) for s in stacks], name="height2-planted")
    groups = [relabel[g] for s in stacks for g in s]
    cycle = [relabel[i] for i in range(k)]
    return find_variant(game)(layout, groups, meta={"generator": "height2-planted", "planted_cycle": cycle})


def height2_boards(
    seed: int,
    count: int,
    *,
    max_tiles: int = 16,
    planted_fraction: float = 0.2,
    group_sizes: Sequence[int] = (2, 4),
) -> Iterator[Board]:
    """``count`` seeded height-two boards: random ones, and a fraction with a planted cycle.

    Board ``i`` records ``meta["seed"] = seed`` and ``meta["index"] = i``.

    Notes
    -----
    :math:`O(\\text{count} \\cdot \\text{max\\_tiles})`.
    """
    rng = np.random.default_rng(seed)
    for i in range(count):
        if rng.random() < planted_fraction:
            n = int(rng.integers(1, max_tiles // 2 + 1)) * 2
            board = planted_cycle_board(rng, n_tiles=n, group_sizes=group_sizes)
        else:
            board = random_height2_board(rng, max_tiles=max_tiles, group_sizes=group_sizes)
        board.meta.update({"seed": int(seed), "index": i})
        yield board
