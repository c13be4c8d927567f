"""``solve_search`` (both engines, every improvement on and off) against the reference solver."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from mjsat.board import Layout, MahjongBoard, ShisenShoBoard
from mjsat.generate import random_grid_board, random_small_board
from mjsat.methods import solve
from mjsat.search.solver import (
    SearchOptionError,
    UnknownEngineError,
    check_search_options,
    default_attempts,
    prior_conflict,
    solve_search,
)
from mjsat.search.pairing import geometry

VARIANTS = [
    {},
    {"freeze": False},
    {"loose": False},
    {"prior": False},
    {"scan": False},
    {"critical": False},
    {"attempts": 0, "guided": 0},
    {"attempts": 0, "guided": 0, "freeze": False, "loose": False, "prior": False, "scan": False, "critical": False},
    {"bondt": True, "attempts": 0, "guided": 0},
    {"bondt": True, "attempts": 0, "guided": 0, "freeze": False, "loose": False, "prior": False},
    {"bondt": True, "attempts": 0, "guided": 0, "scan": False},
    {"attempts": 0, "guided": 6},
    {"presearch": 1, "attempts": 16},
]
IDS = ["all", "no-freeze", "no-loose", "no-prior", "no-scan", "no-critical", "no-attempts", "bare",
       "bondt", "bondt-no-cleaning", "bondt-no-scan", "guided-only", "presearch"]


@functools.lru_cache(maxsize=None)
def boards(seed: int, count: int):
    """Mahjong (up to 20 tiles), transposed Mahjong, Shisen-Sho grids up to 6 x 5; groups 2, 4, 6."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        k = i % 4
        if k == 3:
            out.append(random_grid_board(rng, group_sizes=(2, 4, 6)))
        else:
            game = "mahjong-transposed" if k == 1 else "mahjong"
            out.append(random_small_board(rng, game=game, max_tiles=20, group_sizes=(2, 4, 6)))
    return tuple(out)


@functools.lru_cache(maxsize=None)
def ref_statuses(seed: int, count: int) -> tuple[str, ...]:
    return tuple(solve(b, "ref").status for b in boards(seed, count))


def _check(seed, count, engine, opts):
    statuses = set()
    for board, ref_status in zip(boards(seed, count), ref_statuses(seed, count)):
        got = solve(board, "search", engine=engine, **opts)  # solve() replays every solution
        assert got.status == ref_status, f"{opts} {board!r}"
        if got.status == "solvable":
            assert got.verified
        statuses.add(got.status)
    assert statuses == {"solvable", "unsolvable"}


@pytest.mark.parametrize("opts", VARIANTS, ids=IDS)
@pytest.mark.parametrize("engine", ["numba", "python"])
def test_agrees_with_ref(engine, opts):
    _check(31, 60, engine, opts)


@pytest.mark.slow
@pytest.mark.parametrize("opts", VARIANTS, ids=IDS)
@pytest.mark.parametrize("engine", ["numba", "python"])
def test_agrees_with_ref_1200_boards(engine, opts):
    _check(32, 1200, engine, opts)


def test_stats_and_phases():
    board = boards(33, 1)[0]
    r = solve_search(board, attempts=0, guided=0)
    for key in ("nodes", "scans", "attempts", "guided", "seconds_prior", "seconds_attempts", "seconds_search", "seconds_total"):
        assert key in r.stats
    assert r.stats["nodes"] >= 1 and r.stats["attempts"] == 0


def test_unknown_at_node_limit_and_time_limit():
    rng = np.random.default_rng(5)
    hard = None
    for _ in range(200):
        b = random_small_board(rng, max_tiles=20, group_sizes=(2, 4, 6))
        r = solve_search(b, attempts=0, critical=False, scan=False, prior=False, freeze=False, loose=False)
        if r.stats["nodes"] >= 3:
            hard = b
            break
    assert hard is not None
    for engine in ("numba", "python"):
        r = solve_search(hard, attempts=0, critical=False, scan=False, prior=False,
                         freeze=False, loose=False, node_limit=1, engine=engine)
        assert r.status == "unknown" and r.reason == "node limit"
        assert r.stats["nodes"] <= 2


def test_time_limit_answers_unknown_on_a_big_board():
    from mjsat.layouts import load_layout
    from mjsat.deal import deal_random

    board = deal_random(load_layout("turtle"), seed=0)
    r = solve_search(board, engine="python", time_limit=0.01, attempts=0)
    assert r.status == "unknown" and r.reason == "time limit"


def test_prior_analysis():
    lay = Layout([(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 4, 0)])
    board = MahjongBoard(lay, [0, 0, 0, 0])
    assert prior_conflict(board) == 0
    r = solve_search(board)
    assert r.status == "unsolvable" and "prior" in r.reason
    # a tile on two tiles of its group side by side is fine when the fourth can pair with it
    lay2 = Layout([(0, 0, 0), (0, 2, 0), (0, 1, 1), (4, 0, 0)])
    assert prior_conflict(MahjongBoard(lay2, [0, 0, 0, 0])) is None
    assert solve(MahjongBoard(lay2, [0, 0, 0, 0]), "search").status == "solvable"
    grid = ShisenShoBoard(Layout([(0, 0, 0), (0, 2, 0)]), [0, 0])
    assert prior_conflict(grid) is None


