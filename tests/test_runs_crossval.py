"""Cross-validation: every registered exact method agrees on small board sets; a lying
method is caught, its board written with every answer, and the command exits 1."""

from __future__ import annotations

import json
import textwrap

import numpy as np
import pytest
from click.testing import CliRunner

from mjsat import methods as methods_mod
from mjsat.board import KINDS
from mjsat.boardio import load_board, write_board
from mjsat.cli import cli
from mjsat.encoders.stacks import is_stack_shaped
from mjsat.generate import random_height2_board
from mjsat.methods import MethodInfo
from mjsat.runs import crossval as cv

LIAR = textwrap.dedent(
    """
    from mjsat.result import SolveResult

    def solve_liar(board, *, time_limit=None, seed=0):
        return SolveResult("unsolvable", "liar")

    def solve_cheat(board, *, time_limit=None, seed=0):
        return SolveResult("solvable", "cheat", moves=[(0, 1)])
    """
)


@pytest.fixture
def liar_methods(tmp_path, monkeypatch):
    (tmp_path / "crossval_liar.py").write_text(LIAR)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(methods_mod.METHODS, "liar", MethodInfo("liar", "crossval_liar:solve_liar", KINDS, True, ""))
    monkeypatch.setitem(methods_mod.METHODS, "cheat", MethodInfo("cheat", "crossval_liar:solve_cheat", KINDS, True, ""))


def test_every_registered_method_agrees_on_small_sets():
    specs = cv.discover_methods()
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
    specs = cv.discover_methods(only=["ref", "liar"])
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
    specs = cv.discover_methods(only=["cheat"])
    board = random_height2_board(np.random.default_rng(0), n_tiles=8)
    report = cv.run_crossval([cv.BoardCase("x", board, "test")], specs, out_dir=tmp_path)
    assert report.per_method["cheat"].errors == 1
    assert "wrong solution" in report.disagreements[0].why


def test_known_answer_is_checked():
    specs = cv.discover_methods(only=["ref"])
    rng = np.random.default_rng(2)
    board = random_height2_board(rng, n_tiles=8, solvable=True)
    report = cv.run_crossval([cv.BoardCase("c", board, "t", expected="unsolvable")], specs)
    assert "known to be unsolvable" in report.disagreements[0].why


def test_ref_skips_big_boards_and_height2_other_layouts():
    specs = cv.discover_methods(only=["ref", "height2"])
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


def test_cnf_set_from_the_reductions(tmp_path):
    cnf = tmp_path / "f.cnf"
    cnf.write_text("p cnf 2 2\n1 2 0\n-1 0\n")
    cases = list(cv.cnf_cases([cnf]))
    assert [c.name.rsplit(":", 1)[1] for c in cases] == ["stacks", "rows"]
    assert all(c.expected == "solvable" for c in cases)


