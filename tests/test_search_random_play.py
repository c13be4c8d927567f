"""Compiled random playouts: move for move the pure-Python reference on the board's own
rules, the same clear rate as the game's Python playouts, early stops that settle."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from mjsat.deals import deal_random, deal_solvable
from mjsat.game.difficulty import playout_share
from mjsat.layouts import load_layout
from mjsat.result import MethodNotApplicableError
from mjsat.runs.stats import wilson_interval
from mjsat.search import random_play
from mjsat.search.random_play import random_playouts, random_playouts_reference

CASES = [
    ("tiny", "mahjong"),
    ("pyramid", "mahjong"),
    ("cross", "mahjong-transposed"),
    ("rect-4x4x2", "mahjong"),
    ("rect-4x3", "shisen-sho"),
    ("rect-6x4", "shisen-sho"),
    ("rect-8x6", "shisen-sho"),
]


def test_every_njit_reads_the_config_flags():
    lines = Path(random_play.__file__).read_text().splitlines()
    decorators = [line.strip() for line in lines if re.match(r"\s*@(numba\.)?(n)?jit\b", line)]
    assert len(decorators) == 4 and set(decorators) == {"@njit(**JIT_FLAGS)"}


@pytest.mark.parametrize("spec, game", CASES)
def test_the_kernel_plays_as_the_reference(spec, game):
    rng = np.random.default_rng(11)
    for _ in range(4):
        seed = int(rng.integers(1 << 30))
        board = (deal_random if rng.random() < 0.5 else lambda *a, **k: deal_solvable(*a, **k)[0])(
            load_layout(spec), seed=seed, game=game
        )
        for stops in ({}, {"stop_clears": 3}, {"stop_fails": 4}, {"stop_clears": 2, "stop_fails": 2}):
            got = random_playouts(board, playouts=30, seed=seed, **stops)
            assert got == random_playouts_reference(board, playouts=30, seed=seed, **stops), (spec, stops)
            cleared, played = got
            assert played <= 30 and cleared <= played
            if "stop_clears" in stops and cleared < stops["stop_clears"] and played < 30:
                assert played - cleared >= stops.get("stop_fails", 31)


@pytest.mark.parametrize("spec, game", [("cross", "mahjong-transposed"), ("rect-8x6", "shisen-sho")])
def test_the_clear_rate_is_that_of_the_python_playouts(spec, game):
    """Two generators, one rate (about 2/3 on these deals): the Wilson intervals of 800
    playouts each overlap."""
    board = deal_random(load_layout(spec), seed=4, game=game)
    a, n = random_playouts(board, playouts=500, seed=1)
    b, m = playout_share(board, playouts=500, seed=2)
    lo1, hi1 = wilson_interval(a, n)
    lo2, hi2 = wilson_interval(b, m)
    assert 0 < a < n and lo1 <= hi2 and lo2 <= hi1, (a, b)


def test_an_unsolvable_deal_is_never_cleared_and_an_easy_one_always():
    from mjsat.methods import solve

    tiny = deal_random(load_layout("tiny"), seed=0)
    for groups in ([0, 1, 0, 1, 2, 3, 2, 3], [0, 1, 2, 3, 3, 2, 1, 0]):
        stuck = tiny.with_groups(groups)
        assert solve(stuck, "exact", time_limit=30).status == "unsolvable"
        assert random_playouts(stuck, playouts=50, seed=0) == (0, 50)
    easy = tiny.with_groups([0, 0, 1, 1, 2, 2, 3, 3])  # every order of moves clears it
    assert random_playouts(easy, playouts=50, seed=0) == (50, 50)
    assert random_playouts(easy, playouts=50, seed=0, stop_clears=7) == (7, 7)
    assert random_playouts(tiny.with_groups([0, 1, 0, 1, 2, 3, 2, 3]), playouts=50, seed=0, stop_fails=3) == (0, 3)


def test_bad_calls_are_refused():
    board, _ = deal_solvable(load_layout("pyramid"), seed=1)
    for bad in (-1, 2.5, True):
        with pytest.raises(ValueError):
            random_playouts(board, playouts=bad, seed=0)
    with pytest.raises(ValueError):
        random_playouts(board, playouts=5, seed=0, stop_clears=0)
    board.push(next(iter(board.generate_legal_moves())))
    with pytest.raises(ValueError):
        random_playouts(board, playouts=5, seed=0)
    with pytest.raises(MethodNotApplicableError):
        random_playouts(deal_random(load_layout("pyramid"), seed=1, game="shisen-sho-3d"), playouts=5, seed=0)
