"""Shisen-Sho on the Mahjong grid (seed 002, 4.1): the path test against breadth-first
search over half-tile cells, the reduction to rectangular Shisen-Sho, and the board."""

from __future__ import annotations

import itertools
import json
from collections import deque

import numpy as np
import pytest
from click.testing import CliRunner

from mjsat.board import Layout, ShisenShoBoard, ShisenShoMahjongBoard, find_variant
from mjsat.boardio import board_from_json_text, board_to_json
from mjsat.cli import cli
from mjsat.deals import deal_random, deal_solvable
from mjsat.generate import random_grid_board, random_small_board, random_small_layout
from mjsat.ref import solve_ref
from mjsat.render import ascii_board
from mjsat.replay import InvalidSolutionError, replay
from mjsat.shisen import connectable3d

_DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def bfs_connectable3d(positions, present, a, b) -> bool:
    """The rule of seed 002, 4.1 read literally, by breadth-first search over half-cells.

    ``positions`` are layout ``(row, col, lev)``; ``present`` a bool per tile. A chain of
    edge-adjacent cells of the higher tile's level, in the layout's bounding box plus one
    cell, from a cell of ``a`` (or above ``a``) to a cell of ``b``, every cell in between
    covered by no present tile and not a cell of ``a`` or ``b``; at most two turns on one
    level, one turn across levels. Both tiles need nothing above them.
    """
    rows = [p[0] for p in positions]
    cols = [p[1] for p in positions]
    r0, c0, r1, c1 = min(rows) - 1, min(cols) - 1, max(rows) + 2, max(cols) + 2
    if positions[a][2] > positions[b][2]:
        a, b = b, a
    (ra, ca, la), (rb, cb, lb) = positions[a], positions[b]

    def cells(r, c):
        return {(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)}

    for t in (a, b):
        r, c, l = positions[t]
        for u, (ru, cu, lu) in enumerate(positions):
            if (present[u] or u in (a, b)) and u != t and lu > l and cells(r, c) & cells(ru, cu):
                return False
    occupied = set()
    for u, (ru, cu, lu) in enumerate(positions):
        if present[u] and lu == lb:
            occupied |= cells(ru, cu)
    start, goal = cells(ra, ca), cells(rb, cb)
    blocked = occupied | start if la == lb else occupied
    turns_left = 2 if la == lb else 1
    seen = set()
    queue = deque()
    for cell in start:
        for d in range(4):
            queue.append((cell, d, 0))
    while queue:
        (y, x), d, turns = queue.popleft()
        for nd, (dy, dx) in enumerate(_DIRS):
            nt = turns + (nd != d)
            if nt > turns_left:
                continue
            ny, nx = y + dy, x + dx
            if not (r0 <= ny <= r1 and c0 <= nx <= c1):
                continue
            if (ny, nx) in goal:
                return True
            if (ny, nx) in blocked or ((ny, nx), nd, nt) in seen:
                continue
            seen.add(((ny, nx), nd, nt))
            queue.append(((ny, nx), nd, nt))
    return False


def _occ(board, present):
    occ = np.zeros(board.grid_shape, dtype=bool)
    for t, (r, c, l) in enumerate(board.cells):
        if present[t]:
            occ[l, r : r + 2, c : c + 2] = True
    return occ


def test_connectable3d_agrees_with_bfs_on_random_layouts():
    rng = np.random.default_rng(4)
    checked = 0
    for _ in range(300):
        lay = random_small_layout(rng, max_tiles=16, max_levels=3, rows=5, cols=8)
        board = ShisenShoMahjongBoard(lay, [0] * len(lay))
        n = len(lay)
        present = rng.random(n) < rng.uniform(0.4, 1.0)
        occ = _occ(board, present)
        pairs = list(itertools.combinations(range(n), 2))
        for i in rng.permutation(len(pairs))[:12]:
            a, b = pairs[i]
            pres = present.copy()
            pres[[a, b]] = True  # the test must not depend on the two tiles being present
            got = connectable3d(_occ(board, pres), board.cells[a], board.cells[b])
            assert got == connectable3d(occ, board.cells[a], board.cells[b])
            assert got == bfs_connectable3d(lay.positions, pres, a, b), (lay.positions, pres.tolist(), a, b)
            checked += got
    assert checked > 200  # the random boards give both answers often


