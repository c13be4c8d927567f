"""Shared pieces of the fuzz tests: budgets, mutation strategies, and the checks that an
input ended either in success or in one line naming the file.

The mutations start from a valid file of each format and damage it the way a hand edit,
a truncated copy or a hostile user would: a token replaced by an out-of-range number, a
wrong JSON type, a byte that is not UTF-8, a line dropped or doubled, deep nesting.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, settings, strategies as st

from mjsat.cli import cli
from mjsat.encoders.dimacs import dimacs_text
from mjsat.fileio import InputFileError
from mjsat.layout import Layout
from mjsat.layouts import layout_to_json, load_layout

QUICK, LONG = 60, 600
"""Examples per fuzz test: the default run, and ``make test-slow``."""

BUDGETS = [pytest.param(QUICK, id="quick"), pytest.param(LONG, id="long", marks=pytest.mark.slow)]
"""Parametrize a fuzz test with ``budget`` over these."""


def fuzz(budget: int) -> settings:
    """Hypothesis settings for a fuzz run of ``budget`` examples: no deadline, no example
    database; the quick run is derandomized (the same inputs every time), the long one not."""
    return settings(
        max_examples=budget,
        deadline=None,
        database=None,
        derandomize=budget <= QUICK,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


NASTY_TOKENS = [
    "",
    "0",
    "1",
    "2",
    "-1",
    "-2",
    "+1",
    "-0",
    "126",
    "127",
    "32766",
    "32767",
    "65536",
    str(2**31),
    str(2**63),
    str(2**63 - 1),
    str(2**64),
    str(2**70),
    str(-(2**70)),
    "1" * 40,
    "9" * 5000,
    "1.5",
    "1e3",
    "1e999",
    "NaN",
    "nan",
    "Infinity",
    "-Infinity",
    "0x10",
    "1_000",
    "²",
    "١٢",
    "٣",
    "true",
    "false",
    "null",
    '"false"',
    '"1"',
    "[]",
    "{}",
    "[[[[]]]]",
    "\ufeff",
    "\x00",
    "\x0c",
    "\x85",
    "\u2028",
    "\r",
    "\t",
    "#",
    "%",
    "p",
    "c",
    "v",
    "s",
    "K",
    "k",
    "<",
    ">",
    "{",
    "}",
    "[",
    "]",
    '"',
    ",",
    "-",
    ":",
    "é",
    "€",
    "w",
    "h",
    "d",
    "w0",
    "w9999999",
    "x=",
    "z=",
    "<tile/>",
]
"""Replacement tokens: numbers at and beyond every range, non-decimal digits, JSON words,
separators, byte-order marks and line breaks that are not newlines."""

NASTY_JSON: list[Any] = [
    None,
    True,
    False,
    "false",
    "true",
    "",
    "1",
    "x" * 50,
    0,
    1,
    -1,
    2,
    126,
    127,
    32766,
    32767,
    2**31,
    2**63,
    2**70,
    -(2**70),
    1.5,
    1e300,
    -0.0,
    [],
    {},
    [[]],
    [[[[[]]]]],
    {"a": 1},
    [0, 0],
    [0, 0, 0],
    [0, 0, 0, 0],
    [1, -2],
    ["a", "b"],
    [None],
    {"label": 1, "tiles": "x"},
]
"""Replacement JSON values: every wrong type, and numbers at and beyond every range."""

SHARP_TOKENS = [str(2**70), "9" * 5000, "-1", "-2", "1.5", "²", '"false"', "true", "NaN", "1e999", "\ufeff"]
"""The replacements that broke readers most often: drawn half of the time."""

_TOKENS = st.one_of(st.sampled_from(SHARP_TOKENS), st.sampled_from(NASTY_TOKENS))

_TOKEN = re.compile(r"[^\s\[\]{},:\"<>=/]+")


def _splice(text: str, i: int, j: int, new: str) -> str:
    return text[:i] + new + text[j:]


@st.composite
def mutated_text(draw: st.DrawFn, base: str, *, max_ops: int = 4) -> str:
    """``base`` with one to ``max_ops`` edits: a token replaced, text inserted or cut, a
    line doubled or dropped, the end cut off, the whole wrapped in deep brackets."""
    text = base
    for _ in range(draw(st.integers(1, max_ops))):
        op = draw(st.sampled_from(["token", "token", "token", "insert", "cut", "double", "drop", "truncate", "nest"]))
        if op == "token":
            tokens = list(_TOKEN.finditer(text))
            if not tokens:
                continue
            m = draw(st.sampled_from(tokens))
            text = _splice(text, m.start(), m.end(), draw(_TOKENS))
        elif op == "insert":
            at = draw(st.integers(0, len(text)))
            new = draw(st.one_of(_TOKENS, st.text(max_size=6)))
            text = _splice(text, at, at, new)
        elif op == "cut":
            i = draw(st.integers(0, len(text)))
            j = draw(st.integers(i, min(len(text), i + 12)))
            text = _splice(text, i, j, "")
        elif op in ("double", "drop"):
            lines = text.split("\n")
            k = draw(st.integers(0, len(lines) - 1))
            lines[k : k + 1] = [lines[k], lines[k]] if op == "double" else []
            text = "\n".join(lines)
        elif op == "truncate":
            text = text[: draw(st.integers(0, len(text)))]
        else:
            depth = draw(st.sampled_from([2, 70, 5000]))
            text = "[" * depth + text + "]" * depth
    return text


@st.composite
def mutated_bytes(draw: st.DrawFn, base: str, *, max_ops: int = 4) -> bytes:
    """:func:`mutated_text` as UTF-8 bytes, sometimes with a byte-order mark first or a
    byte that is not UTF-8 (a lone ``0xff``, a cut multi-byte sequence) inside."""
    data = draw(mutated_text(base, max_ops=max_ops)).encode("utf-8", "surrogatepass")
    op = draw(st.sampled_from(["none", "none", "bom", "bad", "cut-utf8"]))
    if op == "bom":
        data = b"\xef\xbb\xbf" + data
    elif op in ("bad", "cut-utf8"):
        at = draw(st.integers(0, len(data)))
        data = data[:at] + (b"\xff" if op == "bad" else b"\xc3") + data[at:]
    return data


def _slots(value: Any, out: list[tuple[Any, Any]]) -> None:
    """Every (container, key) of a JSON value, depth first."""
    if isinstance(value, dict):
        for k in value:
            out.append((value, k))
            _slots(value[k], out)
    elif isinstance(value, list):
        for i in range(len(value)):
            out.append((value, i))
            _slots(value[i], out)


@st.composite
def mutated_json(draw: st.DrawFn, base: Any, *, max_ops: int = 3, indent: int | None = 1) -> str:
    """The JSON text of ``base`` with one to ``max_ops`` values replaced by a value of the
    wrong type or out of range, deleted, or a new key added."""
    data = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, max_ops))):
        slots: list[tuple[Any, Any]] = []
        _slots(data, slots)
        if not slots:
            data = draw(st.sampled_from(NASTY_JSON))
            break
        container, key = draw(st.sampled_from(slots))
        op = draw(st.sampled_from(["replace", "replace", "replace", "delete", "add"]))
        value = copy.deepcopy(draw(st.one_of(st.sampled_from(NASTY_JSON), st.integers(), st.text(max_size=4))))
        if op == "replace":
            container[key] = value
        elif op == "delete":
            del container[key]
        elif isinstance(container, dict):
            container[draw(st.sampled_from(["extra", "format", "version", "tiles", "meta", "params"]))] = value
        else:
            container.append(value)
    return json.dumps(data, indent=indent)


# --------------------------------------------------------------------------- checks


def assert_one_line(message: str, path: Path | str) -> None:
    """An error message is one line and starts with the file's name."""
    assert "\n" not in message and "\r" not in message, message
    assert message.startswith(str(path)), f"{message!r} does not name {path}"


