"""encoders/order.py: size as documented, ties exactly the chosen pairs."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mjsat.encoders.order import encode_order
from mjsat.encoders.requirements import requirements
from mjsat.encoders.solvers import run_solver
from mjsat.generate import random_small_board


def test_variables_as_documented_and_model_is_a_weak_order():
    rng = np.random.default_rng(17)
    checked = 0
    for _ in range(15):
        board = random_small_board(rng, max_tiles=12, group_sizes=(2, 4))
        req = requirements(board)
        n, P = len(board), len(req.pairs)
        cnf, dec = encode_order(board)
        named = [k for k in dec.keys if k[0] in ("o", "lt", "m")]
        assert len(named) == n * (n - 1) // 2 - P + 2 * P + P
        sat, model, _ = run_solver(cnf, solver="glucose4")
        if not sat:
            continue
        on = {v for v in model if v > 0}

        def lt(u, v):
            if ("o", u, v) in dec.keys:
                return dec.keys[("o", u, v)] in on
            if ("o", v, u) in dec.keys:
                return dec.keys[("o", v, u)] not in on
            return dec.keys[("lt", u, v)] in on

        pairing = set(dec.pairing(model))
        for u, v in itertools.combinations(range(n), 2):
            tie = not lt(u, v) and not lt(v, u)
            assert tie == ((u, v) in pairing)
            assert not (lt(u, v) and lt(v, u))
        for u, v, w in itertools.permutations(range(n), 3):
            if lt(u, v) and lt(v, w):
                assert lt(u, w)
        checked += 1
    assert checked >= 5


def test_order_refuses_huge_boards_and_watches_the_deadline():
    import time

    from mjsat.board import Layout, MahjongBoard
    from mjsat.encoders.errors import BuildTimeLimit
    from mjsat.methods import solve
    from mjsat.result import MethodNotApplicableError

    big = MahjongBoard(Layout([(0, 2 * i, 0) for i in range(400)]), [i // 2 for i in range(400)])
    with pytest.raises(MethodNotApplicableError, match="use acyclic"):
        encode_order(big)
    with pytest.raises(MethodNotApplicableError, match="order encoding of 400 tiles"):
        solve(big, "sat", encoding="order")
    mid = MahjongBoard(Layout([(0, 2 * i, 0) for i in range(120)]), [min(i, 119 - i) for i in range(120)])
    with pytest.raises(BuildTimeLimit):
        encode_order(mid, deadline=time.perf_counter())
    r = solve(mid, "sat", encoding="order", time_limit=1e-3)
    assert r.status == "unknown" and "time limit" in r.reason
    assert solve(mid, "sat", encoding="order", time_limit=60).status == "solvable"


@pytest.mark.parametrize("encoding", ["layered", "parity", "acyclic"])
def test_every_encoders_build_watches_the_deadline(encoding):
    import time

    from mjsat.board import Layout, MahjongBoard
    from mjsat.encoders.encodings import ENCODINGS
    from mjsat.encoders.errors import BuildTimeLimit

    board = MahjongBoard(Layout([(0, 2 * i, 0) for i in range(120)]), [min(i, 119 - i) for i in range(120)])
    with pytest.raises(BuildTimeLimit, match=encoding):
        ENCODINGS[encoding].encode(board, deadline=time.perf_counter() - 1)
    assert ENCODINGS[encoding].encode(board, deadline=time.perf_counter() + 600)[1].encoding == encoding
