"""Lessons of the game page (mjsat.game.teach) and their routes, without a browser: the
data the page shows is the reductions' and the height-two method's, checked by replay."""

from __future__ import annotations

import http.client
import itertools
import json
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from mjsat.cli import cli
from mjsat.encoders.dimacs import dimacs_text
from mjsat.game.teach import PAGE_MAX_TILES, FormulaLesson, Height2Lesson, LessonError
from mjsat.game.teach_web import lesson_game
from mjsat.game.web import GameSettings, ServerThread, Session
from mjsat.reductions.cnf import FormulaSyntaxError, satisfies
from mjsat.reductions.families import random_3cnf
from mjsat.replay import replay
from mjsat.search.height2 import blocked_cycles, has_blocked_cycle, is_blocked_cycle

INSTANCES = Path(__file__).resolve().parents[1] / "instances"


@pytest.fixture(scope="module")
def three_vars():
    return FormulaLesson.from_file(str(INSTANCES / "three-vars.cnf"), "stacks")


def test_formula_lesson_describes_the_formula_and_every_tile_once(three_vars):
    d = three_vars.describe()
    board = three_vars.board
    assert (
        d["variables"] == 3
        and d["satisfiable"]
        and satisfies(dict(enumerate(d["model"], 1)), three_vars.formula.original)
    )
    assert [c["clause"] for c in d["clauses"]] == ["C1", "C2", "C3"]
    assert d["clauses"][1]["text"] == "(¬V1 ∨ V2 ∨ V2)" and d["clauses"][1]["original_text"] == "(¬V1 ∨ V2)"
    for c in d["clauses"]:  # the clause tiles carry the clause's label
        assert {board.group_label(board.groups[t]) for t in [c["x_chain_tile"], *c["literal_tiles"]]} == {c["clause"]}
    ids = re.findall(r'id="tile-(\d+)"', d["svg"])
    assert sorted(map(int, ids)) == list(range(len(board))) and d["view"] == "side"
    assert set(d["lemmas"]) >= {"choice", "unlock", "clauses", "first-sat", "after"}
    assert d["assignments"] == 8


def test_unused_variables_get_switches_and_the_model_covers_them():
    lesson = FormulaLesson.from_text("p cnf 5 2\n-1 0\n-3 0\n")
    d = lesson.describe()
    assert d["variables"] == 5 and d["model"][0] is False and d["model"][2] is False and len(d["model"]) == 5
    assert lesson.guided(d["model"])["cleared"]


def test_infix_and_dimacs_make_the_same_lesson():
    a = FormulaLesson.from_text("(x1 | -x2 | x3) & (-x1 | x2) & (x2 | -x3)", "rows")
    b = FormulaLesson.from_text((INSTANCES / "three-vars.cnf").read_text(), "rows")
    assert a.board.groups == b.board.groups and a.board.layout.positions == b.board.layout.positions
    assert a.describe()["view"] == "top" and a.target == "rows"


@pytest.mark.parametrize("target", ["stacks", "shisen-sho"])
def test_guided_play_of_a_satisfying_assignment_clears_the_board(target):
    lesson = FormulaLesson.from_file(str(INSTANCES / "three-vars.cnf"), target)
    play = lesson.guided([True, True, False])
    assert play["satisfies"] and play["cleared"] and play["stuck"] is None
    moves = [tuple(m) for m in play["moves"]]
    assert replay(lesson.board, moves).is_solved()
    assert [tuple(s["tiles"]) for s in play["steps"]] == moves
    first = play["first_sat"]
    assert play["steps"][first - 1]["lemma"] == "first-sat"
    for c in play["clauses"]:  # every clause is satisfied before the first SAT pair
        assert c["satisfied_at"] is not None and c["satisfied_at"] < first
    chosen = sorted(s["value"] for s in play["steps"] if "value" in s)
    assert chosen == ["V1 = true", "V2 = true", "V3 = false"]


