"""Replay rejects each kind of illegal move and names it."""

from __future__ import annotations

import pytest

from mjsat.board import KINDS, Layout, MahjongBoard, ShisenShoBoard
from mjsat.methods import METHODS, MethodInfo, solve
from mjsat.replay import InvalidSolutionError, check_solution, first_illegal, replay
from mjsat.result import SOLVABLE, SolverError, SolveResult

# tiles 0..3 in a row, tile 4 on top of tile 1, tile 5 alone; solution (0,3) (2,4) (1,5)
BOARD = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0), (0, 2, 1), (4, 0, 0)]), [0, 1, 2, 0, 2, 1])


@pytest.mark.parametrize(
    "moves,index,words",
    [
        ([(1, 5)], 0, "covered by tile 4"),
        ([(0, 3), (2, 4), (0, 1)], 2, "already gone"),
        ([(0, 4)], 0, "groups differ"),
        ([(0, 3), (0, 3)], 1, "already gone"),
        ([(0, 7)], 0, "does not exist"),
        ([(2, 2)], 0, "named twice"),
        ([(0, 3), (2, 4), (1, 5), (1, 5)], 3, "already gone"),
    ],
)
def test_replay_names_first_illegal_move(moves, index, words):
    with pytest.raises(InvalidSolutionError) as exc:
        replay(BOARD, moves)
    assert exc.value.index == index and words in str(exc.value)
    assert first_illegal(BOARD, moves)[0] == index


def test_blocked_on_both_sides():
    b = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 1, 0, 1])
    with pytest.raises(InvalidSolutionError, match="on its left, tile 2 on its right"):
        replay(b, [(1, 3)])


def test_replay_requires_a_clear_board():
    with pytest.raises(InvalidSolutionError, match="not cleared: 2 tiles left") as exc:
        replay(BOARD, [(0, 3), (4, 2)])
    assert exc.value.index is None
    assert replay(BOARD, [(0, 3), (4, 2)], require_clear=False).remaining() == 2
    assert replay(BOARD, [(0, 3), (2, 4), (1, 5)]).is_solved()


def test_replay_starts_from_the_deal_and_leaves_the_board_alone():
    b = BOARD.copy()
    b.push((0, 3))
    assert replay(b, [(0, 3), (2, 4), (1, 5)]).is_solved()
    assert b.move_stack == [(0, 3)]


def test_shisen_replay_checks_paths():
    lay = Layout([(0, 2 * x, 0) for x in range(4)] + [(2, 2 * x, 0) for x in range(4)])
    good = ShisenShoBoard(lay, [0, 1, 1, 0, 2, 3, 3, 2])
    replay(good, [(1, 2), (0, 3), (5, 6), (4, 7)])
    replay(good, [(0, 3), (1, 2), (4, 7), (5, 6)])  # the ends first, round the margin
    stuck = ShisenShoBoard(lay, [0, 1, 2, 3, 3, 2, 1, 0])
    assert not stuck.legal_moves
    with pytest.raises(InvalidSolutionError, match="no path"):
        replay(stuck, [(0, 7)])


def test_solve_rejects_a_wrong_solver_answer(monkeypatch):
    import sys
    import types

    mod = types.ModuleType("fake_method")

    def liar(board, *, time_limit=None, seed=0):
        return SolveResult(SOLVABLE, "liar", moves=[(1, 5)])

    mod.liar = liar
    monkeypatch.setitem(sys.modules, "fake_method", mod)
    monkeypatch.setitem(METHODS, "liar", MethodInfo("liar", "fake_method:liar", KINDS, True, ""))
    with pytest.raises(SolverError, match="covered by tile 4"):
        solve(BOARD, "liar")
    with pytest.raises(ValueError, match="takes no option 'encoding'"):
        solve(BOARD, "liar", encoding="x")
    with pytest.raises(ValueError, match="unknown method"):
        solve(BOARD, "nope")


def _moves_to_try(board, rng):
    """A legal playout of ``board`` (to the end or a dead end), then variants of it: cut
    short, two moves swapped, a move repeated, one tile changed, the tiles of a move reversed."""
    b = board.copy(stack=False)
    moves = []
    while True:
        legal = sorted(b.legal_moves)
        if not legal:
            break
        m = legal[int(rng.integers(len(legal)))]
        b.push(m)
        moves.append(m)
    out = [moves, moves[:-1], [(b_, a_) for a_, b_ in moves]]
    if len(moves) >= 2:
        i, j = sorted(rng.choice(len(moves), 2, replace=False).tolist())
        swapped = list(moves)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        out += [swapped, moves + [moves[0]], moves[:1] + moves]
    if moves:
        i = int(rng.integers(len(moves)))
        changed = list(moves)
        changed[i] = (changed[i][0], int(rng.integers(len(board) + 1)))
        out.append(changed)
    return out


