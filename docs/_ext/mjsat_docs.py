"""The mjsat docs site's own Sphinx extension.

- Writes ``reference/api.rst`` (every public module of the package, found the way
  ``tests/test_doctests.py`` finds them) before autosummary reads it, so a new module
  appears in the reference without an edit here.
- ``.. mjsat-limits::`` draws the size limits from :data:`mjsat.limits.LIMITS`.
- ``.. mjsat-methods::`` draws the table of solving methods from the registry
  (:data:`mjsat.methods.METHODS`), so the page cannot drift from the code.
- Makes the pictures the pages show (``_generated/*.svg``) with :mod:`mjsat.render`.
- Runs the ``pycon`` blocks (``>>>`` examples) of every page under ``tutorials/``, of
  ``getting-started`` and ``user/layouts``, as doctests in one namespace per page, in a temporary folder that
  holds a link to the repository's ``instances/``; a failing example is a warning naming
  the page and line, so ``make docs`` (``-W``) fails.
"""

from __future__ import annotations

import contextlib
import doctest
import importlib
import os
import pkgutil
import re
import tempfile
import types
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

LOG = logging.getLogger(__name__)
DOCS = Path(__file__).resolve().parent.parent
ROOT = DOCS.parent

PACKAGES = (
    "mjsat",
    "mjsat.layouts",
    "mjsat.search",
    "mjsat.play",
    "mjsat.runs",
    "mjsat.encoders",
    "mjsat.reductions",
    "mjsat.game",
)
SKIPPED_MODULES = ("cli",)
"""The command modules: their reference is the CLI page (sphinx-click)."""
PRIVATE_PREFIXES = ("_", "kernels")
"""Private modules: ``_``-prefixed, and the numba kernels of the search (private
``_``-prefixed functions behind :mod:`mjsat.search.solver` and :mod:`mjsat.search.batch`)."""

TITLES = {
    "mjsat": "Core: boards, rules, files, methods",
    "mjsat.layouts": "Layouts (mjsat.layouts)",
    "mjsat.search": "Direct search (mjsat.search)",
    "mjsat.play": "Play without peeking (mjsat.play)",
    "mjsat.runs": "Runs over many boards (mjsat.runs)",
    "mjsat.encoders": "SAT and CP-SAT (mjsat.encoders)",
    "mjsat.reductions": "Reductions (mjsat.reductions)",
    "mjsat.game": "The game (mjsat.game)",
}


def public_modules(package: str) -> list[str]:
    """The public modules of ``package``: not ``_``-prefixed, not the command modules."""
    pkg = importlib.import_module(package)
    names = [
        f"{package}.{m.name}"
        for m in pkgutil.iter_modules(pkg.__path__)
        if not m.ispkg and not m.name.startswith(PRIVATE_PREFIXES) and m.name not in SKIPPED_MODULES
    ]
    return sorted(names)


def write_api_page(app: Sphinx, config: Any) -> None:
    """Write ``reference/api.rst`` (ignored by git: made by every build)."""
    lines = [
        ".. Made by docs/_ext/mjsat_docs.py on every build; edit that file, not this one.",
        "",
        "Python API",
        "==========",
        "",
        "Every public module, from its numpydoc docstrings. The names most code needs are",
        "importable from the top (``from mjsat import solve, load_layout, ...``), listed first.",
        "",
    ]
    from mjsat import _HOME

    title = "The top-level names"
    lines += [
        title,
        "-" * len(title),
        "",
        ".. list-table::",
        "   :header-rows: 1",
        "",
        "   * - ``from mjsat import``",
        "     - defined in",
        "",
    ]
    for name in sorted(_HOME, key=str.lower):
        lines += [f"   * - :obj:`{name} <{_HOME[name]}.{name}>`", f"     - :mod:`{_HOME[name]}`"]
    lines += [""]
    for package in PACKAGES:
        title = TITLES[package]
        lines += [title, "-" * len(title), ""]
        lines += [".. autosummary::", "   :toctree: generated", ""]
        lines += [f"   {package}"] + [f"   {m}" for m in public_modules(package)]
        lines += [""]
    text = "\n".join(lines)
    path = DOCS / "reference" / "api.rst"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _markdown(directive: SphinxDirective, lines: list[str], source: str) -> list[nodes.Node]:
    """Parse generated Markdown (the pages that use these directives are MyST pages)."""
    container = nodes.container()
    directive.state.nested_parse(StringList(lines, source=source), directive.content_offset, container)
    return container.children


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


_ROLE = re.compile(r":(\w+):`")


def _option_docs(name: str, options: frozenset[str]) -> list[tuple[str, str, str]]:
    """``(option, type, description)`` of each option of method ``name``, read from the
    Parameters section of its function's numpydoc docstring (roles made MyST roles)."""
    from numpydoc.docscrape import FunctionDoc

    from mjsat.methods import get_method

    out = []
    for param in FunctionDoc(get_method(name))["Parameters"]:
        for opt in (p.strip() for p in param.name.split(",")):
            if opt in options:
                text = _ROLE.sub(r"{\1}`", " ".join(" ".join(param.desc).split()))
                text = re.sub(r"\[(\w+)\]_", r"[\1]", text)  # an RST citation, as plain text
                out.append((opt, param.type or "-", _cell(text)))
    return sorted(out)


