"""Fuzzing every reader as a library call: damaged files end in a value or in one
:class:`~mjsat.fileio.InputFileError` line naming the file, never in another exception.

Each test starts from a valid file of its format (see :mod:`fuzz_inputs` for the damage
done) and checks, beyond "no other exception", that what a reader accepts is usable: a
board round-trips and draws, a layout lies in range, a decoder decodes any model.
The named regression tests below the fuzz tests pin the inputs of issue 14.
"""

from __future__ import annotations

import json
import os
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
    SOLVER_SEEDS,
    assert_one_line,
    fuzz,
    mutated_bytes,
    mutated_json,
    mutated_text,
    read_or_refuse,
    write_input,
)
from hypothesis import given, strategies as st

from mjsat.board import MAX_COORD, MAX_LEVEL, Layout, MahjongBoard, find_variant
from mjsat.boardio import board_from_json_text, board_to_json, board_to_text, load_board, load_solution
from mjsat.encoders.decoding import InvalidMapError
from mjsat.encoders.dimacs import parse_solver_output, read_dimacs
from mjsat.encoders.encodings import decoder_from_json, encode
from mjsat.encoders.varmap import map_text, read_map
from mjsat.fileio import InputFileError, OutputFileError, parse_json, read_text, write_text_atomic, write_texts_atomic
from mjsat.generate import random_small_board
from mjsat.layouts import read_layout
from mjsat.limits import SizeLimitError
from mjsat.reductions.cnf import normalize_3cnf, parse_assignment
from mjsat.reductions.targets import reduce_formula
from mjsat.render import ascii_board, ascii_top_view, svg_board
from mjsat.runs.sample import read_done, summarize

# --------------------------------------------------------------------------- valid seeds


def _board() -> MahjongBoard:
    board = random_small_board(np.random.default_rng(5))
    board.names = {g: f"g{g}" for g in board.group_sizes()}
    board.meta = {"seed": 1, "gadgets": [{"label": "x", "tiles": [0, 1]}]}
    return board


BOARD = _board()
BOARD_JSON = board_to_json(BOARD)
BOARD_TEXT = board_to_text(BOARD)


def _maps() -> dict[str, str]:
    small = random_small_board(np.random.default_rng(3))
    out = {}
    for encoding in ("layered", "parity", "order", "acyclic"):
        cnf, decoder = encode(small, encoding=encoding)
        out[encoding] = map_text(cnf, small, decoder)
    return out


MAPS = _maps()


@pytest.fixture
def small_limits(monkeypatch):
    """Limits small enough that an accepted fuzz input builds quickly."""
    monkeypatch.setenv("MJSAT_MAX_TILES", "20000")
    monkeypatch.setenv("MJSAT_MAX_CNF_VARIABLES", "500")


# --------------------------------------------------------------------------- fuzz: boards


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_board_json(budget, tmp_path):
    data = json.loads(BOARD_JSON)

    @fuzz(budget)
    @given(raw=st.one_of(mutated_bytes(BOARD_JSON), mutated_json(data).map(str.encode)))
    def run(raw):
        path = write_input(tmp_path, "board.json", raw)
        board = read_or_refuse(lambda: load_board(path), path)
        if board is None:
            return
        given_data = json.loads(raw.decode("utf-8-sig"))  # accepted, so JSON: what it says was read as said
        assert given_data.get("block_any_higher", False) is board.layout.block_any_higher
        assert find_variant(given_data.get("game", "mahjong")).game == board.game
        assert all(type(v) is int for tile in given_data["tiles"] for v in tile)
        again = board_from_json_text(board_to_json(board))
        assert (again.layout, again.groups, again.names, again.meta) == (
            board.layout,
            board.groups,
            board.names,
            board.meta,
        )
        assert isinstance(board.layout.block_any_higher, bool)
        svg_board(board)
        ascii_board(board)

    run()


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_board_text(budget, tmp_path):
    @fuzz(budget)
    @given(raw=mutated_bytes(BOARD_TEXT), game=st.sampled_from(["mahjong", "shisen-sho", "shisen-sho-3d"]))
    def run(raw, game):
        path = write_input(tmp_path, "board.txt", raw)
        board = read_or_refuse(lambda: load_board(path, game=game), path)
        if board is None:
            return
        assert all(
            0 <= r <= MAX_COORD and 0 <= c <= MAX_COORD and 0 <= l <= MAX_LEVEL for r, c, l in board.layout.positions
        )
        assert all(-(2**63) <= g < 2**63 for g in board.groups)
        ascii_board(board)

    run()


