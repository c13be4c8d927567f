"""Fuzzing every reader and writer through the command line (click's runner, in process).

Whatever a damaged input file holds, the command ends with its normal exit code, or with
exit code 2 and one line on stderr, ``mjsat: error: FILE[:LINE]: problem``, that names the
file: never a traceback. Every ``-o``/``--out`` follows one rule: missing folders are
created, a symbolic link is written through, an existing file keeps its mode, and a path
that cannot be written is one line, exit 2, with nothing changed. The named regression
tests at the end pin the command lines of issue 14.
"""

from __future__ import annotations

import json
import os
import signal
import stat
from pathlib import Path

import numpy as np
import pytest
from fuzz_inputs import (
    ASSIGNMENT_SEEDS,
    BUDGETS,
    CNF_SEED,
    LAYOUT_SEEDS,
    SAMPLE_SEED,
    SAVE_TEXT,
    SOLUTION_SEEDS,
    assert_cli_clean,
    fuzz,
    mutated_bytes,
    mutated_json,
    mutated_text,
    run_mjsat,
    write_input,
)
from hypothesis import given, strategies as st

from mjsat.boardio import board_to_json, board_to_text
from mjsat.encoders.dimacs import dimacs_text
from mjsat.encoders.encodings import encode
from mjsat.encoders.solvers import run_solver
from mjsat.encoders.varmap import map_text
from mjsat.generate import random_small_board

SMALL = {"MJSAT_MAX_TILES": "20000", "MJSAT_MAX_CNF_VARIABLES": "500"}
"""Limits that keep what a fuzz input may build small."""


def _decodable() -> tuple[str, str, str]:
    """A board, the map of its CNF, and a solver's answer, all matching."""
    board = random_small_board(np.random.default_rng(11))
    cnf, decoder = encode(board, encoding="acyclic")
    sat, model, _ = run_solver(cnf)
    answer = "s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n" if sat else "s UNSATISFIABLE\n"
    return board_to_json(board), map_text(cnf, board, decoder), answer


BOARD = random_small_board(np.random.default_rng(5))
BOARD_JSON, BOARD_TEXT = board_to_json(BOARD), board_to_text(BOARD)
DEC_BOARD, DEC_MAP, DEC_ANSWER = _decodable()