def test_connectable3d_is_monotone_under_removal():
    rng = np.random.default_rng(5)
    for _ in range(100):
        lay = random_small_layout(rng, max_tiles=14, max_levels=3, rows=4, cols=8)
        board = ShisenShoMahjongBoard(lay, [0] * len(lay))
        present = np.ones(len(lay), dtype=bool)
        occ = _occ(board, present)
        pairs = itertools.combinations(range(len(lay)), 2)
        before = {(a, b) for a, b in pairs if connectable3d(occ, board.cells[a], board.cells[b])}
        present[rng.choice(len(lay), size=len(lay) // 3, replace=False)] = False
        occ = _occ(board, present)
        for a, b in before:
            assert connectable3d(occ, board.cells[a], board.cells[b])


def test_rules_by_hand():
    # A on level 0; B on its support S; X1 and X2 on level 1 block every one-turn path
    lay = Layout([(0, 0, 0), (4, 4, 0), (4, 4, 1), (0, 3, 1), (3, 0, 1), (8, 8, 0)])
    board = ShisenShoMahjongBoard(lay, [0, 1, 0, 2, 2, 1])
    assert board.free_tiles() == [0, 2, 3, 4, 5]
    assert "no pillar line and at most two lines on level 1" in board.illegal_reason((0, 2))
    flat_layout = Layout([(0, 0, 1), (0, 3, 1), (3, 0, 1), (4, 4, 1), (10, 10, 0), (10, 12, 0)])
    flat = ShisenShoMahjongBoard(flat_layout, [0, 1, 1, 0, 2, 2])
    assert flat.is_legal((0, 3))  # the same cells on one level: two turns allowed
    assert "covered by tile 2" in board.illegal_reason((1, 5))
    board.play((3, 4))
    assert board.is_legal((0, 2))  # now one turn suffices
    with pytest.raises(InvalidSolutionError, match="covered by tile 2"):
        replay(board, [(1, 5)])
    assert replay(board, [(3, 4), (0, 2), (1, 5)]).is_solved()


def test_pillar_line_only_from_the_lower_tile():
    # B on level 1 over empty space; A on level 0 surrounded on level 0 but free above
    lay = Layout([(2, 2, 0), (0, 2, 0), (4, 2, 0), (2, 0, 0), (2, 4, 0), (2, 8, 1)])
    board = ShisenShoMahjongBoard(lay, [0, 1, 1, 2, 2, 0])
    assert board.is_legal((0, 5))  # up A's pillar, straight along level 1
    assert sorted(board.legal_moves) == [(0, 5), (1, 2), (3, 4)]  # the last two via the margin
    assert ShisenShoMahjongBoard(lay, [0, 1, 1, 2, 2, 0]).copy().is_legal((0, 5))


def _embedded(board2d: ShisenShoBoard, rng) -> ShisenShoMahjongBoard:
    dr, dc, lev = (int(v) for v in rng.integers(0, 3, size=3))
    lay = Layout([(r + dr, c + dc, lev) for r, c, _ in board2d.layout.positions])
    return ShisenShoMahjongBoard(lay, board2d.groups)


def test_reduces_to_rectangular_shisen_sho_in_every_position_of_random_play():
    rng = np.random.default_rng(6)
    positions = 0
    for _ in range(250):
        flat = random_grid_board(rng, max_width=7, max_height=6, group_sizes=(2, 4, 6))
        deep = _embedded(flat, rng)
        while True:
            moves = sorted(flat.generate_legal_moves())
            assert moves == sorted(deep.generate_legal_moves())
            positions += 1
            if not moves:
                break
            m = moves[int(rng.integers(len(moves)))]
            flat.push(m)
            deep.push(m)
        assert flat.remaining() == deep.remaining()
    assert positions > 1000


def test_ref_solutions_replay_and_agree_with_brute_force():
    rng = np.random.default_rng(7)
    seen = set()
    for _ in range(120):
        board = random_small_board(rng, game="shisen-sho-3d", max_tiles=12, group_sizes=(2, 4))
        res = solve_ref(board)
        seen.add(res.status)
        # brute force over move orders with the literal rule
        pos = board.layout.positions

        def solvable(present):
            if not any(present):
                return True
            for a, b in itertools.combinations(range(len(pos)), 2):
                if not (present[a] and present[b]) or board.groups[a] != board.groups[b]:
                    continue
                if bfs_connectable3d(pos, present, a, b):
                    present[a] = present[b] = False
                    ok = solvable(present)
                    present[a] = present[b] = True
                    if ok:
                        return True
            return False

        assert (res.status == "solvable") == solvable([True] * len(pos))
        if res.status == "solvable":
            assert replay(board, res.moves).is_solved()
    assert seen == {"solvable", "unsolvable"}


def test_variant_registered_and_files_round_trip():
    assert find_variant("shisen3d") is ShisenShoMahjongBoard
    lay = Layout([(0, 0, 0), (0, 2, 0), (0, 1, 1), (2, 0, 0)])
    board = deal_random(lay, seed=3, game="shisen-sho-3d", group_sizes=[2, 2])
    again = board_from_json_text(board_to_json(board))
    assert isinstance(again, ShisenShoMahjongBoard) and again.groups == board.groups
    assert ascii_board(board).startswith("shisen-sho-3d board, 4 of 4 tiles")


def test_deal_solvable_clears_with_its_order():
    lay = random_small_layout(np.random.default_rng(8), max_tiles=16, min_tiles=16)
    sizes = [4] * (len(lay) // 4) + [2] * (len(lay) % 4 // 2)
    board, order = deal_solvable(lay, seed=2, game="shisen-sho-3d", group_sizes=sizes)
    assert replay(board, order).is_solved()


def test_cli_deal_and_solve(tmp_path):
    runner = CliRunner()
    out = tmp_path / "b.json"
    r = runner.invoke(cli, ["deal", "--layout", "turtle", "--seed", "1", "--game", "shisen-sho-3d", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert json.loads(out.read_text())["game"] == "shisen-sho-3d"
    small = tmp_path / "s.json"
    board = random_small_board(np.random.default_rng(9), game="shisen-sho-3d", max_tiles=10)
    small.write_text(board_to_json(board))
    r = runner.invoke(cli, ["solve", str(small), "--method", "ref", "--json"])
    assert r.exit_code in (0, 1), r.output
    assert json.loads(r.output)["status"] == solve_ref(board).status
    r = runner.invoke(cli, ["render", str(small)])
    assert r.exit_code == 0 and r.output.startswith("shisen-sho-3d board"), r.output
    args = ["solve", "--layout", "turtle", "--seed", "1", "--game", "shisen-sho-3d", "--method", "search", "--json"]
    r = runner.invoke(cli, args)
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    from mjsat.deals import deal_random
    from mjsat.layouts import load_layout
    from mjsat.methods import solve as solve_board

    expected = solve_board(deal_random(load_layout("turtle"), seed=1, game="shisen-sho-3d"), "search").status
    assert data["game"] == "shisen-sho-3d" and data["status"] == expected != "unknown"
