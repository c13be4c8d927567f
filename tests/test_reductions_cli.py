"""``mjsat reduce``: in-process with CliRunner against the real top-level group."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mjsat.boardio import board_to_json, load_board
from mjsat.cli import cli
from mjsat.encoders.dimacs import read_dimacs
from mjsat.reductions.cnf import normalize_3cnf, satisfies
from mjsat.reductions.targets import reduce_formula
from mjsat.replay import replay

CNF = "c example\np cnf 3 3\n1 -2 3 0\n-1 2 0\n2 -3 0\n"


@pytest.fixture
def cnf_file(tmp_path):
    p = tmp_path / "f.cnf"
    p.write_text(CNF)
    return p


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.mark.parametrize("target", ["stacks", "rows", "shisen-sho", "shisen-rows"])
def test_build_is_the_default_subcommand_and_equals_the_library(cnf_file, tmp_path, target):
    out = tmp_path / "b.json"
    r = run("reduce", cnf_file, "--to", target, "-o", out)
    assert r.exit_code == 0, r.output
    assert f"({target})" in r.output and "padded 2 short clauses" in r.output
    board = load_board(out)
    lib = reduce_formula(normalize_3cnf(read_dimacs(cnf_file)), target).board
    assert board.groups == lib.groups and board.layout == lib.layout and board.names == lib.names
    assert board.meta["formula_hash"] == lib.meta["formula_hash"]
    assert board.meta["command_line"].startswith("mjsat reduce ")
    assert board.meta["cnf_file"] == "f.cnf" and "mjsat_version" in board.meta
    r2 = run("reduce", "build", cnf_file, "--to", target, "--json")
    assert json.loads(r2.output)["tiles"] == len(lib)


def test_build_to_stdout_prints_the_board_json(cnf_file):
    r = run("reduce", "--to", "stacks", cnf_file)
    assert r.exit_code == 0
    lib = reduce_formula(normalize_3cnf(read_dimacs(cnf_file)), "stacks").board
    data = json.loads(r.output)
    assert data["tiles"] == json.loads(board_to_json(lib))["tiles"]


def test_witness_verify_and_lift_round_trip(cnf_file, tmp_path):
    board_path, moves_path = tmp_path / "r.json", tmp_path / "m.json"
    assert run("reduce", cnf_file, "--to", "rows", "-o", board_path).exit_code == 0
    r = run("reduce", "witness", cnf_file, "-1 -2 -3", "--to", "rows", "-o", moves_path)
    assert r.exit_code == 0, r.output
    assert "verified by replay" in r.output
    assert run("verify", board_path, moves_path).exit_code == 0
    r = run("reduce", "lift", cnf_file, moves_path, "--to", "rows", "--json")
    data = json.loads(r.output)
    assert data["assignment"] == [-1, -2, -3] and data["satisfies"]
    r = run("reduce", "lift", cnf_file, moves_path, "--to", "rows")
    assert r.output.startswith("v -1 -2 -3 0")


def test_witness_without_assignment_asks_a_sat_solver(cnf_file):
    r = run("reduce", "witness", cnf_file, "--to", "rows", "--json")
    data = json.loads(r.output)
    assert data["assignment_source"] == "found by a SAT solver"
    assert satisfies(data["assignment"], read_dimacs(cnf_file).clauses)
    board = reduce_formula(normalize_3cnf(read_dimacs(cnf_file)), "rows").board
    replay(board, data["moves"])


def test_lift_of_a_solver_solution(cnf_file, tmp_path):
    board_path, sol = tmp_path / "b.json", tmp_path / "sol.json"
    run("reduce", cnf_file, "-o", board_path)
    r = run("solve", board_path, "--method", "sat", "-O", "encoding=acyclic", "--json")
    assert json.loads(r.output)["status"] == "solvable"
    sol.write_text(r.output)
    r = run("reduce", "lift", cnf_file, sol, "--json")
    assert json.loads(r.output)["satisfies"]


def test_errors_are_one_line_with_exit_code_2(tmp_path, cnf_file):
    bad = tmp_path / "bad.cnf"
    bad.write_text("p cnf 2 1\n1 x 0\n")
    r = CliRunner().invoke(cli, ["reduce", str(bad)])
    assert r.exit_code == 2
    assert r.output.strip() == f"mjsat: error: {bad}:2: not an integer literal: 'x'"
    r = CliRunner().invoke(cli, ["reduce", "witness", str(cnf_file), "1 2 -3 4"])
    assert r.exit_code == 2 and "variables 1..3" in r.output
    r = CliRunner().invoke(cli, ["reduce", "witness", str(cnf_file), "-1 -2 3"])
    assert r.exit_code == 2 and "falsifies clause 3" in r.output
    unsat = tmp_path / "u.cnf"
    unsat.write_text("p cnf 1 2\n1 0\n-1 0\n")
    r = CliRunner().invoke(cli, ["reduce", "witness", str(unsat)])
    assert r.exit_code == 2 and "unsatisfiable" in r.output
    moves = tmp_path / "m.txt"
    moves.write_text("0 1\n")
    r = CliRunner().invoke(cli, ["reduce", "lift", str(cnf_file), str(moves)])
    assert r.exit_code == 2 and "not a clearing sequence" in r.output


def test_explain_and_family(cnf_file, tmp_path):
    r = run("reduce", "explain", cnf_file)
    assert "x-chain" in r.output and "V3 false chain" in r.output and "Intended play" in r.output
    data = json.loads(run("reduce", "explain", cnf_file, "--to", "rows", "--json").output)
    assert data["sizes"]["stacks"] == 8 + 12 * 3 + 12 * 3 and data["board_tiles"] == 7 * 80
    out = tmp_path / "r.cnf"
    assert run("reduce", "family", "random", "--n", "8", "--seed", "3", "-o", out).exit_code == 0
    again = run("reduce", "family", "random", "--n", "8", "--seed", "3").output
    assert out.read_text().split("p cnf")[1] == again.split("p cnf")[1]
    assert len(read_dimacs(out).clauses) == 34
    assert "p cnf 6 9" in run("reduce", "family", "pigeonhole", "--holes", "2").output


def test_help_teaches_the_default_subcommand():
    r = run("reduce", "--help")
    assert "short for `mjsat reduce build FILE.cnf`" in r.output
    assert "reduce" in run("--help").output
