"""Batch sampling: Wilson interval, resumable JSONL, workers, summary."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from mjsat import methods as methods_mod
from mjsat.board import KINDS, Layout, MahjongBoard
from mjsat.cli import cli
from mjsat.deal import deal_random
from mjsat.fileio import InputFileError
from mjsat.methods import MethodInfo
from mjsat.runs.sample import SampleError, read_done, read_sample, sample, solve_deal, summarize
from mjsat.runs.stats import wilson_interval

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
    header, *lines = out.read_text().splitlines()
    assert json.loads(header)["method"] == "search" and json.loads(header)["options"] == PY
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


# --------------------------------------------------------------------------- header, refusals, retries

SLOW = textwrap.dedent(
    '''
    from mjsat.ref import solve_ref
    from mjsat.result import SolveResult

    CALLS = []

    def solve_slow(board, *, time_limit=None, seed=0):
        """ref, but 'unknown' below one second of time limit (a method that needs time)."""
        CALLS.append(seed)
        if time_limit is not None and time_limit < 1:
            return SolveResult("unknown", "slow", reason="time limit")
        res = solve_ref(board)
        res.method = "slow"
        return res
    '''
)


@pytest.fixture
def slow_method(tmp_path, monkeypatch):
    (tmp_path / "sample_slow.py").write_text(SLOW)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(methods_mod.METHODS, "slow", MethodInfo("slow", "sample_slow:solve_slow", KINDS, True, ""))
    import sample_slow

    sample_slow.CALLS.clear()
    return sample_slow


def _lines(path):
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_header_records_the_arguments(tmp_path):
    out = tmp_path / "r.jsonl"
    sample(ROW, range(3), out, method="search", options=PY, time_limit=7)
    header, *rows = _lines(out)
    assert header == {
        "format": "mjsat-sample",
        "version": 2,
        "layout": "row-8",
        "layout_digest": header["layout_digest"],
        "game": "mahjong",
        "method": "search",
        "options": {"engine": "python"},
        "time_limit": 7.0,
        "clock": "wall",
    }
    assert [r["seed"] for r in rows] == [0, 1, 2] and all(r["time_limit"] == 7.0 for r in rows)
    got, done = read_sample(out)
    assert got is not None and got.method == "search" and len(done) == 3


@pytest.mark.parametrize(
    "change, argument",
    [
        ({"layout": Layout([(0, 2 * i, 0) for i in range(4)], name="row-4")}, "--layout"),
        ({"layout": Layout([(0, 3 * i, 0) for i in range(8)], name="row-8")}, "--layout (its tiles)"),
        ({"game": "mahjong-transposed"}, "--game"),
        ({"method": "ref", "options": {}}, "--method"),
        ({"options": {"engine": "python", "critical": False}}, "-O options"),
        ({"time_limit": 20}, "--time-limit"),
        ({"time_limit": None}, "--time-limit"),
        ({"clock": "cpu"}, "the limit's clock"),
    ],
)
def test_resume_with_other_arguments_is_refused(tmp_path, change, argument):
    out = tmp_path / "r.jsonl"
    base = {"layout": ROW, "game": "mahjong", "method": "search", "options": PY, "time_limit": 10.0}
    sample(base["layout"], range(4), out, **{k: v for k, v in base.items() if k != "layout"})
    before = out.read_bytes()
    args = {**base, **change}
    with pytest.raises(SampleError) as exc:
        sample(args.pop("layout"), range(6), out, **args)
    message = str(exc.value)
    assert f"was made with {argument} " in message and "\n" not in message
    assert out.read_bytes() == before  # nothing written


def _blocked_cycle_beside_free_pairs(pairs: int) -> Layout:
    """Two stacks of two whose groups block each other, beside ``pairs`` free pairs, dealt
    so that ``ref`` proves it unsolvable only after every order of the free pairs."""
    return Layout([(0, 0, 0), (0, 0, 1), (0, 4, 0), (0, 4, 1)] + [(4, 4 * i, 0) for i in range(2 * pairs)])


def test_a_cpu_limit_counts_cpu_seconds_and_is_in_the_header(tmp_path, monkeypatch):
    from mjsat.runs import sample as sample_mod

    lay = _blocked_cycle_beside_free_pairs(40)
    hard = [0, 1, 1, 0] + [2 + i // 2 for i in range(80)]
    monkeypatch.setattr(sample_mod.SeedRange, "board", lambda self, seed: MahjongBoard(lay, hard))
    out = tmp_path / "cpu.jsonl"
    rows = sample(lay, [0], out, method="ref", time_limit=0.3, clock="cpu")
    assert rows[0]["status"] == "unknown" and rows[0]["cpu_seconds"] >= 0.3
    assert _lines(out)[0]["clock"] == "cpu"
    got, _ = read_sample(out)
    assert got is not None and got.clock == "cpu"
    with pytest.raises(SampleError, match="unknown clock"):
        sample(lay, [0], tmp_path / "x.jsonl", method="ref", time_limit=0.3, clock="sundial")


def test_cli_cpu_limit_and_a_header_without_a_clock(tmp_path):
    out = tmp_path / "r.jsonl"
    res = CliRunner().invoke(
        cli, ["sample", "--layout", "row-4", "-n", "3", "--cpu-limit", "4", "--out", str(out), "--json"]
    )
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output[res.output.index("{") :])
    assert summary["clock"] == "cpu" and summary["time_limit"] == 4.0
    assert _lines(out)[0]["clock"] == "cpu" and _lines(out)[0]["time_limit"] == 4.0
    res = CliRunner().invoke(cli, ["sample", "--layout", "row-4", "-n", "3", "--time-limit", "4", "--out", str(out)])
    assert res.exit_code == 2 and "clock" in res.output and res.output.count("\n") == 1
    res = CliRunner().invoke(
        cli, ["sample", "--layout", "row-4", "-n", "3", "--time-limit", "4", "--cpu-limit", "4", "--out", str(out)]
    )
    assert res.exit_code == 2 and "not both" in res.output
    old = tmp_path / "old.jsonl"  # a header written before headers recorded the clock: wall seconds
    header = {k: v for k, v in _lines(out)[0].items() if k != "clock"}
    old.write_text(json.dumps({**header, "time_limit": 10.0}) + "\n")
    got, _ = read_sample(old)
    assert got is not None and got.clock == "wall"
    res = CliRunner().invoke(cli, ["sample", "--layout", "row-4", "-n", "2", "--out", str(old)])
    assert res.exit_code == 0, res.output


def test_files_without_a_header_are_read_but_not_appended_to(tmp_path):
    old = tmp_path / "old.jsonl"
    old.write_text('{"layout": "row-8", "game": "mahjong", "seed": 0, "status": "solvable", "seconds": 0.1}\n')
    assert read_done(old)[0]["status"] == "solvable"
    with pytest.raises(SampleError, match="no header line"):
        sample(ROW, range(2), old, options=PY)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert [r["seed"] for r in sample(ROW, range(2), empty, options=PY)] == [0, 1]
    assert _lines(empty)[0]["format"] == "mjsat-sample"


def test_bad_method_and_options_fail_before_the_file_is_touched(tmp_path):
    out = tmp_path / "r.jsonl"
    with pytest.raises(ValueError, match="unknown method"):
        sample(ROW, range(2), out, method="nosuch")
    with pytest.raises(ValueError, match="unknown encoding 'nosuch'"):
        sample(ROW, range(2), out, method="sat", options={"encoding": "nosuch"})
    with pytest.raises(ValueError, match="unknown SAT solver"):
        sample(ROW, range(2), out, method="sat", options={"solver": "nosuch"})
    with pytest.raises(ValueError, match="'lingeling' cannot stop at a time limit"):  # sample always has one
        sample(ROW, range(2), out, method="sat", options={"solver": "lingeling"}, time_limit=5.0)
    assert not out.exists()
    runner = CliRunner()
    res = runner.invoke(
        cli, ["sample", "--layout", "row-4", "-n", "2", "--method", "sat", "-O", "solver=lingeling", "--out", str(out)]
    )
    assert res.exit_code == 2 and res.output.count("\n") == 1 and "cannot stop at a time limit" in res.output
    assert not out.exists()
    rows = sample(ROW, range(2), out, method="sat", options={"solver": "lingeling"}, time_limit=None)
    assert [r["status"] for r in rows] and out.exists()  # without a limit it runs


def test_retry_unknown_reruns_every_unknown_row_once(tmp_path, slow_method):
    out = tmp_path / "r.jsonl"
    rows = sample(ROW, range(8), out, method="slow", time_limit=0.5)
    assert {r["status"] for r in rows} == {"unknown"}
    with pytest.raises(SampleError, match=r"--time-limit 0.5, not 5.0.*--retry-unknown"):
        sample(ROW, range(8), out, method="slow", time_limit=5)
    with pytest.raises(SampleError, match="--method"):
        sample(ROW, range(8), out, method="ref", time_limit=5, retry_unknown=True)
    slow_method.CALLS.clear()
    # seeds 0..9: the 8 unknown ones again, 8 and 9 new
    rows = sample(ROW, range(10), out, method="slow", time_limit=5, retry_unknown=True)
    assert sorted(slow_method.CALLS) == list(range(10))
    assert [r["seed"] for r in rows] == list(range(10))
    assert all(r["status"] in ("solvable", "unsolvable") and r["time_limit"] == 5.0 for r in rows)
    for r in rows:
        assert r["status"] == methods_mod.solve(deal_random(ROW, seed=r["seed"]), "ref").status
    header, *lines = _lines(out)
    assert header["time_limit"] == 5.0 and [r["seed"] for r in lines] == list(range(10))
    # the file now resumes at the new limit only, and a second retry has nothing to run
    slow_method.CALLS.clear()
    sample(ROW, range(10), out, method="slow", time_limit=5)
    sample(ROW, range(10), out, method="slow", time_limit=5, retry_unknown=True)
    assert slow_method.CALLS == [] and len(_lines(out)) == 11


def test_retry_killed_halfway_keeps_every_seed_once(tmp_path, slow_method, monkeypatch):
    out = tmp_path / "r.jsonl"
    sample(ROW, range(6), out, method="slow", time_limit=0.5)
    real = slow_method.solve_slow
    calls = []

    def dies_on_the_fourth(board, *, time_limit=None, seed=0):
        calls.append(seed)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(board, time_limit=time_limit, seed=seed)

    monkeypatch.setattr(slow_method, "solve_slow", dies_on_the_fourth)
    with pytest.raises(KeyboardInterrupt):
        sample(ROW, range(6), out, method="slow", time_limit=5, retry_unknown=True)
    # the file is valid: three replacement rows appended, each seed read once
    header, *lines = _lines(out)
    assert header["time_limit"] == 0.5 and len(lines) == 9
    _, rows = read_sample(out)
    assert sorted(r["seed"] for r in rows) == list(range(6))
    assert sum(r["status"] != "unknown" for r in rows) == 3
    monkeypatch.setattr(slow_method, "solve_slow", real)
    rows = sample(ROW, range(6), out, method="slow", time_limit=5, retry_unknown=True)
    assert [r["seed"] for r in rows] == list(range(6)) and all(r["status"] != "unknown" for r in rows)
    header, *lines = _lines(out)
    assert header["time_limit"] == 5.0 and [r["seed"] for r in lines] == list(range(6))


def test_a_decided_seed_twice_is_refused(tmp_path):
    out = tmp_path / "r.jsonl"
    sample(ROW, range(2), out, options=PY)
    with open(out, "a") as fh:
        fh.write(json.dumps({"seed": 0, "status": "unsolvable", "seconds": 0.0}) + "\n")
    with pytest.raises(InputFileError, match=r":4: seed 0 twice"):
        read_sample(out)


def test_cli_refusal_and_retry(tmp_path, slow_method):
    out = tmp_path / "c.jsonl"
    runner = CliRunner()
    base = ["sample", "--layout", "row-8", "-n", "5", "--out", str(out), "--method", "slow", "--json"]
    r = runner.invoke(cli, [*base, "--time-limit", "0.5"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(cli, [*base, "--time-limit", "3"])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1 and "--time-limit 0.5, not 3.0" in r.output
    r = runner.invoke(cli, [*base, "--time-limit", "3", "--retry-unknown"])
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout[r.stdout.index("{") :])
    assert summary["deals"] == 5 and summary["unknown"] == 0
    r = runner.invoke(
        cli,
        [
            "sample",
            "--layout",
            "row-8",
            "-n",
            "5",
            "--out",
            str(tmp_path / "x.jsonl"),
            "--method",
            "sat",
            "-O",
            "encoding=nosuch",
        ],
    )
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1 and "unknown encoding" in r.output
    assert not (tmp_path / "x.jsonl").exists()


def test_batch_sample_has_the_verdicts_of_auto_deal_by_deal(tmp_path):
    import numpy as np

    from mjsat.generate import random_small_layout

    rng = np.random.default_rng(4)
    for k in range(3):
        layout = random_small_layout(rng, max_tiles=20, min_tiles=12, max_levels=3)
        seeds = list(range(70))  # two blocks of the batch path
        plain = sample(layout, seeds, tmp_path / f"a{k}.jsonl", method="auto", time_limit=None)
        fast = sample(layout, seeds, tmp_path / f"b{k}.jsonl", method="auto", time_limit=None, batch=True)
        assert [r["status"] for r in fast] == [r["status"] for r in plain]
        assert sum((r["reason"] or "").startswith("batch: ") for r in fast) > 35
        assert {r["seed"] for r in fast} == set(seeds)
        assert read_sample(tmp_path / f"b{k}.jsonl")[0].method == "auto"


def test_batch_flag_ignored_off_its_method(tmp_path):
    rows = sample(ROW, range(5), tmp_path / "s.jsonl", options=PY, batch=True)
    assert all(not (r["reason"] or "").startswith("batch") for r in rows)


def test_cli_sample_batch(tmp_path):
    out = tmp_path / "t.jsonl"
    res = CliRunner().invoke(
        cli, ["sample", "--layout", "row-8", "-n", "10", "--method", "auto", "--batch", "--out", str(out), "--json"]
    )
    assert res.exit_code == 0, res.output
    rows = read_done(out)
    assert len(rows) == 10 and any(r["reason"].startswith("batch: ") for r in rows)
    assert [r["status"] for r in rows] == [solve_deal(ROW, r["seed"], method="ref")["status"] for r in rows]


# --------------------------------------------------------------------------- one writer

MJSAT = [sys.executable, "-c", "import sys; from mjsat.cli import main; sys.argv[0] = 'mjsat'; sys.exit(main())"]


def _start(out: Path, log: Path, *args: str) -> subprocess.Popen:
    cmd = [*MJSAT, "sample", "--layout", "row-8", "--out", str(out), "--method", "ref", *args]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log.open("w"))


def _wait_first(procs: list[subprocess.Popen], timeout: float = 120.0) -> subprocess.Popen:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for p in procs:
            if p.poll() is not None:
                return p
        time.sleep(0.05)
    raise AssertionError("no run ended")


def _wait_rows(out: Path, k: int, proc: subprocess.Popen, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_text().count("\n") > k:
            return
        time.sleep(0.05)
    raise AssertionError(f"the run wrote fewer than {k} rows (exit {proc.poll()})")


def _kill(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)


def _refusal(log: Path, out: Path, holder: subprocess.Popen) -> None:
    lines = log.read_text().splitlines()
    assert len(lines) == 1, lines
    assert str(out) in lines[0] and f"pid {holder.pid}" in lines[0] and "Traceback" not in lines[0]


def test_two_runs_started_at_once_one_runs_one_refuses(tmp_path):
    out = tmp_path / "r.jsonl"
    procs = [_start(out, tmp_path / f"{i}.log", "-n", "1000000") for i in range(2)]
    try:
        loser = _wait_first(procs)
        winner = procs[1 - procs.index(loser)]
        assert loser.returncode == 2
        _refusal(tmp_path / f"{procs.index(loser)}.log", out, winner)
        _wait_rows(out, 20, winner)
    finally:
        for p in procs:
            if p.poll() is None:
                _kill(p)
    _, rows = read_sample(out)  # valid after the kill: every seed once
    seeds = [r["seed"] for r in rows]
    assert len(seeds) == len(set(seeds)) >= 20 and set(seeds) == set(range(len(seeds)))
    # the killed run left its lock file; its lock went with it, and a resume goes on
    res = CliRunner().invoke(
        cli, ["sample", "--layout", "row-8", "-n", str(len(seeds) + 5), "--out", str(out), "--method", "ref"]
    )
    assert res.exit_code == 0, res.output
    assert sorted(r["seed"] for r in read_done(out)) == list(range(len(seeds) + 5))


def test_kill_and_resume_beside_a_retry_loses_nothing(tmp_path):
    out = tmp_path / "r.jsonl"
    sample(ROW, range(30), out, method="ref", time_limit=10.0)
    header, *lines = _lines(out)
    for row in lines[::3]:
        row["status"], row["reason"] = "unknown", "time limit"
    out.write_text("\n".join(json.dumps(x) for x in [header, *lines]) + "\n")
    appending = _start(out, tmp_path / "a.log", "-n", "1000000")
    try:
        _wait_rows(out, 60, appending)
        retry = _start(out, tmp_path / "r.log", "-n", "30", "--retry-unknown", "--time-limit", "20")
        assert retry.wait(timeout=120) == 2  # the retry would rewrite the file under the appending run
        _refusal(tmp_path / "r.log", out, appending)
    finally:
        _kill(appending)
    _, before = read_sample(out)
    done = {r["seed"]: r for r in before if r["status"] != "unknown"}
    retry = _start(out, tmp_path / "r2.log", "-n", "30", "--retry-unknown", "--time-limit", "20")
    assert retry.wait(timeout=120) == 0, (tmp_path / "r2.log").read_text()
    _, after = read_sample(out)
    got = {r["seed"]: r for r in after}
    assert len(after) == len(got) == len(before)  # every seed once, none lost
    assert all(got[s] == r for s, r in done.items())  # every decided row kept as it was
    assert all(r["status"] != "unknown" for r in after)


def test_a_retry_holds_the_lock_for_its_whole_rewrite(tmp_path):
    out = tmp_path / "r.jsonl"
    sample(ROW, range(1), out, method="ref", time_limit=10.0)
    header, row = _lines(out)
    rows = [{**row, "seed": s, "status": "unknown", "reason": "time limit"} for s in range(20_000)]
    out.write_text("\n".join(json.dumps(x) for x in [header, *rows]) + "\n")
    retry = _start(out, tmp_path / "r.log", "-n", "1", "--retry-unknown", "--time-limit", "20")
    try:
        _wait_rows(out, 20_020, retry)
        appending = _start(out, tmp_path / "a.log", "-n", "20001")
        assert appending.wait(timeout=120) == 2
        _refusal(tmp_path / "a.log", out, retry)
    finally:
        _kill(retry)
    _, after = read_sample(out)  # killed mid-retry: each seed once, the replacements read
    assert sorted(r["seed"] for r in after) == list(range(20_000))
    assert sum(r["status"] != "unknown" for r in after) >= 20
