"""The benchmark runner's command line: names first, then the benchmark's own options."""

from __future__ import annotations

import sys
import types

import pytest

from benchmarks import run


@pytest.fixture
def recorder(monkeypatch):
    seen: list[tuple[str, list[str]]] = []
    for name in ("one", "two"):
        mod = types.ModuleType(f"fake_bench_{name}")
        mod.main = lambda argv, name=name: seen.append((name, list(argv))) or 0
        monkeypatch.setitem(sys.modules, mod.__name__, mod)
    monkeypatch.setattr(run, "BENCHMARKS", {"one": "fake_bench_one", "two": "fake_bench_two"})
    return seen


def test_option_values_reach_the_benchmark_and_are_not_read_as_names(recorder):
    assert run.main(["two", "-n", "100", "--versus", "scan=false", "--quick"]) == 0
    assert recorder == [("two", ["-n", "100", "--versus", "scan=false", "--quick"])]


def test_no_name_runs_every_benchmark_with_the_options(recorder):
    assert run.main(["--quick"]) == 0
    assert recorder == [("one", ["--quick"]), ("two", ["--quick"])]


def test_an_unknown_name_is_one_line_and_exit_2(recorder, capsys):
    assert run.main(["three", "--quick"]) == 2
    assert recorder == []
    assert capsys.readouterr().err.strip() == "unknown benchmark 'three' (known: one, two)"


def test_help_lists_the_benchmarks(recorder, capsys):
    assert run.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "one, two" in out and "python -m benchmarks.run" in out
    assert recorder == []