def test_cli_json_and_exit_codes(tmp_path, liar_methods):
    runner = CliRunner()
    r = runner.invoke(cli, ["crossval", "--random-small", "8", "--height2", "8", "--methods", "ref,height2", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["boards"] == 16 and data["disagreements"] == []
    assert {m["method"] for m in data["methods"]} == {"ref", "height2"}
    assert data["agreement"][0]["agreed"] == data["agreement"][0]["both_decided"] > 0
    out = tmp_path / "dis"
    r = runner.invoke(
        cli, ["crossval", "--random-small", "10", "--methods", "ref,liar", "--out-dir", str(out), "--no-progress"]
    )
    assert r.exit_code == 1
    assert "DISAGREEMENT" in r.output and list(out.glob("disagreement-*.json"))
    r = runner.invoke(cli, ["crossval", "--methods", "ref"])
    assert r.exit_code == 2 and "name at least one board set" in r.output
    r = runner.invoke(cli, ["crossval", "--random-small", "2", "--methods", "nosuch"])
    assert r.exit_code == 2 and "unknown method" in r.output


# --------------------------------------------------------------------------- "does not apply" and start-up checks

REFUSERS = textwrap.dedent(
    """
    from mjsat.result import MethodNotApplicableError

    def solve_refuser(board, *, time_limit=None, seed=0):
        raise MethodNotApplicableError("refuser", board.game, "only boards I like")

    def solve_breaker(board, *, time_limit=None, seed=0):
        raise ValueError("an input error of the method itself")
    """
)


@pytest.fixture
def refuser_methods(tmp_path, monkeypatch):
    (tmp_path / "crossval_refusers.py").write_text(REFUSERS)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(
        methods_mod.METHODS, "refuser", MethodInfo("refuser", "crossval_refusers:solve_refuser", KINDS, True, "")
    )
    monkeypatch.setitem(
        methods_mod.METHODS, "breaker", MethodInfo("breaker", "crossval_refusers:solve_breaker", KINDS, True, "")
    )


def test_only_method_not_applicable_counts_as_na(tmp_path, refuser_methods):
    specs = cv.discover_methods(only=["ref", "refuser", "breaker"])
    cases = list(cv.random_small_cases(seed=2, count=6, max_tiles=8))
    report = cv.run_crossval(cases, specs, out_dir=tmp_path / "dis")
    assert report.per_method["refuser"].not_applicable == 6 and report.per_method["refuser"].errors == 0
    assert report.per_method["breaker"].errors == 6 and report.per_method["breaker"].not_applicable == 0
    assert len(report.disagreements) == 6
    assert all("breaker: raised ValueError: an input error" in d.why for d in report.disagreements)
    board = load_board(report.disagreements[0].file)
    assert board.meta["crossval"]["answers"]["refuser"] == {
        "status": "n/a",
        "seconds": 0.0,
        "reason": "only boards I like",
        "moves": [],
    }


def test_a_size_refusal_counts_as_not_applicable(tmp_path, monkeypatch):
    """The order encoding above its size, and any SizeLimitError, is n/a, not a disagreement."""
    from mjsat.board import Layout, MahjongBoard

    (tmp_path / "crossval_big.py").write_text(
        "from mjsat.limits import SizeLimitError\n"
        "def solve_big(board, *, time_limit=None, seed=0):\n"
        "    raise SizeLimitError('the board has too many tiles for me')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(methods_mod.METHODS, "big", MethodInfo("big", "crossval_big:solve_big", KINDS, True, ""))
    row = MahjongBoard(Layout([(0, 2 * i, 0) for i in range(400)]), [min(i, 399 - i) for i in range(400)])
    cases = [cv.BoardCase("row-400", row, "test", "solvable")]
    specs = cv.discover_methods(only=["sat", "big", "search"], encodings=["order", "acyclic"], solvers=["cadical195"])
    report = cv.run_crossval(cases, specs, out_dir=tmp_path / "dis")
    assert report.disagreements == []
    order = report.per_method["sat[encoding=order,solver=cadical195]"]
    assert (order.not_applicable, order.errors, order.applied) == (1, 0, 0)
    assert (report.per_method["big"].not_applicable, report.per_method["big"].errors) == (1, 0)
    assert report.per_method["sat[encoding=acyclic,solver=cadical195]"].solvable == 1
    assert report.per_method["search"].solvable == 1
    assert not (tmp_path / "dis").exists()


@pytest.mark.slow
def test_crossval_cnf_instances_exits_0():
    """The shipped CNF folder: every size refusal is n/a, every answer agrees (exit 0)."""
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "instances"
    res = CliRunner().invoke(cli, ["crossval", "--cnf", str(folder), "--json", "--time-limit", "60"])
    assert res.exit_code == 0, res.output[-2000:]
    data = json.loads(res.output)
    assert data["disagreements"] == []
    assert any(m["not_applicable"] > 0 for m in data["methods"] if "encoding=order" in m["method"])


def test_height2_says_not_applicable_with_its_own_exception_sat_and_cpsat_decide_3d():
    from mjsat.result import MethodNotApplicableError
    from mjsat.search.height2 import NotHeightTwoError

    shisen3d = next(b for b in cv.random_small_cases(seed=0, count=4) if b.board.game == "shisen-sho-3d").board
    with pytest.raises(MethodNotApplicableError) as exc:
        methods_mod.solve(shisen3d, "height2")
    assert exc.value.method == "height2" and exc.value.game == "shisen-sho-3d"
    truth = methods_mod.solve(shisen3d, "ref").status
    for method in ("sat", "cpsat"):
        assert methods_mod.solve(shisen3d, method).status == truth
    with pytest.raises(NotHeightTwoError):
        methods_mod.solve(cv.layout_cases("pyramid", 1).__next__().board, "height2")
    specs = cv.discover_methods(only=["sat", "cpsat", "height2"], solvers=["minisat22"])
    report = cv.run_crossval([cv.BoardCase("s3d", shisen3d, "t")], specs)
    assert report.disagreements == []
    assert all(
        report.per_method[s.label].not_applicable
        == (s.method == "height2" or dict(s.options).get("encoding") == "stacks")
        for s in specs
    )


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"encodings": ["nosuch"]}, "unknown encoding 'nosuch'"),
        ({"solvers": ["nosuch"]}, "unknown SAT solver 'nosuch'"),
        ({"only": ["nosuch"]}, "unknown method 'nosuch'"),
        ({"only": ["ref"], "encodings": ["layered"]}, "none of the methods run takes an encoding"),
    ],
)
def test_bad_names_fail_before_any_board(kwargs, match):
    with pytest.raises(ValueError, match=match):
        cv.discover_methods(**kwargs)