def test_guided_play_of_a_falsifying_assignment_names_the_clause_and_its_locked_tiles(three_vars):
    play = three_vars.guided([True, False, False])  # falsifies (-V1 v V2): C2
    assert not play["satisfies"] and not play["cleared"]
    stuck = play["stuck"]
    assert stuck["falsified"] == ["C2"]
    board = replay(three_vars.board, [tuple(m) for m in play["moves"]], require_clear=False)
    assert board.remaining() == stuck["tiles_left"] > 0
    (c,) = stuck["clauses"]
    assert c["x_chain_tile"] == three_vars.describe()["clauses"][1]["x_chain_tile"]
    for lit in c["literals"]:
        assert board.is_present(lit["tile"]) and not board.is_free(lit["tile"])
    assert any("C2" in r for r in stuck["reasons"])
    assert [cl["satisfied_at"] is None for cl in play["clauses"]] == [False, True, False]


def test_guided_refuses_an_assignment_of_the_wrong_length(three_vars):
    for bad in ([True], [True, False, True, False], [1, 0, 1]):
        with pytest.raises(LessonError, match="one per variable"):
            three_vars.guided(bad)


def test_try_all_says_where_each_assignment_stops():
    lesson = FormulaLesson.from_file(str(INSTANCES / "three-vars.cnf"))
    res = lesson.try_all()
    f = lesson.formula
    assert res["total"] == res["tried"] == 8 and res["more"] == 0
    for row in res["rows"]:
        values = dict(enumerate(row["values"], 1))
        assert row["cleared"] == satisfies(values, f.original)
        assert row["falsified"] == [f"C{j}" for j, c in enumerate(f.clauses, 1) if not satisfies(values, [c])]
        assert bool(row["reason"]) == (not row["cleared"])
    unsat = FormulaLesson.from_file(str(INSTANCES / "all8-3vars.cnf"))
    res = unsat.try_all(limit=5)
    assert (res["total"], res["tried"], res["more"]) == (8, 5, 3)
    assert not any(r["cleared"] for r in res["rows"]) and all(len(r["falsified"]) == 1 for r in res["rows"])


def test_try_all_of_twenty_variables_samples_the_model_its_neighbours_then_random_ones():
    lesson = FormulaLesson.from_text(" & ".join(f"(x{i} | -x{i + 1} | x{(i * 7) % 20 + 1})" for i in range(1, 20)))
    model = lesson.describe()["model"]
    sample = list(itertools.islice(lesson.samples(seed=1), 400))
    assert sample[0] == model and len({tuple(v) for v in sample}) == 400
    distance = [sum(a != b for a, b in zip(v, model)) for v in sample]
    assert distance[: 1 + 20 + 190] == [0] + [1] * 20 + [2] * 190  # then random ones
    assert list(itertools.islice(lesson.samples(seed=1), 400)) == sample  # seeded
    # batches of the page are slices of one run, and the satisfying ones clear the board
    first, second = lesson.try_all(offset=0, count=16), lesson.try_all(offset=16, count=16)
    assert first["next"] == 16 and second["offset"] == 16 and first["sampled"] and first["total"] == 1 << 20
    rows = first["rows"] + second["rows"]
    assert [r["values"] for r in rows] == [list(v) for v in itertools.islice(lesson.samples(), 32)]
    for r in rows:
        assert r["cleared"] == satisfies(dict(enumerate(r["values"], 1)), lesson.formula.original)
    assert rows[0]["cleared"]


def test_free_play_that_took_both_heads_of_a_variable_is_lost(three_vars):
    rng = np.random.default_rng(0)  # random legal pairs until the first SAT pair
    board, moves = three_vars.board.copy(stack=False), []
    while three_vars.free_play(moves) is None:
        free = [t for t in board.present_tiles() if board.is_free(t)]
        pairs = [(a, b) for i, a in enumerate(free) for b in free[i + 1 :] if board.groups[a] == board.groups[b]]
        move = tuple(int(t) for t in pairs[rng.integers(len(pairs))])
        board.play(move)
        moves.append(move)
    got = three_vars.free_play(moves)
    gone = {t for m in moves for t in m}
    heads = three_vars.describe()["variable_tiles"]
    both = [v for v, h in heads.items() if h["true_head"] in gone and h["false_head"] in gone]
    assert got["broken"] == both and both and got["lost"]


