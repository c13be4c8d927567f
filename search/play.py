"""Play without peeking: the player model of seed 003 (Stam).

A human player of Mahjong Solitaire sees the shape of the pile, which tiles are free, and
the faces of the tiles that are not *completely* covered by tiles above; a partly covered
tile shows its face. There is no undo. :class:`PlayerView` is that player's window on a
board: strategies get nothing else, so they cannot read a hidden face or take a move
back. :class:`Game` runs one strategy on one board until the board is clear or no free
pair is left; :func:`play_batch` runs configurations over many deals, in parallel.

>>> from mjsat.board import Layout, MahjongBoard
>>> lay = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0), (0, 2, 1), (0, 4, 1)])
>>> view = PlayerView(MahjongBoard(lay, [0, 1, 2, 2, 1, 0]))
>>> view.is_visible(1), view.is_visible(0)
(False, True)
>>> view.face(1)  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
mjsat.search.play.HiddenFaceError: tile 1 is completely covered: its face is hidden
>>> rec = play_game(MahjongBoard(lay, [0, 1, 2, 2, 1, 0]), "random", "random", seed=1)
>>> 2 * len(rec.moves) + rec.tiles_left
6
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Callable

import numpy as np

from mjsat.board import Board, Layout, Move, TileId, normalize_move

__all__ = [
    "HiddenFaceError",
    "UnsupportedGameError",
    "StrategyError",
    "PlayerView",
    "Game",
    "GameRecord",
    "play_game",
    "PLAY_SEED_OFFSET",
    "play_seed",
    "BoardSource",
    "play_batch",
    "summarize",
    "wilson_interval",
]

PLAY_SEED_OFFSET = 1_000_000_007
"""Added to a deal's seed to seed the play on it, so deal and play draw unrelated streams."""


class HiddenFaceError(ValueError):
    """A strategy asked for the face of a tile that is completely covered."""


class UnsupportedGameError(ValueError):
    """The player model is defined for Mahjong Solitaire (and its transposed variant) only."""


class StrategyError(RuntimeError):
    """A strategy broke the rules of play (an illegal move, or giving up with a free pair left)."""


# --------------------------------------------------------------------------- geometry


@dataclasses.dataclass(frozen=True)
class _Geometry:
    """The static relations the view needs, built once per (layout, sides)."""

    above: tuple[tuple[TileId, ...], ...]
    side1: tuple[tuple[TileId, ...], ...]
    side2: tuple[tuple[TileId, ...], ...]
    below: tuple[tuple[TileId, ...], ...]
    cell_covers: tuple[tuple[tuple[TileId, ...], ...], ...]
    """For each tile, for each of its four cells, the tiles on higher levels over that cell."""
    reveals: tuple[tuple[TileId, ...], ...]
    """For each tile ``t``, the tiles whose visibility may change when ``t`` goes."""
    frees: tuple[tuple[TileId, ...], ...]
    """For each tile ``t``, the tiles whose freeness may change when ``t`` goes."""


def _geometry(board: Board) -> _Geometry:
    """The view's tables of ``board``'s layout and sides (built once per layout)."""
    layout = board.layout
    tables = board.rule_tables()

    def build() -> _Geometry:
        covers = layout.cell_covers
        reveals: list[set[TileId]] = [set() for _ in range(len(layout))]
        for t, cells in enumerate(covers):
            for over in cells:
                for o in over:
                    reveals[o].add(t)
        return _Geometry(
            above=tables.above,
            side1=tables.one,
            side2=tables.two,
            below=layout.below,
            cell_covers=covers,
            reveals=tuple(tuple(sorted(s)) for s in reveals),
            frees=tables.dependents,
        )

    return layout.memo(("player-view", tables.sides), build)


# --------------------------------------------------------------------------- the view