# --------------------------------------------------------------------------- fuzz: layouts


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("name", sorted(LAYOUT_SEEDS))
def test_fuzz_layout_files(budget, name, tmp_path, small_limits):
    base = LAYOUT_SEEDS[name]
    strategy = mutated_bytes(base)
    if name.endswith(".json"):
        strategy = st.one_of(strategy, mutated_json(json.loads(base)).map(str.encode))

    @fuzz(budget)
    @given(raw=strategy)
    def run(raw):
        path = write_input(tmp_path, name, raw)
        layout = read_or_refuse(lambda: read_layout(path), path)
        if layout is None:
            return
        assert len(layout) % 2 == 0 and len(layout) <= 20000
        assert all(0 <= r <= MAX_COORD and 0 <= c <= MAX_COORD and 0 <= l <= MAX_LEVEL for r, c, l in layout.positions)
        if len(layout):
            ascii_top_view(MahjongBoard(layout, [0] * len(layout)))

    run()


# --------------------------------------------------------------------------- fuzz: solutions


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_solutions(budget, tmp_path):
    strategy = st.one_of(
        *(mutated_bytes(s) for s in SOLUTION_SEEDS),
        mutated_json(json.loads(SOLUTION_SEEDS[0])).map(str.encode),
        mutated_json(json.loads(SOLUTION_SEEDS[1])).map(str.encode),
    )

    @fuzz(budget)
    @given(raw=strategy, with_board=st.booleans())
    def run(raw, with_board):
        path = write_input(tmp_path, "sol.txt", raw)
        moves = read_or_refuse(lambda: load_solution(path, BOARD if with_board else None), path)
        if moves is None:
            return
        for a, b in moves:
            assert type(a) is int and type(b) is int and a >= 0 and b >= 0
            if with_board:
                assert a < len(BOARD) and b < len(BOARD)

    run()


# --------------------------------------------------------------------------- fuzz: CNF and assignments


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_dimacs(budget, tmp_path, small_limits):
    @fuzz(budget)
    @given(raw=mutated_bytes(CNF_SEED), target=st.sampled_from(["stacks", "rows", "shisen-sho"]))
    def run(raw, target):
        path = write_input(tmp_path, "f.cnf", raw)
        cnf = read_or_refuse(lambda: read_dimacs(path), path)
        if cnf is None:
            return
        assert cnf.nv <= 500
        assert all(0 < abs(lit) <= cnf.nv for c in cnf.clauses for lit in c)
        try:
            red = reduce_formula(normalize_3cnf(cnf), target)
        except SizeLimitError as exc:
            assert "MJSAT_MAX_TILES" in str(exc) and "\n" not in str(exc)
            return
        assert len(red.board) <= 20000

    run()


INFIX_SEEDS = ["(x1 | -x2 | x3) & (-x1 | x2) & (x2 | ~x3)", "x1 & (!x2 || 3) && (v4 ∨ ¬V1)\n& -x5"]


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_infix_formulas(budget, tmp_path, small_limits):
    from mjsat.reductions.cnf import read_formula

    @fuzz(budget)
    @given(raw=st.one_of(*(mutated_bytes(s) for s in INFIX_SEEDS)))
    def run(raw):
        path = write_input(tmp_path, "f.txt", raw)
        cnf = read_or_refuse(lambda: read_formula(path), path)
        if cnf is None:
            return
        assert cnf.nv <= 500
        assert all(0 < abs(lit) <= cnf.nv for c in cnf.clauses for lit in c)

    run()


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_assignments(budget):
    @fuzz(budget)
    @given(text=st.one_of(*(mutated_text(s) for s in ASSIGNMENT_SEEDS)))
    def run(text):
        values = read_or_refuse(lambda: parse_assignment(text, "a.txt", n_vars=5), "a.txt")
        if values is not None:
            assert sorted(values) == [1, 2, 3, 4, 5] and all(isinstance(v, bool) for v in values.values())

    run()


