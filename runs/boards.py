"""The boards of a run: a range of seeded deals of one layout, or the board files of a folder.

Every batch command takes its boards from here: ``mjsat sample`` the random deals of a
seed range, ``mjsat play`` the random or solvable deals of a seed range (or one board
file), ``mjsat crossval`` seed ranges and folders. Deal ``s`` of a range is
``mjsat deal --layout NAME --seed s`` (:func:`mjsat.deal.deal_random`), or the deal solvable
by construction of that seed (:func:`mjsat.deal.deal_solvable`), so the same seed gives the
same board in every command.

>>> from mjsat.board import Layout
>>> deals = SeedRange(Layout([(0, 2 * i, 0) for i in range(4)], name="row-4"), start=5, count=2)
>>> [(seed, len(board)) for seed, board in deals]
[(5, 4), (6, 4)]
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

from mjsat.board import Board, Layout
from mjsat.fileio import InputFileError, read_bytes
from mjsat.result import SOLVABLE, UNSOLVABLE

__all__ = ["SeedRange", "BoardFile", "board_files"]


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
        from mjsat.deal import deal_random, deal_solvable

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
