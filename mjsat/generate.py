"""Every maker of boards for tests, runs and experiments: random small boards (seeded),
random boards of isolated stacks of height one and two (with planted blocked cycles),
every board up to a number of tiles (:func:`exhaustive_boards`), and the boards the
reductions build from a CNF file (:func:`boards_from_cnf`). The deals of a real layout
are :mod:`mjsat.deals`'s.

>>> import numpy as np
>>> b = random_small_board(np.random.default_rng(5), max_tiles=12)
>>> len(b) <= 12 and len(b) % 2 == 0
True
>>> sum(1 for _ in exhaustive_boards(4, games=("shisen-sho",)))
20
>>> from mjsat.search.height2 import applies
>>> b = random_height2_board(np.random.default_rng(3), n_tiles=20)
>>> len(b), applies(b)
(20, True)

References
----------
.. [St07] T. Stam, "Solving Mahjong Solitaire Positions", Leiden University, 2007.
.. [dB12] M. de Bondt, "Solving Mahjong Solitaire boards with peeking", arXiv:1203.6559, 2012.
"""

from __future__ import annotations

import importlib
import itertools
import math
import os
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from mjsat.board import GAMES, Board, Layout, Position, find_variant

__all__ = [
    "random_group_sizes",
    "random_small_layout",
    "random_small_board",
    "random_grid_board",
    "GROUP_SIZE_CHOICES",
    "even_groupings",
    "EXHAUSTIVE_MAHJONG_LAYOUTS",
    "exhaustive_shisen_area",
    "exhaustive_placements",
    "exhaustive_boards",
    "RANDOM_SHAPES",
    "random_small_boards",
    "PITCH",
    "stack_layout",
    "random_heights",
    "random_height2_board",
    "planted_cycle_board",
    "height2_boards",
    "CNF_BOARDS",
    "boards_from_cnf",
]


class GeneratorError(ValueError):
    """Parameters no small board can be made from (an odd tile count, odd group sizes)."""


def random_group_sizes(rng: np.random.Generator, n: int, sizes: Sequence[int] = (2, 4)) -> list[int]:
    """A random list of group sizes drawn from ``sizes`` that adds up to ``n`` (even).

    When no size of ``sizes`` fits what is left (only possible when 2 is not among them,
    e.g. ``sizes=(4,)`` and ``n=6``), the last group takes what is left.

    >>> random_group_sizes(np.random.default_rng(0), 10, (4,))
    [4, 4, 2]
    """
    if n % 2:
        raise GeneratorError(f"n must be even, got {n}")
    if not sizes or any(s <= 0 or s % 2 for s in sizes):
        raise GeneratorError(f"group sizes must be positive and even, got {list(sizes)}")
    out: list[int] = []
    left = n
    while left:
        choices = [s for s in sizes if s <= left]
        s = int(choices[int(rng.integers(len(choices)))]) if choices else left
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
    max_tiles: int | None = None,
    full: bool = False,
) -> Board:
    """A random Shisen-Sho board: a random ``h x w`` grid with some cells left empty.

    Parameters
    ----------
    rng : numpy.random.Generator
    max_width, max_height : int
        Largest grid.
    fill : float, optional
        Share of the cells holding a tile (default: drawn in ``[0.5, 1)`` per board).
    group_sizes : sequence of int
        Sizes drawn by :func:`random_group_sizes`.
    max_tiles : int, optional
        At most this many tiles (random cells are emptied beyond it).
    full : bool
        A full rectangle instead: ``h x w`` drawn uniformly among the grids of at most
        ``max_width x max_height`` (and ``max_tiles``) with an even number of cells.

    Notes
    -----
    :math:`O(h w)`. Without ``max_tiles`` and ``full`` the random draws are those of the
    earlier versions (the same seed gives the same board).
    """
    if full:
        cap = max_width * max_height if max_tiles is None else max_tiles
        shapes = [
            (h, w)
            for h in range(1, max_height + 1)
            for w in range(1, max_width + 1)
            if (h * w) % 2 == 0 and 2 <= h * w <= cap
        ]
        if not shapes:
            raise GeneratorError(f"no full grid of at most {max_height} x {max_width} cells and {cap} tiles")
        h, w = shapes[int(rng.integers(len(shapes)))]
        cells = [(y, x) for y in range(h) for x in range(w)]
        return _grid_board(rng, cells, group_sizes, "random-rect")
    for _ in range(100):
        w = int(rng.integers(1, max_width + 1))
        h = int(rng.integers(1, max_height + 1))
        p = float(rng.uniform(0.5, 1.0)) if fill is None else fill
        cells = [(y, x) for y in range(h) for x in range(w) if rng.random() < p]
        if max_tiles is not None:
            while len(cells) > max_tiles:
                cells.pop(int(rng.integers(len(cells))))
        if len(cells) % 2:
            cells.pop(int(rng.integers(len(cells))))
        if len(cells) >= 2:
            break
    else:  # pragma: no cover
        cells = [(0, 0), (0, 1)]
    return _grid_board(rng, cells, group_sizes, "random-grid")


