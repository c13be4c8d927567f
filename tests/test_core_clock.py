"""mjsat/clock.py: a time limit on the CPU clock counts this process's CPU time, wherever a
method looks at its clock (solve, ref, search, plans, SAT solvers, CP-SAT)."""

from __future__ import annotations

import threading
import time

import pytest

from mjsat import clock
from mjsat.deals import deal_random
from mjsat.layouts import load_layout
from mjsat.methods import solve


def _burn(until: threading.Event, most: float = 20.0) -> None:
    end = time.monotonic() + most
    x = 0
    while not until.is_set() and time.monotonic() < end:
        x += sum(range(1000))


def test_the_clock_is_wall_unless_a_block_says_cpu():
    assert clock.kind() == "wall"
    with clock.using("cpu"):
        assert clock.kind() == "cpu"
        assert clock.reader() is time.process_time
        seen: list[str] = []
        t = threading.Thread(target=lambda: seen.append(clock.kind()))  # a new thread: its own context
        t.start()
        t.join()
        assert seen == ["wall"]
    assert clock.kind() == "wall" and clock.reader() is time.monotonic
    with pytest.raises(clock.ClockError, match="unknown clock 'gpu'"):
        with clock.using("gpu"):
            pass


def test_a_cpu_deadline_does_not_pass_while_the_process_sleeps():
    stopped = threading.Event()
    with clock.using("cpu"):
        with clock.interrupt_at(clock.now() + 0.2, stopped.set):
            time.sleep(0.5)  # half a second of wall time, next to no CPU time
            assert not stopped.is_set()
            c0 = time.process_time()
            _burn(stopped)
            spent = time.process_time() - c0
    assert stopped.is_set() and spent > 0.0
    stopped.clear()
    with clock.interrupt_at(clock.now() + 0.05, stopped.set):  # the wall clock: a timer
        time.sleep(0.3)
    assert stopped.is_set()


@pytest.fixture(scope="module")
def turtle():
    return deal_random(load_layout("turtle"), seed=1)


def _blocked_cycle_and_free_pairs(pairs: int):
    """Two stacks of two whose groups block each other, beside ``pairs`` free pairs: ref
    proves it unsolvable only after every order of the free pairs."""
    from mjsat.board import Layout, MahjongBoard

    cells = [(0, 0, 0), (0, 0, 1), (0, 4, 0), (0, 4, 1)] + [(4, 4 * i, 0) for i in range(2 * pairs)]
    return MahjongBoard(Layout(cells), [0, 1, 1, 0] + [2 + i // 2 for i in range(2 * pairs)])


def test_solve_on_the_cpu_clock_stops_after_the_cpu_time():
    limit = 0.3
    hard = _blocked_cycle_and_free_pairs(40)
    r = solve(hard, "ref", time_limit=limit, clock="cpu")
    assert r.status == "unknown" and "time limit" in r.reason
    assert r.clock == "cpu" and r.cpu_seconds >= limit
    assert r.to_dict()["clock"] == "cpu" and r.to_dict()["cpu_seconds"] >= limit
    w = solve(hard, "ref", time_limit=limit)
    assert w.clock == "wall" and w.seconds >= limit


def test_run_solver_on_the_cpu_clock_spends_its_cpu_time():
    from pysat.examples.genhard import PHP

    from mjsat.encoders.solvers import run_solver

    cnf = PHP(10)  # pigeonhole 11 -> 10: far beyond a fraction of a second
    for solver in ("minisat22", "cadical195"):
        with clock.using("cpu"):
            c0 = time.process_time()
            sat, model, _ = run_solver(cnf, solver=solver, time_limit=0.3)
            spent = time.process_time() - c0
        assert sat is None and model is None, solver
        assert spent >= 0.3, (solver, spent)


def test_cpsat_on_the_cpu_clock_spends_its_cpu_time():
    from mjsat.board import Layout, MahjongBoard

    solve(MahjongBoard(Layout([(0, 0, 0), (0, 2, 0)]), [0, 0]), "cpsat")  # OR-Tools imported before the clock
    board = deal_random(load_layout("turtle"), seed=5)  # CP-SAT searches it for a good fraction of a second
    r = solve(board, "cpsat", time_limit=0.02, clock="cpu")
    assert r.clock == "cpu" and r.status == "unknown" and r.cpu_seconds >= 0.02
    small = MahjongBoard(Layout([(0, 2 * i, 0) for i in range(4)]), [0, 1, 1, 0])
    assert solve(small, "cpsat", time_limit=5, clock="cpu").status == "solvable"


def test_solve_refuses_an_unknown_clock(turtle):
    with pytest.raises(ValueError, match="unknown clock"):
        solve(turtle, "ref", time_limit=1, clock="sundial")