# --------------------------------------------------------------------------- readers through the CLI


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_cli_boards(budget, tmp_path):
    @fuzz(budget)
    @given(
        raw=st.one_of(
            mutated_bytes(BOARD_JSON), mutated_bytes(BOARD_TEXT), mutated_json(json.loads(BOARD_JSON)).map(str.encode)
        ),
        name=st.sampled_from(["b.json", "b.txt"]),
        command=st.sampled_from(["convert", "render", "solve", "encode"]),
    )
    def run(raw, name, command):
        board = write_input(tmp_path, name, raw)
        args = {
            "convert": ["convert", board, "-o", tmp_path / "out.json"],
            "render": ["render", board],
            "solve": ["solve", board, "--method", "ref", "--time-limit", "5"],
            "encode": ["encode", board, "-o", tmp_path / "out.cnf"],
        }[command]
        assert_cli_clean(run_mjsat(args, env=SMALL), board)

    run()


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("name", sorted(LAYOUT_SEEDS))
def test_fuzz_cli_layouts(budget, name, tmp_path):
    @fuzz(budget)
    @given(raw=mutated_bytes(LAYOUT_SEEDS[name]), command=st.sampled_from(["show", "show-json", "deal"]))
    def run(raw, command):
        layout = write_input(tmp_path, name, raw)
        args = {
            "show": ["layouts", "show", layout],
            "show-json": ["layouts", "show", layout, "--json"],
            "deal": ["deal", "--layout", layout, "--seed", "3", "-o", tmp_path / "dealt.json"],
        }[command]
        assert_cli_clean(run_mjsat(args, env=SMALL), layout)

    run()


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_cli_solutions(budget, tmp_path):
    board = write_input(tmp_path, "board.json", BOARD_JSON)

    @fuzz(budget)
    @given(raw=st.one_of(*(mutated_bytes(s) for s in SOLUTION_SEEDS)), command=st.sampled_from(["verify", "render"]))
    def run(raw, command):
        sol = write_input(tmp_path, "sol.txt", raw)
        if command == "verify":
            result = run_mjsat(["verify", board, sol])
            assert_cli_clean(result, sol, ok=(0, 1))
        else:
            assert_cli_clean(run_mjsat(["render", board, "--solution", sol, "-o", tmp_path / "p.svg"]), sol)

    run()


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_cli_cnf(budget, tmp_path):
    @fuzz(budget)
    @given(
        raw=mutated_bytes(CNF_SEED),
        command=st.sampled_from(["build", "rows", "explain", "witness", "shisen"]),
    )
    def run(raw, command):
        cnf = write_input(tmp_path, "f.cnf", raw)
        args = {
            "build": ["reduce", cnf, "-o", tmp_path / "r.json"],
            "rows": ["reduce", "build", cnf, "--to", "rows", "--json", "-o", tmp_path / "r.txt"],
            "explain": ["reduce", "explain", cnf],
            "witness": ["reduce", "witness", cnf, "-o", tmp_path / "w.json"],
            "shisen": ["reduce", "build", cnf, "--to", "shisen-sho", "-o", tmp_path / "s.json"],
        }[command]
        result = run_mjsat(args, env=SMALL)
        if command == "witness" and result.exit_code == 2 and "unsatisfiable" in result.stderr:
            return  # an unsatisfiable formula has no witness: said on one line naming the file
        assert_cli_clean(result, cnf)

    run()


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_cli_assignments(budget, tmp_path):
    cnf = write_input(tmp_path, "f.cnf", dimacs_text([[1, -2, 3], [-1, 2, 4], [5, 5, -3]], 5, source="a test"))

    @fuzz(budget)
    @given(text=st.one_of(*(mutated_text(s) for s in ASSIGNMENT_SEEDS)))
    def run(text):
        values = write_input(tmp_path, "a.txt", text)
        result = run_mjsat(["reduce", "witness", cnf, values, "--json"])
        assert_cli_clean(result, values)

    run()


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_cli_decode(budget, tmp_path):
    board = write_input(tmp_path, "board.json", DEC_BOARD)

    @fuzz(budget)
    @given(
        which=st.sampled_from(["map", "map-json", "answer"]),
        map_raw=mutated_bytes(DEC_MAP, max_ops=2),
        map_json=mutated_json(json.loads(DEC_MAP)),
        answer_raw=mutated_bytes(DEC_ANSWER),
    )
    def run(which, map_raw, map_json, answer_raw):
        mp = write_input(
            tmp_path, "b.map", {"map": map_raw, "map-json": map_json.encode()}.get(which, DEC_MAP.encode())
        )
        out = write_input(tmp_path, "b.out", answer_raw if which == "answer" else DEC_ANSWER.encode())
        result = run_mjsat(["decode", board, mp, out, "--json", "-o", tmp_path / "dec.json"])
        assert_cli_clean(result, out if which == "answer" else mp, ok=(0, 1))

    run()


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_cli_sample_results(budget, tmp_path):
    @fuzz(budget)
    @given(raw=mutated_bytes(SAMPLE_SEED))
    def run(raw):
        out = write_input(tmp_path, "r.jsonl", raw)
        result = run_mjsat(["sample", "--layout", "tiny", "-n", "4", "--out", out, "--method", "ref", "--json"])
        assert_cli_clean(result, out)

    run()


# --------------------------------------------------------------------------- writers through the CLI