def _grid_board(rng: np.random.Generator, cells: list[tuple[int, int]], group_sizes: Sequence[int], name: str) -> Board:
    layout = Layout([(2 * y, 2 * x, 0) for y, x in cells], name=name)
    cls = find_variant("shisen-sho")
    return cls(layout, _groups(rng, len(layout), group_sizes), meta={"generator": name})


GROUP_SIZE_CHOICES: dict[str, tuple[int, ...]] = {"pairs": (2,), "fours": (4,), "mixed": (2, 4)}
"""Named group-size choices of the random boards: groups of two, of four (with one group
of two when the tile count is not a multiple of four), or both mixed at random."""


# --------------------------------------------------------------------------- every small board


def even_groupings(n: int) -> Iterator[tuple[int, ...]]:
    """Every way of splitting tiles ``0..n-1`` into groups of even size, each once.

    A grouping is given as the group of every tile, groups numbered by their first tile
    (``(0, 0, 1, 1)`` and ``(0, 1, 0, 1)`` are two of the four groupings of four tiles; the
    fourth is one group of four). Their number is 1, 4, 31, 379, 6556 for 2, 4, 6, 8, 10
    tiles.

    >>> list(even_groupings(4))
    [(0, 0, 0, 0), (0, 0, 1, 1), (0, 1, 0, 1), (0, 1, 1, 0)]

    Notes
    -----
    :math:`O(n)` per grouping (a depth-first walk that drops prefixes which can no longer
    make every group even).
    """
    if n % 2:
        raise GeneratorError(f"n must be even, got {n}")
    labels: list[int] = []
    sizes: list[int] = []

    def walk(i: int) -> Iterator[tuple[int, ...]]:
        odd = sum(k % 2 for k in sizes)
        if odd > n - i:
            return
        if i == n:
            yield tuple(labels)
            return
        for g in range(len(sizes) + 1):
            if g == len(sizes):
                sizes.append(0)
            sizes[g] += 1
            labels.append(g)
            yield from walk(i + 1)
            labels.pop()
            sizes[g] -= 1
            if sizes[g] == 0:
                sizes.pop()

    return walk(0)


EXHAUSTIVE_MAHJONG_LAYOUTS: dict[str, tuple[Position, ...]] = {
    "tiny": ((0, 0, 0), (0, 2, 0), (0, 4, 0), (2, 0, 0), (2, 2, 0), (2, 4, 0), (1, 1, 1), (1, 3, 1)),
    "row-pyramid": ((0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0), (0, 1, 1), (0, 3, 1), (0, 5, 1), (0, 2, 2)),
    "stacks": ((0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 4, 0), (0, 4, 1), (0, 4, 2), (0, 8, 0), (0, 8, 1)),
    "staggered": ((0, 0, 0), (2, 0, 0), (1, 2, 0), (0, 4, 0), (2, 4, 0), (1, 0, 1), (1, 2, 1), (1, 4, 1)),
}
"""The small layouts whose placements :func:`exhaustive_boards` runs through for the games
on the Mahjong grid (``mahjong``, ``mahjong-transposed``, ``shisen-sho-3d``): the shipped
``tiny`` (two rows of three, two tiles on top at half offsets), a one-row pyramid (4, 3
at half offsets, 1), isolated stacks of heights 3, 3 and 2, and a staggered level (a tile
with two neighbours on each side at half-row offsets) with three tiles on top."""

_Transform = Callable[[Position], Position]

_MIRRORS: tuple[_Transform, ...] = (
    lambda p: p,
    lambda p: (p[0], -p[1], p[2]),
    lambda p: (-p[0], p[1], p[2]),
    lambda p: (-p[0], -p[1], p[2]),
)
"""Left-right and front-rear mirrors: the rules of Mahjong, transposed Mahjong and
Shisen-Sho on the Mahjong grid are the same in the mirror (a tile is free when its left
*or* its right side is untouched; paths have no direction)."""


