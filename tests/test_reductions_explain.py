"""Teaching output: the gadget list covers the board and names the right tiles."""

from __future__ import annotations

import pytest

from mjsat.reductions.cnf import normalize_3cnf
from mjsat.reductions.explain import explain_data, explain_text
from mjsat.reductions.targets import reduce_formula


@pytest.mark.parametrize("target", ["stacks", "rows", "shisen-rows"])
def test_gadgets_cover_every_stack_and_tiles_carry_their_names(target):
    red = reduce_formula(normalize_3cnf([[1, -2, 3], [-1, 2]]), target)
    d = explain_data(red)
    b = red.board
    stacks = [s for g in d["gadgets"] for s in g["stacks"]]
    assert sorted(s["stack"] for s in stacks) == list(range(d["sizes"]["stacks"]))
    for s in stacks:  # tile numbers are the target board's
        assert [b.group_label(b.groups[t]) for t in s["tiles"]] == s["groups"]
    st = red if target == "stacks" else red.stack
    for c in d["clauses"]:
        assert {b.group_label(b.groups[t]) for t in [c["x_chain_tile"], *c["literal_tiles"]]} == {c["clause"]}
        mine = [
            s
            for s, note in enumerate(st.stack_note)
            if note.startswith("literal ") and note.endswith(f" of {c['clause']}")
        ]
        assert c["literal_stacks"] == mine
        assert len(c["literal_stacks"]) == 9
    for v, tiles in d["variable_tiles"].items():
        assert {b.group_label(b.groups[t]) for t in tiles.values()} == {v}
    assert d["sizes"]["stacks"] == d["expected_sizes"]["stacks"]


def test_text_lists_chains_clauses_and_the_intended_play():
    red = reduce_formula(normalize_3cnf([[1, 2]]), "stacks")
    text = explain_text(red)
    for words in ("x-chain (", "y-chain (", "V2 false chain", "C1 = (V1 v V2 v V2)", "head of V1's true chain", "R3"):
        assert words in text
    short = explain_text(red, max_stacks=5)
    assert "first 5 stacks shown" in short


def _three_vars(target="stacks"):
    from pathlib import Path

    from mjsat.encoders.dimacs import read_dimacs

    path = Path(__file__).resolve().parents[1] / "instances" / "three-vars.cnf"
    return reduce_formula(normalize_3cnf(read_dimacs(path)), target)


def test_free_since_says_when_each_tile_of_a_move_came_on_top():
    from mjsat.reductions.explain import explain_moves
    from mjsat.reductions.witness import witness

    red = _three_vars()
    moves = witness(red, {1: False, 2: True, 3: True})
    board = red.board.copy()
    history = []
    for m in explain_moves(red, moves):
        history.append(board.copy())
        for t, k in zip(m["tiles"], m["free_since"]):
            assert board.is_free(t)  # legal now
            if k:  # and not before the move that took the last tile above it
                assert not history[k - 1].is_free(t) and history[k].is_free(t)
            else:
                assert red.board.is_free(t)
        assert "on top of their stacks" in m["legal"]
        board.play(tuple(m["tiles"]))


@pytest.mark.parametrize("target", ["rows", "shisen-sho"])
def test_free_since_agrees_across_targets(target):
    from mjsat.reductions.explain import explain_moves
    from mjsat.reductions.witness import witness

    values = {1: True, 2: True, 3: False}
    base = explain_moves(_three_vars(), witness(_three_vars(), values))
    other = _three_vars(target)
    lowered = explain_moves(other, witness(other, values))
    mine = [m for m in lowered if m["free_since"][0] is not None]
    position = {m["index"]: i + 1 for i, m in enumerate(mine)}  # target move index -> stack move index
    assert len(mine) == len(base) < len(lowered)  # the target's own moves come in between
    for m, b in zip(mine, base):  # the same moves, numbered on the target's play
        assert [position.get(k, 0) for k in m["free_since"]] == b["free_since"]
    assert all(m["free_since"] == [None, None] and m["legal"] for m in lowered if m["free_since"][0] is None)


