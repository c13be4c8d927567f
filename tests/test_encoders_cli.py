"""encoders/cli.py: `mjsat encode` and `mjsat decode`, in-process, against mjsat.cli.cli."""

from __future__ import annotations

import json

from click.testing import CliRunner
from sat_boards import small_boards

from mjsat.boardio import write_board
from mjsat.cli import cli
from mjsat.encoders.encodings import encode as encode_board
from mjsat.encoders.solvers import run_solver
from mjsat.methods import solve


def solved_output(cnf_path) -> str:
    """Solve a written CNF with python-sat and print it as a SAT-competition solver would."""
    from pysat.formula import CNF

    cnf = CNF(from_file=str(cnf_path))
    sat, model, _ = run_solver(cnf, solver="glucose4")
    if not sat:
        return "s UNSATISFIABLE\n"
    return "s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n"


def test_encode_decode_round_trip(tmp_path):
    runner = CliRunner()
    statuses = set()
    for i, board in enumerate(small_boards(41, 18, max_tiles=12)):
        bpath = tmp_path / f"b{i}.json"
        write_board(board, bpath)
        cnf_path = tmp_path / f"b{i}.cnf"
        res = runner.invoke(cli, ["encode", str(bpath), "-o", str(cnf_path), "--json"])
        assert res.exit_code == 0, res.output
        info = json.loads(res.output)
        cnf, _ = encode_board(board)
        assert info["clauses"] == len(cnf.clauses) and info["encoding"] == "acyclic"
        out = tmp_path / f"b{i}.out"
        out.write_text(solved_output(cnf_path))
        res = runner.invoke(cli, ["decode", str(bpath), info["map"], str(out), "--json"])
        assert res.exit_code == 0, res.output
        data = json.loads(res.output)
        ref = solve(board, "ref").status
        statuses.add(ref)
        assert data["status"] == ref
        if ref == "solvable":
            assert data["verified"] and len(data["moves"]) == len(board) // 2
            verify = tmp_path / f"s{i}.json"
            verify.write_text(json.dumps({"moves": data["moves"]}))
            assert runner.invoke(cli, ["verify", str(bpath), str(verify)]).exit_code == 0
    assert statuses == {"solvable", "unsolvable"}


def test_decode_rejects_wrong_board_and_bad_model(tmp_path):
    runner = CliRunner()
    b1, b2 = list(small_boards(43, 2))
    p1, p2 = tmp_path / "1.json", tmp_path / "2.json"
    write_board(b1, p1)
    write_board(b2, p2)
    assert runner.invoke(cli, ["encode", str(p1), "-o", str(tmp_path / "1.cnf")]).exit_code == 0
    out = tmp_path / "1.out"
    out.write_text("s SATISFIABLE\nv 0\n")
    res = runner.invoke(cli, ["decode", str(p2), str(tmp_path / "1.map"), str(out)])
    assert res.exit_code == 2 and "map was made for another board" in res.output
    res = runner.invoke(cli, ["decode", str(p1), str(tmp_path / "1.map"), str(out)])
    assert res.exit_code == 1 and "invalid" in res.output  # an empty model pairs nothing
    out.write_text("v 1 x 0\n")
    res = runner.invoke(cli, ["decode", str(p1), str(tmp_path / "1.map"), str(out)])
    assert res.exit_code == 2 and "1.out:1" in res.output


def test_encode_options_and_steps(tmp_path):
    runner = CliRunner()
    res = runner.invoke(
        cli,
        [
            "encode",
            "--layout",
            "turtle",
            "--seed",
            "2",
            "--encoding",
            "layered",
            "--steps",
            "3",
            "-o",
            str(tmp_path / "t.cnf"),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "not exhaustive" in res.output
    out = tmp_path / "t.out"
    out.write_text("s UNSATISFIABLE\n")
    b = tmp_path / "t.json"
    assert runner.invoke(cli, ["deal", "--layout", "turtle", "--seed", "2", "-o", str(b)]).exit_code == 0
    res = runner.invoke(cli, ["decode", str(b), str(tmp_path / "t.map"), str(out)])
    assert res.exit_code == 0 and res.output.startswith("unknown (unsatisfiable with 3 steps")
    res = runner.invoke(cli, ["encode", str(b), "--encoding", "acyclic", "--steps", "3", "-o", str(tmp_path / "a.cnf")])
    assert res.exit_code == 2 and "no steps" in res.output
    assert "mjsat decode board.json board.map board.out" in runner.invoke(cli, ["encode", "--help"]).output


def test_solve_command_with_sat_and_cpsat(tmp_path):
    runner = CliRunner()
    board = next(b for b in small_boards(45, 30) if solve(b, "ref").status == "unsolvable")
    p = tmp_path / "u.json"
    write_board(board, p)
    res = runner.invoke(
        cli, ["solve", str(p), "--method", "sat", "--certify", "--solver", "glucose4", "--encoding", "acyclic"]
    )
    assert res.exit_code == 0, res.output
    assert res.output.startswith("unsolvable (certified)")
    res = runner.invoke(cli, ["solve", str(p), "--method", "cpsat", "--json"])
    assert json.loads(res.output)["status"] == "unsolvable"
    res = runner.invoke(cli, ["solve", str(p), "--method", "sat", "--solver", "nosuch"])
    assert res.exit_code == 2 and "unknown SAT solver" in res.output


def test_encode_to_a_failing_device_replaces_neither_file(tmp_path):
    board = next(iter(small_boards(5, 1, max_tiles=8)))
    bpath, cnf, vmap = tmp_path / "b.json", tmp_path / "e.cnf", tmp_path / "e.map"
    write_board(board, bpath)
    cnf.write_text("old cnf\n")
    vmap.write_text("old map\n")
    runner = CliRunner()
    for args in (["-o", str(cnf), "--map-output", "/dev/full"], ["-o", "/dev/full", "--map-output", str(vmap)]):
        res = runner.invoke(cli, ["encode", str(bpath), *args])
        assert res.exit_code == 2 and "/dev/full: cannot write" in res.output, res.output
        assert len(res.output.strip().splitlines()) == 1
        assert cnf.read_text() == "old cnf\n" and vmap.read_text() == "old map\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.json", "e.cnf", "e.map"]


def test_encode_to_a_fifo_nobody_reads_is_refused_at_once(tmp_path):
    import os

    board = next(iter(small_boards(5, 1, max_tiles=8)))
    bpath, fifo, vmap = tmp_path / "b.json", tmp_path / "pipe", tmp_path / "e.map"
    write_board(board, bpath)
    os.mkfifo(fifo)
    res = CliRunner().invoke(cli, ["encode", str(bpath), "-o", str(fifo), "--map-output", str(vmap)])
    assert res.exit_code == 2 and f"{fifo}: a pipe that no process reads" in res.output, res.output
    assert not vmap.exists()
