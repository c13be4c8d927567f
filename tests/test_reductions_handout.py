"""The printable handout: one self-contained page, in the order of the proof, whose move
list replays on the board; the lemma of each move; where falsifying assignments stop."""

from __future__ import annotations

import itertools
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from mjsat.cli import cli
from mjsat.encoders.dimacs import read_dimacs
from mjsat.reductions.cnf import normalize_3cnf, satisfies
from mjsat.reductions.explain import PROOF_STEPS, TARGET_STEPS, explain_moves, proof_steps, stuck_data
from mjsat.reductions.handout import handout_html
from mjsat.reductions.targets import reduce_file, reduce_formula
from mjsat.reductions.witness import stack_reduction_of, witness
from mjsat.replay import replay

INSTANCES = Path(__file__).resolve().parents[1] / "instances"


class _Page(HTMLParser):
    """Collects what the tests look at: ids in order, gadget sections with their svgs and
    tile numbers, every attribute, the text, the JSON play and the move table."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.attrs: list[tuple[str, str, str]] = []
        self.text: list[str] = []
        self.sections: list[dict] = []  # open <section> stack
        self.gadgets: list[dict] = []
        self.table_moves: list[list[int]] = []
        self.in_json = False
        self.json = ""
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        for k, v in attrs:
            self.attrs.append((tag, k, v or ""))
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "section":
            entry = {"class": a.get("class", ""), "id": a.get("id"), "svgs": 0, "tiles": set()}
            self.sections.append(entry)
            if "gadget" in entry["class"].split():
                self.gadgets.append(entry)
        if tag == "svg":
            for s in self.sections:
                s["svgs"] += 1
        if "data-tile" in a:
            for s in self.sections:
                s["tiles"].add(int(a["data-tile"]))
        if tag == "tr" and "data-move" in a:
            self.table_moves.append([int(x) for x in a["data-move"].split()])
        if tag == "script" and a.get("id") == "mjsat-play":
            self.in_json = True

    def handle_endtag(self, tag):
        if tag == "section":
            self.sections.pop()
        if tag == "script":
            self.in_json = False

    def handle_data(self, data):
        if self.in_json:
            self.json += data
        else:
            self.text.append(data)


def _page(text: str) -> _Page:
    p = _Page()
    p.feed(text)
    p.close()
    assert not p.sections, "a <section> is not closed"
    return p


def _self_contained(text: str, page: _Page) -> None:
    assert (
        "http://" not in text
        and "https://" not in text
        and "//" not in re.sub(r"<script.*?</script>", "", text, flags=re.S)
    )
    assert "link" not in page.tags and "img" not in page.tags and "iframe" not in page.tags
    for tag, key, value in page.attrs:
        assert key != "src", (tag, key, value)
        if key == "href":
            assert value.startswith("#"), value
    assert set(page.tags) >= {"html", "head", "style", "body", "svg"}


def _names_everything(red, page: _Page) -> None:
    f = stack_reduction_of(red).formula
    words = set(re.findall(r"\b[VC]\d+\b", " ".join(page.text)))
    assert {f"V{v}" for v in range(1, f.n_vars + 1)} <= words
    assert {f"C{j}" for j in range(1, f.n_clauses + 1)} <= words


def _in_proof_order(page: _Page, target: str) -> None:
    keys = [k for k, _, _ in proof_steps(target)]
    where = [page.ids.index(f"lemma-{k}") for k in keys]
    assert where == sorted(where)
    sections = [i for i in page.ids if i in ("formula", "construction", "gadgets", "proof", "play", "stuck")]
    assert sections == sorted(sections, key=["formula", "construction", "gadgets", "proof", "play", "stuck"].index)


@pytest.mark.parametrize(
    "name, target",
    [("three-vars", "stacks"), ("three-vars", "rows"), ("unit", "shisen-sho"), ("long-clause", "shisen-rows")],
)
def test_handout_of_a_satisfiable_formula(name, target):
    red = reduce_file(INSTANCES / f"{name}.cnf", target)
    text = handout_html(red, target=target, cnf_name=f"{name}.cnf")
    page = _page(text)
    _self_contained(text, page)
    _names_everything(red, page)
    _in_proof_order(page, target)
    gadgets = red.board.meta["gadgets"]
    assert len(page.gadgets) == len(gadgets)
    for section, gadget in zip(page.gadgets, gadgets):
        assert section["svgs"] == 1
        assert section["tiles"] == set(gadget["tiles"])
    play = json.loads(page.json)
    moves = [tuple(m) for m in play["moves"]]
    assert replay(red.board, moves).is_solved()
    assert page.table_moves == [list(m) for m in moves]
    f = stack_reduction_of(red).formula
    assert satisfies({abs(l): l > 0 for l in play["assignment"]}, f.original)


@pytest.mark.parametrize("name", ["all8-3vars", "pigeonhole-3-2"])
def test_handout_of_an_unsatisfiable_formula_shows_where_every_assignment_stops(name):
    red = reduce_file(INSTANCES / f"{name}.cnf", "stacks")
    f = red.formula
    text = handout_html(red, cnf_name=f"{name}.cnf", max_assignments=8)
    page = _page(text)
    _self_contained(text, page)
    _names_everything(red, page)
    _in_proof_order(page, "stacks")
    assert "unsatisfiable" in " ".join(page.text) and not page.json and "play" not in page.ids
    assert all(s["svgs"] == 1 for s in page.gadgets) and len(page.gadgets) == len(red.board.meta["gadgets"])
    shown = re.findall(r"<tr><td>([-\d ]+)</td><td>((?:C\d+(?:, )?)+)</td>", text)
    assert len(shown) == min(8, 2**f.original_vars)
    for signed, falsified in shown:
        values = {abs(int(x)): int(x) > 0 for x in signed.split()}
        bad = {f"C{j}" for j, c in enumerate(f.clauses, 1) if not satisfies(values, [c])}
        assert set(falsified.split(", ")) == bad


def test_every_step_of_the_proof_has_a_lemma_box_and_the_targets_add_theirs():
    # the design note's order: steps 1-3, then "why it works" from the x-chain to the end
    design_note = [
        "step1",
        "step2",
        "step3",
        "x-chain",
        "first-sat",
        "lock",
        "y-chain-v",
        "choice",
        "unlock",
        "clauses",
        "after",
    ]
    assert [k for k, _, _ in proof_steps("stacks")] == [k for k, _, _ in PROOF_STEPS] == design_note
    for target, (key, _, _) in TARGET_STEPS.items():
        assert proof_steps(target)[-1][0] == key
    assert len({k for k, _, _ in PROOF_STEPS}) == len(PROOF_STEPS)


@pytest.mark.parametrize("target", ["rows", "shisen-sho"])
def test_move_lemmas_agree_across_targets(target):
    """The stack tiles' moves of a target's play use the lemmas of the same moves on the
    stack board; the target's own moves use its step."""
    formula = normalize_3cnf(read_dimacs(INSTANCES / "three-vars.cnf"))
    stacks = reduce_formula(formula, "stacks")
    other = reduce_formula(formula, target)
    values = {1: True, 2: True, 3: False}
    base = explain_moves(stacks, witness(stacks, values))
    lowered = explain_moves(other, witness(other, values))
    own = TARGET_STEPS[target][0]
    assert [m["lemma"] for m in lowered if m["lemma"] != own] == [m["lemma"] for m in base]
    assert [m["group"] for m in lowered if m["lemma"] != own] == [m["group"] for m in base]
    assert sum(m["lemma"] == own for m in lowered) > 0


