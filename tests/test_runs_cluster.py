"""Runs on a Dask cluster of two worker processes on 127.0.0.1: the same rows as in one
process, nothing lost and nothing twice when a worker dies, and a stopped client resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mjsat.deals import deal_solvable
from mjsat.layouts import load_layout
from mjsat.play.batch import BoardSource, play_batch
from mjsat.replay import replay
from mjsat.runs import crossval as cv
from mjsat.runs.cluster import ClusterError, Runner
from mjsat.runs.sample import read_sample, sample

TIMING = ("seconds", "cpu_seconds")


def _decided(rows):
    """``{seed: row}`` without the timings (which differ between any two runs)."""
    return {r["seed"]: {k: v for k, v in r.items() if k not in TIMING} for r in rows}


@pytest.fixture(scope="module")
def cluster():
    """A cluster of two worker processes on loopback, shared by the tests of this file."""
    import logging

    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as lc:
        yield lc.scheduler_address


@pytest.fixture(scope="module")
def turtle():
    return load_layout("turtle")


def test_sample_gives_the_rows_of_one_process(tmp_path, cluster, turtle):
    local = sample(turtle, range(60), tmp_path / "one.jsonl", time_limit=30)
    with Runner(scheduler=cluster, chunk=7) as runner:
        remote = sample(turtle, range(60), tmp_path / "two.jsonl", time_limit=30, runner=runner)
        assert runner.distributed and runner.workers_alive() == 2
    assert _decided(remote) == _decided(local)
    assert {r["status"] for r in local} <= {"solvable", "unsolvable"}
    assert [r["seed"] for r in local if r["status"] == "unsolvable"] == [11]  # turtle: about 3 % unsolvable
    header, rows = read_sample(tmp_path / "two.jsonl")
    assert header is not None and sorted(r["seed"] for r in rows) == list(range(60))


def test_crossval_gives_the_report_of_one_process_and_replays(cluster):
    specs = cv.discover_methods(only=["ref", "search", "height2"])

    def cases():
        yield from cv.layout_cases("pyramid", 6, solvable_every=3)
        yield from cv.random_small_cases(seed=4, count=12, max_tiles=10)
        yield from cv.height2_cases(seed=4, count=8, max_tiles=12)

    answers_local, answers_remote = {}, {}
    one = cv.run_crossval(cases(), specs, progress=lambda c: answers_local.setdefault(c.name, c))
    with Runner(scheduler=cluster, chunk=3) as runner:
        two = cv.run_crossval(cases(), specs, runner=runner, progress=lambda c: answers_remote.setdefault(c.name, c))
    a, b = one.to_dict(), two.to_dict()
    for d in (a, b):
        d.pop("seconds")
        for m in d["methods"]:
            m.pop("median_seconds"), m.pop("max_seconds")
    assert a == b and a["boards"] == 26 and not a["disagreements"]
    assert list(answers_local) == list(answers_remote)  # taken in the order of the cases
    # every solvable answer of the cluster's run replays on its board
    replayed = 0
    with Runner(scheduler=cluster) as runner:
        items = [(i, c) for i, c in enumerate(cases())]
        for i, ans in runner.run(
            cv._case_answers, (tuple(specs), 10.0, cv.DEFAULT_REF_MAX_TILES, 0, "wall", ()), items
        ):
            for answer in ans.values():
                if answer["status"] == "solvable":
                    replay(items[i][1].board, [tuple(m) for m in answer["moves"]])
                    replayed += 1
    assert replayed > 20


def test_play_gives_the_games_of_one_process_and_replays(cluster):
    layout = load_layout("pyramid")
    source = BoardSource(layout=layout, solvable=True, seed=3)
    configs = [("greedy", "maxblock"), ("random", "random"), ("theorem5", "random")]
    local = list(play_batch(source, configs, range(16)))
    with Runner(scheduler=cluster, chunk=3) as runner:
        remote = sorted(play_batch(source, configs, range(16), runner=runner), key=lambda r: r["index"])
    strip = [[{k: v for k, v in g.items() if k != "seconds"} for g in r["games"]] for r in local]
    assert strip == [[{k: v for k, v in g.items() if k != "seconds"} for g in r["games"]] for r in remote]
    for r in remote:
        board = deal_solvable(layout, seed=3 + r["index"])[0]
        for g in r["games"]:
            played = replay(board, [tuple(m) for m in g["moves"]], require_clear=False)
            assert played.remaining() == g["tiles_left"] and played.is_solved() == g["cleared"]


def test_a_killed_worker_loses_nothing_and_doubles_nothing(tmp_path, turtle):
    seeds = range(200)
    local = _decided(sample(turtle, seeds, tmp_path / "one.jsonl", time_limit=30))
    killed: list[int] = []
    with Runner(workers=2, chunk=10) as runner:

        def kill_once(row):
            if not killed:
                pids = runner.client.run(os.getpid)
                victim = sorted(pids.values())[0]
                os.kill(victim, signal.SIGKILL)
                killed.append(victim)

        sample(turtle, seeds, tmp_path / "two.jsonl", time_limit=30, runner=runner, progress=kill_once)
    assert killed
    header, rows = read_sample(tmp_path / "two.jsonl")
    assert sorted(r["seed"] for r in rows) == list(seeds)  # every seed exactly once
    assert _decided(rows) == local


@pytest.mark.slow
def test_a_stopped_client_resumes_to_the_uninterrupted_file(tmp_path, cluster, turtle):
    # ten tasks of 200 deals on two workers, each deal decided by `sat` (tens of ms): up to six
    # tasks are in flight, and Ctrl-C after the first task leaves the last ones undone. Slow
    # (about a minute): with fewer deals, a loaded machine saw every task end before the stop
    n = 2000
    whole = tmp_path / "whole.jsonl"
    sample(turtle, range(n), whole, method="sat", time_limit=10)
    out = tmp_path / "stopped.jsonl"
    args = [
        sys.executable,
        "-m",
        "mjsat.cli",
        "sample",
        "--layout",
        "turtle",
        "-n",
        str(n),
        "--method",
        "sat",
        "--out",
        str(out),
        "--scheduler",
        cluster,
        "--json",
    ]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and len(out.read_text().splitlines()) > 30:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)  # Ctrl-C
    proc.communicate(timeout=60)
    stopped = len(read_sample(out)[1])
    assert 0 < stopped < n, stopped  # stopped in the middle
    res = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    h1, rows = read_sample(out)
    h2, expected = read_sample(whole)
    assert h1 == h2 and len(rows) == n
    assert _decided(rows) == _decided(expected)
    assert json.loads(res.stdout)["deals"] == n


def test_a_file_of_other_arguments_is_refused_before_any_task(tmp_path, cluster, turtle):
    out = tmp_path / "s.jsonl"
    sample(turtle, range(3), out, time_limit=30)
    with Runner(scheduler=cluster) as runner:
        with pytest.raises(ValueError, match="--time-limit"):
            sample(turtle, range(6), out, time_limit=20, runner=runner)
    assert len(Path(out).read_text().splitlines()) == 4


def test_workers_and_scheduler_together_are_refused():
    with pytest.raises(ClusterError, match="not both"):
        Runner(workers=2, scheduler="tcp://127.0.0.1:8786")
    with pytest.raises(ClusterError, match="at least 1"):
        Runner(workers=0)
    from click.testing import CliRunner

    from mjsat.cli import cli

    res = CliRunner().invoke(
        cli,
        [
            "sample",
            "--layout",
            "tiny",
            "-n",
            "2",
            "--out",
            "x.jsonl",
            "--workers",
            "2",
            "--scheduler",
            "tcp://127.0.0.1:1",
        ],
    )
    assert res.exit_code == 2 and "not both" in res.output
