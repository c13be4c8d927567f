"""Every exact method against the reference solver on EVERY small board of every game.

The boards come from :func:`mjsat.generate.exhaustive_boards`: every placement of up to
six tiles (eight in the slow run) on small layouts (Shisen-Sho: every set of cells of the
grids of at most 9 cells; 12 in the slow run, so every grid up to 3 x 4) with every
grouping into groups of even size, up to the game's symmetries. The reference solver ``ref`` is itself checked against the naive brute force
of ``tests/naive.py`` (rules recomputed from raw positions). A method may not answer
``unknown`` here (no limits are set), and its ``unsolvable`` must be the reference's:
this is what makes every step bound, horizon and window of the encodings trustworthy.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import pytest
from naive import brute_force_solvable

from mjsat.board import Board
from mjsat.boardio import board_from_text, board_to_text
from mjsat.generate import exhaustive_boards
from mjsat.methods import solve
from mjsat.result import SOLVABLE, UNSOLVABLE, MethodNotApplicableError

SAT_ENCODINGS = ("layered", "parity", "order", "acyclic", "auto")
"""Every SAT encoding (``auto`` is the default plan)."""

EXACT_METHODS: dict[str, list[tuple[str, dict]]] = {
    "mahjong": [("sat", {"encoding": e}) for e in SAT_ENCODINGS]
    + [("cpsat", {}), ("search", {}), ("search", {"engine": "python"}), ("auto", {}), ("height2", {})],
    "mahjong-transposed": [("sat", {"encoding": e}) for e in SAT_ENCODINGS]
    + [("cpsat", {}), ("search", {}), ("search", {"engine": "python"}), ("auto", {})],
    "shisen-sho": [("sat", {"encoding": e}) for e in SAT_ENCODINGS]
    + [("cpsat", {}), ("search", {}), ("search", {"engine": "python"}), ("auto", {})],
    "shisen-sho-3d": [("sat", {"encoding": e}) for e in SAT_ENCODINGS]
    + [("cpsat", {}), ("search", {}), ("search", {"engine": "python"}), ("auto", {})],
}
"""The exact methods of each game, each compared with the reference."""

REGRESSION_2X3 = """\
2 0 0 1
0 4 0 1
2 4 0 2
2 2 0 0
0 2 0 0
0 0 0 2
"""
"""A 2x3 Shisen-Sho board that ``layered``, ``parity`` and ``cpsat`` once called
unsolvable (their step bound ignored the necessary predecessors); ``ref`` clears it in
three moves."""


def _disagreements(boards: Iterable[Board], game: str) -> tuple[int, list[str]]:
    """Run every exact method of ``game`` on ``boards``; return the count and the faults."""
    faults: list[str] = []
    count = 0
    for board in boards:
        count += 1
        ref = solve(board, "ref")
        if ref.status not in (SOLVABLE, UNSOLVABLE):
            faults.append(f"ref answered {ref.status} on\n{board_to_text(board)}")
            continue
        truth, _ = brute_force_solvable(board) if game != "shisen-sho-3d" else (ref.status == SOLVABLE, [])
        if (ref.status == SOLVABLE) != truth:
            faults.append(f"ref says {ref.status}, brute force {truth} on\n{board_to_text(board)}")
        for method, options in EXACT_METHODS[game]:
            try:
                got = solve(board, method, **options)
            except MethodNotApplicableError:
                continue  # height2 applies to isolated stacks of height <= 2 only
            if got.status != ref.status:
                faults.append(f"{method} {options} says {got.status}, ref {ref.status} on\n{board_to_text(board)}")
    return count, faults


@pytest.mark.parametrize("encoding", SAT_ENCODINGS)
def test_regression_2x3_shisen_sho_sat(encoding: str) -> None:
    board = board_from_text(REGRESSION_2X3, game="shisen-sho")
    got = solve(board, "sat", encoding=encoding)
    assert got.status == SOLVABLE and got.verified


def test_regression_2x3_shisen_sho_certify_and_cpsat() -> None:
    board = board_from_text(REGRESSION_2X3, game="shisen-sho")
    assert solve(board, "sat", encoding="layered", certify=True).status == SOLVABLE
    assert solve(board, "cpsat").status == SOLVABLE
    assert solve(board, "ref").status == SOLVABLE


@pytest.mark.parametrize(
    ("game", "area", "expected"),
    [
        ("shisen-sho", 9, 1772),
        ("mahjong", None, 1424),
        ("mahjong-transposed", None, 1424),
        ("shisen-sho-3d", None, 1424),
    ],
)
def test_every_board_up_to_six_tiles(game: str, area: int | None, expected: int) -> None:
    count, faults = _disagreements(exhaustive_boards(6, games=(game,), area=area), game)
    assert count == expected  # the enumeration itself did not shrink
    assert not faults, f"{len(faults)} disagreements; first:\n{faults[0]}"


SHISEN_12_SHARDS = 6
"""The 172,487 Shisen-Sho boards of the slow run are split into this many tests, so that
the workers of ``make test-slow`` share them."""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "area", "expected", "shard", "shards"),
    [("shisen-sho", 12, 172487, k, SHISEN_12_SHARDS) for k in range(SHISEN_12_SHARDS)]
    + [
        ("mahjong", None, 2424, 0, 1),
        ("mahjong-transposed", None, 2424, 0, 1),
        ("shisen-sho-3d", None, 2424, 0, 1),
    ],
)
def test_every_board_up_to_eight_tiles(game: str, area: int | None, expected: int, shard: int, shards: int) -> None:
    """Every board of the enumeration whose rank is ``shard`` modulo ``shards``."""
    boards = itertools.islice(exhaustive_boards(8, games=(game,), area=area), shard, None, shards)
    count, faults = _disagreements(boards, game)
    assert count == len(range(shard, expected, shards))  # the enumeration itself did not shrink
    assert not faults, f"{len(faults)} disagreements; first:\n{faults[0]}"
