"""The side-by-side benchmark with de Bondt's port (``benchmarks/bench_bondt.py``): the
protocol of its Node.js driver (``../shared/peers/debondt-driver.js``), the verdicts compared
deal by deal, and its command line. The port itself is not part of mjsat: a stand-in solver
module plays its part here (read by the driver as the port: one reused ``Solver``)."""

from __future__ import annotations

import shutil

import pytest

from benchmarks import bench_bondt

FAKE = """
class Solver {
  solveLayout(stones) {
    if (stones.some(s => s.groupNr === undefined)) throw new Error("stones without groupNr");
    const cells = new Set(stones.map(s => `${s.y},${s.x},${s.z}`));
    this.nrPlays = cells.size;                        // distinct positions received
    this.nPlays = 0;
    return ANSWER;                                    // 0: cleared, 2: not
  }
}
module.exports = { Solver };
"""


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.fail("the benchmark's driver needs Node.js: `apt-get install -y nodejs` (`make install` does it)")
    return node


@pytest.mark.parametrize("answer", [0, 2])
def test_the_verdicts_are_compared_deal_by_deal(tmp_path, answer):
    if not bench_bondt.DRIVER.is_file():
        pytest.skip(f"no driver {bench_bondt.DRIVER} (../shared absent)")
    solver = tmp_path / "solver.js"
    solver.write_text(FAKE.replace("ANSWER", str(answer)))
    e = bench_bondt.run_family("own", 8, 3, _node(), solver)
    assert e["deals"] == 8 and set(e["ways"]) == {"peer", "batch", "auto", "file"}
    assert e["undecided"] == {"peer": 0, "batch": 0, "auto": 0, "file": 0}
    assert e["unsolvable"]["batch"] == e["unsolvable"]["auto"] == e["unsolvable"]["file"]
    assert e["unsolvable"]["peer"] == (0 if answer == 0 else 8)
    # the stand-in says "cleared" (0) or "not" (2) for every deal: the disagreements are
    # exactly the deals mjsat decides the other way
    assert len(e["disagreements"]) == (e["unsolvable"]["batch"] if answer == 0 else 8 - e["unsolvable"]["batch"])
    assert e["peer_random_games_median"] == 144  # every tile reached the driver at its own cell
    for w in ("batch", "auto", "file"):
        assert e["peer_over"][w]["mean_ms"] == pytest.approx(e["ways"]["peer"]["mean_ms"] / e["ways"][w]["mean_ms"])


def test_without_a_solver_it_skips(monkeypatch, capsys):
    monkeypatch.delenv("MJSAT_BONDT_SOLVER", raising=False)
    assert bench_bondt.main([]) == 0
    assert capsys.readouterr().out.startswith("skipped: no --solver")


def test_a_missing_solver_file_is_one_line_and_exit_2(tmp_path, capsys):
    assert bench_bondt.main(["--solver", str(tmp_path / "none.js")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"{tmp_path / 'none.js'}: no such solver file"
