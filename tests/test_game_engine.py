"""The game engine: moves replay in the core, hints checked by the reference solver,
undo/redo and saves restore equal states, bad saves are refused."""

from __future__ import annotations

import json

import numpy as np
import pytest
from game_positions import SMALL, fatal_position

from mjsat.board import find_variant
from mjsat.deals import deal_random, deal_solvable
from mjsat.fileio import InputFileError
from mjsat.game.engine import SOLVABLE, UNSOLVABLE, Game, UndoError
from mjsat.game.save import game_from_save_text, record_from_json_text, save_text
from mjsat.layouts import load_layout
from mjsat.methods import solve
from mjsat.replay import replay


def _deal(rng, spec, game):
    seed = int(rng.integers(1 << 30))
    layout = load_layout(spec)
    if rng.random() < 0.5:
        return deal_random(layout, seed=seed, game=game)
    return deal_solvable(layout, seed=seed, game=game)[0]


def test_every_accepted_move_replays_in_the_core_and_refusals_name_the_rule():
    rng = np.random.default_rng(1)
    accepted = refused = 0
    for i in range(40):
        spec, game_name = SMALL[i % len(SMALL)]
        board = _deal(rng, spec, game_name)
        deal = board.copy(stack=False)
        game = Game(board, undo_limit=3)
        for _ in range(60):
            a, b = (int(v) for v in rng.integers(len(deal), size=2))
            before = game.board.copy()
            out = game.pair(a, b)
            if out.played:
                accepted += 1
                assert before.illegal_reason((a, b)) is None
                if game_name.startswith("shisen"):
                    assert out.path and len(out.path) >= 2
            else:
                refused += 1
                assert out.reason == game.explain(before.illegal_reason((a, b))) and out.reason
            if rng.random() < 0.1:
                try:
                    game.undo()
                except UndoError:
                    pass
        final = replay(deal, game.moves, require_clear=False)
        assert final.presence == game.board.presence
    assert accepted > 50 and refused > 500