class PlayerView:
    """What a player sees of a board: the pile, the free tiles, the faces not fully covered.

    Parameters
    ----------
    board : MahjongBoard or TransposedMahjongBoard
        The deal; the view plays on a copy and never changes ``board``.

    Raises
    ------
    UnsupportedGameError
        For a Shisen-Sho board (every face is visible there: nothing to hide).

    Notes
    -----
    Faces are reachable only through :meth:`face` (and what is built on it), which raises
    :class:`HiddenFaceError` for a tile all four of whose cells lie under present tiles.
    A tile's face, once seen, stays known (tiles only go away). The view keeps the free
    tiles and the visible faces up to date incrementally: a move costs :math:`O(d)` for
    ``d`` the number of tiles next to, over or under the two tiles removed.
    """

    def __init__(self, board: Board) -> None:
        if board.kind != "sides":
            raise UnsupportedGameError(f"play needs a Mahjong Solitaire board, got game {board.game!r}")
        self._board = board.copy(stack=True)
        self._faces = self._board.groups
        self.layout: Layout = board.layout
        self._geo = _geometry(board)
        n = len(board.layout)
        present = self._board.presence  # shared with the private board: one truth
        self._present = present
        self._free: set[TileId] = {t for t in range(n) if present[t] and self._board.is_free(t)}
        self._visible = bytearray(n)
        self._by_face: dict[int, set[TileId]] = {}
        for t in range(n):
            if present[t]:
                self._update_visibility(t)
        self.moves: list[Move] = list(self._board.move_stack)

    # -- what the player sees
    @property
    def n(self) -> int:
        """Number of tiles of the layout (present or not)."""
        return len(self._faces)

    def is_present(self, t: TileId) -> bool:
        return bool(self._present[t])

    def present_tiles(self) -> list[TileId]:
        return [t for t in range(self.n) if self._present[t]]

    def remaining(self) -> int:
        """Tiles still on the board."""
        return self._board.remaining()

    def is_cleared(self) -> bool:
        return self._board.is_solved()

    def is_free(self, t: TileId) -> bool:
        return t in self._free

    def free_tiles(self) -> list[TileId]:
        """The free tiles, in tile order (every free tile is visible)."""
        return sorted(self._free)

    def is_visible(self, t: TileId) -> bool:
        """True when at least one cell of tile ``t`` is not under a present tile."""
        return bool(self._visible[t])

    def face(self, t: TileId) -> int:
        """The face (group) of tile ``t``; raises :class:`HiddenFaceError` when it is hidden."""
        if not self._visible[t]:
            raise HiddenFaceError(f"tile {t} is completely covered: its face is hidden")
        return self._faces[t]

    def visible_matches(self, t: TileId) -> list[TileId]:
        """The present, visible tiles other than ``t`` with the face of ``t``, in tile order."""
        return sorted(self._by_face.get(self.face(t), set()) - {t})

    def free_pairs(self) -> list[Move]:
        """Every pair of free tiles with equal faces (the legal moves), sorted."""
        by_face: dict[int, list[TileId]] = {}
        for t in sorted(self._free):
            by_face.setdefault(self._faces[t], []).append(t)
        return sorted((a, b) for ts in by_face.values() for i, a in enumerate(ts) for b in ts[i + 1 :])

    def free_by_face(self) -> dict[int, list[TileId]]:
        """The free tiles grouped by face, each list in tile order."""
        out: dict[int, list[TileId]] = {}
        for t in sorted(self._free):
            out.setdefault(self._faces[t], []).append(t)
        return out

    def level(self, t: TileId) -> int:
        return self.layout.positions[t][2]

    def covering(self, t: TileId) -> list[TileId]:
        """The present tiles that block ``t`` from above."""
        return [o for o in self._geo.above[t] if self._present[o]]

    def below(self, t: TileId) -> list[TileId]:
        """The tiles ``t`` lies on (one level down); all are present while ``t`` is."""
        return [o for o in self._geo.below[t] if self._present[o]]

    def side_chains(self, t: TileId) -> tuple[list[TileId], list[TileId]]:
        """The present tiles touching ``t`` on its left (right) side, and those touching
        them on that side, and so on: seed 003's ``obstructorsLeft/Right``."""
        return self._chain(t, self._geo.side1), self._chain(t, self._geo.side2)

    def _chain(self, t: TileId, side: tuple[tuple[TileId, ...], ...]) -> list[TileId]:
        seen: list[TileId] = []
        frontier = [t]
        marked = {t}
        while frontier:
            nxt = []
            for u in frontier:
                for o in side[u]:
                    if self._present[o] and o not in marked:
                        marked.add(o)
                        seen.append(o)
                        nxt.append(o)
            frontier = nxt
        return seen

    def freed_by(self, t: TileId) -> int:
        """Number of tiles that are not free now and would be free if ``t`` were gone."""
        return sum(1 for u in self._geo.frees[t] if self._present[u] and u not in self._free and self._free_without(u, t))

    def _free_without(self, u: TileId, gone: TileId) -> bool:
        p = self._present
        g = self._geo
        if any(p[o] and o != gone for o in g.above[u]):
            return False
        return not any(p[o] and o != gone for o in g.side1[u]) or not any(p[o] and o != gone for o in g.side2[u])

    # -- changes (the game's, never a strategy's)
    def _update_visibility(self, t: TileId) -> None:
        if self._visible[t]:
            return
        p = self._present
        if any(not any(p[o] for o in cell) for cell in self._geo.cell_covers[t]):
            self._visible[t] = 1
            self._by_face.setdefault(self._faces[t], set()).add(t)

    def _apply(self, move: Sequence[int]) -> Move:
        """Play ``move`` on the hidden board (checked) and update what is seen."""
        a, b = normalize_move(move[0], move[1])
        self._board.play((a, b))
        for t in (a, b):
            self._free.discard(t)
            self._by_face[self._faces[t]].discard(t)
        for t in (a, b):
            for u in self._geo.frees[t]:
                if self._present[u] and u not in self._free and self._board.is_free(u):
                    self._free.add(u)
            for u in self._geo.reveals[t]:
                if self._present[u]:
                    self._update_visibility(u)
        self.moves.append((a, b))
        return (a, b)

    def shuffle_hidden_faces(self, rng: np.random.Generator) -> list[TileId]:
        """The adversary of the information tests: permute the faces of the hidden tiles.

        The faces of the present tiles that are completely covered are shuffled among
        themselves (the group sizes are kept); everything a player sees stays the same.
        Returns the hidden tiles.
        """
        hidden = [t for t in range(self.n) if self._present[t] and not self._visible[t]]
        faces = list(self._faces)
        for t, f in zip(hidden, rng.permutation([faces[t] for t in hidden]).tolist()):
            faces[t] = int(f)
        moves = self._board.move_stack
        board = type(self._board)(self.layout, faces, names=self._board.names, meta=self._board.meta)
        for m in moves:
            board.push(m)
        self._board = board
        self._present = board._present
        self._faces = board.groups
        return hidden