def _transposed(m: _Transform) -> _Transform:
    """``m`` followed by swapping rows and columns."""
    return lambda p: (m(p)[1], m(p)[0], m(p)[2])


_DIHEDRAL: tuple[_Transform, ...] = _MIRRORS + tuple(_transposed(m) for m in _MIRRORS)
"""The eight symmetries of the square: the Shisen-Sho rules (paths of at most three
axis-parallel segments, a margin of one cell all round) do not tell rows from columns."""

_SYMMETRIES: dict[str, tuple[_Transform, ...]] = {
    "mahjong": _MIRRORS,
    "mahjong-transposed": _MIRRORS,
    "shisen-sho": _DIHEDRAL,
    "shisen-sho-3d": _MIRRORS,
}


def exhaustive_shisen_area(max_tiles: int) -> int:
    """The largest grid (in cells) whose placements :func:`exhaustive_placements` runs
    through for Shisen-Sho: ``max_tiles + 1``, so every full rectangle of at most
    ``max_tiles`` tiles and every rectangle with holes up to one cell more (for 8 tiles:
    the sets of cells of the 1 x 9, 2 x 4 and 3 x 3 grids).

    >>> exhaustive_shisen_area(8)
    9
    """
    return max_tiles + 1


def _normalized(positions: Sequence[Position]) -> tuple[Position, ...]:
    r0 = min(p[0] for p in positions)
    c0 = min(p[1] for p in positions)
    return tuple(sorted((r - r0, c - c0, lev) for r, c, lev in positions))


def _canonical(positions: Sequence[Position], transforms: Sequence[_Transform]) -> tuple[Position, ...]:
    return min(_normalized([t(p) for p in positions]) for t in transforms)


def _supported(positions: Sequence[Position]) -> bool:
    """Every tile above level 0 lies (at least partly) on a tile of the level below."""
    return all(
        lev == 0 or any(l2 == lev - 1 and abs(r - r2) < 2 and abs(c - c2) < 2 for r2, c2, l2 in positions)
        for r, c, lev in positions
    )


def _mother_subsets(max_tiles: int, area: int | None = None) -> Iterator[tuple[Position, ...]]:
    for slots in EXHAUSTIVE_MAHJONG_LAYOUTS.values():
        for k in range(2, min(max_tiles, len(slots)) + 1, 2):
            for subset in itertools.combinations(slots, k):
                if _supported(subset):
                    yield subset


def _grid_subsets(max_tiles: int, area: int | None = None) -> Iterator[tuple[Position, ...]]:
    area = exhaustive_shisen_area(max_tiles) if area is None else area
    for h in range(1, area + 1):  # the widest grid of each height: every smaller one is inside
        w = area // h
        cells = [(2 * y, 2 * x, 0) for y in range(h) for x in range(w)]
        for k in range(2, min(max_tiles, len(cells)) + 1, 2):
            yield from itertools.combinations(cells, k)


_PLACEMENTS: dict[str, Callable[[int, int | None], Iterator[tuple[Position, ...]]]] = {
    "mahjong": _mother_subsets,
    "mahjong-transposed": _mother_subsets,
    "shisen-sho": _grid_subsets,
    "shisen-sho-3d": _mother_subsets,
}


def exhaustive_placements(
    game: str, max_tiles: int, *, symmetry: bool = True, area: int | None = None
) -> list[tuple[Position, ...]]:
    """Every placement of an even number ``2 <= k <= max_tiles`` of tiles that
    :func:`exhaustive_boards` runs through for ``game``, each once.

    * ``shisen-sho``: every set of ``k`` cells of a rectangle of at most ``area`` cells
      (default :func:`exhaustive_shisen_area`; full rectangles and rectangles with holes;
      the grid of a board is the bounding box of its tiles). ``area=12`` takes in the
      grids up to 3 x 4 (and 2 x 6, 1 x 12).
    * ``mahjong``, ``mahjong-transposed``, ``shisen-sho-3d``: every set of ``k`` positions
      of a layout of :data:`EXHAUSTIVE_MAHJONG_LAYOUTS` in which each tile above level 0
      lies on a tile of the set (at most 8 tiles, whatever ``max_tiles``).

    Placements equal up to translation are one placement; with ``symmetry`` also those
    equal up to the game's symmetries (mirrors; for Shisen-Sho the eight symmetries of the
    square). Each is returned translated to row and column 0, in its least form.

    Notes
    -----
    :math:`O(\\sum_k \\binom{s}{k})` subsets of the ``s`` slots, each normalised under
    at most eight symmetries.
    """
    transforms = _SYMMETRIES[find_variant(game).game] if symmetry else _SYMMETRIES["mahjong"][:1]
    seen: dict[tuple[Position, ...], None] = {}
    for subset in _PLACEMENTS[find_variant(game).game](max_tiles, area):
        seen.setdefault(_canonical(subset, transforms), None)
    return list(seen)