def test_hints_on_200_random_positions_keep_the_position_solvable_by_the_reference_solver():
    rng = np.random.default_rng(2)
    kinds = {"move": 0, "unsolvable": 0}
    positions = 0
    while positions < 200:
        spec, game_name = SMALL[positions % len(SMALL)]
        board = _deal(rng, spec, game_name)
        for _ in range(int(rng.integers(0, len(board) // 2))):  # a random position of random play
            legal = sorted(board.generate_legal_moves())
            if not legal:
                break
            board.push(legal[int(rng.integers(len(legal)))])
        if board.is_solved():
            continue
        positions += 1
        game = Game(board, hint_limit=1)
        sub, _ = board.position_board()
        truth = solve(sub, "ref").status
        hint = game.hint(time_limit=10)
        if hint.kind == "move":
            assert truth == SOLVABLE
            after = board.copy()
            after.play(hint.move)
            assert solve(after.position_board()[0], "ref").status == SOLVABLE
            assert game.hints_used == 1 and game.hint(time_limit=10).kind == "no-hints"
        else:
            assert hint.kind == "unsolvable" and truth == UNSOLVABLE, (hint, truth)
            assert game.hints_used == 0
        kinds[hint.kind] += 1
    assert kinds["move"] > 50 and kinds["unsolvable"] > 10


def test_undo_and_redo_restore_equal_states():
    rng = np.random.default_rng(3)
    for spec, game_name in SMALL:
        board, order = deal_solvable(load_layout(spec), seed=int(rng.integers(1000)), game=game_name)
        game = Game(board, undo_limit=4)
        states = [game.state()]
        for m in order:
            assert game.pair(*m).played
            states.append(game.state())
        assert game.status().won
        for k in range(1, 5 if len(order) >= 4 else len(order) + 1):
            game.undo()
            s = game.state()
            assert s[:5] == states[-1 - k][:5]  # deal and moves as before those moves
        if len(order) >= 5:
            with pytest.raises(UndoError, match="no undo left"):
                game.undo()
        undone = len(game.redo_stack)
        for _ in range(undone):
            game.redo()
        assert game.state() == states[-1]
        with pytest.raises(UndoError, match="nothing to redo"):
            game.redo()
        # a new move after an undo drops the redo stack
        game.undo()
        assert game.redo_stack
        game.pair(*order[-1])
        assert not game.redo_stack and game.state() == states[-1]


def test_a_save_loads_back_to_an_equal_state():
    rng = np.random.default_rng(4)
    for spec, game_name in SMALL:
        board, order = deal_solvable(load_layout(spec), seed=int(rng.integers(1000)), game=game_name)
        game = Game(board, undo_limit=3, hint_limit=5, meta={"difficulty": "normal", "seed": 7})
        for m in order[: len(order) // 2 + 1]:
            game.pair(*m)
        game.hint(time_limit=10)
        game.undo()
        text = save_text(game)
        again = game_from_save_text(text, "x.save")
        assert again.state() == game.state() and again.meta == game.meta
        deal, moves = record_from_json_text(text)
        assert moves == game.moves and deal.groups == game.board.groups


def _good_save():
    board, order = deal_solvable(load_layout("rect-4x3"), seed=5, game="shisen-sho")
    game = Game(board)
    for m in order[:3]:
        game.pair(*m)
    game.undo()
    return json.loads(save_text(game)), order


def _mutations():
    data, order = _good_save()
    text = json.dumps(data)

    def edit(fn):
        d = json.loads(text)
        fn(d)
        return json.dumps(d)

    return {
        "corrupt": ("\x00\xffgarbage{{", "invalid or truncated JSON"),
        "truncated": (text[: len(text) // 2], "invalid or truncated JSON"),
        "empty": ("", "empty file"),
        "deep": ("[" * 100_000 + "]" * 100_000, "nested too deeply|no mjsat save"),
        "foreign board": (json.dumps(data["board"]), 'a "mjsat-board" file'),
        "foreign list": ("[[0, 1]]", "no mjsat save"),
        "version": (edit(lambda d: d.update(version=2)), "unsupported save version"),
        "bad board": (edit(lambda d: d["board"]["tiles"].pop()), "its board"),
        "not a pair": (edit(lambda d: d["moves"].append([1, 2, 3])), "expected a pair"),
        "bool tile": (edit(lambda d: d["moves"].append([True, 2])), "expected a pair"),
        "huge tile": (edit(lambda d: d["moves"].append([0, 10**30])), "does not exist|31 digits"),
        "negative tile": (edit(lambda d: d["moves"].append([-1, 2])), "does not exist"),
        "replay": (edit(lambda d: d["moves"].insert(0, d["moves"][0])), "does not replay"),
        "redo replay": (edit(lambda d: d["redo"].append(d["moves"][0])), "does not replay|exceed"),
        "hints": (edit(lambda d: d["hints"].update(used=11)), "hints used"),
        "hint type": (edit(lambda d: d["hints"].update(limit="10")), "must be an integer"),
        "undo left": (edit(lambda d: d["undo"].update(left=9)), "undos left"),
        "meta": (edit(lambda d: d.update(meta=[1])), '"meta" must be an object'),
    }


@pytest.mark.parametrize("name", sorted(_mutations()))
def test_bad_saves_are_refused_with_one_line(name):
    text, match = _mutations()[name]
    with pytest.raises(InputFileError, match=match) as info:
        game_from_save_text(text, "bad.save")
    assert str(info.value).startswith("bad.save") and "\n" not in str(info.value)


def test_unsolvable_after_the_fatal_move_names_the_undos():
    board, fatal = fatal_position()
    game = Game(board)
    assert game.check(time_limit=5).status == SOLVABLE
    game.pair(*fatal)
    assert game.check(time_limit=5).status == UNSOLVABLE
    status = game.status()
    assert status.verdict == UNSOLVABLE and status.undos_to_solvable == 1
    assert "1 undo(s) lead back" in status.message
    hint = game.hint(time_limit=5)
    assert hint.kind == "unsolvable" and hint.undos == 1 and game.hints_used == 0
    # a position reached from here is unsolvable without a solver call
    calls = []
    game.decider = lambda b, t: calls.append(b)
    legal = sorted(game.board.generate_legal_moves())
    if legal:
        game.pair(*legal[0])
        assert game.known().status == UNSOLVABLE and not calls
        assert game.status().undos_to_solvable == 2
    game.undo()
    if legal:
        game.undo()
    assert game.status().verdict == SOLVABLE


def test_a_timeout_never_shows_a_move():
    from mjsat.result import SolveResult

    board, _ = deal_solvable(load_layout("pyramid"), seed=3)
    game = Game(board, decider=lambda b, t: SolveResult("unknown", "stub", reason="time limit reached"))
    hint = game.hint(time_limit=0.01)
    assert hint.kind == "timeout" and hint.move is None and game.hints_used == 0
    assert "nothing proved" in hint.message


def test_following_the_hints_clears_every_game_with_one_solver_call():
    calls = []

    def counting(board, t):
        calls.append(len(board))
        return solve(board, "auto", time_limit=t)

    for game_name in ("mahjong", "shisen-sho", "shisen-sho-3d", "mahjong-transposed"):
        board, _ = deal_solvable(
            load_layout("turtle" if game_name != "shisen-sho" else "rect-12x8"), seed=1, game=game_name
        )
        game = Game(board, hint_limit=1000, decider=counting)
        calls.clear()
        while not game.status().won:
            hint = game.hint(time_limit=30)
            assert hint.kind == "move", hint
            assert game.pair(*hint.move).played
        assert len(calls) == 1 and find_variant(game_name) is type(game.board)


@pytest.mark.parametrize(
    "spec, game_name", [("pyramid", "mahjong"), ("rect-6x4", "shisen-sho"), ("pyramid", "shisen-sho-3d")]
)
def test_a_shuffle_keeps_the_places_and_the_groups_and_is_proved_by_an_exact_method(spec, game_name):
    rng = np.random.default_rng(7)
    for k in range(6):
        board = deal_random(load_layout(spec), seed=int(rng.integers(1 << 30)), game=game_name)
        game = Game(board, decider=None)
        for _ in range(int(rng.integers(0, 4))):  # a few moves, whatever they lead to
            moves = game.legal_pairs()
            if not moves:
                break
            game.pair(*moves[int(rng.integers(len(moves)))])
        before = game.board.copy()
        kept = sorted(before.groups[t] for t in before.present_tiles())
        out = game.shuffle(seed=k)
        after = game.board
        assert out.ok, out.message
        assert after.presence == before.presence and after.move_stack == before.move_stack
        assert sorted(after.groups[t] for t in after.present_tiles()) == kept
        assert all(size % 2 == 0 for size in after.position_board()[0].group_sizes().values())
        gone = [t for t in range(len(after)) if not after.presence[t]]
        assert [after.groups[t] for t in gone] == [before.groups[t] for t in gone]
        sub, _ = after.position_board()
        result = solve(sub, "exact", time_limit=60)  # an exhaustive method agrees
        assert result.status == SOLVABLE
        replay(sub, result.moves)
        assert game.counts()["shuffles"] == 1 and game.undo_depth == 0
        assert game.known().status == SOLVABLE and game.known().next_move is not None
        replay(before.copy(stack=False).with_groups(after.groups), after.move_stack, require_clear=False)


def test_restart_gives_the_deal_as_dealt_with_every_count_at_zero():
    board, order = deal_solvable(load_layout("pyramid"), seed=3)
    game = Game(board.copy(), decider=None)
    for m in order[:3]:
        assert game.pair(*m).played
    game.undo()
    game.shuffle(seed=1)
    assert game.counts() == {"moves": 2, "hints": 0, "undos": 1, "shuffles": 1}
    game.restart()
    assert game.counts() == {"moves": 0, "hints": 0, "undos": 0, "shuffles": 0}
    assert list(game.board.groups) == list(board.groups) and game.board.remaining() == len(board)
    assert game.redo_stack == [] and game.undo_depth == 0