# --------------------------------------------------------------------------- fuzz: maps and solver output


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_variable_maps(budget, tmp_path):
    strategy = st.one_of(
        *(mutated_bytes(t, max_ops=2) for t in MAPS.values()),
        *(mutated_json(json.loads(t)).map(str.encode) for t in MAPS.values()),
    )

    @fuzz(budget)
    @given(raw=strategy, model=st.lists(st.integers(-40, 40).filter(bool), max_size=40))
    def run(raw, model):
        path = write_input(tmp_path, "b.map", raw)
        got = read_or_refuse(lambda: read_map(path), path)
        if got is None:
            return
        head, decoder = got
        decoded = decoder.decode(model)  # any model decodes (replay judges the moves)
        assert all(isinstance(a, int) and isinstance(b, int) for a, b in decoded.moves)

    run()


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_decoder_from_json(budget):
    strategy = st.one_of(*(mutated_json(json.loads(t), indent=None) for t in MAPS.values()))

    @fuzz(budget)
    @given(text=strategy, model=st.lists(st.integers(-40, 40).filter(bool), max_size=40))
    def run(text, model):
        data = json.loads(text)
        try:
            decoder = decoder_from_json(data)
        except InvalidMapError as exc:
            assert "\n" not in str(exc)
            return
        decoder.decode(model)

    run()


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_solver_output(budget, tmp_path):
    @fuzz(budget)
    @given(raw=st.one_of(*(mutated_bytes(s) for s in SOLVER_SEEDS)))
    def run(raw):
        path = write_input(tmp_path, "out.txt", raw)
        got = read_or_refuse(lambda: parse_solver_output(read_text(path), path, n_vars=5), path)
        if got is not None:
            status, model = got
            assert status in ("sat", "unsat", "unknown") and all(0 < abs(x) <= 5 for x in model)

    run()


# --------------------------------------------------------------------------- fuzz: sample results


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_sample_results(budget, tmp_path):
    first = json.loads(SAMPLE_SEED.splitlines()[0])

    @fuzz(budget)
    @given(
        raw=st.one_of(
            mutated_bytes(SAMPLE_SEED),
            mutated_json(first, indent=None).map(lambda line: (SAMPLE_SEED + line + "\n").encode()),
        )
    )
    def run(raw):
        path = write_input(tmp_path, "r.jsonl", raw)
        rows = read_or_refuse(lambda: read_done(path, repair=False), path)
        if rows is not None:
            summarize(rows)

    run()


# --------------------------------------------------------------------------- fuzz: writers


SITUATIONS = [
    "new",
    "missing-folders",
    "existing-0640",
    "symlink",
    "dangling-symlink",
    "under-a-file",
    "is-a-folder",
    "proc",
    "device",
]