# --------------------------------------------------------------------------- games


@dataclasses.dataclass
class GameRecord:
    """One game: who played, on which seed, the moves, and how it ended."""

    strategy: str
    heuristic: str
    seed: int
    moves: list[Move]
    cleared: bool
    tiles_left: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "heuristic": self.heuristic,
            "seed": self.seed,
            "cleared": self.cleared,
            "tiles_left": self.tiles_left,
            "moves": [list(m) for m in self.moves],
        }


class Game:
    """One strategy playing one board without peeking and without undo.

    Parameters
    ----------
    board : Board
        The deal (a Mahjong Solitaire board); it is not changed.
    strategy : str or strategy object
        A name of :data:`mjsat.search.strategies.STRATEGIES` or an instance.
    heuristic : str or heuristic object
        A name of :data:`mjsat.search.heuristics.HEURISTICS` or an instance (ignored when
        ``strategy`` is an instance).
    seed : int
        Seed of every random choice of the strategy and the heuristic.

    Notes
    -----
    Each :meth:`step` asks the strategy for one move through the view and plays it
    with the board's checked ``play``; an illegal move raises :class:`StrategyError`.
    The game ends when the board is clear or no free pair is left; a strategy that
    gives up while a free pair is left raises :class:`StrategyError` too.
    """

    def __init__(self, board: Board, strategy: Any = "random", heuristic: Any = "random", *, seed: int = 0) -> None:
        from mjsat.search.strategies import make_strategy

        self.view = PlayerView(board)
        self.strategy = make_strategy(strategy, heuristic) if isinstance(strategy, str) else strategy
        self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed)
        self.over = False

    def step(self) -> Move | None:
        """Play one move and return it; ``None`` when the game is over."""
        if self.over:
            return None
        view = self.view
        if view.is_cleared():
            self.over = True
            return None
        move = self.strategy.choose(view, self.rng)
        if move is None:
            if view.free_pairs():
                raise StrategyError(f"{self.strategy.name} gave up with free pairs left: {view.free_pairs()[:3]}")
            self.over = True
            return None
        try:
            return view._apply(move)
        except ValueError as exc:
            raise StrategyError(f"{self.strategy.name} played an illegal move: {exc}") from exc

    def run(self) -> GameRecord:
        """Play to the end and return the record."""
        while self.step() is not None:
            pass
        return self.record()

    def record(self) -> GameRecord:
        view = self.view
        return GameRecord(
            strategy=self.strategy.name,
            heuristic=self.strategy.heuristic.name,
            seed=self.seed,
            moves=list(view.moves),
            cleared=view.is_cleared(),
            tiles_left=view.remaining(),
        )


def play_game(board: Board, strategy: Any = "random", heuristic: Any = "random", *, seed: int = 0) -> GameRecord:
    """Play ``board`` with a strategy and a heuristic; the same seed gives the same game.

    Notes
    -----
    At most ``n/2`` moves; each costs what the strategy's choice costs (see
    :mod:`mjsat.search.strategies`) plus :math:`O(d)` for the view's update.
    """
    return Game(board, strategy, heuristic, seed=seed).run()


def play_seed(deal_seed: int) -> int:
    """The seed of the play on the deal made from ``deal_seed``."""
    return int(deal_seed) + PLAY_SEED_OFFSET


