"""The search's options object (mjsat.search.options): its check, its resolution into a
driver, playout counts and rule array, the registry reading it, the option names defined
in one place, and the generated docs page."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from mjsat.board import Layout, MahjongBoard, ShisenShoBoard
from mjsat.deals import deal_random
from mjsat.layouts import load_layout
from mjsat.methods import MethodOptionError, check_options, method_options, solve
from mjsat.search import config
from mjsat.search.drivers import DRIVERS, batch_refusal, choose_driver
from mjsat.search.options import (
    SearchOptionError,
    SearchOptions,
    UnknownEngineError,
    UnknownPairTestError,
    UnknownPlayoutError,
    docs_page,
    option_names,
    options_table,
)
from mjsat.search.pairing import MAHJONG, SH3D, SHISEN, geometry
from mjsat.search.solver import SearchRun, solve_search

SEARCH = Path(config.__file__).parent

LINE = Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)])

TWINS = {
    ("pairing.py", "PythonSearch.__init__"): "the pure-Python twin takes the rules, resolved, as keywords",
    ("pairing.py", "PythonSearch.attempt"): "its guided is the kind of one playout, a bool, not the count option",
    ("kernels.py", "rules"): "the rule array from the rules, resolved (the tests' twin of SearchOptions.rules)",
    ("kernels/__init__.py", "rules"): "as kernels.py",
    ("kernels/arrays.py", "rules"): "as kernels.py",
}
"""The functions of search/ that take rule switches by name, and why (they take the rules
already resolved for one board, not options)."""


@pytest.mark.parametrize(
    ("given", "error", "message"),
    [
        ({"freeze_pair": "on"}, SearchOptionError, "freeze_pair must be true or false (on/off) or unset, got 'on'"),
        (
            {"freeze_pair": "maybe"},
            SearchOptionError,
            "freeze_pair must be true or false (on/off) or unset, got 'maybe'",
        ),
        ({"scan": "yes"}, SearchOptionError, "scan must be true or false (on/off), got 'yes'"),
        ({"bondt": 2}, SearchOptionError, "bondt must be true or false (on/off), got '2'"),
        ({"attempts": -1}, SearchOptionError, "attempts must be an integer >= 0, got -1"),
        ({"node_limit": True}, SearchOptionError, "node_limit must be an integer >= 0, got True"),
        ({"presearch": None}, SearchOptionError, "presearch must be an integer >= 0, got None"),
        ({"guided": 1.5}, SearchOptionError, "guided must be an integer >= 0, got 1.5"),
        ({"engine": "fortran"}, UnknownEngineError, "unknown engine 'fortran'"),
        ({"playout": "greedy"}, UnknownPlayoutError, "unknown playout 'greedy'"),
        ({"pair_test": "bitset"}, UnknownPairTestError, "unknown pair_test 'bitset'"),
        ({"speed": 3}, SearchOptionError, "the search takes no option 'speed'"),
    ],
)
def test_a_value_that_cannot_work_is_refused_before_any_board_naming_the_option(given, error, message):
    with pytest.raises(error, match=re.escape(message)):
        SearchOptions.of(**given)
    if "speed" in given:
        with pytest.raises(MethodOptionError, match="speed"):
            check_options("search", given)
    elif None in given.values():  # the registry reads None as "the default"
        assert check_options("search", given) == {}
        return
    else:
        with pytest.raises(error, match=re.escape(message)):
            check_options("search", given)
    board = MahjongBoard(LINE, [0, 1, 1, 0])
    with pytest.raises(error):
        solve_search(board, **given)
    with pytest.raises(error):
        SearchRun(board, **given)


def test_a_message_is_one_line():
    with pytest.raises(SearchOptionError) as info:
        SearchOptions(freeze_pair="maybe").check()
    assert "\n" not in str(info.value)


def test_the_registry_reads_the_option_names_from_the_fields():
    assert method_options("search") == option_names() == {f.name for f in dataclasses.fields(SearchOptions)}
    assert check_options("search", {"attempts": 0, "freeze_pair": True, "playout": "safe"}) == {
        "attempts": 0,
        "freeze_pair": True,
        "playout": "safe",
    }


def _keyword_parameters(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    args = fn.args
    named = [a.arg for a in args.kwonlyargs]
    if args.defaults:
        named += [a.arg for a in args.args[-len(args.defaults) :]]
    return named


def test_option_names_are_defined_only_in_options_py():
    """No function of the search package but the rule twins takes a search option by name:
    a new option goes into :class:`SearchOptions` (a parameter named like one elsewhere,
    say ``def solve_search(board, *, attempts=None)``, fails here)."""
    names = option_names()
    found = []
    seen = 0
    for path in sorted(SEARCH.rglob("*.py")):
        rel = path.relative_to(SEARCH).as_posix()
        if rel == "options.py":
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        item.name = f"{node.name}.{item.name}"
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                seen += 1
                clash = sorted(set(_keyword_parameters(node)) & names)
                if clash and (rel, node.name) not in TWINS:
                    found.append(f"{rel}: {node.name}({', '.join(clash)})")
    assert seen > 100
    assert not found, "search options defined outside search/options.py: " + "; ".join(found)


def test_the_docs_page_is_the_generated_table():
    page = docs_page()
    assert page.read_text() == options_table(), "run: python -c 'from mjsat.search.options import *; ...' to rewrite it"
    for f in dataclasses.fields(SearchOptions):
        assert f"| `{f.name}` |" in page.read_text()


def test_resolve_gives_the_driver_the_counts_and_the_rules():
    board = deal_random(load_layout("turtle"), seed=3)
    geo = geometry(board)
    fours = sum(1 for m in geo.members if len(m) >= 4)
    plan = SearchOptions().resolve(geo)
    assert (plan.driver, plan.attempts, plan.guided) == ("phases", -(-fours * 3 // 5), fours)
    assert plan.rules.tolist() == [1, 1, 1, 1, 0, 0, 0, config.PLAYOUTS.index("rows")]
    assert SearchOptions(node_limit=150).resolve(geo).driver == "one-call"
    assert SearchOptions(node_limit=150).resolve(geo, time_limit=0.01).driver == "phases"
    assert SearchOptions(node_limit=150, bondt=True).resolve(geo).driver == "bondt"
    assert SearchOptions(engine="python", node_limit=150).resolve(geo).driver == "python"
    plan = SearchOptions(attempts=2, guided=1, scan=False, joint=True, playout="safe").resolve(geo)
    assert (plan.attempts, plan.guided) == (2, 1)
    assert plan.rules[config.R_SCAN] == 0 and plan.rules[config.R_JOINT] == 1
    assert plan.rules[config.R_PLAYOUT] == config.PLAYOUTS.index("safe")
    assert SearchOptions().rules(SH3D)[config.R_FREEZE_PAIR] == 1
    assert SearchOptions().rules(SHISEN)[config.R_FREEZE_PAIR] == 0
    assert SearchOptions(freeze_pair=False).rules(SH3D)[config.R_FREEZE_PAIR] == 0


def test_the_drivers_table_picks_one_driver_per_case():
    assert [d.name for d in DRIVERS][-1] == "phases"
    one = SearchOptions(node_limit=200)
    assert choose_driver(one, MAHJONG, 144) == "one-call"
    assert choose_driver(one, MAHJONG, 144, resumable=True) == "phases"
    assert choose_driver(one, SHISEN, 144) == "phases"
    assert choose_driver(SearchOptions(node_limit=201), MAHJONG, 144) == "phases"
    assert choose_driver(one, MAHJONG, 4096) == "phases"
    for given in ({"presearch": 1}, {"joint": True}, {"loose_pair": True}, {"freeze_pair": True}):
        assert batch_refusal(dataclasses.replace(one, **given)), given
        assert choose_driver(dataclasses.replace(one, **given), MAHJONG, 144) == "phases", given
    assert not batch_refusal(one)


def test_stats_name_the_driver_that_ran():
    board = deal_random(load_layout("turtle"), seed=5)
    for given, driver in (
        ({"node_limit": 150}, "one-call"),
        ({"node_limit": 150, "presearch": 2}, "phases"),
        ({"node_limit": 150, "bondt": True, "attempts": 0, "guided": 0}, "bondt"),
        ({"node_limit": 50, "engine": "python", "attempts": 0, "guided": 0}, "python"),
    ):
        assert solve_search(board, **given).stats["driver"] == driver, given
    grid = ShisenShoBoard(LINE, [0, 1, 1, 0])
    assert solve_search(grid).stats["driver"] == "small"
    assert solve_search(grid, presearch=2).stats["driver"] == "phases"


def test_an_options_object_and_options_by_name_run_the_same():
    board = deal_random(load_layout("turtle"), seed=8)
    opts = SearchOptions(node_limit=150, playout="safe")
    by_object = solve_search(board, opts, seed=4)
    by_name = solve(board, "search", seed=4, node_limit=150, playout="safe")
    assert (by_object.status, by_object.moves) == (by_name.status, by_name.moves)
    run = SearchRun(board, opts, seed=4, node_limit=None)
    assert run.options == dataclasses.replace(opts, node_limit=None)
    assert run.advance().status in ("solvable", "unsolvable")


def test_the_batch_path_refuses_what_it_does_not_run():
    from mjsat.search.batch import BatchSolver

    for given in ({"bondt": True}, {"engine": "python"}, {"joint": True}, {"presearch": 3}):
        with pytest.raises(SearchOptionError, match="the batch path does not run"):
            BatchSolver(LINE, **given)
    assert BatchSolver(LINE, SearchOptions(node_limit=3)).node_limit == 3