def _situation(root: Path, kind: str) -> Path:
    """An output path in one of the situations a writer meets."""
    if kind == "new":
        return root / "out.txt"
    if kind == "missing-folders":
        return root / "a" / "b" / "out.txt"
    if kind == "existing-0640":
        p = root / "out.txt"
        p.write_text("old")
        p.chmod(0o640)
        return p
    if kind == "symlink":
        (root / "real.txt").write_text("old")
        (root / "link.txt").symlink_to(root / "real.txt")
        return root / "link.txt"
    if kind == "dangling-symlink":
        (root / "link.txt").symlink_to(root / "sub" / "target.txt")
        return root / "link.txt"
    if kind == "under-a-file":
        (root / "plain").write_text("x")
        return root / "plain" / "out.txt"
    if kind == "is-a-folder":
        (root / "dir").mkdir()
        return root / "dir"
    if kind == "device":
        return Path("/dev/null")
    return Path("/proc/mjsat-no-such-folder/out.txt")


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_writers(budget, tmp_path_factory):
    @fuzz(budget)
    @given(kinds=st.lists(st.sampled_from(SITUATIONS), min_size=1, max_size=3, unique=True), text=st.text(max_size=50))
    def run(kinds, text):
        roots = [tmp_path_factory.mktemp("w") for _ in kinds]
        paths = [_situation(root, kind) for root, kind in zip(roots, kinds)]
        before = {p: (p.read_bytes() if p.is_file() else None) for p in paths}
        try:
            write_texts_atomic([(p, text) for p in paths])
        except OutputFileError as exc:
            assert_one_line(str(exc), next(p for p in paths if str(exc).startswith(str(p))))
            for p in paths:  # nothing changed
                assert (p.read_bytes() if p.is_file() else None) == before[p]
            return
        assert all(k not in ("under-a-file", "is-a-folder", "proc") for k in kinds)
        for p, kind in zip(paths, kinds):
            if kind == "device":
                continue
            assert p.read_bytes().decode("utf-8") == text
            if kind in ("symlink", "dangling-symlink"):
                assert p.is_symlink()
            if kind == "existing-0640":
                assert stat.S_IMODE(p.stat().st_mode) == 0o640
        for root in roots:
            assert not [q for q in root.rglob("*") if q.name.endswith((".tmp", ".old"))]

    run()


# --------------------------------------------------------------------------- regressions of issue 14


def _error(path: Path, fn) -> InputFileError:
    with pytest.raises(InputFileError) as exc:
        fn()
    assert_one_line(str(exc.value), path)
    return exc.value


def test_regression_coordinate_beyond_int64_json_and_text(tmp_path):
    p = write_input(
        tmp_path, "b.json", json.dumps({"format": "mjsat-board", "tiles": [[2**70, 0, 0, 1], [0, 2, 0, 1]]})
    )
    assert "out of range" in _error(p, lambda: load_board(p)).message
    q = write_input(tmp_path, "b.txt", f"{2**70} 0 0 1\n0 2 0 1\n")
    err = _error(q, lambda: load_board(q))
    assert err.line == 1 and "row" in err.message
    with pytest.raises(ValueError) as core:
        Layout([(2**70, 0, 0), (0, 2, 0)])
    assert "row and col" in str(core.value)


def test_regression_5000_digit_number_in_text_board(tmp_path):
    p = write_input(tmp_path, "b.txt", "0 0 0 1\n0 2 0 " + "7" * 5000 + "\n")
    err = _error(p, lambda: load_board(p))
    assert err.line == 2 and "5000 digits" in err.message and len(str(err)) < 200


def test_regression_cnf_header_of_2_70_variables(tmp_path):
    p = write_input(tmp_path, "f.cnf", f"p cnf {2**70} 1\n1 -2 3 0\n")
    err = _error(p, lambda: read_dimacs(p))
    assert err.line == 1 and "MJSAT_MAX_CNF_VARIABLES" in err.message and "use 3" in err.message


def test_regression_block_any_higher_string_refused(tmp_path):
    text = BOARD_JSON.replace('"block_any_higher": false', '"block_any_higher": "false"')
    p = write_input(tmp_path, "b.json", text)
    err = _error(p, lambda: load_board(p))
    assert err.line == 5 and "true or false" in err.message
    for key, value in [
        ("game", 3),
        ("layout", []),
        ("group_names", {"1": 2}),
        ("version", True),
        ("meta", {"gadgets": "x"}),
    ]:
        data = json.loads(BOARD_JSON)
        data[key] = value
        q = write_input(tmp_path, "c.json", json.dumps(data))
        _error(q, lambda: load_board(q))