def _stabilizer(placement: tuple[Position, ...], transforms: Sequence[_Transform]) -> list[list[int]]:
    """The permutations of the tiles of ``placement`` (a normalised, sorted tuple) that
    its symmetries make (the identity among them)."""
    index = {p: i for i, p in enumerate(placement)}
    perms = []
    for t in transforms:
        moved = [t(p) for p in placement]
        r0 = min(p[0] for p in moved)
        c0 = min(p[1] for p in moved)
        image = [(r - r0, c - c0, lev) for r, c, lev in moved]
        if all(p in index for p in image):
            perms.append([index[p] for p in image])
    return perms


def _relabelled(groups: Sequence[int]) -> tuple[int, ...]:
    ids: dict[int, int] = {}
    return tuple(ids.setdefault(g, len(ids)) for g in groups)


def exhaustive_boards(
    max_tiles: int,
    *,
    games: Sequence[str] = GAMES,
    symmetry: bool = True,
    area: int | None = None,
) -> Iterator[Board]:
    """Every board of at most ``max_tiles`` tiles on the small layouts, game by game.

    Each placement of :func:`exhaustive_placements` is dealt in every grouping of
    :func:`even_groupings` (groups of any even size: pairs, fours, sixes, ...). With
    ``symmetry`` a board equal to one already given up to a symmetry of the game (that
    maps its placement onto itself) and a renumbering of the groups is left out, so each
    board is given once up to the game's symmetries; without it, once up to translation
    and the group numbers.

    Parameters
    ----------
    max_tiles : int
        Even, at least 2.
    games : sequence of str
        Game names (default: all four).
    symmetry : bool
        Leave out boards equal up to the game's symmetries.
    area : int, optional
        Shisen-Sho: the largest grid in cells (see :func:`exhaustive_placements`).

    Yields
    ------
    Board
        Tiles in the order of their sorted positions; ``meta`` holds ``generator``
        (``"exhaustive"``) and ``index`` (the board's number within its game).

    Raises
    ------
    GeneratorError
        ``max_tiles`` is odd or below 2.

    Notes
    -----
    Output-sensitive: :math:`O(s)` per board for ``s`` symmetries, plus the placements.
    The count grows as the number of groupings (379 for 8 tiles, 6,556 for 10) times the
    placements.
    """
    if max_tiles < 2 or max_tiles % 2:
        raise GeneratorError(f"the number of tiles must be even and at least 2, got {max_tiles}")
    for game in games:
        cls = find_variant(game)
        transforms = _SYMMETRIES[cls.game] if symmetry else _SYMMETRIES["mahjong"][:1]
        index = 0
        for placement in exhaustive_placements(cls.game, max_tiles, symmetry=symmetry, area=area):
            perms = _stabilizer(placement, transforms)
            layout = Layout(placement, name=f"exhaustive-{len(placement)}")
            for groups in even_groupings(len(placement)):
                images = []
                for perm in perms:
                    moved = [0] * len(groups)
                    for i, g in enumerate(groups):
                        moved[perm[i]] = g
                    images.append(_relabelled(moved))
                if any(img < groups for img in images):
                    continue
                yield cls(layout, list(groups), meta={"generator": "exhaustive", "index": index})
                index += 1


RANDOM_SHAPES: tuple[str, ...] = ("rectangle", "holes")
"""Shapes of the random Shisen-Sho boards, in turn: a full rectangle, a grid with holes."""


