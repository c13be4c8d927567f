"""Runs over many boards in one process and on Dask: deals per second, scaling, task overhead.

``python -m benchmarks.bench_runs [--quick] [--deals N] [--boards N]``

* ``sample``: turtle deals decided by the search (``mjsat.runs.sample.sample``) in this
  process (``Runner(workers=1)``), and on a local Dask cluster of 1 and of 2 worker
  processes (each started, warmed up and reached through ``Runner(scheduler=...)``, so
  the start is timed apart from the run);
* ``overhead``: the same clusters running tasks that do nothing (one item per task), the
  cost of one task;
* ``crossval``: turtle deals through ``run_crossval`` with the ``search`` method, the same
  three ways;
* the memory of a worker process after its run, the CPU time the run took in the client
  and in each worker, and the machine's load before each part.

Writes ``benchmarks/results/runs.json``.
"""

from __future__ import annotations

import argparse
import json
import logging
import operator
import os
import tempfile
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


def _cluster(workers: int) -> Any:
    from distributed import LocalCluster

    return LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
        silence_logs=logging.ERROR,
    )


def _rss_mib(runner: Any) -> list[float]:
    if runner.client is None:
        import psutil

        return [round(psutil.Process().memory_info().rss / 2**20, 1)]

    def rss() -> int:
        import psutil

        return int(psutil.Process().memory_info().rss)

    return [round(v / 2**20, 1) for v in runner.client.run(rss).values()]


def _cpu(runner: Any) -> dict[str, float]:
    """CPU seconds so far of this process and of each worker process."""
    out = {"client": time.process_time()}
    if runner.client is not None:
        out.update(runner.client.run(time.process_time))
    return out


def _timed(fn: Any, runner: Any) -> dict[str, Any]:
    """``fn(runner)`` with the CPU time it took in the client and in the workers."""
    before = _cpu(runner)
    res = fn(runner)
    after = _cpu(runner)
    res["client_cpu_seconds"] = round(after["client"] - before["client"], 2)
    res["worker_cpu_seconds"] = [round(after[k] - before[k], 2) for k in after if k != "client" and k in before]
    return res


def _ways(fn: Any) -> dict[str, Any]:
    """``fn(runner)`` in this process, then on clusters of 1 and 2 workers."""
    from mjsat.runs.cluster import Runner

    out: dict[str, Any] = {}
    with Runner() as runner:
        out["in-process"] = {"load": os.getloadavg()[0], **_timed(fn, runner)}
    for w in (1, 2):
        t0 = time.perf_counter()
        with _cluster(w) as lc, Runner(scheduler=lc.scheduler_address) as runner:
            runner.start()
            start = time.perf_counter() - t0
            out[f"dask-{w}"] = {"load": os.getloadavg()[0], "start_seconds": round(start, 2), **_timed(fn, runner)}
    return out


def sample_part(deals: int) -> dict[str, Any]:
    from mjsat.layouts import load_layout
    from mjsat.runs.sample import sample

    turtle = load_layout("turtle")

    def run(runner: Any) -> dict[str, Any]:
        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            rows = sample(turtle, range(deals), Path(tmp) / "s.jsonl", time_limit=10, runner=runner)
            wall = time.perf_counter() - t
        return {
            "deals": len(rows),
            "seconds": round(wall, 2),
            "deals_per_second": round(len(rows) / wall, 1),
            "unsolvable": sum(r["status"] == "unsolvable" for r in rows),
            "worker_rss_mib": _rss_mib(runner),
        }

    return _ways(run)


def overhead_part(tasks: int) -> dict[str, Any]:
    from mjsat.runs.cluster import Runner

    out: dict[str, Any] = {}
    for w in (1, 2):
        with _cluster(w) as lc, Runner(scheduler=lc.scheduler_address, chunk=1, warm=False) as runner:
            runner.start()
            list(runner.run(operator.add, 0, range(20)))  # connections made
            t = time.perf_counter()
            done = sum(1 for _ in runner.run(operator.add, 0, range(tasks)))
            wall = time.perf_counter() - t
            out[f"dask-{w}"] = {"tasks": done, "ms_per_task": round(1000 * wall / done, 3), "load": os.getloadavg()[0]}
    return out


def crossval_part(boards: int) -> dict[str, Any]:
    from mjsat.runs import crossval as cv

    specs = cv.discover_methods(only=["search"])

    def run(runner: Any) -> dict[str, Any]:
        t = time.perf_counter()
        report = cv.run_crossval(cv.layout_cases("turtle", boards), specs, runner=runner)
        wall = time.perf_counter() - t
        return {"boards": report.boards, "seconds": round(wall, 2), "boards_per_second": round(report.boards / wall, 1)}

    return _ways(run)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench_runs", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer deals")
    ap.add_argument("--deals", type=int, default=None, help="turtle deals per way (default 4000; --quick 600)")
    ap.add_argument("--boards", type=int, default=None, help="crossval boards per way (default 2000; --quick 300)")
    ap.add_argument("--tasks", type=int, default=None, help="empty tasks (default 2000; --quick 300)")
    args = ap.parse_args(argv)
    deals = args.deals or (600 if args.quick else 4000)
    boards = args.boards or (300 if args.quick else 2000)
    tasks = args.tasks or (300 if args.quick else 2000)
    from mjsat.search.solver import warm_up

    warm_up()
    data: dict[str, Any] = {"cpus": os.cpu_count()}
    data["sample"] = sample_part(deals)
    data["overhead"] = overhead_part(tasks)
    data["crossval"] = crossval_part(boards)
    for part in ("sample", "crossval"):
        d = data[part]
        key = "deals_per_second" if part == "sample" else "boards_per_second"
        d["scaling_1_to_2"] = round(d["dask-2"][key] / d["dask-1"][key], 2)
    RESULTS.mkdir(exist_ok=True)
    name = "runs_quick.json" if args.quick else "runs.json"
    (RESULTS / name).write_text(json.dumps(data, indent=1) + "\n")
    print(json.dumps(data, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