def test_run_crossval_checks_options_before_the_first_board():
    consumed = []

    def cases():
        consumed.append(1)
        yield from cv.random_small_cases(seed=0, count=2)

    bad = [cv.MethodSpec("ref", "ref"), cv.MethodSpec("sat[encoding=nosuch]", "sat", (("encoding", "nosuch"),))]
    with pytest.raises(ValueError, match="unknown encoding"):
        cv.run_crossval(cases(), bad)
    assert consumed == []


@pytest.mark.parametrize(
    "args, words",
    [
        (["--random-small", "4", "--encodings", "nosuch"], "unknown encoding 'nosuch'"),
        (["--random-small", "4", "--solvers", "nosuch"], "unknown SAT solver 'nosuch'"),
        (["--random-small", "4", "--methods", "ref,nosuch"], "unknown method 'nosuch'"),
        (["--exhaustive", "3"], "must be even"),
        (["--random-small", "4", "--games", "go"], "unknown game 'go'"),
        (["--random-small", "4", "--shisen", "--games", "mahjong"], "not both"),
        (["--random-small", "four"], "'four' is not a valid integer"),
        (["--random-small", "4", "--time-limit", "-1"], "positive number of seconds"),
        (["--bogus"], "No such option"),
    ],
)
def test_cli_usage_errors_are_one_line_exit_2(tmp_path, args, words):
    out = tmp_path / "dis"
    r = CliRunner().invoke(cli, ["crossval", *args, "--out-dir", str(out), "--no-progress"])
    assert r.exit_code == 2, r.output
    assert len(r.output.strip().splitlines()) == 1 and words in r.output and "Traceback" not in r.output
    assert not out.exists()


# --------------------------------------------------------------------------- generators


def _even_partitions_count(n: int) -> int:
    """Set partitions of n labelled items into blocks of even size (independent recurrence:
    the block of the first item has an even size k, chosen among the other n-1 items)."""
    from math import comb

    a = [1] + [0] * n
    for m in range(1, n + 1):
        a[m] = sum(comb(m - 1, k - 1) * a[m - k] for k in range(2, m + 1, 2))
    return a[n]


def _partitions(items):
    """Every set partition of ``items`` into blocks of even size, as frozensets of frozensets."""
    if not items:
        yield frozenset()
        return
    first, rest = items[0], items[1:]
    import itertools as it

    for k in range(1, len(rest) + 1, 2):
        for mates in it.combinations(rest, k):
            left = [x for x in rest if x not in mates]
            for p in _partitions(left):
                yield p | {frozenset((first, *mates))}


