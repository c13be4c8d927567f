"""Size limits: every size that grows memory is checked against an estimate before
anything is built, on one line naming the limit and the variable that lifts it."""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from mjsat.limits import MAX_MEMORY, MAX_TILES, SOLVE_TILE_BYTES, TILE_BYTES, SizeLimitError, planned_use

MJSAT = [sys.executable, "-c", "import sys; from mjsat.cli import main; sys.argv[0] = 'mjsat'; sys.exit(main())"]
CAP = 3 << 30
"""Address space of each command run here: a command that builds what it should have
refused dies of it (or raises MemoryError) instead of taking the machine's memory."""


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def mjsat(*args, timeout: float = 120, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    import os

    return subprocess.run(
        [*MJSAT, *map(str, args)],
        capture_output=True, text=True, timeout=timeout, preexec_fn=_capped, env={**os.environ, **(env or {})},
    )  # fmt: skip


def refused(proc: subprocess.CompletedProcess, *names: str) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    err = proc.stderr.strip()
    assert "\n" not in err and err.startswith("mjsat: error: "), err
    for name in names:
        assert name in err, err
    return err


@pytest.fixture(scope="module")
def wide_cnf(tmp_path_factory):
    """The issue's 26-byte formula: 200,000 variables, one clause (a 7.2 million tile board)."""
    path = tmp_path_factory.mktemp("cnf") / "wide.cnf"
    path.write_text("p cnf 200000 1\n1 200000 0\n")
    return path


@pytest.mark.parametrize(
    "args",
    [
        ["reduce", "{cnf}", "-o", "{tmp}/r.json"],
        ["reduce", "build", "{cnf}", "--to", "rows", "-o", "{tmp}/r.json"],
        ["reduce", "build", "{cnf}", "--to", "shisen-sho", "-o", "{tmp}/r.json"],
        ["reduce", "explain", "{cnf}"],
        ["reduce", "witness", "{cnf}", "-o", "{tmp}/w.json"],
        ["crossval", "--cnf", "{cnf}", "--methods", "ref"],
    ],
    ids=["reduce", "rows", "shisen", "explain", "witness", "crossval"],
)
def test_a_tiny_cnf_of_many_variables_is_refused_before_its_board(args, wide_cnf, tmp_path):
    proc = mjsat(*(a.format(cnf=wide_cnf, tmp=tmp_path) for a in args))
    refused(proc, str(wide_cnf), "MJSAT_MAX_")
    assert not list(tmp_path.iterdir())


def test_huge_named_layouts_are_refused_before_they_are_built(tmp_path):
    refused(
        mjsat("deal", "--layout", "rect-4000x4000", "-o", tmp_path / "d.json"), "rect: 4000x4000", "MJSAT_MAX_MEMORY_MB"
    )
    err = refused(mjsat("solve", "--layout", "rect-2000x2000", "--time-limit", "5", timeout=60), "MJSAT_MAX_MEMORY_MB")
    assert "to solve" in err
    assert not list(tmp_path.iterdir())


def test_counts_are_bounded(tmp_path):
    big = str(2**70)
    refused(mjsat("sample", "--layout", "tiny", "-n", big, "-o", tmp_path / "s.jsonl"), "-n", "MJSAT_MAX_COUNT")
    refused(mjsat("crossval", "--random-small", big), "--random-small", "MJSAT_MAX_COUNT")
    refused(mjsat("crossval", "--layout", "tiny", "-n", big), "-n", "MJSAT_MAX_COUNT")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "args, limit",
    [
        (["random", "--n", str(2**70)], "MJSAT_MAX_CNF_CLAUSES"),
        (["random", "--n", str(2**70), "--m", "3"], "MJSAT_MAX_CNF_VARIABLES"),
        (["random", "--n", "100", "--ratio", "1e300"], "MJSAT_MAX_CNF_CLAUSES"),
        (["planted", "--n", "10", "--m", str(10**12)], "MJSAT_MAX_CNF_CLAUSES"),
        (["complete", "--k", "70"], "MJSAT_MAX_CNF_CLAUSES"),
        (["pigeonhole", "--holes", "100000"], "MJSAT_MAX_CNF_VARIABLES"),
    ],
)
def test_reduce_family_sizes_are_bounded(args, limit):
    refused(mjsat("reduce", "family", *args, timeout=60), limit)


def test_family_ratio_must_be_a_number():
    refused(mjsat("reduce", "family", "random", "--n", "10", "--ratio", "nan"), "ratio")


def test_encode_steps_bounded(tmp_path):
    refused(
        mjsat("encode", "--layout", "tiny", "--encoding", "layered", "--steps", "20000000", "-o", tmp_path / "e.cnf"),
        "MJSAT_MAX_STEP_CELLS",
    )


def test_memory_estimate_follows_the_use_and_the_variable(monkeypatch):
    monkeypatch.delenv("MJSAT_MAX_MEMORY_MB", raising=False)
    monkeypatch.delenv("MJSAT_MAX_TILES", raising=False)
    n = 3_000_000  # 2.0 GB held, 5.7 GB solved
    assert MAX_TILES.exceeded(n) is None
    with planned_use("solve", SOLVE_TILE_BYTES):
        message = MAX_TILES.exceeded(n, "the board")
        assert message is not None and "to solve" in message and MAX_MEMORY.env in message
        assert MAX_TILES.value == MAX_MEMORY.value * (1 << 20) // SOLVE_TILE_BYTES
    monkeypatch.setenv("MJSAT_MAX_MEMORY_MB", "1")
    assert MAX_TILES.value == (1 << 20) // TILE_BYTES
    with pytest.raises(SizeLimitError, match="MJSAT_MAX_MEMORY_MB"):
        MAX_TILES.check(2000)
    proc = mjsat("deal", "--layout", "rect-50x40", "-o", "/dev/null", env={"MJSAT_MAX_MEMORY_MB": "1"})
    refused(proc, "rect: 50x40", "MJSAT_MAX_MEMORY_MB")
    monkeypatch.delenv("MJSAT_MAX_MEMORY_MB")
    assert mjsat("deal", "--layout", "rect-50x40", "-o", "/dev/null").returncode == 0


@pytest.mark.slow
def test_fuzz_cnf_sizes_stay_within_the_memory_bound(tmp_path):
    """Random headers `p cnf V 1` with one clause, through the reductions, in a 2 GiB
    address space under a 512 MiB estimate: each run is read (exit 0) or refused on one
    line (exit 2), never killed for its memory."""
    from hypothesis import given, settings, strategies as st

    @settings(max_examples=25, deadline=None, database=None)
    @given(
        n=st.integers(1, 10**7),
        command=st.sampled_from([["reduce", "explain"], ["reduce", "build", "--to", "rows"], ["reduce", "witness"]]),
    )
    def run(n, command):
        cnf = tmp_path / "f.cnf"
        cnf.write_text(f"p cnf {n} 1\n1 {n} 0\n" if n > 1 else "p cnf 1 1\n1 0\n")
        proc = subprocess.run(
            [*MJSAT, *command, str(cnf), "-o", str(tmp_path / "out")],
            capture_output=True, text=True, timeout=600,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30)),
            env={**__import__("os").environ, "MJSAT_MAX_MEMORY_MB": "512"},
        )  # fmt: skip
        if proc.returncode != 0:
            refused(proc, str(cnf))

    run()
