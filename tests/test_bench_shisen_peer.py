"""The side-by-side benchmark with the Kotlin Shisen-Sho peer (``benchmarks/bench_shisen_peer.py``):
the boards as the peer reads them, and its command line. The peer itself is not part of
mjsat (it is built outside the project); these tests need no JVM."""

from __future__ import annotations

from benchmarks import bench_shisen_peer
from mjsat.board import Layout, ShisenShoBoard


def test_a_board_is_given_as_the_grid_of_its_bounding_box_with_the_tiles_renumbered():
    # tiles in layout order that is not row-major, shifted off the origin, with a hole
    layout = Layout([(4, 6, 0), (2, 2, 0), (2, 6, 0), (4, 2, 0)])
    board = ShisenShoBoard(layout, [7, 7, 3, 3])
    line, order = bench_shisen_peer.peer_line(board, "b", 10, 5)
    ident, h, w, cells, limit, witness = line.split()
    assert (ident, h, w, limit, witness) == ("b", "2", "3", "10", "5")
    assert cells == "A.BB.A"  # rows 2 and 4 -> grid rows 0, 1; columns 2, 6 -> 0, 2
    assert order == [1, 2, 3, 0]  # the peer's tile k (row-major) is mjsat's tile order[k]


def test_without_a_peer_it_skips(monkeypatch, capsys):
    monkeypatch.delenv("MJSAT_SHISEN_PEER", raising=False)
    assert bench_shisen_peer.main([]) == 0
    assert capsys.readouterr().out.startswith("skipped: no --peer")


def test_a_missing_peer_jar_is_one_line_and_exit_2(tmp_path, capsys):
    assert bench_shisen_peer.main(["--peer", str(tmp_path / "none.jar")]) == 2
    assert capsys.readouterr().err.strip() == f"{tmp_path / 'none.jar'}: no such peer jar"