def test_move_lemmas_follow_the_proof_on_the_stack_board():
    red = reduce_formula(normalize_3cnf(read_dimacs(INSTANCES / "three-vars.cnf")), "stacks")
    moves = witness(red, {1: False, 2: True, 3: True})
    play = explain_moves(red, moves)
    lemmas = [m["lemma"] for m in play]
    first = lemmas.index("first-sat")
    assert lemmas.count("first-sat") == 1 and set(lemmas[first + 1 :]) == {"after"}
    before = play[:first]
    assert {m["group"][0] for m in before if m["lemma"] == "unlock"} <= {"t", "f"}
    assert {m["group"] for m in before if m["lemma"] == "clauses"} == {"C1", "C2", "C3"}
    choices = sorted(m["value"] for m in before if m["lemma"] == "choice")
    assert choices == ["V1 = false", "V2 = true", "V3 = true"]
    assert not any(m["group"].startswith("y") for m in before)


def test_falsifying_assignments_stop_with_the_clause_waiting():
    red = reduce_file(INSTANCES / "three-vars.cnf", "stacks")
    f = red.formula
    for bits in itertools.product((False, True), repeat=3):
        values = dict(zip((1, 2, 3), bits))
        s = stuck_data(red, values)
        board = replay(red.board, [tuple(m) for m in s["moves"]], require_clear=False)
        assert board.remaining() == s["tiles_left"]
        if satisfies(values, f.original):
            assert not s["stuck"] and s["tiles_left"] == 0 and s["falsified"] == []
            continue
        assert s["stuck"] and s["tiles_left"] > 0 and s["x_chain_sat"]["present"]
        assert s["falsified"] == [f"C{j}" for j, c in enumerate(f.clauses, 1) if not satisfies(values, [c])]
        for c in s["clauses"]:
            assert c["x_chain_present"] and board.is_present(c["x_chain_tile"])
            for lit in c["literals"]:
                assert lit["present"] and lit["under"] and lit["head_present"]
                assert not board.is_free(lit["tile"])


def test_cli_writes_the_handout_and_refuses_bad_input(tmp_path):
    runner = CliRunner()
    out = tmp_path / "handout.html"
    r = runner.invoke(cli, ["reduce", "explain", str(INSTANCES / "three-vars.cnf"), "--html", "-o", str(out)])
    assert r.exit_code == 0, r.output
    red = reduce_file(INSTANCES / "three-vars.cnf", "stacks")
    assert replay(red.board, [tuple(m) for m in json.loads(_page(out.read_text()).json)["moves"]]).is_solved()
    bad = tmp_path / "bad.cnf"
    bad.write_text("p cnf 2 1\n1 x 0\n")
    out.write_text("keep")
    r = runner.invoke(cli, ["reduce", "explain", str(bad), "--html", "-o", str(out)])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1 and "bad.cnf:2" in r.output
    assert out.read_text() == "keep"
    r = runner.invoke(cli, ["reduce", "explain", str(INSTANCES / "unit.cnf"), "--html", "--json"])
    assert r.exit_code == 2
    r = runner.invoke(cli, ["reduce", "explain", str(INSTANCES / "unit.cnf"), "--html", "-o", str(out / "h.html")])
    assert r.exit_code == 2 and "cannot create the folder" in r.output
    r = runner.invoke(cli, ["reduce", "explain", str(INSTANCES / "unit.cnf"), "--html"])
    assert r.exit_code == 0 and r.output.startswith("<!DOCTYPE html>")
    assert "--html" in runner.invoke(cli, ["reduce", "explain", "--help"]).output
