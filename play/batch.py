"""Many games: the strategies played on a range of seeded deals, or many times on one board.

Every configuration (strategy, heuristic) plays the same deal with the same play seed,
so configurations are compared on equal terms; :func:`summarize` gives the figures of
Stam's Table 1 [St07]_ for one configuration.

>>> from mjsat.layouts import load_layout
>>> source = BoardSource(layout=load_layout("pyramid"), solvable=True, seed=0)
>>> [r["index"] for r in play_batch(source, [("greedy", "maxblock")], range(2))]
[0, 1]

References
----------
.. [St07] T. Stam, "Solving Mahjong Solitaire Positions", Leiden University, 2007.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from mjsat.board import Board, Layout
from mjsat.play.game import play_game, play_seed
from mjsat.runs.boards import SeedRange
from mjsat.runs.cluster import Runner
from mjsat.runs.stats import wilson_interval

__all__ = ["BoardSource", "play_batch", "summarize"]


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
        assert self.layout is not None
        s = self.seed + i
        return SeedRange(self.layout, solvable=self.solvable).board(s), play_seed(s)


def _play_index(
    shared: tuple[BoardSource, tuple[tuple[str, str], ...], dict[str, Any] | None], i: int
) -> dict[str, Any]:
    """Every configuration on board ``i`` (a task of :class:`~mjsat.runs.cluster.Runner`)."""
    source, configs, fatal = shared
    board, seed = source.deal(i)
    games = []
    for strategy, heuristic in configs:
        start = time.perf_counter()
        rec = play_game(board, strategy, heuristic, seed=seed)
        row: dict[str, Any] = {"index": i, **rec.to_dict(), "seconds": round(time.perf_counter() - start, 5)}
        if fatal is not None and not rec.cleared:
            from mjsat.play.fatal import fatal_move

            row["fatal"] = fatal_move(
                board, rec.moves, start_solvable=source.board is None and source.solvable, **fatal
            ).to_dict()
        games.append(row)
    return {"index": i, "deal_seed": source.seed + i if source.board is None else None, "games": games}


def play_batch(
    source: BoardSource,
    configs: Sequence[tuple[str, str]],
    indices: Iterable[int],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    runner: Runner | None = None,
    fatal: dict[str, Any] | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
) -> Iterator[dict[str, Any]]:
    """Play every configuration on every board index; yield one result per index.

    Parameters
    ----------
    source : BoardSource
    configs : sequence of (strategy, heuristic)
    indices : iterable of int
    workers, scheduler : int, str
        Where the games run (:class:`~mjsat.runs.cluster.Runner`): this process, a local
        Dask cluster of ``workers`` processes, or the cluster of a Dask scheduler.
        In-process results come in index order, on a cluster as its tasks end.
    runner : Runner, optional
        An entered runner to use instead of ``workers`` and ``scheduler``.
    fatal : dict or None
        Options of :func:`mjsat.play.fatal.fatal_move` (``method``, ``time_limit``)
        to find the fatal move of every game not cleared; ``None`` skips the analysis.
    on_result : callable, optional
        Called with each result as it arrives (progress bars, resumable files).

    Notes
    -----
    Every configuration plays the same deal, with the same play seed, so configurations
    are compared on equal terms; results depend only on the seeds, not on where they ran.
    """
    shared = (source, tuple(configs), fatal)
    if runner is None:
        with Runner(workers, scheduler, warm=fatal is not None) as own:
            yield from _stream(own, shared, indices, on_result)
        return
    yield from _stream(runner, shared, indices, on_result)


def _stream(
    runner: Runner, shared: Any, indices: Iterable[int], on_result: Callable[[dict[str, Any]], None] | None
) -> Iterator[dict[str, Any]]:
    for res in runner.run(_play_index, shared, [int(i) for i in indices]):
        if on_result:
            on_result(res)
        yield res


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
        "ci95": [round(100 * x, 4) for x in wilson_interval(cleared, n)],
        "avg_tiles_left": round(sum(left) / len(left), 4) if left else None,
    }
    fatal = [g["fatal"] for g in games if "fatal" in g]
    if any("fatal" in g or not g["cleared"] for g in games) and fatal:
        from mjsat.play.fatal import FatalMove, fatal_histogram

        out["fatal_histogram"] = fatal_histogram([FatalMove(**f) for f in fatal])
    return out