@pytest.mark.parametrize("kind", ["board.json", "board.txt", "layout.json", "layout", "sol.txt", "f.cnf"])
def test_regression_byte_order_mark_accepted(tmp_path, kind):
    text = {
        "board.json": BOARD_JSON,
        "board.txt": BOARD_TEXT,
        "layout.json": LAYOUT_SEEDS["j.json"],
        "layout": LAYOUT_SEEDS["plain"],
        "sol.txt": SOLUTION_SEEDS[0],
        "f.cnf": CNF_SEED,
    }[kind]
    p = write_input(tmp_path, kind, b"\xef\xbb\xbf" + text.encode())
    read = {
        "board.json": load_board,
        "board.txt": load_board,
        "layout.json": read_layout,
        "layout": read_layout,
        "sol.txt": load_solution,
        "f.cnf": read_dimacs,
    }[kind]
    plain = write_input(tmp_path, "plain-" + kind, text)
    got, want = read(p), read(plain)
    if kind.startswith("board"):
        got, want = (got.layout, got.groups, got.game), (want.layout, want.groups, want.game)
    if kind == "f.cnf":
        got, want = (got.nv, got.clauses), (want.nv, want.clauses)
    assert got == want


def test_regression_negative_tile_in_text_solution(tmp_path):
    p = write_input(tmp_path, "sol.txt", "0 1\n1 -2\n")
    err = _error(p, lambda: load_solution(p))
    assert err.line == 2 and "'1 -2'" in err.message
    for ok in ("1-2", "1 2", "1,2", "1 , 2"):
        assert load_solution(write_input(tmp_path, "ok.txt", ok + "\n")) == [(1, 2)]
    for bad in ("1 - 2", "-1 2", "1 +2", "1 2 3", "1\t-2", "١ 2"):
        q = write_input(tmp_path, "bad.txt", bad + "\n")
        _error(q, lambda: load_solution(q))


@pytest.mark.parametrize("levels", [35, 36, 40, 127])
def test_regression_tall_layouts_draw(levels):
    layout = Layout([(0, 0, l) for l in range(levels)] + [(0, 2, 0)] * (levels % 2))
    board = MahjongBoard(layout, [0] * len(layout))
    top = ascii_top_view(board).splitlines()
    if levels >= 36:
        assert top[0].split()[0] == str(levels)
    else:
        assert top[0][0] == "0123456789abcdefghijklmnopqrstuvwxyz"[levels]
    assert f"level {levels - 1} (1 tile)" in ascii_board(board)


def test_regression_non_utf8_sample_file_named(tmp_path):
    p = write_input(tmp_path, "r.jsonl", SAMPLE_SEED.encode() + b'{"seed": 9, "status": "\xff"}\n')
    err = _error(p, lambda: read_done(p))
    assert err.line == 4 and "0xff" in err.message


def test_regression_non_utf8_any_reader_named(tmp_path):
    for name, read in [
        ("b.json", load_board),
        ("b.txt", load_board),
        ("l.layout", read_layout),
        ("f.cnf", read_dimacs),
    ]:
        p = write_input(tmp_path, name, b"\xff\xfe" + b"0 0 0\n")
        assert _error(p, lambda: read(p)).line == 1


def test_regression_deep_json_bounded(tmp_path):
    deep = (
        '{"format": "mjsat-board", "tiles": [[0, 0, 0, 1], [0, 2, 0, 1]], "meta": {"x": '
        + "[" * 100_000
        + "]" * 100_000
        + "}}"
    )
    p = write_input(tmp_path, "b.json", deep)
    assert "MJSAT_MAX_JSON_DEPTH" in _error(p, lambda: load_board(p)).message
    for name, read in [("s.json", load_solution), ("l.json", read_layout), ("m.map", read_map)]:
        q = write_input(tmp_path, name, "[" * 100_000 + "]" * 100_000)
        _error(q, lambda: read(q))
    assert parse_json("[" * 64 + "]" * 64) == json.loads("[" * 64 + "]" * 64)


def test_regression_declared_variables_checked_before_any_allocation(tmp_path):
    p = write_input(tmp_path, "f.cnf", "p cnf 1000000000 1\n1 -2 3 0\n")
    err = _error(p, lambda: read_dimacs(p))
    assert "1,000,000,000" in err.message and "the clauses use 3" in err.message
    with pytest.raises(SizeLimitError, match="MJSAT_MAX_TILES"):
        reduce_formula(normalize_3cnf([[1, -2, 3]], n_vars=10**9), "rows")


