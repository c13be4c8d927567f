"""The boards of a run: seeded deals of a layout, board files, the reductions' boards of CNF
files and of formula families, and the generated sets of :mod:`mjsat.generate`.

Every batch command takes its boards from here: ``mjsat sample`` and ``mjsat play`` the
deals of a seed range (or board files), ``mjsat crossval`` and ``mjsat compare`` any of the
sets as :class:`BoardCase` iterators (:func:`layout_cases`, :func:`folder_cases`,
:func:`cnf_cases`, :func:`family_cases`, :func:`random_small_cases`,
:func:`exhaustive_cases`, :func:`height2_cases`). Deal ``s`` of a range is
``mjsat deal --layout NAME --seed s`` (:func:`mjsat.deals.deal_random`), or the deal solvable
by construction of that seed (:func:`mjsat.deals.deal_solvable`), so the same seed gives the
same board in every command.

>>> from mjsat.board import Layout
>>> deals = SeedRange(Layout([(0, 2 * i, 0) for i in range(4)], name="row-4"), start=5, count=2)
>>> [(seed, len(board)) for seed, board in deals]
[(5, 4), (6, 4)]
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from mjsat.board import GAMES, Board, Layout
from mjsat.fileio import InputFileError, read_bytes
from mjsat.result import SOLVABLE, UNSOLVABLE

__all__ = [
    "SeedRange",
    "BoardFile",
    "board_files",
    "BoardCase",
    "layout_cases",
    "folder_cases",
    "file_cases",
    "cnf_cases",
    "FAMILIES",
    "family_cases",
    "random_small_cases",
    "exhaustive_cases",
    "height2_cases",
]


@dataclasses.dataclass(frozen=True)
class SeedRange:
    """The deals of ``layout`` of seeds ``start .. start + count - 1``.

    ``solvable`` makes every deal solvable by construction; ``solvable_every = k > 0``
    only every ``k``-th (the deals ``start + k - 1``, ``start + 2k - 1``, ...).
    """

    layout: Layout
    start: int = 0
    count: int = 0
    game: str = "mahjong"
    solvable: bool = False
    solvable_every: int = 0

    @property
    def seeds(self) -> range:
        return range(self.start, self.start + self.count)

    def is_solvable_deal(self, seed: int) -> bool:
        """Whether deal ``seed`` is made solvable by construction."""
        k = self.solvable_every
        return self.solvable or (k > 0 and (seed - self.start) % k == k - 1)

    def board(self, seed: int) -> Board:
        """Deal ``seed``.

        Notes
        -----
        :math:`O(n)` for a random deal; a solvable one costs Stam's restarts.
        """
        from mjsat.deals import deal_random, deal_solvable

        if self.is_solvable_deal(seed):
            return deal_solvable(self.layout, seed=int(seed), game=self.game)[0]
        return deal_random(self.layout, seed=int(seed), game=self.game)

    def __iter__(self) -> Iterator[tuple[int, Board]]:
        for s in self.seeds:
            yield s, self.board(s)

    def __len__(self) -> int:
        return self.count


@dataclasses.dataclass(frozen=True)
class BoardFile:
    """A board read from a file, and what it is known to be (``None`` when unknown)."""

    path: str
    board: Board
    expected: str | None = None


def _manifest(folder: Path) -> dict[str, str]:
    """``{file name: expected status}`` from a ``manifest.json`` in ``folder`` (best effort)."""
    path = folder / "manifest.json"
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {}
    entries = data.get("boards", data.get("instances", data)) if isinstance(data, dict) else data
    out: dict[str, str] = {}
    items = entries.items() if isinstance(entries, dict) else enumerate(entries if isinstance(entries, list) else [])
    for key, entry in items:
        if isinstance(entry, dict):
            name = (
                entry.get("board") or entry.get("file") or entry.get("path") or (key if isinstance(key, str) else None)
            )
            status = entry.get("expected") or entry.get("status") or entry.get("answer")
        else:
            name, status = key, entry
        if isinstance(name, str) and status in (SOLVABLE, UNSOLVABLE):
            out[Path(name).name] = status
    return out


def board_files(folder: str | Path) -> Iterator[BoardFile]:
    """Every board file (``.json`` boards, ``.txt`` boards) under ``folder``, sorted.

    JSON files that are not boards (a manifest, a layout) are skipped; a malformed board
    file, one that cannot be read (not a regular file: a FIFO, a broken link), and a folder
    without any board raise :class:`~mjsat.fileio.InputFileError`. Expected answers come from a
    ``manifest.json`` beside the boards when it names them, else from the board's
    ``meta["expected"]``.

    Notes
    -----
    :math:`O(F)` file reads for ``F`` files, each parsed in :math:`O(n)`.
    """
    from mjsat.boardio import load_board

    root = Path(folder)
    if not root.is_dir():
        raise InputFileError(folder, None, "not a folder")
    found = 0
    for path in sorted(p for p in root.rglob("*") if p.suffix.lower() in (".json", ".txt") and not p.is_dir()):
        text = read_bytes(path).decode("utf-8", "replace")  # only sniffed; load_board reads strictly
        if path.suffix.lower() == ".json" and '"mjsat-board"' not in text:
            continue
        if path.suffix.lower() == ".txt" and not text.strip():
            continue
        board = load_board(path)
        expected = _manifest(path.parent).get(path.name) or board.meta.get("expected")
        found += 1
        yield BoardFile(str(path), board, expected if expected in (SOLVABLE, UNSOLVABLE) else None)
    if not found:
        raise InputFileError(folder, None, "no board file (.json or .txt) in this folder")


# --------------------------------------------------------------------------- board cases


@dataclasses.dataclass
class BoardCase:
    """A board of a run, where it came from, and what it is known to be.

    ``expected`` is ``solvable``/``unsolvable`` when known independently of every method
    (solvable by construction, a planted blocked cycle, the formula's satisfiability, a
    manifest), else ``None``.
    """

    name: str
    board: Board
    source: str
    expected: str | None = None
    deal: tuple[SeedRange, int] | None = None
    """``(deals, seed)`` when the board is deal ``seed`` of a seed range (a cluster then
    sends the seed, and the range once, instead of the board)."""
    provenance: dict[str, Any] = dataclasses.field(default_factory=dict)
    """What makes the board again (layout and seed, file, formula and target, generator
    and index): JSON values only."""
    formula: tuple[tuple[tuple[int, ...], ...], int] | None = None
    """``(clauses, variables)`` of the formula a reduction's board comes from."""


