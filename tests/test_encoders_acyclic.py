"""encoders/acyclic.py: the elimination makes a chordal completion; no cycles decode."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings, strategies as st
from pysat.card import CardEnc, EncType
from pysat.formula import CNF, IDPool

from mjsat.encoders.acyclic import elimination, encode_acyclic
from mjsat.encoders.clauses import add_matching, pair_vars
from mjsat.encoders.requirements import ENCODED_GAMES, requirements
from mjsat.encoders.solvers import run_solver
from mjsat.generate import random_grid_board, random_small_board


@settings(max_examples=80, deadline=None)
@given(n=st.integers(1, 12), data=st.data())
def test_elimination_later_neighbours_are_cliques_of_a_supergraph(n, data):
    pairs = list(itertools.combinations(range(n), 2))
    chosen = data.draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    edges = {frozenset(e) for e in chosen}
    order, later = elimination(n, edges)
    assert sorted(order) == list(range(n))
    pos = {v: i for i, v in enumerate(order)}
    filled = set(edges)
    for v in order:
        assert all(pos[u] > pos[v] for u in later[v])
        filled.update(frozenset(e) for e in itertools.combinations(later[v], 2))
    for e in edges:  # every original edge appears from its earlier end
        u, v = sorted(e, key=pos.get)
        assert v in later[u]
    for v in order:  # perfect elimination order of the filled graph
        assert all(frozenset(e) in filled for e in itertools.combinations(later[v], 2))
    alive = set(range(n))  # least degree first in what is left of the filled graph, ties by number
    for v in order:
        degree = {x: sum(1 for y in alive if y != x and frozenset((x, y)) in filled) for x in alive}
        assert (degree[v], v) == min((d, x) for x, d in degree.items())
        assert later[v] == sorted(y for y in alive if y != v and frozenset((v, y)) in filled)
        alive.remove(v)


def test_models_decode_without_cycles_and_cover_every_edge():
    rng = np.random.default_rng(23)
    models = 0
    for i in range(20):
        board = random_grid_board(rng, group_sizes=(2, 4)) if i % 2 else random_small_board(rng, max_tiles=14)
        req = requirements(board)
        cnf, dec = encode_acyclic(board)
        lts = {(k[1], k[2]) for k in dec.keys if k[0] == "lt"}
        assert len(lts) == 2 * dec.params["edges"]
        for u, v in req.edges():
            assert (u, v) in lts
        sat, model, _ = run_solver(cnf, solver="cadical195")
        if sat:
            on = {v for v in model if v > 0}
            true = [(k[1], k[2]) for k, v in dec.keys.items() if k[0] == "lt" and v in on]
            assert not any((v, u) in set(true) for u, v in true)
            models += 1
    assert models >= 5  # the cycle check above ran


def _small_boards(rng, count):
    """Random small boards of every game the encoders cover (:data:`ENCODED_GAMES`), groups
    of up to eight tiles (a tile with more than five candidate partners takes the ladder)."""
    for i in range(count):
        game = ENCODED_GAMES[i % len(ENCODED_GAMES)]
        sizes = ((2,), (2, 4), (2, 4, 6), (8,))[(i // len(ENCODED_GAMES)) % 4]
        yield random_small_board(rng, game=game, max_tiles=16, group_sizes=sizes)


def test_the_table_and_the_binary_search_give_the_same_cnf(monkeypatch):
    """Boards of at most ``_DENSE_TILES`` tiles look variables up in a table, larger ones
    by binary search: the same clauses, variables and names either way."""
    import mjsat.encoders.acyclic as A

    rng = np.random.default_rng(31)
    for board in _small_boards(rng, 48):
        req = requirements(board)
        cnf, dec = encode_acyclic(board, req=req)
        with monkeypatch.context() as mp:
            mp.setattr(A, "_DENSE_TILES", 0)
            cnf2, dec2 = encode_acyclic(board, req=req)
        assert cnf2.clauses == cnf.clauses and cnf2.nv == cnf.nv, repr(board)
        assert list(dec2.keys.items()) == list(dec.keys.items())


def test_a_pool_of_the_caller_numbers_the_same_cnf_its_own_way():
    """The encoder numbers its own pool in one step; a caller's pool (here with a reserved
    range) gets every name through ``vpool.id``: the same CNF up to the renaming of the
    variables, every name in the pool, and the same verdict."""
    rng = np.random.default_rng(37)
    for board in _small_boards(rng, 24):
        req = requirements(board)
        cnf, dec = encode_acyclic(board, req=req)
        pool = IDPool(occupied=[[3, 40]])
        cnf2, dec2 = encode_acyclic(board, req=req, vpool=pool)
        assert list(dec2.keys) == list(dec.keys)
        assert all(pool.obj2id[k] == v for k, v in dec2.keys.items())
        assert not any(3 <= v <= 40 for v in dec2.keys.values())
        rename = {dec.keys[k]: dec2.keys[k] for k in dec.keys}
        renamed = set(rename.values())
        named = [c for c in cnf.clauses if all(abs(x) in rename for x in c)]  # no ladder variable
        assert [[(rename[abs(x)] if x > 0 else -rename[abs(x)]) for x in c] for c in named] == [
            c for c in cnf2.clauses if all(abs(x) in renamed for x in c)
        ]
        assert run_solver(cnf, solver="minisat22")[0] == run_solver(cnf2, solver="minisat22")[0]


def test_the_matching_is_python_sat_s_cardinality_encoding():
    """``add_matching`` writes python-sat's pairwise encoding out for up to five candidates
    (the same clauses in the same order) and takes its ladder encoding beyond."""
    rng = np.random.default_rng(41)
    sizes = set()
    for board in _small_boards(rng, 40):
        req = requirements(board)
        pool = IDPool()
        m = pair_vars(req, pool)
        cnf = CNF()
        add_matching(cnf, req, m, pool)
        want: list[list[int]] = []
        top = len(m)
        for inc in req.incident():
            lits = [m[p] for p in inc]
            sizes.add(min(len(lits), 6))
            if len(lits) <= 1:
                want.append(lits)
                continue
            enc = EncType.pairwise if len(lits) <= 5 else EncType.ladder
            part = CardEnc.equals(lits, 1, top_id=top, encoding=enc)
            top = max(top, part.nv)
            want.extend(part.clauses)
        assert cnf.clauses == want, repr(board)
    assert sizes >= {1, 2, 3, 4, 5, 6}, sizes