def test_regression_tile_limit_named_and_liftable(tmp_path, monkeypatch):
    p = write_input(tmp_path, "l", LAYOUT_SEEDS["plain"])
    monkeypatch.setenv("MJSAT_MAX_TILES", "10")
    err = _error(p, lambda: read_layout(p))
    assert "more than 10 tiles" in err.message and "MJSAT_MAX_TILES" in err.message and err.line == 12
    monkeypatch.setenv("MJSAT_MAX_TILES", "20")
    assert len(read_layout(p)) == 20
    monkeypatch.setenv("MJSAT_MAX_TILES", str(len(BOARD) - 1))
    for name in ("b.json", "b.txt"):
        q = write_input(tmp_path, name, BOARD_JSON if name.endswith("json") else BOARD_TEXT)
        assert "MJSAT_MAX_TILES" in _error(q, lambda: load_board(q)).message


def test_regression_write_group_is_all_or_nothing(tmp_path, monkeypatch):
    a, b = tmp_path / "x.cnf", tmp_path / "x.map"
    write_texts_atomic([(a, "old cnf"), (b, "old map")])
    real = os.replace
    calls = []

    def failing(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(OutputFileError, match="No space left"):
        write_texts_atomic([(a, "new cnf"), (b, "new map")])
    monkeypatch.setattr(os, "replace", real)
    assert (a.read_text(), b.read_text()) == ("old cnf", "old map")
    assert sorted(q.name for q in tmp_path.iterdir()) == ["x.cnf", "x.map"]


def test_regression_write_keeps_mode_and_follows_links(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    real.chmod(0o600)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_text_atomic(link, "new")
    assert link.is_symlink() and real.read_text() == "new" and stat.S_IMODE(real.stat().st_mode) == 0o600
    write_text_atomic(tmp_path / "new" / "deeper" / "f.txt", "x")
    assert (tmp_path / "new" / "deeper" / "f.txt").read_text() == "x"


# --------------------------------------------------------------------------- saves and the page's parameters (issue 38)


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_saves_one_reader(budget, tmp_path):
    """Whatever a save holds, the game and the commands' reader agree: both read it (the
    same deal and moves) or both refuse it on one line naming the file."""
    from mjsat.boardio import load_record
    from mjsat.game.save import game_from_save_text

    @fuzz(budget)
    @given(raw=st.one_of(mutated_bytes(SAVE_TEXT), mutated_json(json.loads(SAVE_TEXT)).map(str.encode)))
    def run(raw):
        path = write_input(tmp_path, "g.save", raw)
        game = read_or_refuse(lambda: game_from_save_text(read_text(path), str(path)), path)
        record = read_or_refuse(lambda: load_record(path), path)
        assert (game is None) == (record is None), (game, record)
        if game is not None:
            deal, moves = record
            assert moves == game.moves and deal.groups == game.board.groups

    run()


@pytest.mark.parametrize("budget", BUDGETS)
def test_fuzz_page_parameters(budget):
    """A request body is a JSON object or a 400 (BadRequestError); a parameter is an
    integer in its range or a 400: never another exception."""
    from mjsat.game.params import BadRequestError, integer, json_object, name

    body = json.dumps({"a": 1, "b": 2, "seed": 3, "difficulty": "hard", "moves": [[0, 1]]})

    @fuzz(budget)
    @given(raw=st.one_of(mutated_bytes(body), st.binary(max_size=200), mutated_json(json.loads(body)).map(str.encode)))
    def run(raw):
        try:
            data = json_object(raw)
        except BadRequestError as exc:
            assert "\n" not in str(exc)
            return
        assert isinstance(data, dict)
        for key in ("a", "b", "seed", "x"):
            try:
                assert 0 <= integer(data, key, high=11) <= 11
            except BadRequestError as exc:
                assert f'"{key}"' in str(exc) and "\n" not in str(exc)
        try:
            assert name(data, "difficulty", ("normal", "hard")) in ("normal", "hard")
        except BadRequestError as exc:
            assert '"difficulty"' in str(exc)

    run()
