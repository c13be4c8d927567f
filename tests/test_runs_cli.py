"""``mjsat sample`` in-process through the core CLI group."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mjsat.cli import cli


def test_sample_json_summary_and_resume(tmp_path):
    out = tmp_path / "s.jsonl"
    runner = CliRunner()
    args = ["sample", "--layout", "row-8", "-n", "12", "--out", str(out), "--json", "-O", "engine=python"]
    res = runner.invoke(cli, args)
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout[res.stdout.index("{") :])
    assert summary["deals"] == 12 and summary["solvable"] + summary["unsolvable"] == 12
    lo, hi = summary["ci95_pct"]
    assert lo <= summary["unsolvable_pct"] <= hi
    res = runner.invoke(cli, args[:4] + ["20"] + args[5:])
    assert res.exit_code == 0, res.output
    lines = out.read_text().splitlines()
    assert len(lines) == 21 and json.loads(lines[0])["format"] == "mjsat-sample"  # the header, then a row per seed


def test_sample_table_output(tmp_path):
    res = CliRunner().invoke(cli, ["sample", "--layout", "row-8", "-n", "3", "--out", str(tmp_path / "t.jsonl")])
    assert res.exit_code == 0, res.output
    assert "unsolvable" in res.output and "hardest seeds" in res.output


@pytest.mark.parametrize("flag", ["-o", "--output"])
def test_sample_out_spelt_as_every_writer(tmp_path, flag):
    """``-o`` and ``--output`` name sample's results file, as they do for every other command
    that writes one; the file resumes the same under any spelling."""
    out = tmp_path / "deep" / "s.jsonl"
    runner = CliRunner()
    res = runner.invoke(cli, ["sample", "--layout", "row-8", "-n", "3", flag, str(out), "--json"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(cli, ["sample", "--layout", "row-8", "-n", "5", "--out", str(out), "--json"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    assert sorted(r["seed"] for r in rows) == [0, 1, 2, 3, 4]


def test_sample_bad_input_exit_2(tmp_path):
    runner = CliRunner()
    res = runner.invoke(
        cli, ["sample", "--layout", "row-8", "-n", "3", "--out", str(tmp_path / "o.jsonl"), "-O", "bogus=1"]
    )
    assert res.exit_code == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text("[1, 2]\n")
    res = runner.invoke(cli, ["sample", "--layout", "row-8", "-n", "3", "--out", str(bad)])
    assert res.exit_code == 2 and "bad.jsonl" in res.output


def test_solve_method_search():
    res = CliRunner().invoke(cli, ["solve", "--layout", "row-8", "--seed", "3", "--method", "search", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout[res.stdout.index("{") :])
    assert data["method"] == "search" and data["status"] in ("solvable", "unsolvable")