class MethodsTable(SphinxDirective):
    """The solving methods of the registry, with their games and options, and the steps of
    the plans (a MyST page's directive: it writes Markdown)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from mjsat.methods import METHODS, axis_values, method_options
        from mjsat.plans import PLANS

        rows = [
            "| method | games | exhaustive | what | options (`-O KEY=VALUE`) |",
            "|---|---|---|---|---|",
        ]
        for name, info in METHODS.items():
            opts = []
            for opt in sorted(method_options(name)):
                values = axis_values(name, opt) if any(a == opt for a, _ in info.axes) else []
                opts.append(f"`{opt}`" + (f" (cross-validated: {', '.join(values)})" if values else ""))
            cells = [f"`{name}`", ", ".join(info.games), "yes" if info.exhaustive else "no", info.summary]
            rows.append("| " + " | ".join(_cell(c) for c in [*cells, ", ".join(opts) or "(none)"]) + " |")
        for name in METHODS:
            documented = _option_docs(name, method_options(name))
            if documented:
                rows += ["", f"Options of `{name}` (from the docstring of `{METHODS[name].target}`):", ""]
                rows += [f"- `{opt}` ({kind}): {text}" for opt, kind, text in documented]
        for name, info in METHODS.items():
            if info.plan is None:
                continue
            rows += ["", f"The steps of the plan `{name}`, in order:", ""]
            for i, step in enumerate(PLANS[info.plan], 1):
                opts = ", ".join(f"`{k}={v}`" for k, v in dict(step.options).items())
                kinds = f"; on boards of kind {', '.join(step.kinds)}" if step.kinds else ""
                rows.append(f"{i}. `{step.label}`: method `{step.method}`{' with ' + opts if opts else ''}{kinds}")
        return _markdown(self, rows, "mjsat.methods.METHODS")


class LimitsTable(SphinxDirective):
    """The size limits of :data:`mjsat.limits.LIMITS`, with their variables and defaults."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from mjsat.limits import LIMITS

        rows = ["| variable | default | what |", "|---|---:|---|"]
        rows += [f"| `{lim.env}` | {lim.default:,} | {_cell(lim.unit + ' ' + lim.about)} |" for lim in LIMITS]
        return _markdown(self, rows, "mjsat.limits.LIMITS")


PICTURES = {}


def _picture(name: str):
    def register(fn):
        PICTURES[name] = fn
        return fn

    return register


@_picture("turtle-seed1.svg")
def _turtle() -> str:
    from mjsat import deal_random, load_layout, solve, svg_board

    board = deal_random(load_layout("turtle"), seed=1)
    result = solve(board, time_limit=60)
    return svg_board(board, solution=result.moves, title="turtle, seed 1: the number of the move removing each tile")


@_picture("three-vars-stacks.svg")
def _three_vars() -> str:
    from mjsat import svg_board
    from mjsat.reductions.targets import reduce_file

    board = reduce_file(ROOT / "instances" / "three-vars.cnf", "stacks").board
    return svg_board(board, title="(V1 v -V2 v V3)(-V1 v V2)(V2 v -V3): the stack board, side view")


@_picture("three-vars-rows.svg")
def _three_vars_rows() -> str:
    from mjsat import svg_board
    from mjsat.reductions.targets import reduce_file

    board = reduce_file(ROOT / "instances" / "three-vars.cnf", "rows").board
    return svg_board(board, title="the same formula on one level (Corollary 4): rows p q r c c c c")


@_picture("height2-planted.svg")
def _height2() -> str:
    import numpy as np

    from mjsat import svg_board
    from mjsat.generate import planted_cycle_board

    board = planted_cycle_board(np.random.default_rng(3), n_tiles=16, cycle_length=3)
    return svg_board(board, title="isolated stacks of height two with a planted blocked cycle (groups 0, 3, 1)")


def make_pictures(app: Sphinx) -> None:
    """Draw the site's pictures into ``_generated/`` (ignored by git) on every build; a file
    is rewritten only when its picture changed."""
    out = DOCS / "_generated"
    out.mkdir(exist_ok=True)
    for name, fn in PICTURES.items():
        path = out / name
        text = fn()
        if not path.exists() or path.read_text() != text:
            path.write_text(text)


_FENCE = re.compile(r"^```+\s*pycon\s*$\n(.*?)^```+\s*$", re.M | re.S)
RUN_PAGES = re.compile(r"^(tutorials/.*|getting-started|user/layouts)$")


@contextlib.contextmanager
def _chdir(path: str) -> Any:
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def run_examples(app: Sphinx, docname: str, source: list[str]) -> None:
    """Run the ``pycon`` blocks of a tutorial page as doctests; a failure is a warning."""
    if not RUN_PAGES.match(docname) or os.environ.get("MJSAT_DOCS_SKIP_RUN"):
        return
    text = source[0]
    parser = doctest.DocTestParser()
    globs: dict[str, Any] = {"__name__": f"docs.{docname}"}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    with tempfile.TemporaryDirectory(prefix="mjsat-docs-") as tmp, _chdir(tmp):
        os.symlink(ROOT / "instances", Path(tmp) / "instances")
        for match in _FENCE.finditer(text):
            line = text.count("\n", 0, match.start(1))
            test = parser.get_doctest(match.group(1), globs, docname, str(DOCS / docname), line)
            out: list[str] = []
            result = runner.run(test, out=out.append, clear_globs=False)
            globs = test.globs  # the next block goes on with this one's names
            if result.failed:
                LOG.warning("example failed:\n%s", "".join(out), location=(docname, line + 1))


def skip_aliases(app: Sphinx, what: str, name: str, obj: Any, skip: bool, options: Any) -> bool | None:
    """Leave out type aliases (``Move = tuple[TileId, TileId]``): the module docstring
    names them, and autodoc cannot give them a signature."""
    if isinstance(obj, types.GenericAlias):
        return True
    return None


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("autodoc-skip-member", skip_aliases)
    app.connect("config-inited", write_api_page)
    app.connect("builder-inited", make_pictures)
    app.connect("source-read", run_examples)
    app.add_directive("mjsat-methods", MethodsTable)
    app.add_directive("mjsat-limits", LimitsTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