# --------------------------------------------------------------------------- batches


@dataclasses.dataclass(frozen=True)
class BoardSource:
    """Where the ``i``-th board of a batch comes from (picklable, for worker processes).

    Either ``board`` (every game on that board, play seeds ``seed + i``) or ``layout``
    (deal ``i`` made from seed ``seed + i``: solvable by construction when ``solvable``).
    """

    layout: Layout | None = None
    board: Board | None = None
    solvable: bool = True
    seed: int = 0

    def deal(self, i: int) -> tuple[Board, int]:
        """``(board, play seed)`` of index ``i``."""
        if self.board is not None:
            return self.board, self.seed + i
        from mjsat.deal import deal_random, deal_solvable

        assert self.layout is not None
        s = self.seed + i
        if self.solvable:
            board = deal_solvable(self.layout, seed=s)[0]
        else:
            board = deal_random(self.layout, seed=s)
        return board, play_seed(s)


def _play_index(args: tuple[BoardSource, int, tuple[tuple[str, str], ...], dict[str, Any] | None]) -> dict[str, Any]:
    source, i, configs, fatal = args
    board, seed = source.deal(i)
    games = []
    for strategy, heuristic in configs:
        start = time.perf_counter()
        rec = play_game(board, strategy, heuristic, seed=seed)
        row: dict[str, Any] = {"index": i, **rec.to_dict(), "seconds": round(time.perf_counter() - start, 5)}
        if fatal is not None and not rec.cleared:
            from mjsat.search.play_analysis import fatal_move

            row["fatal"] = fatal_move(board, rec.moves, start_solvable=source.board is None and source.solvable, **fatal).to_dict()
        games.append(row)
    return {"index": i, "deal_seed": source.seed + i if source.board is None else None, "games": games}


def play_batch(
    source: BoardSource,
    configs: Sequence[tuple[str, str]],
    indices: Iterable[int],
    *,
    workers: int = 1,
    fatal: dict[str, Any] | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
) -> Iterator[dict[str, Any]]:
    """Play every configuration on every board index; yield one result per index.

    Parameters
    ----------
    source : BoardSource
    configs : sequence of (strategy, heuristic)
    indices : iterable of int
    workers : int
        Processes (1 plays in this process). Results come in completion order.
    fatal : dict or None
        Options of :func:`mjsat.search.play_analysis.fatal_move` (``method``, ``time_limit``)
        to find the fatal move of every game not cleared; ``None`` skips the analysis.
    on_result : callable, optional
        Called with each result as it arrives (progress bars, resumable files).

    Notes
    -----
    Every configuration plays the same deal, with the same play seed, so configurations
    are compared on equal terms; results depend only on the seeds, not on ``workers``.
    """
    tasks = ((source, int(i), tuple(configs), fatal) for i in indices)
    if workers <= 1:
        results: Iterator[dict[str, Any]] = map(_play_index, tasks)
        for res in results:
            if on_result:
                on_result(res)
            yield res
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for res in pool.imap_unordered(_play_index, tasks, chunksize=4):
            if on_result:
                on_result(res)
            yield res


def wilson_interval(k: int, n: int, *, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k/n`` (95 % by default), in percent.

    >>> [round(x, 2) for x in wilson_interval(50, 100)]
    [40.38, 59.62]

    Notes
    -----
    :math:`O(1)`; well-behaved at ``k = 0`` and ``k = n``, unlike the normal interval.
    """
    if n <= 0:
        return (0.0, 100.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (100 * max(0.0, mid - half), 100 * min(1.0, mid + half))


def summarize(games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Table 1's figures for the games of one configuration.

    Returns a dict with ``boards``, ``cleared``, ``percent_cleared``, ``ci95`` (Wilson,
    percent), ``avg_tiles_left`` (over the games not cleared; ``None`` if all were) and
    ``fatal_histogram`` (move number -> count, with ``"unknown"``) when fatal moves were
    analysed.
    """
    n = len(games)
    cleared = sum(1 for g in games if g["cleared"])
    left = [g["tiles_left"] for g in games if not g["cleared"]]
    out: dict[str, Any] = {
        "boards": n,
        "cleared": cleared,
        "percent_cleared": round(100 * cleared / n, 4) if n else 0.0,
        "ci95": [round(x, 4) for x in wilson_interval(cleared, n)],
        "avg_tiles_left": round(sum(left) / len(left), 4) if left else None,
    }
    fatal = [g["fatal"] for g in games if "fatal" in g]
    if any("fatal" in g or not g["cleared"] for g in games) and fatal:
        from mjsat.search.play_analysis import FatalMove, fatal_histogram

        out["fatal_histogram"] = fatal_histogram([FatalMove(**f) for f in fatal])
    return out
