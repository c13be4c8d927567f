"""encoders/acyclic.py: the elimination makes a chordal completion; no cycles decode."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings, strategies as st

from mjsat.encoders.acyclic import elimination, encode_acyclic
from mjsat.encoders.requirements import requirements
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
