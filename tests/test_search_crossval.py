"""Cross-validation: every registered exact method agrees on small board sets; a lying
method is caught, its board written with every answer, and the command exits 1."""

from __future__ import annotations

import json
import textwrap

import numpy as np
import pytest
from click.testing import CliRunner

from mjsat import methods as methods_mod
from mjsat.boardio import load_board, write_board
from mjsat.cli import cli
from mjsat.search import crossval as cv
from mjsat.search.height2_gen import random_height2_board

LIAR = textwrap.dedent(
    '''
    from mjsat.result import SolveResult

    def solve_liar(board, *, time_limit=None, seed=0):
        return SolveResult("unsolvable", "liar")

    def solve_cheat(board, *, time_limit=None, seed=0):
        return SolveResult("solvable", "cheat", moves=[(0, 1)])
    '''
)


@pytest.fixture
def liar_methods(tmp_path, monkeypatch):
    (tmp_path / "crossval_liar.py").write_text(LIAR)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(methods_mod.METHODS, "liar", "crossval_liar:solve_liar")
    monkeypatch.setitem(methods_mod.METHODS, "cheat", "crossval_liar:solve_cheat")


def test_every_registered_method_agrees_on_small_sets():
    specs, skipped = cv.discover_methods()
    labels = [s.label for s in specs]
    assert "ref" in labels and "height2" in labels and "auto" not in labels
    cases = list(cv.random_small_cases(seed=3, count=16, max_tiles=10, games=("mahjong", "shisen-sho")))
    cases += list(cv.height2_cases(seed=3, count=16, max_tiles=12))
    report = cv.run_crossval(cases, specs, time_limit=30)
    assert report.disagreements == []
    assert report.boards == 32
    ref = report.per_method["ref"]
    assert ref.decided == 32 and ref.solvable > 4 and ref.unsolvable > 4
    h2 = report.per_method["height2"]
    assert h2.decided >= 16 and h2.not_applicable == 32 - h2.decided
    for spec in specs:  # every method that ran decided as often as its both-decided counts say
        s = report.per_method[spec.label]
        assert s.errors == 0
        if spec.label != "ref":
            assert report.agreed[("ref", spec.label)] == report.both_decided[("ref", spec.label)]


def test_liar_is_caught_and_written(tmp_path, liar_methods):
    specs, _ = cv.discover_methods(only=["ref", "liar"])
    cases = list(cv.random_small_cases(seed=1, count=12, max_tiles=8))
    report = cv.run_crossval(cases, specs, out_dir=tmp_path / "dis")
    solvable = report.per_method["ref"].solvable
    assert solvable > 0 and len(report.disagreements) == solvable
    d = report.disagreements[0]
    assert "ref say solvable" in d.why and "liar say unsolvable" in d.why
    board = load_board(d.file)
    assert board.meta["crossval"]["answers"]["liar"]["status"] == "unsolvable"
    assert board.meta["crossval"]["answers"]["ref"]["status"] == "solvable"
    assert report.both_decided[("ref", "liar")] == 12
    assert report.agreed[("ref", "liar")] == 12 - solvable


def test_wrong_solution_is_an_error(tmp_path, liar_methods):
    specs, _ = cv.discover_methods(only=["cheat"])
    board = random_height2_board(np.random.default_rng(0), n_tiles=8)
    report = cv.run_crossval([cv.BoardCase("x", board, "test")], specs, out_dir=tmp_path)
    assert report.per_method["cheat"].errors == 1
    assert "wrong solution" in report.disagreements[0].why


def test_known_answer_is_checked():
    specs, _ = cv.discover_methods(only=["ref"])
    rng = np.random.default_rng(2)
    board = random_height2_board(rng, n_tiles=8, solvable=True)
    report = cv.run_crossval([cv.BoardCase("c", board, "t", expected="unsolvable")], specs)
    assert "known to be unsolvable" in report.disagreements[0].why


def test_ref_skips_big_boards_and_height2_other_layouts():
    specs, _ = cv.discover_methods(only=["ref", "height2"])
    cases = list(cv.layout_cases("pyramid", 2))
    report = cv.run_crossval(cases, specs, ref_max_tiles=10)
    assert report.per_method["ref"].not_applicable == 2
    assert report.per_method["height2"].not_applicable == 2


def test_folder_and_manifest(tmp_path):
    rng = np.random.default_rng(4)
    for i in range(3):
        write_board(random_height2_board(rng, n_tiles=8, solvable=True), tmp_path / f"b{i}.json")
    (tmp_path / "manifest.json").write_text(json.dumps({"boards": [{"board": "b0.json", "expected": "solvable"}]}))
    (tmp_path / "notes.txt").write_text("")
    cases = list(cv.folder_cases(tmp_path))
    assert [c.expected for c in cases] == ["solvable", None, None]


def test_cnf_set_when_the_reductions_provide_it(tmp_path):
    cnf = tmp_path / "f.cnf"
    cnf.write_text("p cnf 2 2\n1 2 0\n-1 0\n")
    build, why = cv.cnf_builder()
    if build is None:
        with pytest.raises(ValueError, match="no CNF-to-board builder"):
            list(cv.cnf_cases([cnf]))
        return
    cases = list(cv.cnf_cases([cnf]))
    assert cases and all(c.expected == "solvable" for c in cases)


def test_cli_json_and_exit_codes(tmp_path, liar_methods):
    runner = CliRunner()
    r = runner.invoke(cli, ["crossval", "--random-small", "8", "--height2", "8", "--methods", "ref,height2", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["boards"] == 16 and data["disagreements"] == []
    assert {m["method"] for m in data["methods"]} == {"ref", "height2"}
    assert data["agreement"][0]["agreed"] == data["agreement"][0]["both_decided"] > 0
    out = tmp_path / "dis"
    r = runner.invoke(cli, ["crossval", "--random-small", "10", "--methods", "ref,liar", "--out-dir", str(out), "--no-progress"])
    assert r.exit_code == 1
    assert "DISAGREEMENT" in r.output and list(out.glob("disagreement-*.json"))
    r = runner.invoke(cli, ["crossval", "--methods", "ref"])
    assert r.exit_code == 2 and "name at least one board set" in r.output
    r = runner.invoke(cli, ["crossval", "--random-small", "2", "--methods", "nosuch"])
    assert r.exit_code == 2 and "unknown method" in r.output
