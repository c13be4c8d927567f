"""encoders/varmap.py: CNF and map files, and a round trip through an external solver."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from pysat.formula import CNF
from sat_boards import small_boards

from mjsat import __version__
from mjsat.encoders.dimacs import parse_solver_output
from mjsat.encoders.encodings import ENCODINGS, encode
from mjsat.encoders.solvers import run_solver
from mjsat.encoders.varmap import board_digest, default_map_path, read_map, write_cnf, write_map
from mjsat.fileio import InputFileError
from mjsat.methods import solve
from mjsat.replay import replay


def external_solver() -> list[str]:
    """The command of a DIMACS solver binary (`make install` puts cadical on the machine)."""
    if shutil.which("cadical"):
        return ["cadical", "-q"]
    if shutil.which("minisat"):
        return ["minisat", "-verb=0"]
    pytest.fail("no external SAT solver binary: install Debian's cadical (make install does)")


def run_external(cnf_path, out_path) -> None:
    cmd = external_solver()
    if cmd[0] == "minisat":
        subprocess.run([*cmd, str(cnf_path), str(out_path)], capture_output=True, check=False)
    else:
        with open(out_path, "w") as fh:
            subprocess.run([*cmd, str(cnf_path)], stdout=fh, check=False)


@pytest.mark.parametrize("encoding", ["layered", "parity", "order", "acyclic"])
def test_round_trip_through_an_external_solver(tmp_path, encoding):
    seen = set()
    for i, board in enumerate(small_boards(31, 12, max_tiles=12)):
        cnf, dec = encode(board, encoding=encoding)
        cnf_path = tmp_path / f"b{i}.cnf"
        map_path = tmp_path / f"b{i}.map"
        write_cnf(cnf_path, cnf, board, dec)
        write_map(map_path, cnf, board, dec)
        out = tmp_path / f"b{i}.out"
        run_external(cnf_path, out)
        status, model = parse_solver_output(out.read_text(), out)
        ref = solve(board, "ref").status
        seen.add(ref)
        assert status == ("sat" if ref == "solvable" else "unsat")
        head, dec2 = read_map(map_path)
        assert head["board_digest"] == board_digest(board) and dec2.params["exhaustive"]
        if status == "sat":
            replay(board, dec2.decode(model).moves)
    assert seen == {"solvable", "unsolvable"}


def test_cnf_file_matches_pysat_and_states_its_provenance(tmp_path):
    board = next(small_boards(2, 1))
    cnf, dec = encode(board)
    path = tmp_path / "x.cnf"
    write_cnf(path, cnf, board, dec)
    back = CNF(from_file=str(path))
    assert back.clauses == cnf.clauses and back.nv == cnf.nv
    assert (
        back.comments[0]
        == f"c mjsat {__version__}: {board.game} board of {len(board)} tiles, digest {board_digest(board)}"
    )
    assert back.comments[1] == f"c encoding acyclic edges={dec.params['edges']} exhaustive=True"
    assert default_map_path("dir/board.cnf") == "dir/board.map"
    assert default_map_path("board") == "board.map"


def _stack_boards(count):
    """Seeded boards of isolated stacks (the only shape the stacks encoding takes), of
    heights two and three (most of height two can be cleared)."""
    import numpy as np

    from mjsat.reductions.stacks import board_from_stacks

    rng = np.random.default_rng(8)
    for i in range(count):
        height = 3 if i % 4 == 3 else 2
        groups = rng.permutation(np.repeat(np.arange(2 * height), 2)).reshape(4, height)
        yield board_from_stacks(groups.tolist())


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_map_round_trip_gives_the_same_decoding(tmp_path, encoding):
    solvable = 0
    for i, board in enumerate(small_boards(8, 12) if encoding != "stacks" else _stack_boards(12)):
        cnf, dec = encode(board, encoding=encoding)
        sat, model, _ = run_solver(cnf, solver="glucose4")
        path = tmp_path / f"b{i}.map"
        write_map(path, cnf, board, dec)
        head, dec2 = read_map(path)
        assert head["variables"] == cnf.nv and head["clauses"] == len(cnf.clauses)
        assert type(dec2) is type(dec) and dec2.keys == dec.keys and dec2.params == dec.params
        if sat:
            assert dec2.decode(model) == dec.decode(model)
            replay(board, dec2.decode(model).moves)
            solvable += 1
    assert solvable >= 3  # the decodings were compared


def test_read_map_errors(tmp_path):
    p = tmp_path / "bad.map"
    p.write_text("{not json")
    with pytest.raises(InputFileError, match=r"bad.map:1: invalid JSON"):
        read_map(p)
    p.write_text('{"format": "other"}')
    with pytest.raises(InputFileError, match="not an mjsat variable map"):
        read_map(p)
    p.write_text(
        '{"format": "mjsat-varmap", "encoding": "layered", "board_digest": "x", "params": {"steps": 1},\n "vars": [\n  [1, "m", 0, 1],\n  ["a"]]}'
    )
    with pytest.raises(InputFileError, match=r"bad.map:4: expected \[variable, name"):
        read_map(p)
    with pytest.raises(InputFileError, match="no such file"):
        read_map(tmp_path / "missing.map")