def layout_cases(
    spec: str,
    count: int,
    *,
    seed_start: int = 0,
    solvable_every: int = 0,
    game: str = "mahjong",
    map_name: str | None = None,
) -> Iterator[BoardCase]:
    """Seeded random deals of a named layout (a :class:`~mjsat.runs.boards.SeedRange`).

    With ``solvable_every = k > 0`` every ``k``-th deal is solvable by construction instead
    (its ``expected`` is then ``solvable``).

    Notes
    -----
    ``O(count)`` deals, each :math:`O(n)` (solvable ones: Stam's restarts).
    """
    from mjsat.layouts import load_layout

    deals = SeedRange(load_layout(spec, map_name=map_name), seed_start, count, game=game, solvable_every=solvable_every)
    name = spec if game == "mahjong" else f"{spec}:{game}"
    for seed, board in deals:
        prov = {"layout": spec, "game": game, "seed": seed}
        if deals.is_solvable_deal(seed):
            prov["solvable"] = True
            yield BoardCase(f"{name}:solvable:{seed}", board, f"layout {spec}", SOLVABLE, (deals, seed), prov)
        else:
            yield BoardCase(f"{name}:{seed}", board, f"layout {spec}", deal=(deals, seed), provenance=prov)


def folder_cases(folder: str | Path) -> Iterator[BoardCase]:
    """Every board file under ``folder`` (:func:`mjsat.runs.boards.board_files`), sorted,
    with the expected answers a manifest or the board states.

    Notes
    -----
    :math:`O(F)` file reads for ``F`` files, each parsed in :math:`O(n)`.
    """
    for f in board_files(folder):
        yield BoardCase(f.path, f.board, f"folder {folder}", f.expected, provenance={"file": f.path})


