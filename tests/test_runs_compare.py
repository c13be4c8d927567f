"""mjsat compare: rows equal to separate `mjsat solve` runs, PAR-2 and the virtual best by
hand, plots that are images with one line per method, resuming, refusals before any board."""

from __future__ import annotations

import json
import textwrap
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from mjsat import methods as methods_mod
from mjsat.board import KINDS, Layout, MahjongBoard
from mjsat.cli import cli
from mjsat.methods import MethodInfo
from mjsat.runs import boards as B, compare as cmp

METHODS = "search,sat:encoding=acyclic,sat:encoding=parity,cpsat"
LABELS = METHODS.split(",")


@pytest.fixture(scope="module")
def turtle_run(tmp_path_factory):
    """`mjsat compare` on five turtle deals with the issue's four methods."""
    d = tmp_path_factory.mktemp("turtle")
    out, plots = d / "rows.jsonl", d / "plots"
    args = ["compare", "--layout", "turtle", "-n", "5", "--seed-start", "3", "--methods", METHODS]
    args += ["--out", str(out), "--csv", str(d / "rows.csv"), "--plot", str(plots), "--json"]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    return d, json.loads(r.stdout), cmp.read_results(out)


def test_rows_are_what_separate_solve_runs_say(turtle_run):
    d, summary, (header, rows) = turtle_run
    assert header is not None and (header.clock, header.time_limit) == ("cpu", 10.0)
    assert len(rows) == 5 * 4 and {r["method"] for r in rows} == set(LABELS)
    assert [r["board"] for r in rows[::4]] == [f"turtle:{s}" for s in range(3, 8)]
    for row in rows:
        assert row["tiles"] == 144 and row["provenance"]["seed"] in range(3, 8)
        assert 0 < row["cpu_seconds"] and 0 < row["wall_seconds"] and row["peak_rss_mb"] > 0
        method, *opts = row["method"].split(":")
        args = ["solve", "--layout", "turtle", "--seed", str(row["provenance"]["seed"]), "--method", method]
        args += [a for o in opts for a in ("-O", o)] + ["--cpu-limit", "10", "--json"]
        r = CliRunner().invoke(cli, args)
        assert r.exit_code == 0, r.output
        alone = json.loads(r.stdout)
        assert alone["status"] == row["status"] and alone["verified"] == row["verified"], row
        assert alone["clock"] == "cpu" and alone["cpu_seconds"] > 0
        st = alone["stats"]
        if method == "sat":  # the same CNF, the same solver, the same seed: the same counts
            assert (st["clauses"], st["variables"], st["conflicts"]) == (
                row["clauses"],
                row["variables"],
                row["conflicts"],
            )
        if method == "search":
            assert st.get("nodes", 0) == row["nodes"] and alone["reason"] == row["reason"]
        if method == "cpsat":
            assert st["constraints"] == row["clauses"] and st["variables"] == row["variables"]
    assert summary["disagreements"] == [] and summary["boards"] == 5
    csv_lines = (d / "rows.csv").read_text().splitlines()
    assert csv_lines[0].startswith("board,source,game,tiles") and len(csv_lines) == 21


def test_par2_median_unique_and_virtual_best_by_hand():
    def row(board, method, status, cpu, wall=None):
        w = cpu if wall is None else wall
        return {"board": board, "method": method, "status": status, "cpu_seconds": cpu, "wall_seconds": w}

    rows = [
        row("b1", "A", "solvable", 1.0, 5.0),
        row("b1", "B", "solvable", 3.0),
        row("b2", "A", "unknown", 10.2),
        row("b2", "B", "unsolvable", 4.0),
        row("b3", "A", "solvable", 2.0),
        row("b3", "B", "error", 0.5),
        row("b4", "A", "unknown", 10.0),
        row("b4", "B", "n/a", 0.0),
        row("b5", "A", "solvable", 6.0),
        row("b5", "B", "solvable", 0.5),
    ]
    s = cmp.summarize(rows, time_limit=10.0, clock="cpu")
    a, b = s["methods"]
    # A: solved 1, 2, 6; b2 and b4 unsolved at 2 x 10 -> (1 + 20 + 2 + 20 + 6) / 5
    assert a["par2"] == pytest.approx(49 / 5) and a["solved"] == 3 and a["boards"] == 5
    assert a["cpu_median"] == 2.0 and a["cpu_p90"] == pytest.approx(2.0 + 0.8 * 4.0)
    # B: b4 does not apply; 3, 4, the error counts unsolved, 0.5 -> (3 + 4 + 20 + 0.5) / 4
    assert b["par2"] == pytest.approx(27.5 / 4) and b["not_applicable"] == 1 and b["errors"] == 1
    assert (a["unique"], b["unique"]) == (1, 1)  # b3 only A, b2 only B
    assert (a["fastest"], b["fastest"]) == (2, 2)  # b1, b3 A; b2, b5 B
    # the virtual best: 1, 4, 2, unsolved, 0.5
    assert s["vbs"] == {"boards": 5, "solved": 4, "par2": pytest.approx((1 + 4 + 2 + 20 + 0.5) / 5)}
    assert [d["board"] for d in s["disagreements"]] == ["b3"]  # B failed there
    wall = cmp.summarize(rows, time_limit=10.0, clock="wall")  # a wall limit: PAR-2 of wall seconds
    assert wall["methods"][0]["par2"] == pytest.approx((5 + 20 + 2 + 20 + 6) / 5)
    assert wall["methods"][0]["cpu_median"] == 2.0


