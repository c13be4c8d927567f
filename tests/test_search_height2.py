"""The height-two method (seed 001, Theorem 7) against the reference solver and Definition 6."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from mjsat.board import Layout, MahjongBoard, ShisenShoBoard, TransposedMahjongBoard
from mjsat.boardio import write_board
from mjsat.cli import cli
from mjsat.generate import height2_boards, planted_cycle_board, random_height2_board, stack_layout
from mjsat.methods import solve
from mjsat.ref import solve_ref
from mjsat.replay import replay
from mjsat.search.height2 import (
    BlockedCycleError,
    NotHeightTwoError,
    applies,
    blocked_cycle_graph,
    blocked_cycles,
    clearing_sequence,
    has_blocked_cycle,
    is_blocked_cycle,
    safe_matches,
    solve_height2,
)


def _canon(cycle):
    """A cycle up to rotation."""
    i = cycle.index(min(cycle))
    return tuple(cycle[i:] + cycle[:i])


def _brute_cycles(board):
    """Every blocked cycle by Definition 6, by trying all sequences of two-tile groups."""
    counts = {}
    for t in board.present_tiles():
        counts[board.groups[t]] = counts.get(board.groups[t], 0) + 1
    twos = sorted(g for g, k in counts.items() if k == 2)
    out = set()
    for k in range(1, min(len(twos), 5) + 1):
        for seq in itertools.permutations(twos, k):
            if seq[0] == min(seq) and is_blocked_cycle(board, list(seq)):
                out.add(_canon(list(seq)))
    return out


def test_agrees_with_reference_on_1200_random_boards():
    counts = {"solvable": 0, "unsolvable": 0}
    for board in height2_boards(7, 1200, max_tiles=16, planted_fraction=0.15):
        ours = solve(board, "height2")
        ref = solve(board, "ref")
        assert ours.status == ref.status, board
        counts[ours.status] += 1
        if ours.status == "solvable":
            assert ours.verified
            replay(board, ours.moves)
        else:
            cyc = board.meta.get("planted_cycle")
            if cyc is not None:
                assert has_blocked_cycle(board)
    assert min(counts.values()) > 200  # both answers well represented


def test_cycles_are_exactly_definition_6():
    for board in height2_boards(11, 300, max_tiles=14, planted_fraction=0.3):
        found = {_canon(c) for c in blocked_cycles(board)}
        if max((len(c) for c in found), default=0) <= 5:
            assert found == _brute_cycles(board), board
        for c in found:
            assert is_blocked_cycle(board, list(c))


def test_planted_cycle_is_found_and_named():
    rng = np.random.default_rng(5)
    for k in range(1, 7):
        board = planted_cycle_board(rng, n_tiles=40, cycle_length=k)
        planted = board.meta["planted_cycle"]
        assert is_blocked_cycle(board, planted)
        assert _canon(planted) in {_canon(c) for c in blocked_cycles(board)}
        res = solve_height2(board)
        assert res.status == "unsolvable" and "blocked cycle" in res.reason
        with pytest.raises(BlockedCycleError):
            clearing_sequence(board)


def test_degenerate_cycle_one_stack_of_two_equal_tiles():
    board = MahjongBoard(Layout([(0, 0, 0), (0, 0, 1), (0, 3, 0), (0, 3, 1)]), [0, 0, 1, 1])
    assert sorted(blocked_cycles(board)) == [[0], [1]]
    assert blocked_cycle_graph(board).has_edge(0, 0)
    assert solve_height2(board).status == solve_ref(board).status == "unsolvable"


def test_group_of_four_breaks_what_would_be_a_cycle():
    # 0 over 1, 1 over 0, plus two more tiles of group 0 on the ground: solvable
    lay = Layout([(0, 0, 0), (0, 0, 1), (0, 3, 0), (0, 3, 1), (0, 6, 0), (0, 9, 0)])
    board = MahjongBoard(lay, [1, 0, 0, 1, 0, 0])
    assert not has_blocked_cycle(board)
    res = solve(board, "height2")
    assert res.status == "solvable" and res.verified


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), prefix=st.integers(0, 8))
def test_mid_game_positions_and_theorem_7_second_claim(seed, prefix):
    """From positions reached by random play: the decision matches the reference solver,
    the sequence clears the position, and every group with a match has a safe match."""
    rng = np.random.default_rng(seed)
    board = random_height2_board(rng, max_tiles=14)
    for _ in range(prefix):
        moves = list(board.generate_legal_moves())
        if not moves:
            break
        board.push(moves[int(rng.integers(len(moves)))])
    ref = solve_ref(board.copy())
    ours = solve_height2(board.copy())
    assert ours.status == ref.status
    if ours.status == "solvable":
        probe = board.copy()
        for m in ours.moves:
            probe.play(m)
        assert probe.is_solved()
    safe = safe_matches(board)
    with_match = {board.groups[a] for a, _ in board.generate_legal_moves()}
    assert with_match == {board.groups[a] for a, _ in safe}


def test_refuses_other_boards_with_reasons():
    touching = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0)]), [0, 0])
    with pytest.raises(NotHeightTwoError, match="touches tile"):
        solve_height2(touching)
    tall = MahjongBoard(stack_layout([3, 1]), [0, 0, 1, 1])
    with pytest.raises(NotHeightTwoError, match="holds 3 tiles"):
        solve_height2(tall)
    six = MahjongBoard(stack_layout([2, 2, 1, 1]), [0] * 6)
    with pytest.raises(NotHeightTwoError, match="group 0 has 6"):
        solve_height2(six)
    half = MahjongBoard(Layout([(0, 0, 0), (0, 4, 0), (0, 2, 1), (0, 8, 0)]), [0, 1, 0, 1])
    with pytest.raises(NotHeightTwoError, match=r"does not lie exactly|half-overlaps"):
        solve_height2(half)
    shisen = ShisenShoBoard(Layout([(0, 0, 0), (0, 4, 0)]), [0, 0])
    with pytest.raises(NotHeightTwoError, match="shisen-sho"):
        solve_height2(shisen)
    assert not applies(tall) and not applies(shisen)
    assert applies(random_height2_board(np.random.default_rng(1)))


def test_transposed_game_is_the_same_on_isolated_stacks():
    rng = np.random.default_rng(3)
    for _ in range(50):
        b = random_height2_board(rng, max_tiles=12, game="mahjong-transposed")
        assert isinstance(b, TransposedMahjongBoard)
        assert solve(b, "height2").status == solve(b, "ref").status


def test_large_solvable_board_clears_and_replays():
    board = random_height2_board(np.random.default_rng(2), n_tiles=4000, solvable=True)
    res = solve(board, "height2")
    assert res.status == "solvable" and res.verified and len(res.moves) == 2000


def test_cli_solve_height2(tmp_path):
    runner = CliRunner()
    good = tmp_path / "good.json"
    write_board(random_height2_board(np.random.default_rng(4), n_tiles=12, solvable=True), good)
    r = runner.invoke(cli, ["solve", str(good), "--method", "height2", "--json"])
    assert r.exit_code == 0, r.output
    assert '"status": "solvable"' in r.output
    bad = tmp_path / "bad.json"
    write_board(MahjongBoard(Layout([(0, 0, 0), (0, 2, 0)]), [0, 0]), bad)
    r = runner.invoke(cli, ["solve", str(bad), "--method", "height2"])
    assert r.exit_code == 2
    assert "method 'height2' does not apply: it needs a layout of isolated stacks" in r.output


def test_agrees_with_the_exact_search_on_1000_boards():
    from mjsat.methods import METHODS

    if "search" not in METHODS:  # pragma: no cover - the search part registers it
        pytest.skip("the pairing search is not registered yet")
    for board in height2_boards(13, 1000, max_tiles=20, planted_fraction=0.2):
        ours = solve(board, "height2")
        theirs = solve(board, "search", time_limit=30)
        assert theirs.status != "unknown"
        assert ours.status == theirs.status, board


def test_three_tops_leave_the_one_that_closes_no_cycle():
    """Group 0 has three tops (tiles 5, 7, 9) and a covered tile (0) under group 1; leaving
    tile 5 (over group 2, which lies on group 1) would close 0 -> 2 -> 1 -> 0."""
    board = MahjongBoard(stack_layout([2, 2, 2, 2, 2, 1, 1]), [0, 1, 1, 2, 2, 0, 3, 0, 4, 0, 3, 4])
    assert not has_blocked_cycle(board)
    safe = safe_matches(board)
    assert (7, 9) not in safe and {(5, 7), (5, 9)} <= set(safe)
    board.push((7, 9))
    assert sorted(blocked_cycles(board)) != [] and solve_ref(board.copy()).status == "unsolvable"
    board.pop()
    stats = {}
    moves = clearing_sequence(board, stats=stats)
    assert moves[0] in ((5, 7), (5, 9)) and stats["guesses"] == 1 and stats["walk_steps"] >= 1
    replay(board, moves)


def test_a_board_height2_refuses_does_not_import_networkx():
    """``auto`` tries ``height2`` first on every Mahjong board; refusing one costs no import
    of networkx (a quarter of a second, inside the time limit of the first solve)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from mjsat.deals import deal_random\n"
        "from mjsat.layouts import load_layout\n"
        "from mjsat.methods import solve\n"
        "r = solve(deal_random(load_layout('turtle'), seed=1), 'auto')\n"
        "assert r.stats['steps'][0]['status'] == 'refused', r.stats['steps'][0]\n"
        "print('networkx' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