def read_or_refuse(fn: Callable[[], Any], path: Path | str) -> Any:
    """``fn()``, or ``None`` when it raised an :class:`InputFileError` of one line naming
    ``path``. Any other exception fails the test."""
    try:
        return fn()
    except InputFileError as exc:
        assert_one_line(str(exc), path)
        return None


def run_mjsat(args: list[str], env: dict[str, str] | None = None) -> Result:
    """Run ``mjsat ARGS`` in this process; an exception that escaped the CLI fails the test."""
    result = CliRunner().invoke(cli, [str(a) for a in args], env=env, catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"mjsat {' '.join(map(str, args))} raised {result.exception!r}") from result.exception
    return result


def assert_cli_clean(result: Result, path: Path | str, *, ok: tuple[int, ...] = (0,)) -> None:
    """Exit with a code of ``ok``, or 2 with one line on stderr naming ``path``."""
    if result.exit_code in ok:
        return
    assert result.exit_code == 2, (result.exit_code, result.output)
    err = result.stderr.strip()
    assert err.startswith("mjsat: error: "), err
    assert "\n" not in err, err
    assert str(path) in err, f"{err!r} does not name {path}"


def write_input(folder: Path, name: str, data: bytes | str) -> Path:
    """Write one fuzz input file and return its path."""
    path = folder / name
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    path.write_bytes(data)
    return path