def _legend_labels(fig):
    return [t.get_text() for t in fig.axes[0].get_legend().get_texts()]


def _method_lines(fig):
    return [ln.get_label() for ln in fig.axes[0].get_lines() if not ln.get_label().startswith("_")]


def test_plots_are_images_with_one_line_per_method(turtle_run):
    from PIL import Image

    d, summary, (header, rows) = turtle_run
    written = sorted(p.name for p in (d / "plots").iterdir())
    assert written == ["cactus.png", "cactus.svg", "scatter.png", "scatter.svg"]
    for name in ("cactus", "scatter"):
        with Image.open(d / "plots" / f"{name}.png") as im:
            im.verify()
            assert im.format == "PNG" and im.size[0] > 300
        root = ET.parse(d / "plots" / f"{name}.svg").getroot()
        assert root.tag.endswith("svg")
    cactus = cmp.cactus_figure(rows, time_limit=10.0, methods=LABELS)
    assert _method_lines(cactus) == LABELS == _legend_labels(cactus)
    for ln in cactus.axes[0].get_lines():
        if ln.get_label() in LABELS:  # boards solved 1..k against sorted CPU times
            ys = list(ln.get_ydata())
            assert list(ln.get_xdata()) == list(range(1, len(ys) + 1)) and ys == sorted(ys)
    svg = (d / "plots" / "cactus.svg").read_text()
    for label in LABELS:  # matplotlib draws text as paths, each under a comment naming it
        assert f"<!-- {label} -->" in svg
    scatter = cmp.scatter_figure(rows, "search", "cpsat", time_limit=10.0)
    assert len(scatter.axes[0].collections[0].get_offsets()) == 5
    assert _method_lines(scatter) == ["diagonal"]


def test_family_boards_scaling_plot_has_minisat_beside_the_methods(tmp_path):
    cases = list(B.family_cases("complete", [2, 3], targets=("stacks",)))
    assert [c.expected for c in cases] == ["unsolvable", "unsolvable"]
    assert [c.provenance["n"] for c in cases] == [2, 3] and cases[0].formula is not None
    specs = cmp.parse_methods("sat:encoding=acyclic,exact")
    rows, dis = cmp.compare(cases, specs, tmp_path / "f.jsonl", time_limit=60, out_dir=tmp_path / "dis")
    assert dis == [] and [r["status"] for r in rows] == ["unsolvable"] * 4
    assert all(r["minisat_status"] == "unsolvable" and r["minisat_cpu_seconds"] >= 0 for r in rows)
    fig = cmp.scaling_figure(rows, time_limit=60)
    assert _method_lines(fig) == ["sat:encoding=acyclic", "exact", "MiniSat on the formula"]
    written = cmp.write_plots(rows, tmp_path / "p", time_limit=60)
    assert sorted(p.rsplit("/", 1)[1] for p in written) == [
        "cactus.png", "cactus.svg", "scaling.png", "scaling.svg", "scatter.png", "scatter.svg",
    ]  # fmt: skip