def test_free_play_reads_the_assignment_at_the_first_sat_pair(three_vars):
    play = three_vars.guided([False, True, True])
    moves = [tuple(m) for m in play["moves"]]
    k = play["first_sat"]
    assert three_vars.free_play(moves[: k - 1]) is None
    got = three_vars.free_play(moves[:k])
    assert got["assignment"] == [-1, 2, 3] and got["satisfied"] and got["move"] == k and got["lift"] is None
    assert got["clause_texts"] == ["(V1 ∨ ¬V2 ∨ V3)", "(¬V1 ∨ V2)", "(V2 ∨ ¬V3)"]
    assert three_vars.free_play(moves)["lift"] == [-1, 2, 3]


def test_a_board_too_large_for_the_page_is_refused():
    clauses = random_3cnf(20, m=60, rng=1)
    with pytest.raises(LessonError, match=f"more than the {PAGE_MAX_TILES:,} the page shows"):
        FormulaLesson.from_text(dimacs_text(clauses, 20, source="a test"), "shisen-sho")
    assert len(FormulaLesson.from_text(dimacs_text(clauses, 20, source="a test"), "stacks").board) == 24 + 36 * 80
    with pytest.raises(FormulaSyntaxError, match=r"^formula:1: position 6: "):
        FormulaLesson.from_text("(x1 | ", "stacks")


# ---------------------------------------------------------------- height two


@pytest.mark.parametrize("seed", range(6))
def test_height2_lesson_draws_the_planted_cycle(seed):
    lesson = Height2Lesson.planted(seed, 16)
    board = lesson.board
    d = lesson.describe()
    assert not d["solvable"] and d["cycles"]
    assert len(d["cycles"]) == sum(1 for _ in blocked_cycles(board))
    planted = {board.group_label(g) for g in board.meta["planted_cycle"]}
    assert any(set(c["groups"]) == planted for c in d["cycles"])
    for c in d["cycles"]:
        groups = [next(g for g in set(board.groups) if board.group_label(g) == lab) for lab in c["groups"]]
        assert is_blocked_cycle(board, groups)
        for s in c["stacks"]:  # each stack: a top tile right on a bottom tile
            assert board.layout.positions[s["top"]][:2] == board.layout.positions[s["bottom"]][:2]
            assert board.group_label(board.groups[s["top"]]) == s["over"]
        assert sorted(t for p in c["pairs"] for t in p) == c["tiles"]
    with pytest.raises(LessonError, match="without a blocked cycle"):
        lesson.play("theorem7")


@pytest.mark.parametrize("seed", range(8))
def test_height2_plays_of_theorems_5_and_7(seed):
    lesson = Height2Lesson.random(seed, 16)
    assert lesson.describe()["solvable"]
    seven = lesson.play("theorem7")
    assert seven["cleared"] and replay(lesson.board, [tuple(m) for m in seven["moves"]]).is_solved()
    five = lesson.play("theorem5", seed=seed)
    board = lesson.board.copy(stack=False)
    for step in five["steps"]:
        before = has_blocked_cycle(board)
        board.play(tuple(step["tiles"]))  # every move is legal
        assert bool(step["cycle"]) == (has_blocked_cycle(board) and not before)
        assert step["text"].startswith(f"Group {step['group']} ")
    assert five["cleared"] == board.is_solved() and five["tiles_left"] == board.remaining()
    with pytest.raises(LessonError, match="unknown strategy"):
        lesson.play("peeking")


def test_height2_lesson_refuses_other_boards():
    lesson = FormulaLesson.from_file(str(INSTANCES / "three-vars.cnf"))
    with pytest.raises(LessonError, match=r"no height-two lesson: .*3 tiles or more"):
        Height2Lesson(lesson.board, source="three-vars")


def test_theorem5_guesses_are_marked():
    guesses = 0
    for seed in range(40):
        lesson = Height2Lesson.random(seed, 16, group_sizes=(4,))
        play = lesson.play("theorem5", seed=seed)
        for step in play["steps"]:
            if step["guess"]:
                guesses += 1
                assert "A guess: three of" in step["text"]
    assert guesses > 0


# ---------------------------------------------------------------- the routes


def _post(port, path, body):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    res = conn.getresponse()
    out = res.status, json.loads(res.read())
    conn.close()
    return out