def test_default_attempts_counts_groups_of_four_or_more():
    lay = Layout([(0, 2 * i, 0) for i in range(10)])
    board = MahjongBoard(lay, [0, 0, 1, 1, 1, 1, 2, 2, 2, 2])
    assert default_attempts(geometry(board)) == 2


def test_bad_engine_and_attempts():
    board = boards(34, 1)[0]
    with pytest.raises(UnknownEngineError):
        solve_search(board, engine="fortran")
    with pytest.raises(ValueError):
        solve_search(board, attempts=-1)
    with pytest.raises(SearchOptionError):
        check_search_options(warm_scan=False)


def test_options_that_only_chose_an_older_loop_are_gone():
    from mjsat.methods import MethodOptionError, check_options

    for name in ("fast_attempts", "warm_scan"):
        with pytest.raises(MethodOptionError):
            check_options("search", {name: False})


def test_group_sizes_are_checked_before_any_geometry(monkeypatch):
    """A group the numba engine cannot branch on is refused before the layout's tables
    are built; the Python engine takes it."""
    import mjsat.search.solver as solver
    from mjsat.search.kernels import GroupTooLargeError

    lay = Layout([(0, 2 * i, 0) for i in range(10)])
    board = MahjongBoard(lay, [0] * 10)
    with monkeypatch.context() as m:
        m.setattr(solver, "geometry", lambda b: pytest.fail("geometry built before the group check"))
        with pytest.raises(GroupTooLargeError):
            solve_search(board)
    assert solve_search(board, engine="python").status == "solvable"


def test_registered_method_and_options():
    from mjsat.methods import method_options

    assert {"engine", "critical", "scan", "freeze", "loose", "prior", "attempts", "node_limit"} <= method_options("search")


def test_turtle_deal_is_decided():
    from mjsat.layouts import load_layout
    from mjsat.deal import deal_random

    board = deal_random(load_layout("turtle"), seed=1)
    r = solve(board, "search", time_limit=30)
    assert r.status in ("solvable", "unsolvable")
    if r.status == "solvable":
        assert r.verified and len(r.moves) == 72


def test_guided_attempts_solve_and_replay():
    """Scan-guided playouts alone (no plain attempts, no search) clear solvable boards, in
    both engines, and their moves replay; an unsolvable board gets no guided answer."""
    hits = {"numba": 0, "python": 0}
    for board, ref_status in zip(boards(34, 40), ref_statuses(34, 40)):
        for engine in hits:
            r = solve(board, "search", engine=engine, attempts=0, guided=20, node_limit=0)
            if ref_status == "unsolvable":
                assert r.status in ("unsolvable", "unknown")
            elif r.reason.startswith("guided"):
                assert r.verified
                hits[engine] += 1
    assert hits["numba"] > 0 and hits["python"] > 0


_NOTICE = "compiling them first"


def test_cold_cache_is_announced_and_compiled_once(tmp_path):
    """On a cold numba cache (an empty ``NUMBA_CACHE_DIR``) ``ensure_compiled`` says so
    before compiling, with how long it takes, compiles once, and then has nothing to do."""
    script = (
        "import mjsat.search.solver as S\n"
        "said = []\n"
        "print('cached', S.kernels_cached())\n"
        "S._exercise = lambda: said.append('compile')\n"
        "print('first', S.ensure_compiled(notify=said.append))\n"
        "print('second', S.ensure_compiled(notify=said.append))\n"
        "print('said', said)\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert lines["cached"] == "False" and lines["first"] == "True" and lines["second"] == "False"
    said = eval(lines["said"])  # noqa: S307 - our own repr of a list of str
    assert len(said) == 2 and _NOTICE in said[0] and " s" in said[0] and said[1] == "compile"


def test_warm_cache_is_seen_as_warm():
    from mjsat.search.solver import kernels_cached, warm_up

    warm_up()
    assert kernels_cached()


@pytest.mark.slow
def test_time_limit_holds_on_a_cold_cache_and_processes_compile_once(tmp_path):
    """Two solves started together on a cold cache both announce the compilation before
    they start; one compiles while the other waits and loads, and each answers within its
    time limit counted from after the compilation. A third run finds the cache warm."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("NUMBA_DISABLE_JIT", None)
    cmd = [sys.executable, "-m", "mjsat.cli", "solve", "--layout", "turtle", "--seed", "1", "--time-limit", "1", "--json"]
    procs = []
    for i in range(2):
        out, err = open(tmp_path / f"out{i}", "w"), open(tmp_path / f"err{i}", "w")
        procs.append((subprocess.Popen(cmd, env=env, stdout=out, stderr=err), out, err))
    cpu = []
    for proc, out, err in procs:
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.close()
        err.close()
        cpu.append(usage.ru_utime)
        assert proc.returncode == 0, (tmp_path / f"err{len(cpu) - 1}").read_text()
    for i in range(2):
        data = json.loads((tmp_path / f"out{i}").read_text())
        assert data["seconds"] < 1 + 1.5
        assert _NOTICE in (tmp_path / f"err{i}").read_text()
    assert min(cpu) < max(cpu) / 3, cpu
    again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and _NOTICE not in again.stderr