def file_cases(paths: Iterable[str | Path]) -> Iterator[BoardCase]:
    """The boards of board files and of folders of them (:func:`folder_cases`), in order.

    Raises
    ------
    InputFileError
        A file that is not a board (or a folder that does not exist).

    Notes
    -----
    :math:`O(F)` file reads.
    """
    from mjsat.boardio import load_board

    for p in map(Path, paths):
        if p.is_dir():
            yield from folder_cases(p)
            continue
        board = load_board(p)
        expected = board.meta.get("expected")
        yield BoardCase(
            str(p), board, "file", expected if expected in (SOLVABLE, UNSOLVABLE) else None, provenance={"file": str(p)}
        )


def cnf_cases(paths: Iterable[str | Path], *, targets: Sequence[str] | None = None) -> Iterator[BoardCase]:
    """The reductions' boards of CNF files (``.cnf`` files of folders too;
    :func:`mjsat.generate.boards_from_cnf`), one per target (default: ``stacks`` and
    ``rows``); ``expected`` is the formula's satisfiability.

    Notes
    -----
    One reduction per file and target, and one SAT call per file.
    """
    from mjsat.encoders.dimacs import read_dimacs
    from mjsat.generate import boards_from_cnf

    files: list[Path] = []
    for p in map(Path, paths):
        found = sorted(q for q in p.rglob("*.cnf") if not q.is_dir()) if p.is_dir() else [p]
        if not found:
            raise InputFileError(p, None, "no .cnf file in this folder")
        files.extend(found)
    for f in files:
        cnf = read_dimacs(f)
        formula = (tuple(tuple(c) for c in cnf.clauses), int(cnf.nv))
        for target, board, sat in boards_from_cnf(f, targets=targets):
            prov = {"cnf": str(f), "target": target, "n": formula[1], "m": len(formula[0])}
            yield BoardCase(
                f"{f}:{target}", board, "cnf", SOLVABLE if sat else UNSOLVABLE, provenance=prov, formula=formula
            )


FAMILIES: tuple[str, ...] = ("random", "planted", "complete", "pigeonhole")
"""The formula families of :func:`family_cases` (``mjsat reduce family``)."""


