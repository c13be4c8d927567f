"""``mjsat reduce family ... --count K``: a benchmark folder whose every expected answer is
checked against a SAT solver on the file itself and against ``mjsat solve`` on the boards."""

from __future__ import annotations

import csv
import json

import pytest
from click.testing import CliRunner
from pysat.solvers import Solver

from mjsat.boardio import load_board
from mjsat.cli import cli
from mjsat.encoders.dimacs import read_dimacs
from mjsat.methods import solve
from mjsat.reductions import benchmark_family as bf
from mjsat.reductions.cnf import normalize_3cnf
from mjsat.reductions.families import random_3cnf
from mjsat.reductions.targets import reduce_formula


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def manifest(folder):
    with open(folder / "manifest.csv", newline="") as fh:
        return list(csv.DictReader(fh))


def pysat_answer(path) -> str:
    cnf = read_dimacs(path)
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        return "sat" if s.solve() else "unsat"


@pytest.fixture(scope="module")
def small_family(tmp_path_factory):
    """Four random 3-CNF over 3 variables, two of each answer, as stacks and rows boards."""
    folder = tmp_path_factory.mktemp("fam") / "n3"
    r = run("reduce", "family", "random", "--n", 3, "--count", 4, "--answer", "balanced", "--seed", 0, "-o", folder)
    assert r.exit_code == 0, r.output
    return folder, r.output


def test_the_folder_has_the_formulas_boards_cnf_files_and_manifest(small_family):
    folder, output = small_family
    rows = manifest(folder)
    assert list(rows[0]) == list(bf.MANIFEST_COLUMNS)
    formulas = [r for r in rows if not r["target"]]
    assert len(formulas) == 4 and sorted(r["expected"] for r in formulas) == ["sat", "sat", "unsat", "unsat"]
    cnfs = [r for r in rows if r["target"]]
    # stacks boards: acyclic and stacks; rows boards: acyclic (the stacks encoding does not apply)
    assert sorted((r["target"], r["encoding"]) for r in cnfs if r["formula"] == formulas[0]["file"]) == [
        ("rows", "acyclic"),
        ("stacks", "acyclic"),
        ("stacks", "stacks"),
    ]
    assert "the stacks encoding does not apply to the 4 rows boards" in output
    for r in rows:
        assert (folder / r["file"]).is_file()
        assert r["family"] == "random" and r["n"] == "3" and r["m"] == "13" and r["seed"].isdigit()
        if r["target"]:
            assert (folder / r["board"]).is_file() and (folder / r["file"]).with_suffix(".map").is_file()
            assert int(r["tiles"]) == len(load_board(folder / r["board"]))
        cnf = read_dimacs(folder / r["file"])
        assert (int(r["variables"]), int(r["clauses"])) == (cnf.nv, len(cnf.clauses))
    assert (folder / "README.md").read_text().startswith("# A benchmark family of mjsat")


def slow_file(row) -> bool:
    """The stacks encoding of an unsatisfiable board: some 4 s of a SAT solver at n = 3."""
    return row["encoding"] == "stacks" and row["expected"] == "unsat"


def test_every_expected_answer_agrees_with_a_sat_solver_on_the_file(small_family):
    folder, _ = small_family
    rows = [r for r in manifest(folder) if not slow_file(r)]
    assert len(rows) == 14
    for r in rows:
        assert pysat_answer(folder / r["file"]) == r["expected"], r["file"]


@pytest.mark.slow
def test_the_unsatisfiable_stacks_encodings_agree_with_a_sat_solver(small_family):
    folder, _ = small_family
    rows = [r for r in manifest(folder) if slow_file(r)]
    assert len(rows) == 2
    for r in rows:
        assert pysat_answer(folder / r["file"]) == r["expected"], r["file"]


def test_every_board_agrees_with_mjsat_solve(small_family, tmp_path):
    folder, _ = small_family
    boards = {(r["board"], r["expected"]) for r in manifest(folder) if r["board"]}
    assert len(boards) == 8
    for board, expected in sorted(boards):
        out = tmp_path / "res.json"
        r = run("solve", folder / board, "--method", "exact", "--json", "-o", out)
        assert r.exit_code == 0, r.output
        status = json.loads(out.read_text())["status"]
        assert status == {"sat": "solvable", "unsat": "unsolvable"}[expected], board


def test_the_seeds_rebuild_the_formulas_and_boards(small_family):
    folder, _ = small_family
    for r in manifest(folder):
        seed = int(r["seed"])
        assert read_dimacs(folder / r["formula"]).clauses == random_3cnf(3, rng=seed)
        if r["board"]:
            lib = reduce_formula(normalize_3cnf(random_3cnf(3, rng=seed), n_vars=3), r["target"]).board
            board = load_board(folder / r["board"])
            assert board.groups == lib.groups and board.layout == lib.layout


def test_the_cnf_headers_state_the_answer_and_the_provenance(small_family):
    folder, _ = small_family
    for r in manifest(folder):
        comments = read_dimacs(folder / r["file"]).comments
        answer = {"sat": "SATISFIABLE", "unsat": "UNSATISFIABLE"}[r["expected"]]
        assert comments[0].startswith("c mjsat ")
        assert f"c expected answer: {answer}" in "\n".join(comments)
        assert any(c.startswith("c made by: mjsat reduce family random --n 3 --count 4") for c in comments)
        if r["target"]:
            assert f"c encoding {r['encoding']} " in "\n".join(comments)
            assert any(
                c.startswith(f"c formula: {r['formula']}: random 3-CNF, n = 3, m = 13, seed {r['seed']}")
                for c in comments
            )
            assert any(c.startswith(f"c board: {r['board']}: {r['target']} reduction") for c in comments)
        else:
            assert f"c seed {r['seed']}" in comments


