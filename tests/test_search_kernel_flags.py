"""The kernels' numba flags come from one place, and the kernel tests pass with the JIT off."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mjsat
from mjsat.search import config

SEARCH = Path(config.__file__).parent
KERNELS = sorted(SEARCH.glob("kernels*.py")) + sorted((SEARCH / "kernels").glob("*.py"))
KERNELS.append(Path(mjsat.__file__).parent / "replay_kernels.py")  # the replay's, beside the core
TESTS = Path(__file__).parent


def test_every_njit_reads_the_config_flags():
    seen = 0
    for path in KERNELS:
        for line in path.read_text().splitlines():
            if re.match(r"\s*@(numba\.)?(n)?jit\b", line):
                assert line.strip() == "@njit(**JIT_FLAGS)", f"{path.name}: {line.strip()}"
                seen += 1
    assert len(KERNELS) == 15 and all(p.is_file() for p in KERNELS) and seen > 30


def test_slots_are_distinct_and_dense():
    for prefix, size in (("W_", config.N_WORKSPACE), ("R_", config.N_RULES), ("S_", config.N_STATS)):
        slots = sorted(getattr(config, k) for k in config.__all__ if k.startswith(prefix))
        assert slots == list(range(size)), prefix


@pytest.mark.slow
def test_kernel_tests_pass_without_jit():
    """``make test-nojit``: the kernel bodies run as plain Python (for coverage)."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    files = [str(TESTS / f"test_search_{name}.py") for name in ("kernels", "sh3d", "batch", "kernels_bits")]
    # the whole search with either pair test on turtle deals: minutes as plain Python, and
    # its kernels are those of the other tests
    skip = ["--deselect", f"{TESTS / 'test_search_kernels_bits.py'}::test_search_answers_alike_with_either_test"]
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", *files, *skip],
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert " passed" in out.stdout
