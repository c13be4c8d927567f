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
        mine = [s for s, note in enumerate(st.stack_note) if note.startswith("literal ") and note.endswith(f" of {c['clause']}")]
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