def _writer_args(kind: str, out: Path, inputs: Path) -> list:
    board, cnf = inputs / "board.json", inputs / "f.cnf"
    return {
        "deal": ["deal", "--layout", "tiny", "-o", out],
        "convert": ["convert", board, "-o", out],
        "solve": ["solve", board, "--method", "ref", "-o", out],
        "render": ["render", board, "-o", out.with_suffix(".svg")],
        "encode": ["encode", board, "-o", out],
        "reduce": ["reduce", cnf, "-o", out],
        "witness": ["reduce", "witness", cnf, "-o", out],
        "family": ["reduce", "family", "complete", "--k", "2", "-o", out],
        "decode": ["decode", inputs / "dec.json", inputs / "dec.map", inputs / "dec.out", "-o", out],
        "sample": ["sample", "--layout", "tiny", "-n", "2", "--method", "ref", "--json", "--out", out],
    }[kind]


WRITERS = ["deal", "convert", "solve", "render", "encode", "reduce", "witness", "family", "decode", "sample"]
PLACES = ["new", "missing-folders", "existing-0640", "symlink", "under-a-file", "proc"]


def _place(root: Path, kind: str, old: str) -> Path:
    if kind == "new":
        return root / "out.json"
    if kind == "missing-folders":
        return root / "x" / "y" / "out.json"
    if kind == "existing-0640":
        p = root / "out.json"
        p.write_text(old)
        p.chmod(0o640)
        return p
    if kind == "symlink":
        (root / "real.json").write_text(old)
        (root / "out.json").symlink_to(root / "real.json")
        return root / "out.json"
    if kind == "under-a-file":
        (root / "plain").write_text("x")
        return root / "plain" / "out.json"
    return Path("/proc/mjsat-no-such-folder/out.json")