def _grid_cell_sets(max_tiles, area):
    """Every set of an even number (<= max_tiles) of cells of every h x w grid of at most
    ``area`` cells, translated to the origin."""
    import itertools as it

    out = set()
    for h in range(1, area + 1):
        for w in range(1, area // h + 1):
            cells = [(y, x) for y in range(h) for x in range(w)]
            for k in range(2, max_tiles + 1, 2):
                for sub in it.combinations(cells, k):
                    y0 = min(y for y, _ in sub)
                    x0 = min(x for _, x in sub)
                    out.add(frozenset((y - y0, x - x0) for y, x in sub))
    return out


def _square_images(cells):
    for swap in (False, True):
        for sy in (1, -1):
            for sx in (1, -1):
                yield {c: ((sx * c[1], sy * c[0]) if swap else (sy * c[0], sx * c[1])) for c in cells}


def _orbit_key(partition, cells):
    keys = []
    for img in _square_images(cells):
        y0 = min(y for y, _ in img.values())
        x0 = min(x for _, x in img.values())
        keys.append(
            tuple(sorted(tuple(sorted((img[c][0] - y0, img[c][1] - x0) for c in block)) for block in partition))
        )
    return min(keys)


@pytest.mark.parametrize("max_tiles", [2, 4, 6])
def test_exhaustive_shisen_counts_match_an_independent_count(max_tiles):
    from mjsat.generate import exhaustive_boards, exhaustive_shisen_area

    area = exhaustive_shisen_area(max_tiles)
    assert area == max_tiles + 1
    sets = _grid_cell_sets(max_tiles, area)
    plain = sum(_even_partitions_count(len(s)) for s in sets)
    got = list(exhaustive_boards(max_tiles, games=("shisen-sho",), symmetry=False))
    assert len(got) == plain
    orbits = {_orbit_key(p, sorted(s)) for s in sets for p in _partitions(sorted(s))}
    assert sum(1 for _ in exhaustive_boards(max_tiles, games=("shisen-sho",))) == len(orbits)
    # no two boards given are the same board up to translation and group numbers
    seen = {frozenset(frozenset(b.cells[t] for t in ts) for ts in b.group_members().values()) for b in got}
    assert len(seen) == len(got)


def test_exhaustive_mahjong_counts_match_an_independent_count():
    import itertools as it

    from mjsat.generate import EXHAUSTIVE_MAHJONG_LAYOUTS, exhaustive_boards

    def lies_on(p, q):
        return q[2] == p[2] - 1 and abs(p[0] - q[0]) <= 1 and abs(p[1] - q[1]) <= 1

    sets = set()
    for slots in EXHAUSTIVE_MAHJONG_LAYOUTS.values():
        for k in (2, 4, 6):
            for sub in it.combinations(slots, k):
                if all(p[2] == 0 or any(lies_on(p, q) for q in sub) for p in sub):
                    r0 = min(p[0] for p in sub)
                    c0 = min(p[1] for p in sub)
                    sets.add(frozenset((r - r0, c - c0, lev) for r, c, lev in sub))
    expected = sum(_even_partitions_count(len(s)) for s in sets)
    for game in ("mahjong", "mahjong-transposed", "shisen-sho-3d"):
        boards = list(exhaustive_boards(6, games=(game,), symmetry=False))
        assert len(boards) == expected
        assert {b.game for b in boards} == {game}

    # with the mirrors: no board is a mirror image of another
    def key(board):
        keys = []
        for sr, sc in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            pos = [(sr * r, sc * c, lev) for r, c, lev in board.layout.positions]
            r0 = min(p[0] for p in pos)
            c0 = min(p[1] for p in pos)
            keys.append(
                tuple(
                    sorted(
                        tuple(sorted((pos[t][0] - r0, pos[t][1] - c0, pos[t][2]) for t in ts))
                        for ts in board.group_members().values()
                    )
                )
            )
        return min(keys)

    reduced = list(exhaustive_boards(6, games=("mahjong",)))
    assert (
        len({key(b) for b in reduced})
        == len(reduced)
        == len({key(b) for b in exhaustive_boards(6, games=("mahjong",), symmetry=False)})
    )


REGRESSION_2X3 = "2 0 0 1\n0 4 0 1\n2 4 0 2\n2 2 0 0\n0 2 0 0\n0 0 0 2\n"
"""The 2 x 3 Shisen-Sho board of issue 14 (text format: row col lev group)."""


def test_exhaustive_boards_hold_the_2x3_board_of_issue_14(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text(REGRESSION_2X3)
    board = load_board(path, game="shisen-sho")
    cells = sorted(board.cells)
    target = _orbit_key([[board.cells[t] for t in ts] for ts in board.group_members().values()], cells)
    keys = {
        _orbit_key([[b.cells[t] for t in ts] for ts in b.group_members().values()], sorted(b.cells))
        for b in cv.exhaustive_cases(6, games=("shisen-sho",))
        for b in [b.board]
    }
    assert target in keys


def test_random_small_cases_cover_every_game_shape_and_group_sizes():
    from collections import Counter

    cases = list(cv.random_small_cases(seed=5, count=96, max_tiles=12))
    games = Counter(c.board.game for c in cases)
    assert set(games) == {"mahjong", "mahjong-transposed", "shisen-sho", "shisen-sho-3d"} and set(games.values()) == {
        24
    }
    assert all(len(c.board) <= 12 for c in cases)
    shisen = [c for c in cases if c.board.game == "shisen-sho"]
    full = [c for c in shisen if c.name.endswith(("rectangle-pairs", "rectangle-fours", "rectangle-mixed"))]
    holes = [c for c in shisen if ":holes-" in c.name]
    assert len(full) == len(holes) == 12
    for c in full:  # a full rectangle: as many tiles as cells of its grid
        h, w = c.board.grid_shape
        assert h * w == len(c.board)
    for c in cases:
        sizes = set(c.board.group_sizes().values())
        if c.name.endswith("pairs"):
            assert sizes == {2}
        elif c.name.endswith("fours"):
            assert sizes <= {2, 4} and list(c.board.group_sizes().values()).count(2) <= 1
        else:
            assert sizes <= {2, 4}
    assert any(len(set(c.board.group_sizes().values())) == 2 for c in cases if c.name.endswith("mixed"))


def test_sat_columns_solve_the_cnf_of_their_encoding():
    specs = cv.discover_methods(only=["sat", "cpsat"], solvers=["minisat22"])
    encodings = {dict(s.options)["encoding"] for s in specs if s.method == "sat"}
    assert encodings == {"layered", "parity", "order", "acyclic", "stacks"} and "cpsat" in [s.label for s in specs]
    cases = list(cv.random_small_cases(seed=7, count=12, max_tiles=8, games=("mahjong", "shisen-sho")))
    report = cv.run_crossval(cases, specs)
    stacked = sum(is_stack_shaped(c.board) for c in cases)
    for spec in specs:
        s = report.per_method[spec.label]
        if spec.method == "sat" and dict(spec.options)["encoding"] == "stacks":
            # boards of isolated stacks only: the others are "does not apply"
            assert s.decided == stacked and s.not_applicable == 12 - stacked
            assert s.cnfs == ({"stacks": stacked} if stacked else {}), (spec.label, s.cnfs)
            continue
        assert s.decided == 12
        if spec.method == "sat":
            enc = dict(spec.options)["encoding"]
            # parity hands Shisen-Sho boards to the layered encoding (its docstring says so)
            expected = {"parity": 6, "layered": 6} if enc == "parity" else {enc: 12}
            assert s.cnfs == expected, (spec.label, s.cnfs)


def test_every_method_agrees_with_ref_on_every_board_of_four_tiles():
    specs = cv.discover_methods(single_solver=True)
    cases = list(cv.exhaustive_cases(4))
    report = cv.run_crossval(cases, specs, time_limit=30)
    assert report.boards == 740 and report.disagreements == []
    assert report.per_method["ref"].decided == 740
    for spec in specs:
        s = report.per_method[spec.label]
        assert s.errors == 0 and s.unknown == 0
        assert s.decided + s.not_applicable == 740
        if spec.method == "sat" and dict(spec.options)["encoding"] == "stacks":
            # isolated stacks only: every other board is "does not apply"
            assert s.not_applicable == sum(not is_stack_shaped(c.board) for c in cases)
        elif spec.method in ("sat", "cpsat"):  # every game, shisen-sho-3d's 240 boards too
            assert s.not_applicable == 0


def test_cpu_limit_reaches_every_method(monkeypatch):
    """--cpu-limit runs the methods on the CPU clock (mjsat.clock); both limits are refused."""
    from mjsat import clock
    from mjsat.methods import solve as real_solve

    seen: list[str] = []

    def spy(board, method, **kw):
        seen.append(kw.get("clock", "wall"))
        with clock.using(kw.get("clock", "wall")):
            seen.append(clock.kind())
        return real_solve(board, method, **kw)

    monkeypatch.setattr(methods_mod, "solve", spy)
    cases = list(cv.random_small_cases(seed=3, count=2, max_tiles=6))
    report = cv.run_crossval(cases, [cv.MethodSpec("ref", "ref")], time_limit=5, clock="cpu")
    assert report.per_method["ref"].decided == 2 and set(seen) == {"cpu"}
    r = CliRunner().invoke(cli, ["crossval", "--random-small", "2", "--methods", "ref", "--cpu-limit", "2", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["boards"] == 2
    r = CliRunner().invoke(cli, ["crossval", "--random-small", "2", "--cpu-limit", "2", "--time-limit", "2"])
    assert r.exit_code == 2 and "not both" in r.output