def family_cases(
    kind: str,
    sizes: Sequence[int],
    *,
    count: int = 1,
    seed: int = 0,
    ratio: float = 4.26,
    targets: Sequence[str] = ("stacks",),
) -> Iterator[BoardCase]:
    """The reductions' boards of formulas of a family (:mod:`mjsat.reductions.families`, as
    ``mjsat reduce family`` writes them), ``count`` formulas per size, one board per target.

    ``sizes`` are the variables of ``random`` and ``planted`` 3-CNF (``ratio`` clauses per
    variable; formula ``j`` of size ``n`` has seed ``seed + j``), the ``k`` of ``complete``
    (all :math:`2^k` clauses), the holes of ``pigeonhole``; the last two have one formula
    per size. ``expected`` is the formula's satisfiability (one SAT call).

    Raises
    ------
    ValueError
        An unknown family or target, or a size the family refuses.

    Notes
    -----
    One reduction per formula and target, and one SAT call per formula.
    """
    from mjsat.encoders.solvers import is_satisfiable
    from mjsat.reductions import families as F
    from mjsat.reductions.cnf import normalize_3cnf
    from mjsat.reductions.targets import reduce_formula

    if kind not in FAMILIES:
        raise ValueError(f"unknown formula family {kind!r} (known: {', '.join(FAMILIES)})")
    for n in sizes:
        for j in range(count if kind in ("random", "planted") else 1):
            prov: dict[str, Any] = {"family": kind}
            if kind == "random":
                clauses, nv = F.random_3cnf(n, ratio=ratio, rng=seed + j), n
                prov.update(n=n, ratio=ratio, seed=seed + j)
            elif kind == "planted":
                clauses, nv = F.planted_3cnf(n, ratio=ratio, rng=seed + j)[0], n
                prov.update(n=n, ratio=ratio, seed=seed + j)
            elif kind == "complete":
                clauses, nv = F.complete_cnf(n), n
                prov.update(n=n)
            else:
                clauses, nv = F.pigeonhole_cnf(n)
                prov.update(holes=n, n=nv)
            prov["m"] = len(clauses)
            sat, _ = is_satisfiable(clauses)
            formula = normalize_3cnf(clauses, n_vars=nv)
            label = ":".join(f"{k}={v}" for k, v in prov.items() if k in ("n", "seed", "holes"))
            for target in targets:
                board = reduce_formula(formula, target).board
                yield BoardCase(
                    f"{kind}:{label}:{target}",
                    board,
                    f"family {kind}",
                    SOLVABLE if sat else UNSOLVABLE,
                    provenance={**prov, "target": target},
                    formula=(tuple(tuple(c) for c in clauses), int(nv)),
                )


def random_small_cases(
    *,
    seed: int,
    count: int,
    max_tiles: int = 12,
    max_levels: int = 3,
    games: Sequence[str] = GAMES,
) -> Iterator[BoardCase]:
    """The random small boards of :func:`mjsat.generate.random_small_boards` (seeded), of
    every game in turn.

    Notes
    -----
    ``O(count * max_tiles)``.
    """
    from mjsat.generate import random_small_boards

    boards = random_small_boards(seed, count, max_tiles=max_tiles, max_levels=max_levels, games=games)
    for i, (label, board) in enumerate(boards):
        prov = {"generator": "random-small", "seed": seed, "index": i, "max_tiles": max_tiles, "game": board.game}
        yield BoardCase(f"random-small:{seed}:{i}:{label}", board, f"random-small {board.game}", provenance=prov)


def exhaustive_cases(max_tiles: int, *, games: Sequence[str] = GAMES) -> Iterator[BoardCase]:
    """Every board of at most ``max_tiles`` tiles of :func:`mjsat.generate.exhaustive_boards`
    (up to the games' symmetries), game by game.

    Notes
    -----
    As :func:`mjsat.generate.exhaustive_boards`; for ``max_tiles = 8`` that is 3,963
    Shisen-Sho boards and 2,424 boards of each game on the Mahjong grid.
    """
    from mjsat.generate import exhaustive_boards

    for board in exhaustive_boards(max_tiles, games=games):
        prov = {"generator": "exhaustive", "max_tiles": max_tiles, "game": board.game, "index": board.meta["index"]}
        yield BoardCase(
            f"exhaustive:{board.game}:{board.meta['index']}", board, f"exhaustive {board.game}", provenance=prov
        )


def height2_cases(*, seed: int, count: int, max_tiles: int = 16) -> Iterator[BoardCase]:
    """Height-two boards (:func:`mjsat.generate.height2_boards`); a planted cycle is expected
    ``unsolvable``.

    Notes
    -----
    ``O(count * max_tiles)``.
    """
    from mjsat.generate import height2_boards

    for i, board in enumerate(height2_boards(seed, count, max_tiles=max_tiles)):
        expected = UNSOLVABLE if "planted_cycle" in board.meta else None
        prov = {"generator": "height2", "seed": seed, "index": i, "max_tiles": max_tiles}
        yield BoardCase(f"height2:{seed}:{i}", board, "height2", expected, provenance=prov)
