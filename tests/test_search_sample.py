"""Batch sampling: Wilson interval, resumable JSONL, workers, summary."""

from __future__ import annotations

import json

import pytest

from mjsat.board import Layout
from mjsat.fileio import InputFileError
from mjsat.search.sample import SampleError, read_done, sample, solve_deal, summarize, wilson_interval

ROW = Layout([(0, 2 * i, 0) for i in range(8)], name="row-8")
PY = {"engine": "python"}


def test_wilson_interval_known_values():
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and abs(hi - 0.2775) < 1e-3
    lo, hi = wilson_interval(50, 100)
    assert abs(lo - 0.4038) < 1e-3 and abs(hi - 0.5962) < 1e-3
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_solve_deal_row_matches_solve():
    from mjsat.deal import deal_random
    from mjsat.methods import solve

    row = solve_deal(ROW, 4, options=PY)
    assert row["seed"] == 4
    assert row["status"] == solve(deal_random(ROW, seed=4), "ref").status


def test_sample_resumes_and_skips_done_seeds(tmp_path):
    out = tmp_path / "r.jsonl"
    seen = []
    rows = sample(ROW, range(10), out, options=PY, progress=seen.append)
    assert [r["seed"] for r in rows] == list(range(10)) and len(seen) == 10
    # kill mid-write: a half line at the end is dropped and cut
    with open(out, "a") as fh:
        fh.write('{"seed": 10, "sta')
    assert len(read_done(out)) == 10
    seen.clear()
    rows2 = sample(ROW, range(15), out, options=PY, progress=seen.append)
    assert [r["seed"] for r in seen] == [10, 11, 12, 13, 14]
    assert [r["seed"] for r in rows2] == list(range(15))
    lines = out.read_text().splitlines()
    assert len(lines) == 15 and len({json.loads(x)["seed"] for x in lines}) == 15
    assert rows2[:10] == rows


def test_workers_give_the_same_rows(tmp_path):
    one = sample(ROW, range(12), tmp_path / "a.jsonl", options=PY)
    two = sample(ROW, range(12), tmp_path / "b.jsonl", options=PY, workers=2)
    strip = lambda rows: [(r["seed"], r["status"]) for r in rows]  # noqa: E731
    assert strip(one) == strip(two)


def test_summary():
    rows = [{"seed": i, "status": "unsolvable" if i < 3 else "solvable", "seconds": float(i)} for i in range(10)]
    rows.append({"seed": 10, "status": "unknown", "seconds": 20.0})
    s = summarize(rows, hardest=2)
    assert s["deals"] == 11 and s["unsolvable"] == 3 and s["unknown"] == 1
    assert abs(s["unsolvable_pct"] - 30.0) < 1e-9
    lo, hi = s["ci95_pct"]
    assert lo < 30 < hi
    assert s["seconds_max"] == 20.0 and [h["seed"] for h in s["hardest"]] == [10, 9]


def test_bad_inputs(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seed": 1, "status": "solvable", "seconds": 0.5}\nnot json\n')
    with pytest.raises(InputFileError) as exc:
        read_done(bad)
    assert "line 2" in str(exc.value) or ":2" in str(exc.value)
    with pytest.raises(SampleError):
        sample(ROW, range(2), tmp_path / "x.jsonl", workers=0)


def test_results_of_another_layout_are_refused(tmp_path):
    out = tmp_path / "r.jsonl"
    sample(ROW, range(2), out, options=PY)
    other = Layout([(0, 2 * i, 0) for i in range(4)], name="row-4")
    with pytest.raises(SampleError, match="row-8"):
        sample(other, range(2), out, options=PY)
    with pytest.raises(SampleError):
        sample(ROW, range(2), out, options=PY, game="mahjong-transposed")