def walk(data: Any) -> Iterator[Any]:
    """Every value inside a JSON value (for assertions on what a reader kept)."""
    yield data
    if isinstance(data, dict):
        for v in data.values():
            yield from walk(v)
    elif isinstance(data, list):
        for v in data:
            yield from walk(v)


# --------------------------------------------------------------------------- valid seeds

PYRAMID = load_layout("pyramid")


def _grid(layout: Layout, levels: int, rows: int, cols: int) -> list[str]:
    cells = [[["0"] * cols for _ in range(rows)] for _ in range(levels)]
    for r, c, l in layout.positions:
        cells[l][r][c] = "1"
    return ["".join(row) for level in cells for row in level]


LAYOUT_SEEDS = {
    "plain": "# pyramid\n" + "".join(f"{r} {c} {l}\n" for r, c, l in PYRAMID.positions),
    "kyodai.kyodai": "Kyodai 3.0\npyramid\n" + "\n".join(_grid(PYRAMID, 5, 20, 34)) + "\n",
    "k10.layout": "kmahjongg-layout-v1.0\n# comment\n" + "\n".join(_grid(PYRAMID, 5, 16, 32)) + "\n",
    "k11.layout": "kmahjongg-layout-v1.1\nw8\nh6\nd3\n" + "\n".join(_grid(PYRAMID, 3, 6, 8)) + "\n",
    "g.map": (
        '<?xml version="1.0"?>\n<mahjongg>\n<map name="Pair" scorename="pair">\n'
        '<layer z="0">\n<row y="0" left="0" right="3"/>\n<column x="0" top="1" bottom="2"/>\n'
        '<block left="1" right="2" top="1" bottom="2"/>\n</layer>\n<tile x="0.5" y="0.5" z="1"/>\n'
        '<tile x="1.5" y="0.5" z="1"/>\n</map>\n</mahjongg>\n'
    ),
    "j.json": layout_to_json(PYRAMID),
}

SOLUTION_SEEDS = [
    '{"status": "solvable", "moves": [[0, 1], [2, 3]], "method": "ref"}\n',
    "[[0, 1],\n [2, 3]]\n",
    "# moves\n0 1\n2-3\n4,5\n",
]

CNF_SEED = (
    dimacs_text([[1, -2, 3], [-1, 2], [2, -3, 4, 5], [5]], 5, source="the fuzz tests", comments=["a formula"])
    + "%\n0\n"
)

ASSIGNMENT_SEEDS = ["1 -2 3 -4 5", "v 1 -2 3 0\n", "[1, -2, 3]", "10110", "c comment\n1, -2\n"]

SOLVER_SEEDS = ["c hi\ns SATISFIABLE\nv 1 -2 3\nv -4 5 0\n", "SAT\n1 -2 3 0\n", "s UNSATISFIABLE\n", "-1 2 0\n"]

SAMPLE_SEED = "".join(
    json.dumps(
        {
            "layout": "tiny",
            "game": "mahjong",
            "seed": s,
            "status": st_,
            "seconds": 0.01 * s,
            "cpu_seconds": 0.01,
            "nodes": s,
            "scans": 0,
            "attempts": 1,
            "reason": "",
        }
    )
    + "\n"
    for s, st_ in enumerate(["solvable", "unsolvable", "unknown"])
)


def _save_text() -> str:
    """A save of the game: three moves played on a Shisen-Sho deal, one taken back."""
    from mjsat.deals import deal_solvable
    from mjsat.game.engine import Game
    from mjsat.game.save import save_text
    from mjsat.layouts import load_layout

    board, order = deal_solvable(load_layout("rect-4x3"), seed=2, game="shisen-sho")
    game = Game(board, undo_limit=4, hint_limit=3, meta={"difficulty": "normal"})
    for m in order[:3]:
        game.pair(*m)
    game.undo()
    return save_text(game)


SAVE_TEXT = _save_text()