def test_clause_progress_marks_each_clause_when_a_true_literal_frees_its_tile():
    from mjsat.reductions.cnf import satisfies
    from mjsat.reductions.explain import clause_progress, explain_moves
    from mjsat.reductions.witness import witness

    red = _three_vars()
    values = {1: False, 2: True, 3: True}
    moves = witness(red, values)
    first_sat = next(m["index"] for m in explain_moves(red, moves) if m["lemma"] == "first-sat")
    progress = clause_progress(red, moves)
    assert [c["clause"] for c in progress] == ["C1", "C2", "C3"]
    for c in progress:
        k = c["satisfied_at"]
        assert k is not None and k < first_sat
        lit = c["satisfied_by"]
        assert satisfies(values, [[int(lit.replace("V", ""))]])
        tile = next(l["tile"] for l in c["literal_tiles"] if l["literal"] == lit and l["freed"] == k)
        before = red.board.copy()
        for m in moves[: k - 1]:
            before.play(m)
        assert not before.is_free(tile)
        before.play(moves[k - 1])
        assert before.is_free(tile)
        x = c["x_chain_removed"]
        assert x is not None and c["x_chain_tile"] in moves[x - 1] and k < x < first_sat
    # a prefix: nothing freed yet is None
    assert all(c["satisfied_at"] is None and c["x_chain_removed"] is None for c in clause_progress(red, moves[:1]))


def test_stuck_reasons_name_the_waiting_clause_and_its_locked_tiles():
    from mjsat.reductions.explain import stuck_data, stuck_reasons

    red = _three_vars()
    s = stuck_data(red, {1: True, 2: False, 3: False})  # falsifies C2 = (-V1 v V2 v V2)
    reasons = stuck_reasons(s)
    assert s["falsified"] == ["C2"] and len(reasons) == 2
    c = s["clauses"][0]
    assert reasons[0].startswith(f"The x-chain C2 (tile {c['x_chain_tile']}) is free but has no partner")
    for lit in c["literals"]:
        assert f"(tile {lit['tile']}) lies under tiles {', '.join(map(str, lit['under']))}" in reasons[0]
        assert f"(tile {lit['head']}) is still on the board" in reasons[0]
    assert reasons[1].startswith("So the x-chain SAT")
    assert stuck_reasons(stuck_data(red, {1: True, 2: True, 3: True})) == []


@pytest.mark.parametrize("target", ["stacks", "shisen-sho"])
def test_one_notation_and_one_legend_in_the_handout_and_the_lessons(target):
    import re

    from mjsat.game.teach import FormulaLesson
    from mjsat.reductions.explain import explain_moves, legend, legend_html, proof_plan, proof_steps, stuck_data
    from mjsat.reductions.handout import handout_html

    red = reduce_formula(normalize_3cnf([[1, -2, 3], [-1, 2]]), target)
    d = explain_data(red)
    minus = re.compile(r"(?<![\w-])-V\d")
    notes = [s["note"] for g in d["gadgets"] for s in g["stacks"]]
    assert any("¬V2" in n for n in notes) and not any(minus.search(n) for n in notes)
    assert d["clauses"][0]["literals"] == ["V1", "¬V2", "V3"]
    stuck = stuck_data(red, {1: True, 2: False})  # falsifies (¬V1 ∨ V2)
    assert [l["literal"] for c in stuck["clauses"] for l in c["literals"]][:2] == ["¬V1", "V2"]
    assert not any(minus.search(m["why"]) for m in explain_moves(red, stuck["moves"]))
    html = handout_html(red, target=target, cnf_name="f.cnf")
    assert legend_html(target) in html and "<h2>Legend</h2>" in html and not minus.search(html)
    # the page's legend is the handout's, and each line of the plan names a step of the proof
    lesson = FormulaLesson(red, text="(x1 | -x2 | x3) & (-x1 | x2)")
    described = lesson.describe()
    assert [(e["term"], e["text"]) for e in described["legend"]] == legend(target)
    keys = {k for k, _, _ in proof_steps(target)}
    assert 5 <= len(proof_plan(target)) <= 10 and all(k in keys for k, _ in proof_plan(target))
    terms = [k for k, _ in legend(target)]
    assert "a column" in terms and "x-chain" in terms and "red outline" in terms
    assert ("a 3x3 block" in terms) == (target == "shisen-sho")
