"""The reference solver against brute force, and deals solvable by construction."""

from __future__ import annotations

import numpy as np
import pytest
from naive import brute_force_solvable

from mjsat.board import Layout
from mjsat.deals import DealError, deal_random, deal_solvable, default_group_sizes
from mjsat.generate import random_grid_board, random_small_board
from mjsat.methods import solve
from mjsat.replay import replay


def _boards(seed: int, count: int, game: str):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        if game == "shisen-sho":
            yield random_grid_board(rng, max_width=4, max_height=4)
        else:
            yield random_small_board(rng, game=game, max_tiles=16, max_levels=3, group_sizes=(2, 4))


@pytest.mark.parametrize(
    "game,seed,count", [("mahjong", 11, 300), ("mahjong-transposed", 12, 60), ("shisen-sho", 1, 120)]
)
def test_ref_agrees_with_brute_force(game, seed, count):
    outcomes = set()
    for board in _boards(seed, count, game):
        expect, witness = brute_force_solvable(board)
        result = solve(board, "ref")
        assert result.status == ("solvable" if expect else "unsolvable"), board
        outcomes.add(result.status)
        if expect:
            assert result.verified
            replay(board, result.moves)
            replay(board, witness)  # the naive rules' solution is legal under the model too
    assert outcomes == {"solvable", "unsolvable"}  # both answers were checked


def test_ref_limits_answer_unknown():
    lay = Layout([(2 * (i // 10), 2 * (i % 10), 0) for i in range(40)])
    board = deal_random(lay, seed=4)
    result = solve(board, "ref", node_limit=5)
    assert result.status == "unknown" and result.reason == "node limit" and not result.moves


@pytest.mark.parametrize("game", ["mahjong", "mahjong-transposed", "shisen-sho"])
def test_solvable_deals_replay_their_construction(game):
    rng = np.random.default_rng(5)
    for seed in range(40):
        if game == "shisen-sho":
            layout = random_grid_board(rng, max_width=6, max_height=5).layout
        else:
            layout = random_small_board(rng, max_tiles=20).layout
        try:
            board, order = deal_solvable(layout, seed=seed, game=game, max_restarts=200)
        except DealError:
            continue  # some random layouts cannot be cleared at all
        assert replay(board, order).is_solved()
        sizes = sorted(board.group_sizes().values())
        assert sizes == sorted(default_group_sizes(len(layout)))


def test_deals_are_seeded():
    lay = Layout([(0, 2 * i, 0) for i in range(12)])
    assert deal_random(lay, seed=3).groups == deal_random(lay, seed=3).groups
    assert deal_random(lay, seed=3).groups != deal_random(lay, seed=4).groups
    a, oa = deal_solvable(lay, seed=9)
    b, ob = deal_solvable(lay, seed=9)
    assert a.groups == b.groups and oa == ob


def test_group_sizes():
    assert default_group_sizes(144) == [4] * 36
    assert default_group_sizes(10) == [4, 4, 2]
    sizes = default_group_sizes(228)
    assert sum(sizes) == 228 and set(sizes) <= {6, 8}
    with pytest.raises(DealError):
        deal_random(Layout([(0, 0, 0), (0, 2, 0)]), seed=1, group_sizes=[4])


def test_every_kmahjongg_layout_deals(layout_sources):
    from mjsat.layouts import read_layout

    seen: set[int] = set()
    files = sorted((layout_sources / "kmahjongg").glob("*.layout"))
    assert len(files) == 72
    for i, path in enumerate(files):
        layout = read_layout(path)
        board = deal_random(layout, seed=i)
        sizes = set(board.group_sizes().values())
        assert sizes <= {2, 4, 6, 8} and sum(board.group_sizes().values()) == len(layout)
        seen |= sizes
    assert seen == {2, 4, 6, 8}