def test_a_solver_model_of_a_satisfiable_file_decodes_into_replayed_moves(small_family, tmp_path):
    folder, _ = small_family
    row = next(r for r in manifest(folder) if r["expected"] == "sat" and r["encoding"] == "stacks")
    cnf = read_dimacs(folder / row["file"])
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        assert s.solve()
        model = s.get_model()
    out = tmp_path / "model.out"
    out.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    map_file = (folder / row["file"]).with_suffix(".map")
    r = run("decode", folder / row["board"], map_file, out, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["status"] == "solvable" and json.loads(r.output)["verified"]


def test_small_satisfiable_formulas_cleared_by_playouts_are_left_out():
    # seed 0 of n = 4 is satisfiable and the search's playouts clear its stack board
    spec = bf.FamilySpec(kind="random", n=4, count=1, answer="sat", targets=("stacks",), seed=0)
    board = reduce_formula(normalize_3cnf(random_3cnf(4, rng=0), n_vars=4), "stacks").board
    assert solve(board, "search", seed=0, attempts=100, guided=0, node_limit=0).status == "solvable"
    kept, drawn, rejected = bf.draw_formulas(spec)
    assert kept[0].seed != 0 and rejected["cleared by a random playout"] >= 1
    assert drawn == 1 + rejected["cleared by a random playout"] + rejected["answer"]
    for f in kept:
        b = reduce_formula(normalize_3cnf(f.clauses, n_vars=4), "stacks").board
        assert solve(b, "search", seed=f.seed, attempts=100, guided=0, node_limit=0).status != "solvable"
    loose, _, rejected0 = bf.draw_formulas(bf.FamilySpec(kind="random", n=4, count=1, answer="sat", playouts=0))
    assert loose[0].seed == 0 and rejected0["cleared by a random playout"] == 0


def test_json_summary_and_a_deterministic_family(tmp_path):
    args = ["reduce", "family", "complete", "--k", 2, "--count", 1, "--to", "stacks", "--encoding", "acyclic"]
    r = run(*args, "-o", tmp_path / "a", "--json")
    assert r.exit_code == 0, r.output
    info = json.loads(r.output)
    assert info["formulas"] == 1 and info["satisfiable"] == 0 and info["cnf_files"] == 1
    rows = manifest(tmp_path / "a")
    assert [r["seed"] for r in rows] == ["", ""] and {r["expected"] for r in rows} == {"unsat"}
    run(*args, "-o", tmp_path / "b", "--json")
    for name in ("manifest.csv", "cnf/complete-k2.stacks.acyclic.cnf", "boards/complete-k2.stacks.json"):
        a, b = ((tmp_path / x / name).read_text().splitlines() for x in "ab")
        assert [x for x in a if "made by" not in x] == [x for x in b if "made by" not in x]


def test_a_shisen_sho_image_is_written_and_agrees(tmp_path):
    folder = tmp_path / "sh"
    r = run("reduce", "family", "complete", "--k", 1, "--count", 1, "--to", "shisen-sho", "-o", folder)
    assert r.exit_code == 0, r.output
    rows = [r for r in manifest(folder) if r["target"]]
    assert [(r["target"], r["encoding"]) for r in rows] == [("shisen-sho", "acyclic")]
    assert pysat_answer(folder / rows[0]["file"]) == "unsat"
    assert solve(load_board(folder / rows[0]["board"]), "exact").status == "unsolvable"


@pytest.mark.parametrize(
    "args, message",
    [
        (["random", "--to", "rows"], "--to needs --count"),
        (["random", "--count", "2"], "--count writes a folder: name it with -o"),
        (["complete", "--count", "2", "-o", "{tmp}/c"], "count must be 1"),
        (["complete", "--k", "2", "--count", "1", "--answer", "sat", "-o", "{tmp}/d"], "only 0 of 1 formulas"),
        (["random", "--n", "2", "--count", "1", "-o", "{tmp}/e"], "n must be at least 3"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    r = run("reduce", "family", *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert r.exit_code == 2
    assert message in r.output and len(r.output.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


def test_a_folder_with_files_is_never_touched(tmp_path):
    folder = tmp_path / "taken"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine")
    r = run("reduce", "family", "complete", "--k", 2, "--count", 1, "-o", folder)
    assert r.exit_code == 2 and "choose a new folder" in r.output
    assert [p.name for p in folder.iterdir()] == ["keep.txt"]
    empty = tmp_path / "empty"
    empty.mkdir()
    r = run("reduce", "family", "complete", "--k", 2, "--count", 1, "--to", "stacks", "-o", empty)
    assert r.exit_code == 0 and (empty / "manifest.csv").is_file()


def test_a_failure_while_writing_leaves_nothing(tmp_path, monkeypatch):
    import mjsat.encoders.encodings as encodings

    def broken(*a, **k):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(encodings, "encode", broken)
    spec = bf.FamilySpec(kind="complete", k=2, targets=("stacks",), encodings=("acyclic",))
    with pytest.raises(RuntimeError):
        bf.write_family(tmp_path / "f", spec)
    assert list(tmp_path.iterdir()) == []