@pytest.fixture(scope="module")
def writer_inputs(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("inputs")
    write_input(folder, "board.json", BOARD_JSON)
    write_input(folder, "f.cnf", dimacs_text([[1, -2, 3], [2]], 3, source="a test"))
    write_input(folder, "dec.json", DEC_BOARD)
    write_input(folder, "dec.map", DEC_MAP)
    write_input(folder, "dec.out", DEC_ANSWER)
    return folder


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("place", PLACES)
def test_every_writer_in_every_place(writer, place, tmp_path, writer_inputs):
    old = "" if writer == "sample" else "old\n"  # sample appends to (and so reads) its --out
    out = _place(tmp_path, place, old)
    args = _writer_args(writer, out, writer_inputs)
    written = Path(args[args.index(out.with_suffix(".svg")) if writer == "render" else -1])
    result = run_mjsat(args)
    if place in ("under-a-file", "proc"):
        assert_cli_clean(result, written, ok=())
        if place == "under-a-file":
            assert (tmp_path / "plain").read_text() == "x"
        return
    assert result.exit_code == 0, result.output
    target = written.resolve()
    assert target.stat().st_size > 0 and target.read_text() != old
    if place == "symlink" and writer != "render":
        assert written.is_symlink() and target.name == "real.json"
    if place == "existing-0640" and writer != "render":
        assert stat.S_IMODE(written.stat().st_mode) == 0o640
    assert not [q for q in tmp_path.rglob(".*") if q.name.endswith((".tmp", ".old"))]


# --------------------------------------------------------------------------- regressions of issue 14


def _one_error_line(result, *names: str) -> str:
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert "\n" not in err and err.startswith("mjsat: error: "), err
    for name in names:
        assert name in err, err
    return err


def test_regression_cli_coordinates_beyond_int64(tmp_path):
    text = write_input(tmp_path, "b.txt", f"{2**70} 0 0 1\n0 2 0 1\n")
    _one_error_line(run_mjsat(["solve", text]), "b.txt:1", "out of range")
    js = write_input(
        tmp_path, "b.json", json.dumps({"format": "mjsat-board", "tiles": [[0, 2**70, 0, 1], [0, 2, 0, 1]]})
    )
    _one_error_line(run_mjsat(["solve", js]), "b.json:1", "col")
    digits = write_input(tmp_path, "d.txt", "0 0 0 1\n0 2 0 " + "1" * 5000 + "\n")
    _one_error_line(run_mjsat(["render", digits]), "d.txt:2", "5000 digits")


def test_regression_cli_cnf_sizes(tmp_path):
    huge = write_input(tmp_path, "h.cnf", f"p cnf {2**70} 1\n1 -2 3 0\n")
    _one_error_line(run_mjsat(["reduce", huge, "-o", tmp_path / "x.json"]), "h.cnf:1", "MJSAT_MAX_CNF_VARIABLES")
    billion = write_input(tmp_path, "g.cnf", "p cnf 1000000000 1\n1 -2 3 0\n")
    _one_error_line(run_mjsat(["reduce", billion, "-o", tmp_path / "x.json"]), "g.cnf:1", "the clauses use 3")
    wide = write_input(tmp_path, "w.cnf", "p cnf 100000 1\n1 -2 3 0\n")
    err = _one_error_line(run_mjsat(["reduce", wide, "--to", "shisen-rows", "-o", tmp_path / "x.json"]), "w.cnf")
    assert "32,400,540 tiles" in err and "MJSAT_MAX_TILES" in err
    some = write_input(tmp_path, "s.cnf", "p cnf 1000 1\n1 -2 3 0\n")  # 36,060 tiles as stacks
    _one_error_line(run_mjsat(["reduce", some, "-o", tmp_path / "y.json"], env={"MJSAT_MAX_TILES": "30000"}), "s.cnf")
    assert run_mjsat(["reduce", some, "-o", tmp_path / "y.json"], env={"MJSAT_MAX_TILES": "40000"}).exit_code == 0


def test_regression_cli_block_any_higher_and_bom(tmp_path):
    board = write_input(
        tmp_path, "b.json", BOARD_JSON.replace('"block_any_higher": false', '"block_any_higher": "false"')
    )
    _one_error_line(run_mjsat(["solve", board, "--method", "ref"]), "b.json:5", "block_any_higher")
    bom = write_input(tmp_path, "bom.json", b"\xef\xbb\xbf" + BOARD_JSON.encode())
    assert run_mjsat(["convert", bom, "-o", tmp_path / "c.json"]).exit_code == 0
    assert (tmp_path / "c.json").read_text() == BOARD_JSON


def test_regression_cli_negative_tile_in_solution(tmp_path):
    board = write_input(tmp_path, "b.json", BOARD_JSON)
    sol = write_input(tmp_path, "s.txt", "1 -2\n")
    _one_error_line(run_mjsat(["verify", board, sol]), "s.txt:1")


def test_regression_cli_36_levels_and_more(tmp_path):
    layout = write_input(tmp_path, "tall", "".join(f"0 0 {l}\n" for l in range(40)))
    result = run_mjsat(["layouts", "show", layout])
    assert result.exit_code == 0 and "40 40" in result.output
    assert run_mjsat(["render", "--layout", layout, "--seed", "1"]).exit_code == 0


@pytest.mark.parametrize(
    "writer", ["deal", "convert", "solve", "encode", "reduce", "witness", "family", "decode", "sample"]
)
def test_regression_cli_output_into_missing_folder(writer, tmp_path, writer_inputs):
    out = tmp_path / "new" / "folder" / "out.json"
    assert run_mjsat(_writer_args(writer, out, writer_inputs)).exit_code == 0
    assert out.stat().st_size > 0


def test_regression_encode_never_leaves_a_new_cnf_beside_an_old_map(tmp_path, writer_inputs):
    cnf, mp = tmp_path / "b.cnf", tmp_path / "b.map"
    cnf.write_text("old cnf\n")
    mp.write_text("old map\n")
    (tmp_path / "plain").write_text("x")
    bad_map = tmp_path / "plain" / "b.map"
    result = run_mjsat(["encode", writer_inputs / "board.json", "-o", cnf, "--map-output", bad_map])
    _one_error_line(result, str(bad_map))
    assert cnf.read_text() == "old cnf\n" and mp.read_text() == "old map\n"
    assert run_mjsat(["encode", writer_inputs / "board.json", "-o", cnf]).exit_code == 0
    assert cnf.read_text().startswith("c mjsat") and json.loads(mp.read_text())["format"] == "mjsat-varmap"


def test_regression_encode_steps_bounded(tmp_path, writer_inputs):
    result = run_mjsat(
        [
            "encode",
            writer_inputs / "board.json",
            "--encoding",
            "layered",
            "--steps",
            "100000000",
            "-o",
            tmp_path / "x.cnf",
        ]
    )
    _one_error_line(result, "MJSAT_MAX_STEP_CELLS")
    assert not (tmp_path / "x.cnf").exists()


def test_regression_sample_file_not_utf8(tmp_path):
    out = write_input(tmp_path, "r.jsonl", SAMPLE_SEED.encode() + b"\xff\xfe\n")
    _one_error_line(
        run_mjsat(["sample", "--layout", "tiny", "-n", "2", "--out", out, "--method", "ref"]), "r.jsonl:4", "UTF-8"
    )


def test_regression_deep_json_exit_2(tmp_path):
    deep = write_input(tmp_path, "s.json", "[" * 100_000 + "]" * 100_000)
    board = write_input(tmp_path, "b.json", BOARD_JSON)
    _one_error_line(run_mjsat(["verify", board, deep]), "s.json", "MJSAT_MAX_JSON_DEPTH")


def test_regression_limit_variable_not_a_number(tmp_path):
    layout = write_input(tmp_path, "plain", LAYOUT_SEEDS["plain"])
    err = _one_error_line(run_mjsat(["layouts", "show", layout], env={"MJSAT_MAX_TILES": "many"}), "MJSAT_MAX_TILES")
    assert "positive integer" in err
    assert run_mjsat(["layouts", "show", layout], env={"MJSAT_MAX_TILES": "1_000"}).exit_code == 0


# --------------------------------------------------------------------------- inputs that are not files (issue 38)


def _reader_args(kind: str, special: Path, inputs: Path, out: Path) -> list:
    board, cnf = inputs / "board.json", inputs / "f.cnf"
    return {
        "solve": ["solve", special, "--method", "ref"],
        "render": ["render", special],
        "convert": ["convert", special, "-o", out],
        "encode": ["encode", special, "-o", out],
        "verify-board": ["verify", special, board],
        "verify-solution": ["verify", board, special],
        "render-solution": ["render", board, "--solution", special],
        "layouts-show": ["layouts", "show", special],
        "deal": ["deal", "--layout", special, "-o", out],
        "sample-layout": ["sample", "--layout", special, "-n", "2", "--method", "ref", "--out", out],
        "reduce": ["reduce", special, "-o", out],
        "explain": ["reduce", "explain", special],
        "witness": ["reduce", "witness", special, "-o", out],
        "witness-values": ["reduce", "witness", cnf, special],
        "crossval-cnf": ["crossval", "--cnf", special, "--methods", "ref"],
        "decode-map": ["decode", inputs / "dec.json", special, inputs / "dec.out"],
        "decode-answer": ["decode", inputs / "dec.json", inputs / "dec.map", special],
        "sample-out": ["sample", "--layout", "tiny", "-n", "2", "--method", "ref", "--out", special],
    }[kind]


READERS = [
    "solve", "render", "convert", "encode", "verify-board", "verify-solution", "render-solution", "layouts-show",
    "deal", "sample-layout", "reduce", "explain", "witness", "witness-values", "crossval-cnf", "decode-map",
    "decode-answer", "sample-out",
]  # fmt: skip


def _special(root: Path, kind: str) -> Path:
    if kind == "fifo":
        os.mkfifo(root / "pipe")
        return root / "pipe"
    if kind == "folder":
        (root / "folder").mkdir()
        return root / "folder"
    return Path(kind)


@pytest.fixture
def alarm():
    """Fail a test that blocks (a FIFO waited on) instead of hanging the run."""

    def ring(*_):
        raise TimeoutError("blocked for 60 s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("special", ["fifo", "folder", "/dev/zero", "/dev/urandom", "/dev/full", "/dev/null"])
@pytest.mark.parametrize("reader", READERS)
def test_inputs_that_are_not_regular_files_are_one_line(reader, special, tmp_path, writer_inputs, alarm):
    path = _special(tmp_path, special)
    out = tmp_path / "out.json"
    args = _reader_args(reader, path, writer_inputs, out)
    result = run_mjsat(args)
    if special == "/dev/null" and reader == "sample-out":
        assert_cli_clean(result, path, ok=())  # appended to and rewritten: a results file must be a file
        return
    assert_cli_clean(result, path, ok=())
    assert not out.exists()


def test_input_size_limit(tmp_path):
    board = write_input(tmp_path, "b.json", BOARD_JSON)
    result = run_mjsat(["solve", board, "--method", "ref"], env={"MJSAT_MAX_INPUT_BYTES": "100"})
    err = _one_error_line(result, str(board), "MJSAT_MAX_INPUT_BYTES")
    assert f"{len(BOARD_JSON.encode()):,} bytes, above the limit of 100" in err
    assert run_mjsat(["solve", board, "--method", "ref"]).exit_code == 0


@pytest.mark.parametrize("content", ["empty", "fifo", "broken-link", "notes-only"])
def test_crossval_folder_without_a_readable_board_is_refused(content, tmp_path, alarm):
    folder = tmp_path / "boards"
    folder.mkdir()
    if content == "fifo":
        os.mkfifo(folder / "b.json")
    elif content == "broken-link":
        (folder / "b.json").symlink_to(tmp_path / "gone.json")
    elif content == "notes-only":
        (folder / "notes.txt").write_text("\n")
    result = run_mjsat(["crossval", "--folder", folder, "--methods", "ref"])
    assert_cli_clean(result, folder, ok=())


def test_crossval_cnf_folder_without_a_cnf_is_refused(tmp_path):
    result = run_mjsat(["crossval", "--cnf", tmp_path, "--methods", "ref"])
    _one_error_line(result, str(tmp_path), "no .cnf file")


# --------------------------------------------------------------------------- the smaller items of issue 38


@pytest.mark.parametrize("command", ["layouts-show", "sample", "deal"])
def test_a_300_character_layout_name_is_one_line(command, tmp_path):
    name = "a" * 300
    args = {
        "layouts-show": ["layouts", "show", name],
        "sample": ["sample", "--layout", name, "-n", "1", "--out", tmp_path / "s.jsonl"],
        "deal": ["deal", "--layout", name],
    }[command]
    _one_error_line(run_mjsat(args), "unknown layout")


@pytest.mark.parametrize("content", [b"", b"\xef\xbb\xbf", b"\xef\xbb\xbf\n\n", b"# nothing\n"])
@pytest.mark.parametrize("suffix", [".json", ".txt", ".layout", ""])
def test_an_empty_or_bom_only_layout_file_is_refused(content, suffix, tmp_path):
    path = write_input(tmp_path, "lay" + suffix, content)
    for args in (["layouts", "show", path], ["deal", "--layout", path, "-o", tmp_path / "b.json"]):
        _one_error_line(run_mjsat(args), str(path))
    assert not (tmp_path / "b.json").exists()


def test_a_sample_refusal_is_one_line_without_a_progress_bar(tmp_path):
    out = tmp_path / "r.jsonl"
    assert run_mjsat(["sample", "--layout", "tiny", "-n", "2", "--out", out, "--method", "ref"]).exit_code == 0
    result = run_mjsat(["sample", "--layout", "tiny", "-n", "4", "--out", out, "--method", "ref", "--time-limit", "3"])
    _one_error_line(result, str(out), "--time-limit")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1"])
def test_time_limits_that_are_not_a_number_of_seconds(value, tmp_path):
    board = write_input(tmp_path, "b.json", BOARD_JSON)
    for args in (
        ["solve", board, "--time-limit", value],
        ["sample", "--layout", "tiny", "-n", "1", "--out", tmp_path / "s.jsonl", "--time-limit", value],
        ["crossval", "--random-small", "1", "--time-limit", value],
    ):
        _one_error_line(run_mjsat(args), value.lstrip("-") if value != "0" else "0")
    assert not (tmp_path / "s.jsonl").exists()


def test_duplicate_json_keys_are_refused_naming_the_line(tmp_path):
    text = BOARD_JSON.replace('"game": ', '"game": "mahjong",\n "game": ', 1)
    board = write_input(tmp_path, "b.json", text)
    line = text[: text.index('"game"', text.index('"game"') + 1)].count("\n") + 1
    _one_error_line(run_mjsat(["solve", board]), f"{board}:{line}:", "'game' twice")
    layout = write_input(tmp_path, "l.json", '{"format": "mjsat-layout", "version": 1, "tiles": [], "tiles": []}')
    _one_error_line(run_mjsat(["layouts", "show", layout]), str(layout), "'tiles' twice")


def test_layouts_show_json_reads_back_as_the_layout(tmp_path):
    from mjsat.layouts import load_layout, shipped_infos

    for name in [info.name for info in shipped_infos()]:
        first = run_mjsat(["layouts", "show", name, "--json"])
        assert first.exit_code == 0, first.output
        path = write_input(tmp_path, f"{name}.json", first.stdout)
        again = run_mjsat(["layouts", "show", path, "--json"])
        assert again.exit_code == 0, again.output
        a, b = json.loads(first.stdout), json.loads(again.stdout)
        assert a["tiles"] == b["tiles"] and a["block_any_higher"] == b["block_any_higher"] and a["name"] == b["name"]
        assert load_layout(str(path)).positions == load_layout(name).positions


def test_a_search_switch_of_the_wrong_value_is_refused_for_every_board(tmp_path):
    from mjsat.generate import random_small_board
    from mjsat.methods import solve
    from mjsat.search.solver import SearchOptionError

    rng = np.random.default_rng(8)
    for _ in range(12):
        board = random_small_board(rng)
        for value in ("on", "maybe", 2, 0.5):
            with pytest.raises(SearchOptionError, match="freeze_pair must be true or false"):
                solve(board, "search", freeze_pair=value)
        assert solve(board, "search", freeze_pair=True).status == solve(board, "ref").status
    path = write_input(tmp_path, "b.json", BOARD_JSON)
    _one_error_line(run_mjsat(["solve", path, "--method", "search", "-O", "freeze_pair=maybe"]), "freeze_pair", "maybe")


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_cli_saves(budget, tmp_path):
    """A damaged save through solve, verify and render: read, or one line naming it; never
    a traceback, never a changed output."""
    old = tmp_path / "old.json"

    @fuzz(budget)
    @given(
        raw=st.one_of(mutated_bytes(SAVE_TEXT), mutated_json(json.loads(SAVE_TEXT)).map(str.encode)),
        command=st.sampled_from(["solve", "verify", "render"]),
    )
    def run(raw, command):
        save = write_input(tmp_path, "g.save", raw)
        old.write_text("old\n")
        args = {
            "solve": ["solve", save, "--method", "ref", "-o", old],
            "verify": ["verify", save],
            "render": ["render", save, "-o", old.with_suffix(".svg")],
        }[command]
        result = run_mjsat(args)
        assert_cli_clean(result, save, ok=(0, 1) if command == "verify" else (0,))
        if result.exit_code == 2:
            assert old.read_text() == "old\n"

    run()