def test_resume_adds_only_what_is_missing_and_refuses_other_limits(tmp_path):
    out = tmp_path / "r.jsonl"
    cases = list(B.random_small_cases(seed=4, count=6, max_tiles=8, games=("mahjong",)))
    rows, _ = cmp.compare(cases, cmp.parse_methods("ref"), out, time_limit=5)
    text = out.read_text()
    again, _ = cmp.compare(cases, cmp.parse_methods("ref"), out, time_limit=5)
    assert out.read_text() == text and again == rows
    both, _ = cmp.compare(cases, cmp.parse_methods("ref,search"), out, time_limit=5)
    assert len(both) == 12 and out.read_text().startswith(text)
    assert len(out.read_text().splitlines()) == 1 + 12
    with pytest.raises(cmp.CompareError, match="time-limit"):
        cmp.compare(cases, cmp.parse_methods("ref"), out, time_limit=6)
    with pytest.raises(cmp.CompareError, match="clock"):
        cmp.compare(cases, cmp.parse_methods("ref"), out, time_limit=5, clock="wall")
    with out.open("a") as fh:  # a run killed while writing its last row
        fh.write('{"board": "x", "meth')
    header, kept = cmp.read_results(out, repair=True)
    assert len(kept) == 12 and out.read_text().endswith("\n")


def test_report_redraws_the_table_and_plots(turtle_run, tmp_path):
    d, summary, _ = turtle_run
    r = CliRunner().invoke(cli, ["compare", "report", str(d / "rows.jsonl"), "--json", "--plot", str(tmp_path)])
    assert r.exit_code == 0, r.output
    again = json.loads(r.stdout)
    for key in ("boards", "methods", "vbs", "disagreements", "time_limit", "clock"):
        assert again[key] == summary[key], key
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cactus.png", "cactus.svg", "scatter.png", "scatter.svg"]
    r = CliRunner().invoke(cli, ["compare", "report", str(d / "rows.jsonl"), "--methods", "cpsat,search"])
    assert r.exit_code == 0 and "virtual best" in r.stdout and "acyclic" not in r.stdout


@pytest.mark.parametrize(
    "methods, words",
    [
        ("search,nosuch", "unknown method 'nosuch'"),
        ("sat:encoding=nosuch", "unknown encoding 'nosuch'"),
        ("sat:solver=nosuch", "nosuch"),
        ("search:bogus=1", "takes no option 'bogus'"),
        ("search,search", "given twice"),
        ("sat:encoding", "is not KEY=VALUE"),
    ],
)
def test_bad_methods_are_refused_before_any_board(tmp_path, methods, words):
    out = tmp_path / "rows.jsonl"
    r = CliRunner().invoke(cli, ["compare", "--layout", "turtle", "-n", "2", "--methods", methods, "--out", str(out)])
    assert r.exit_code == 2, r.output
    assert words in r.output and len(r.output.strip().splitlines()) == 1 and "Traceback" not in r.output
    assert not out.exists()


def test_star_runs_every_value_of_an_option():
    from mjsat.encoders.sat import ENCODINGS

    specs = cmp.parse_methods("sat:encoding=*")
    assert [s.kwargs["encoding"] for s in specs] == [str(e) for e in ENCODINGS]


LIAR = textwrap.dedent(
    """
    from mjsat.result import SolveResult

    def solve_liar(board, *, time_limit=None, seed=0):
        return SolveResult("unsolvable", "liar")
    """
)


def test_a_disagreement_saves_the_board_and_exits_1(tmp_path, monkeypatch):
    (tmp_path / "compare_liar.py").write_text(LIAR)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(methods_mod.METHODS, "liar", MethodInfo("liar", "compare_liar:solve_liar", KINDS, True, ""))
    args = ["compare", "--random-small", "4", "--games", "mahjong", "--max-tiles", "6", "--methods", "ref,liar"]
    args += ["--out", str(tmp_path / "r.jsonl"), "--out-dir", str(tmp_path / "dis"), "--json"]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert data["disagreements"] and all(d["file"] for d in data["disagreements"])
    assert "DISAGREEMENT" in r.stderr and list((tmp_path / "dis").glob("disagreement-*.json"))


def test_a_size_refusal_is_a_row_of_n_a(tmp_path):
    row400 = MahjongBoard(Layout([(0, 2 * i, 0) for i in range(400)]), [min(i, 399 - i) for i in range(400)])
    cases = [B.BoardCase("row-400", row400, "test", "solvable")]
    rows, dis = cmp.compare(cases, cmp.parse_methods("sat:encoding=order,search"), tmp_path / "r.jsonl", time_limit=30)
    assert [r["status"] for r in rows] == ["n/a", "solvable"] and dis == []
    assert "order encoding of 400 tiles" in rows[0]["reason"]


