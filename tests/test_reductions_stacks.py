"""Theorem 3's board: the design note's sizes, shapes, names and placement."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings, strategies as st

from mjsat.methods import solve
from mjsat.reductions.cnf import normalize_3cnf
from mjsat.reductions.stacks import board_from_stacks, reduce_to_stacks, stack_sizes

literal = st.integers(1, 6).flatmap(lambda v: st.sampled_from([v, -v]))
formula_st = st.lists(st.lists(literal, min_size=1, max_size=4), min_size=0, max_size=8)


@settings(max_examples=60, deadline=None)
@given(clauses=formula_st)
def test_sizes_shapes_and_groups_follow_the_design_note(clauses):
    f = normalize_3cnf(clauses, n_vars=6)
    red = reduce_to_stacks(f)
    n, m = f.n_vars, f.n_clauses
    b = red.board
    assert len(red.stacks) == stack_sizes(n, m)["stacks"] == 8 + 12 * n + 12 * m
    assert len(b) == 24 + 36 * n + 36 * m
    sizes = b.group_sizes()
    assert len(sizes) == 6 + 9 * n + 9 * m
    assert set(sizes.values()) == {4}  # every group has exactly four tiles
    forms = Counter("aab" if s[0] == s[1] != s[2] else "abb" if s[0] != s[1] == s[2] else "other" for s in red.stacks)
    assert forms == {"aab": 4 + 5 * n + 5 * m, "abb": 4 + 7 * n + 7 * m}
    names = set(b.names.values())
    assert "SAT" in names and f"x{2 + 2 * n + 2 * m}" in names and f"y{3 + 2 * n}" in names
    assert sum(1 for x in names if x.startswith("x")) == 2 + 2 * n + 2 * m
    assert sum(1 for x in names if x[0] in "tf") == 4 * n + 6 * m
    # the stacks are isolated on the Mahjong grid: only tops are free
    assert b.layout.is_isolated_stacks() and b.layout.levels == 3
    assert sorted(b.free_tiles()) == [3 * s for s in range(len(red.stacks))]
    for s, stack in enumerate(red.stacks):  # tile 3s+k is level k from the top of stack s
        assert [b.group_label(b.groups[3 * s + k]) for k in range(3)] == stack
        assert b.layout.positions[3 * s][2] == 2


def test_single_unit_clause_matches_the_design_notes_32_stacks():
    red = reduce_to_stacks(normalize_3cnf([[1]]))
    note = (
        "x1 x1 x2|x2 x1 x1|SAT y1 y1|y1 y2 y2|y1 y3 y3|y2 y2 SAT|x2 x2 x4|V1 x3 x3|x3 x3 x4|y3 y4 y4|y4 y4 V1|"
        "y3 y5 y5|y5 y5 SAT|t1,1 t1,1 t1,2|t1,2 t1,1 t1,1|V1 f1,2 f1,2|f1,1 f1,1 f1,2|f1,2 f1,1 f1,1|x4 x4 x6|"
        "C1 x5 x5|x5 x5 x6|x6 x6 SAT|t1,4 t1,2 t1,2|t1,4 t1,3 t1,3|t1,3 t1,3 C1|t1,6 t1,4 t1,4|t1,6 t1,5 t1,5|"
        "t1,5 t1,5 C1|V1 t1,8 t1,8|t1,8 t1,6 t1,6|t1,8 t1,7 t1,7|t1,7 t1,7 C1"
    )
    expected = Counter(tuple(s.split()) for s in note.split("|"))
    assert Counter(tuple(s) for s in red.stacks) == expected
    meta = red.board.meta
    assert meta["reduction"] == "stacks" and meta["normalization"]["padded"] == 1
    assert {g["label"] for g in meta["gadgets"]} == {"x-chain", "y-chain", "V1 true chain", "V1 false chain"}
    assert sorted(t for g in meta["gadgets"] for t in g["tiles"]) == list(range(96))


def test_roles_point_at_the_right_groups():
    f = normalize_3cnf([[1, -2, 3], [-1, 2]])
    red = reduce_to_stacks(f)
    b = red.board

    def label(key):
        return b.group_label(b.groups[red.roles[key]])

    for i in (1, 2, 3):
        for role in ("xlabel", "ylabel", "thead", "fhead"):
            assert label((role, i)) == f"V{i}"
    for j in (1, 2):
        assert label(("xclause", j)) == f"C{j}"
        assert [label(("lit", j, k)) for k in range(3)] == [f"C{j}"] * 3
    assert {label(("sat", k)) for k in range(4)} == {"SAT"}


def test_empty_formula_board_is_solvable_by_the_reference_solver():
    red = reduce_to_stacks(normalize_3cnf([]))
    assert len(red.board) == 24
    assert solve(red.board, "ref").status == "solvable"


def test_flipping_every_stack_keeps_solvability_on_random_boards():
    # the design note's invariant: isolated stacks read upside down decide the same
    rng = np.random.default_rng(5)
    for _ in range(60):
        groups = rng.permutation(np.repeat(np.arange(3), 4)).tolist()
        cuts = sorted(rng.choice(np.arange(1, 12), size=3, replace=False).tolist())
        stacks = [groups[a:b] for a, b in zip([0, *cuts], [*cuts, 12])]
        b1 = board_from_stacks(stacks)
        b2 = board_from_stacks([s[::-1] for s in stacks])
        assert solve(b1, "ref").status == solve(b2, "ref").status


def test_large_formula_builds_with_coordinates_in_range():
    from mjsat.reductions.families import random_3cnf

    f = normalize_3cnf(random_3cnf(100, ratio=4.26, rng=1), n_vars=100)
    red = reduce_to_stacks(f)
    assert len(red.board) == 24 + 36 * 100 + 36 * f.n_clauses
    r0, c0, r1, c1 = red.board.layout.bounds()
    assert max(r1, c1) < 32766 and "gadgets" in red.board.meta


def _steps_reference(formula):
    """The design note's steps replayed one by one (remove, add), the way the first
    implementation built the board: ``(stacks, gadget, note, roles)`` in layout order."""
    st, gad, note, role_at = [], [], [], {}

    def add(s, g, w):
        st.append(s), gad.append(g), note.append(w)
        return len(st) - 1

    for s, g in (
        (["x1", "x1", "x2"], "x"),
        (["x2", "x1", "x1"], "x"),
        (["x2", "x2", "SAT"], "x"),
        (["SAT", "y1", "y1"], "y"),
        (["y1", "y2", "y2"], "y"),
        (["y1", "y3", "y3"], "y"),
        (["y2", "y2", "SAT"], "y"),
        (["y3", "y3", "SAT"], "y"),
    ):
        add(s, f"{g}-chain", "start")
    role_at[("sat", 1)], role_at[("sat", 2)] = (3, 0), (6, 2)
    ends, MN, heads, K = {"x": 2, "y": 7}, {"x": 2, "y": 3}, {}, {}

    def x_part(label):
        M = MN["x"]
        st[ends["x"]] = None
        add([f"x{M}", f"x{M}", f"x{M + 2}"], "x-chain", f"x-part of {label}")
        s = add([label, f"x{M + 1}", f"x{M + 1}"], "x-chain", f"x-part of {label}")
        add([f"x{M + 1}", f"x{M + 1}", f"x{M + 2}"], "x-chain", f"x-part of {label}")
        ends["x"] = add([f"x{M + 2}", f"x{M + 2}", "SAT"], "x-chain", f"x-part of {label}")
        MN["x"] += 2
        return s

    for i in range(1, formula.n_vars + 1):
        V, N = f"V{i}", MN["y"]
        role_at[("xlabel", i)] = (x_part(V), 0)
        st[ends["y"]] = None
        w = f"y-part of {V}"
        add([f"y{N}", f"y{N + 1}", f"y{N + 1}"], "y-chain", w)
        role_at[("ylabel", i)] = (add([f"y{N + 1}", f"y{N + 1}", V], "y-chain", w), 2)
        add([f"y{N}", f"y{N + 2}", f"y{N + 2}"], "y-chain", w)
        ends["y"] = add([f"y{N + 2}", f"y{N + 2}", "SAT"], "y-chain", w)
        MN["y"] += 2
        for p, word in (("t", "true"), ("f", "false")):
            g, a1, a2 = f"{V} {word} chain", f"{p}{i},1", f"{p}{i},2"
            heads[(p, i)] = add([V, a2, a2], g, f"head of {V}'s {word} chain")
            add([a1, a1, a2], g, f"{V}'s {word} chain")
            add([a2, a1, a1], g, f"{V}'s {word} chain")
            K[(p, i)] = 2
    for j, clause in enumerate(formula.clauses, 1):
        role_at[("xclause", j)] = (x_part(f"C{j}"), 0)
        for k, lit in enumerate(clause):
            i, p, word = abs(lit), "tf"[lit < 0], ("true", "false")[lit < 0]
            g, k0 = f"V{i} {word} chain", K[(p, i)]
            a, b, c = (f"{p}{i},{k0 + d}" for d in range(3))
            st[heads[(p, i)]] = None
            w = f"literal {'-' * (lit < 0)}V{i} of C{j}"
            heads[(p, i)] = add([f"V{i}", c, c], g, f"head of V{i}'s {word} chain")
            add([c, a, a], g, w), add([c, b, b], g, w)
            role_at[("lit", j, k)] = (add([b, b, f"C{j}"], g, w), 2)
            K[(p, i)] = k0 + 2
    for (p, i), s in heads.items():
        role_at[("thead" if p == "t" else "fhead", i)] = (s, 0)
    role_at[("sat", 0)], role_at[("sat", 3)] = (ends["x"], 2), (ends["y"], 2)
    rank = {
        g: r
        for r, g in enumerate(
            ["x-chain", "y-chain"]
            + [f"V{i} {w} chain" for i in range(1, formula.n_vars + 1) for w in ("true", "false")]
        )
    }
    live = sorted((s for s in range(len(st)) if st[s] is not None), key=lambda s: (rank[gad[s]], s))
    where = {s: k for k, s in enumerate(live)}
    roles = {key: 3 * where[s] + lev for key, (s, lev) in role_at.items()}
    return [st[s] for s in live], [gad[s] for s in live], [note[s] for s in live], roles


@settings(max_examples=80, deadline=None)
@given(clauses=formula_st)
def test_closed_form_equals_the_design_notes_steps(clauses):
    # the arrays write the surviving stacks down directly; the steps must give the same
    f = normalize_3cnf(clauses, n_vars=6)
    red = reduce_to_stacks(f)
    stacks, gadget, note, roles = _steps_reference(f)
    assert red.stacks == stacks
    assert red.stack_gadget == gadget
    assert red.stack_note == note
    assert red.roles == roles
    b = red.board
    assert [b.group_label(g) for g in b.groups] == [x for s in stacks for x in s]
    assert [g["label"] for g in b.meta["gadgets"]] == list(dict.fromkeys(gadget))


def test_board_is_built_on_first_use_and_matches_the_arrays():
    from mjsat.reductions.families import random_3cnf

    f = normalize_3cnf(random_3cnf(300, ratio=4.26, rng=2), n_vars=300)  # > 3,000 stacks: one flowing page
    red = reduce_to_stacks(f)
    assert "board" not in red.__dict__
    b = red.board
    assert b.groups == tuple(red.stack_groups.reshape(-1).tolist())
    assert [b.layout.positions[3 * s][:2] for s in (0, 1, len(red) - 1)] == [
        tuple(p) for p in red.positions[[0, 1, -1]].tolist()
    ]
    assert b.meta["gadgets"] == [] and b.layout.is_isolated_stacks()
    assert sorted(b.free_tiles()) == [3 * s for s in range(len(red))]
