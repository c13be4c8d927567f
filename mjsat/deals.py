"""Deals: uniform random groups, or solvable by construction (Stam (2007), Algorithm 1).

Every random choice comes from a ``numpy.random.Generator`` made from the seed given, so a
``(layout, seed, game)`` triple names one board for good.

>>> from mjsat.board import Layout
>>> lay = Layout([(0, 2 * i, 0) for i in range(8)])
>>> deal_random(lay, seed=1).groups == deal_random(lay, seed=1).groups
True

References
----------
.. [St07] T. Stam, "Solving Mahjong Solitaire Positions", Leiden University, 2007.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from mjsat.board import Board, Layout, Move, find_variant

if TYPE_CHECKING:
    from mjsat.fileio import PathLike

__all__ = ["deal", "default_group_sizes", "deal_random", "deal_solvable", "DealError"]

STANDARD_KINDS = 36
"""Number of tile kinds of a standard set (34 faces plus flowers and seasons as groups)."""


class DealError(ValueError):
    """No deal of the kind asked for could be made."""


def default_group_sizes(n: int) -> list[int]:
    """Group sizes for a layout of ``n`` tiles.

    Up to 144 tiles: groups of four (and one pair when ``n`` is 2 mod 4). Beyond 144,
    KMahjongg's way: the 36 kinds of a standard set share the pairs as evenly as possible,
    which gives groups of 2, 4, 6 and 8 on its larger layouts.

    >>> default_group_sizes(144).count(4)
    36
    >>> sorted(set(default_group_sizes(228)))
    [6, 8]
    """
    if n % 2:
        raise DealError(f"a layout of {n} tiles cannot be dealt in pairs")
    if n <= 4 * STANDARD_KINDS:
        return [4] * (n // 4) + ([2] if n % 4 else [])
    pairs = n // 2
    base, extra = divmod(pairs, STANDARD_KINDS)
    return [2 * (base + 1)] * extra + [2 * base] * (STANDARD_KINDS - extra)


def _check_sizes(n: int, group_sizes: Sequence[int] | None) -> list[int]:
    sizes = default_group_sizes(n) if group_sizes is None else [int(s) for s in group_sizes]
    if any(s <= 0 or s % 2 for s in sizes):
        raise DealError(f"group sizes must be positive and even, got {sizes}")
    if sum(sizes) != n:
        raise DealError(f"group sizes add up to {sum(sizes)}, the layout has {n} tiles")
    return sizes


def deal(
    layout: Layout | PathLike,
    *,
    seed: int,
    game: str = "mahjong",
    solvable: bool = False,
    group_sizes: Sequence[int] | None = None,
) -> Board:
    """A seeded deal of ``layout``: uniformly random groups, or solvable by construction.

    Parameters
    ----------
    layout : Layout, str or path
        The layout, or a name or file :func:`mjsat.layouts.load_layout` reads
        (``"turtle"``, ``"rect-12x8"``, ``"gnome:easy"``, a ``.json`` layout...).
    seed : int
        Names the deal: the same layout, seed, game and ``solvable`` give the same board.
    game : str
        The rules (``"mahjong"``, ``"shisen-sho"``...; :data:`mjsat.board.GAMES`).
    solvable : bool
        ``False``: :func:`deal_random`, which may be unsolvable (about 3 % of turtle
        deals). ``True``: :func:`deal_solvable` ([St07]_, Algorithm 1), whose second
        value, the order that clears the board, is left out here.
    group_sizes : sequence of int, optional
        The size of each group (even); by default :func:`default_group_sizes`.

    Returns
    -------
    Board
        Of the game's class, its ``meta`` naming the seed and the kind of deal.

    Raises
    ------
    DealError
        Group sizes that do not fit the layout; no solvable deal found.
    mjsat.board.InvalidLayoutError, mjsat.fileio.InputFileError
        A layout name or file that cannot be read.

    Notes
    -----
    :math:`O(n)` for ``n`` tiles when random; when solvable, :math:`O(n^2)` per attempt
    of Algorithm 1 (rarely more than one on the shipped layouts).

    Examples
    --------
    >>> from mjsat import deal, solve
    >>> board = deal("turtle", seed=1)
    >>> len(board), board.game
    (144, 'mahjong')
    >>> solve(deal("turtle", seed=1, solvable=True)).status
    'solvable'
    """
    if not isinstance(layout, Layout):
        from mjsat.layouts import load_layout

        layout = load_layout(layout)
    if solvable:
        return deal_solvable(layout, seed=seed, game=game, group_sizes=group_sizes)[0]
    return deal_random(layout, seed=seed, game=game, group_sizes=group_sizes)


def deal_random(
    layout: Layout,
    *,
    seed: int,
    game: str = "mahjong",
    group_sizes: Sequence[int] | None = None,
) -> Board:
    """A uniformly random assignment of groups to the tiles of ``layout``.

    Every assignment of the group labels (``group_sizes``, by default
    :func:`default_group_sizes`) to the tiles is equally likely; the game's rules come
    with the board's class (:func:`mjsat.board.find_variant`).

    Raises
    ------
    DealError
        Group sizes that are odd or do not add up to the tiles of ``layout``.

    Notes
    -----
    :math:`O(n)` for ``n`` tiles (one permutation).
    """
    sizes = _check_sizes(len(layout), group_sizes)
    rng = np.random.default_rng(seed)
    labels = np.repeat(np.arange(len(sizes)), sizes)
    groups = rng.permutation(labels)
    cls = find_variant(game)
    return cls(layout, groups.tolist(), meta={"seed": int(seed), "deal": "random", "layout": layout.name})


def _random_clear_order_scan(board: Board, rng: np.random.Generator) -> list[Move] | None:
    """Play uniformly random legal moves on an all-equal board; ``None`` when stuck.

    The plain version: the legal moves are listed anew at every step.
    """
    order: list[Move] = []
    while not board.is_solved():
        moves = list(board.generate_legal_moves())
        if not moves:
            return None
        move = moves[int(rng.integers(len(moves)))]
        board.push(move)
        order.append(move)
    return order


def _kth_pair(items: Sequence[int], k: int) -> Move:
    """The ``k``-th pair of ``itertools.combinations(items, 2)``, without listing them."""
    m = len(items)
    i = 0
    while k >= m - 1 - i:
        k -= m - 1 - i
        i += 1
    return (items[i], items[i + 1 + k])


def _random_clear_order(board: Board, rng: np.random.Generator) -> list[Move] | None:
    """:func:`_random_clear_order_scan` with the same random numbers and the same result,
    keeping the free tiles up to date instead of listing the moves at every step.

    On an all-equal Mahjong board the legal moves are exactly the pairs of free tiles, in
    the order of ``combinations(sorted(free), 2)``; after a move only the tiles its two
    tiles covered or touched (:attr:`mjsat.layout.SideTables.dependents`) can become free.
    Other games take the plain version.
    """
    if board.kind != "sides":
        return _random_clear_order_scan(board, rng)
    deps = board.rule_tables().dependents
    free = {t for t in range(len(board)) if board.is_free(t)}
    order: list[Move] = []
    while not board.is_solved():
        f = len(free)
        if f < 2:
            return None
        a, b = _kth_pair(sorted(free), int(rng.integers(f * (f - 1) // 2)))
        board.push((a, b))
        order.append((a, b))
        free -= {a, b}
        for t in (a, b):
            free.update(u for u in deps[t] if board.is_free(u))
    return order


def deal_solvable(
    layout: Layout,
    *,
    seed: int,
    game: str = "mahjong",
    group_sizes: Sequence[int] | None = None,
    max_restarts: int = 10_000,
    scan: bool = False,
) -> tuple[Board, list[Move]]:
    """A deal solvable by construction, with the order that clears it.

    [St07]_, Algorithm 1: on a board whose tiles are all equal, remove random pairs of
    free tiles until the board is clear (restart when stuck); then hand the removed pairs
    their groups in a random order. The returned order clears the returned board.

    ``scan=True`` lists the legal moves anew at every step (the plain reference); by
    default Mahjong boards keep their free tiles up to date instead. Both draw the same
    random numbers and give the same board.

    Raises
    ------
    DealError
        No clearing order was found within ``max_restarts`` restarts.
    """
    sizes = _check_sizes(len(layout), group_sizes)
    rng = np.random.default_rng(seed)
    cls = find_variant(game)
    blank = cls(layout, [0] * len(layout))
    for attempt in range(max_restarts + 1):  # noqa: B007 (read after the loop: the restarts made)
        blank.reset()
        order = (_random_clear_order_scan if scan else _random_clear_order)(blank, rng)
        if order is not None:
            break
    else:
        raise DealError(f"no clearing order found for layout {layout.name!r} in {max_restarts} restarts")
    pair_labels = rng.permutation(np.repeat(np.arange(len(sizes)), [s // 2 for s in sizes]))
    groups = [0] * len(layout)
    for (a, b), g in zip(order, pair_labels.tolist()):
        groups[a] = groups[b] = g
    board = cls(
        layout,
        groups,
        meta={"seed": int(seed), "deal": "solvable", "layout": layout.name, "restarts": attempt},
    )
    return board, order