def random_small_boards(
    seed: int,
    count: int,
    *,
    max_tiles: int = 12,
    max_levels: int = 3,
    games: Sequence[str] = GAMES,
) -> Iterator[tuple[str, Board]]:
    """``count`` seeded random small boards of every game in turn, each with a label
    ``game:what``.

    Board ``i`` is of ``games[i % len(games)]``; the ``j``-th board of a game
    (``j = i // len(games)``) has groups of the choice ``j % 3`` of
    :data:`GROUP_SIZE_CHOICES` (pairs, fours, both mixed), and on Shisen-Sho the shape
    ``(j // 3) % 2`` of :data:`RANDOM_SHAPES` (a full rectangle, or a grid with holes),
    so every combination comes every six boards of a game. Boards have at most
    ``max_tiles`` tiles (Shisen-Sho grids at most 6 x 5); Mahjong layouts are
    :func:`random_small_layout` (at most ``max_levels`` levels).

    Notes
    -----
    ``O(count * max_tiles)``.
    """
    rng = np.random.default_rng(seed)
    choices = list(GROUP_SIZE_CHOICES.items())
    for i in range(count):
        game = find_variant(games[i % len(games)]).game
        j = i // len(games)
        kind, sizes = choices[j % len(choices)]
        if game == "shisen-sho":
            shape = RANDOM_SHAPES[(j // len(choices)) % len(RANDOM_SHAPES)]
            board = random_grid_board(rng, max_tiles=max_tiles, full=shape == "rectangle", group_sizes=sizes)
            what = f"{shape}-{kind}"
        else:
            board = random_small_board(rng, game=game, max_tiles=max_tiles, max_levels=max_levels, group_sizes=sizes)
            what = kind
        yield f"{game}:{what}", board


# --------------------------------------------------------------------------- height two
# Stacks sit on a grid with a pitch of three half-tiles, so no two touch (the layout is
# Layout.is_isolated_stacks); tiles are numbered stack by stack, bottom first.

PITCH = 3
"""Half-tile distance between neighbouring stacks (2 would make them touch)."""


def stack_layout(heights: Sequence[int], *, name: str = "height2") -> Layout:
    """A layout of isolated stacks with the given heights, laid out on a square-ish grid.

    Notes
    -----
    :math:`O(n)` for ``n`` tiles (plus the layout's own relation tables).
    """
    if any(h < 1 for h in heights):
        raise GeneratorError(f"stack heights must be at least 1, got {list(heights)}")
    width = max(1, math.ceil(math.sqrt(len(heights))))
    positions: list[Position] = []
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
        raise GeneratorError(f"n_tiles must be non-negative, got {n_tiles}")
    if not 0.0 <= p_two <= 1.0:
        raise GeneratorError(f"p_two must lie in [0, 1], got {p_two}")
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
        raise GeneratorError(f"height-two boards have groups of 2 and 4 tiles, got {list(group_sizes)}")
    if sizes == [4]:
        if n % 4:
            raise GeneratorError(f"groups of four need a multiple of 4 tiles, got {n}")
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
        Deal solvable by construction instead of uniformly (Stam's Algorithm 1 [St07]_: remove
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
        raise GeneratorError(f"n_tiles must be positive and even, got {n_tiles}")
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


def _random_clear_order(layout: Layout, rng: np.random.Generator, max_restarts: int = 1000) -> list[tuple[int, int]]:
    """Remove two uniformly random free tiles of a blank stack layout at a time; restart
    when stuck (which happens only when the last two tiles form one stack)."""
    stacks = layout.stacks()
    uncovers: dict[int, int] = {hi: lo for s in stacks for lo, hi in itertools.pairwise(s)}
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
    raise GeneratorError(f"no clearing order found in {max_restarts} restarts")  # pragma: no cover


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
        raise GeneratorError(f"n_tiles must be positive and even, got {n_tiles}")
    k = int(rng.integers(1, min(6, n_tiles // 2) + 1)) if cycle_length is None else int(cycle_length)
    if k < 1 or 2 * k > n_tiles:
        raise GeneratorError(f"a blocked cycle of length {k} needs 2 <= 2k <= n_tiles = {n_tiles}")
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


CNF_BOARDS = "mjsat.reductions.targets:cnf_boards"
"""Where the boards of a CNF file are built (``module:function``, imported when first
used, as the methods of :data:`mjsat.methods.METHODS`)."""


def boards_from_cnf(
    path: str | os.PathLike[str], *, targets: Sequence[str] | None = None
) -> list[tuple[str, Board, bool]]:
    """The reductions' boards of a DIMACS file: ``[(target, board, satisfiable), ...]``,
    one per target (default: the Mahjong Solitaire reductions, ``stacks`` and ``rows``).

    ``satisfiable`` is the formula's answer, which each board's solvability equals.

    Raises
    ------
    InputFileError
        The file is malformed or a board would exceed a size limit.
    ImportError
        The reductions fail to import (an error, never skipped).

    Notes
    -----
    As :func:`mjsat.reductions.targets.cnf_boards`: linear reductions and one SAT call.
    """
    module, _, name = CNF_BOARDS.partition(":")
    build: Callable[..., list[tuple[str, Board, bool]]] = getattr(importlib.import_module(module), name)
    return build(path) if targets is None else build(path, tuple(targets))