def test_lesson_routes_refuse_bad_requests_and_keep_the_game(three_vars):
    session = Session(lesson_game(three_vars), GameSettings(), lesson=three_vars)
    server = ServerThread(session)
    with server:
        port = server.port
        status, out = _post(port, "/api/lesson/formula", {"text": "(x1 | x2", "target": "stacks"})
        assert status == 400 and "position 9" in out["reason"] and session.lesson is three_vars
        status, out = _post(port, "/api/lesson/guided", {"values": [True]})
        assert status == 400 and "one per variable" in out["reason"]
        play = three_vars.guided([True, True, True])
        status, out = _post(port, "/api/lesson/position", {"moves": play["moves"][:3]})
        assert status == 200 and out["state"]["status"]["moves_played"] == 3
        status, out = _post(port, "/api/lesson/position", {"moves": [play["moves"][5]]})
        assert status == 400 and "move 1" in out["reason"] and len(session.game.moves) == 3
        status, out = _post(port, "/api/lesson/height2", {"board": "current"})
        assert status == 400 and "no height-two lesson" in out["reason"]
        status, out = _post(port, "/api/lesson/height2", {"board": "planted", "seed": 2, "tiles": 12})
        assert status == 200 and out["lesson"]["cycles"] and out["state"]["lesson"]["kind"] == "height2"
        status, out = _post(port, "/api/lesson/guided", {"values": [True, True, True]})
        assert status == 400 and "no formula lesson" in out["reason"]
        status, out = _post(port, "/api/lesson/close", {})
        assert status == 200 and out["state"]["lesson"] is None and len(session.game.board) == 12


def test_cli_refuses_bad_lessons_in_one_line(tmp_path):
    runner = CliRunner()
    bad = tmp_path / "bad.txt"
    bad.write_text("(x1 | -x2) & & x3\n")
    res = runner.invoke(cli, ["game", "--cnf", str(bad), "--no-browser"])
    assert (
        res.exit_code == 2
        and res.output.strip() == f"mjsat: error: {bad}:1: position 14: expected a literal (like x1 or -x2), got '&'"
    )
    res = runner.invoke(
        cli, ["game", str(INSTANCES / "three-vars.stacks.json"), "--explain", "height2", "--no-browser"]
    )
    assert res.exit_code == 2 and "no height-two lesson" in res.output and len(res.output.strip().splitlines()) == 1
    res = runner.invoke(cli, ["game", "--cnf", str(bad), "--layout", "turtle"])
    assert res.exit_code == 2 and "--cnf makes the board" in res.output
    res = runner.invoke(cli, ["game", "--help"])
    assert "mjsat game --cnf instances/three-vars.cnf --to shisen-sho" in res.output
    assert "mjsat game --explain height2 --seed 3" in res.output


def test_planted_lessons_are_seeded():
    a, b = Height2Lesson.planted(5, 20), Height2Lesson.planted(5, 20)
    assert a.board.groups == b.board.groups and a.describe()["cycles"] == b.describe()["cycles"]
    assert np.array_equal(np.array(a.board.layout.positions), np.array(b.board.layout.positions))


def test_the_command_serves_a_formula_lesson(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time
    import urllib.request

    formula = tmp_path / "f.txt"
    formula.write_text("(x1 | -x2) & (x2 | x3)\n")
    mjsat = Path(sys.executable).with_name("mjsat")
    proc = subprocess.Popen(
        [str(mjsat), "game", "--cnf", str(formula), "--to", "rows", "--no-browser", "--check-seconds", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = ""
        end = time.monotonic() + 120
        while "http://" not in line and time.monotonic() < end:
            line = proc.stdout.readline()
        url = line.split()[2]
        with urllib.request.urlopen(url + "api/lesson", timeout=30) as res:
            lesson = json.loads(res.read())["lesson"]
        assert lesson["kind"] == "formula" and lesson["target"] == "rows" and lesson["source"] == str(formula)
        assert lesson["tiles"] == 7 * (8 + 12 * 5) and len(lesson["clauses"]) == 2
        with urllib.request.urlopen(url + "api/state", timeout=30) as res:
            state = json.loads(res.read())
        assert len(state["tiles"]) == lesson["tiles"] and state["lesson"]["kind"] == "formula"
    finally:
        os.kill(proc.pid, signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