@pytest.mark.parametrize("game", ["mahjong", "mahjong-transposed", "shisen-sho", "shisen-sho-3d"])
def test_the_table_check_agrees_with_replay(game):
    """check_solution (the rules on the layout's tables) accepts exactly what replay accepts."""
    import numpy as np

    from mjsat.generate import random_small_board
    from mjsat.replay import check_solution

    rng = np.random.default_rng(11)
    seen = {True: 0, False: 0}
    for _ in range(150):
        board = random_small_board(rng, game=game, max_tiles=14)
        for moves in _moves_to_try(board, rng):
            try:
                replay(board, moves)
                plain = True
            except InvalidSolutionError:
                plain = False
            try:
                check_solution(board, moves)
                table = True
            except InvalidSolutionError as exc:
                table = False
                assert exc.index is not None or "not cleared" in str(exc)
            assert plain == table, (board, moves)
            seen[plain] += 1
    assert seen[True] > 20 and seen[False] > 100, seen


def test_table_check_on_an_empty_board_and_on_odd_move_lists():
    """The Mahjong table check: an empty board is cleared by no moves; a list of the wrong
    shape, with a tile twice, a tile out of range or text is rejected (and ``replay`` then
    names the move)."""
    from mjsat.replay import TABLE_CHECKS

    check = TABLE_CHECKS["sides"]
    empty = MahjongBoard(Layout([]), [])
    assert check(empty, []) and not check(empty, [(0, 1)])
    check_solution(empty, [])
    line = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 1, 1, 0])
    assert check(line, [(0, 3), (1, 2)]) and check(line, [[3, 0], [2, 1]])
    for bad in ([(0, 3)], [(0, 3), (1, 2), (0, 3)], [(0, 3), (0, 3)], [(0, 3), (1, 4)], [(0, 3), ("1", "2")],
                [(0, 3), (1, 2, 2)], [(1, 2), (0, 3)], [(0, 1), (2, 3)], [(-1, 3), (1, 2)]):  # fmt: skip
        assert not check(line, bad), bad


@pytest.mark.parametrize("game", ["mahjong", "mahjong-transposed", "shisen-sho"])
def test_the_compiled_table_checks_agree_with_the_python_ones_and_replay(game, monkeypatch):
    """mjsat.replay_kernels (what check_solution runs once numba is loaded and a few
    solutions were checked) accepts exactly what the numpy/Python table checks and replay
    accept, on right and wrong move lists of small boards and turtle deals."""
    import numpy as np

    from mjsat import replay as R
    from mjsat.deals import deal_random
    from mjsat.generate import random_small_board
    from mjsat.layouts import load_layout

    rng = np.random.default_rng(29)
    boards = [random_small_board(rng, game=game, max_tiles=16) for _ in range(100)]
    if game != "shisen-sho":
        boards += [deal_random(load_layout("turtle"), seed=s, game=game) for s in range(4)]
    check = R.TABLE_CHECKS[boards[0].kind]
    import numba  # noqa: F401  # the compiled checks run once numba is loaded

    seen = {True: 0, False: 0}
    ran = 0
    for board in boards:
        tries = _moves_to_try(board, rng)
        r = solve(board, "auto") if len(board) > 16 else None
        if r is not None and r.status == SOLVABLE:
            tries += [list(r.moves), list(r.moves)[::-1], [(a, b + 1) for a, b in r.moves]]
        for moves in tries:
            monkeypatch.setattr(R, "_CHECKED", [0])
            monkeypatch.setattr(R, "_KERNELS", [])
            python = check(board, moves)
            monkeypatch.setattr(R, "_CHECKED", [R.COMPILED_AFTER + 1])
            compiled = check(board, moves)
            ran += bool(R._KERNELS)
            try:
                replay(board, moves)
                plain = True
            except InvalidSolutionError:
                plain = False
            assert python == compiled == plain, (board, moves)
            seen[plain] += 1
    assert seen[True] > 20 and seen[False] > 100 and ran > 100, (seen, ran)


def test_the_compiled_checks_refuse_what_is_not_a_list_of_integer_pairs(monkeypatch):
    """Text, floats, booleans, triples and tiles out of range never pass the compiled check."""
    from mjsat import replay as R

    monkeypatch.setattr(R, "_CHECKED", [R.COMPILED_AFTER + 1])
    import numba  # noqa: F401  # the compiled checks run once numba is loaded

    line = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 1, 1, 0])
    check = R.TABLE_CHECKS["sides"]
    assert check(line, [(0, 3), (1, 2)])
    for bad in ([(0, 3), ("1", "2")], [(0.0, 3), (1, 2)], [(False, 3), (1, 2)], [(0, 3, 1), (2,)],
                [(0, 3), (1, 6)], [(-1, 3), (1, 2)], [(0, 3), (0, 3)], None, [3, 4]):  # fmt: skip
        assert not check(line, bad), bad
    assert R._KERNELS