def test_sources_board_files_height2_and_cnf(tmp_path):
    import numpy as np

    from mjsat.boardio import write_board
    from mjsat.generate import random_height2_board

    board = random_height2_board(np.random.default_rng(3), n_tiles=8)
    write_board(board, tmp_path / "b.json")
    cnf = tmp_path / "f.cnf"
    cnf.write_text("p cnf 2 2\n1 2 0\n-1 0\n")
    cases = [
        *B.file_cases([tmp_path / "b.json"]),
        *B.height2_cases(seed=1, count=2, max_tiles=8),
        *B.cnf_cases([cnf], targets=("stacks",)),
    ]
    assert [c.provenance.get("file") for c in cases[:1]] == [str(tmp_path / "b.json")]
    assert cases[-1].provenance == {"cnf": str(cnf), "target": "stacks", "n": 2, "m": 2}
    rows, dis = cmp.compare(cases, cmp.parse_methods("height2,search"), tmp_path / "r.jsonl", time_limit=30)
    assert dis == [] and len(rows) == 8
    assert rows[-2]["status"] == "n/a" or rows[-2]["status"] == rows[-1]["status"] == "solvable"


def test_sample_takes_board_files_and_generated_sets(tmp_path):
    """`mjsat sample --height2 / --boards` decides the shared sources' boards, resumably."""
    from mjsat.methods import solve

    out = tmp_path / "s.jsonl"
    r = CliRunner().invoke(
        cli, ["sample", "--height2", "6", "--seed", "2", "--method", "height2", "--out", str(out), "--json"]
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    expected = [solve(c.board, "height2").status for c in B.height2_cases(seed=2, count=6)]
    assert data["boards"] == data["deals"] == 6
    assert (data["solvable"], data["unsolvable"]) == (expected.count("solvable"), expected.count("unsolvable"))
    text = out.read_text()
    r = CliRunner().invoke(cli, ["sample", "--height2", "6", "--seed", "2", "--method", "height2", "--out", str(out)])
    assert r.exit_code == 0 and out.read_text() == text
    folder = tmp_path / "boards"
    folder.mkdir()
    for c in B.height2_cases(seed=5, count=3):
        from mjsat.boardio import write_board

        write_board(c.board, folder / f"{c.name.replace(':', '-')}.json")
    r = CliRunner().invoke(cli, ["sample", "--boards", str(folder), "--out", str(tmp_path / "b.jsonl"), "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["boards"] == 3
    r = CliRunner().invoke(cli, ["sample", "--layout", "turtle", "-n", "2", "--height2", "2", "--out", str(out)])
    assert r.exit_code == 2 and "not both" in r.output


def test_the_issue_command_writes_rows_summary_and_plots_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["compare", "--layout", "turtle", "-n", "2", "--methods", METHODS, "--plot", "out/"])
    assert r.exit_code == 0, r.output
    assert "virtual best" in r.stdout and "PAR-2 (CPU s)" in r.stdout
    header, rows = cmp.read_results(tmp_path / "compare.jsonl")
    assert header is not None and len(rows) == 8
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "cactus.png", "cactus.svg", "scatter.png", "scatter.svg",
    ]  # fmt: skip


def test_one_run_writes_a_results_file_at_a_time(tmp_path):
    from mjsat.fileio import FileInUseError, exclusive_lock

    out = tmp_path / "r.jsonl"
    cases = list(B.random_small_cases(seed=4, count=2, max_tiles=6, games=("mahjong",)))
    import subprocess
    import sys

    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom mjsat.fileio import exclusive_lock\n"
         f"with exclusive_lock({str(out)!r}):\n    print('held', flush=True)\n    time.sleep(60)"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(FileInUseError):
            cmp.compare(cases, cmp.parse_methods("ref"), out, time_limit=5)
    finally:
        holder.kill()
        holder.wait()
    with exclusive_lock(out):  # the same process nests: a run inside a caller's lock
        rows, _ = cmp.compare(cases, cmp.parse_methods("ref"), out, time_limit=5)
    assert len(rows) == 2
