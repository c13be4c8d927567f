"""The options of the pairing-set search, in one frozen dataclass.

:class:`SearchOptions` names every option of the ``search`` method (``mjsat solve
--method search -O KEY=VALUE``), with its default and one line on what it does; the method
registry (:mod:`mjsat.methods`) reads the option names from its fields. :meth:`SearchOptions.check`
refuses values that cannot work, before any board, with one line naming the option;
:meth:`SearchOptions.resolve` turns the options and a board's geometry into what a run
needs: the driver that runs it (:mod:`mjsat.search.drivers`), the numbers of random
playouts and the kernels' rule array (the ``R_*`` slots of :mod:`mjsat.search.config`).
:func:`options_table` renders the option table of ``docs/guide/search-options.md``.

>>> from mjsat.board import Layout, MahjongBoard
>>> from mjsat.search.pairing import geometry
>>> board = MahjongBoard(Layout([(0, 0, 0), (0, 2, 0), (0, 4, 0), (0, 6, 0)]), [0, 1, 1, 0])
>>> plan = SearchOptions(attempts=3).check().resolve(geometry(board))
>>> plan.driver, plan.attempts, plan.guided
('phases', 3, 0)
>>> SearchOptions(freeze_pair="maybe").check()
Traceback (most recent call last):
...
mjsat.search.options.SearchOptionError: freeze_pair must be true or false (on/off) or unset, got 'maybe'
"""

from __future__ import annotations

import ast
import dataclasses
import fractions
import inspect
import itertools
import numbers
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from mjsat.search.config import (
    N_RULES,
    PAIR_TESTS,
    PLAYOUTS,
    R_CRITICAL,
    R_FREEZE,
    R_FREEZE_PAIR,
    R_JOINT,
    R_LOOSE,
    R_LOOSE_PAIR,
    R_PLAYOUT,
    R_SCAN,
)
from mjsat.search.pairing import MAHJONG, SH3D, SHISEN, Geometry

__all__ = [
    "SearchOptions",
    "Resolved",
    "ENGINES",
    "SearchOptionError",
    "UnknownEngineError",
    "UnknownPairTestError",
    "UnknownPlayoutError",
    "DEFAULT_PLAYOUT",
    "DEFAULT_PAIR_TEST",
    "FAST_PLAIN_SHARE",
    "GUIDED_ATTEMPTS",
    "FREEZE_PAIR_KINDS",
    "default_attempts",
    "options_table",
    "option_names",
    "check_search_options",
]

ENGINES = ("numba", "python")
"""The implementations of the search."""

FAST_PLAIN_SHARE = fractions.Fraction(3, 5)
"""With the incremental kernels (numba, Mahjong) the default is this share of de Bondt's
number as plain playouts (22 on the turtle), then de Bondt's number of scan-guided ones
(36): a guided playout costs several plain ones and clears far more deals (the figures
are in benchmarks/README.md, section search)."""

GUIDED_ATTEMPTS = 0
"""Default number of scan-guided playouts otherwise (the Python engine, Shisen-Sho: a
guided playout then costs a fresh apply per move)."""

FREEZE_PAIR_KINDS = (SH3D,)
"""The kinds of geometry on which ``freeze_pair`` is on by default: Shisen-Sho on the
Mahjong grid, where it saves time; on Mahjong and on rectangular Shisen-Sho it does not
(figures in benchmarks/README.md, section search)."""

DEFAULT_PLAYOUT = "rows"
"""The default policy of the Mahjong random playouts (:data:`mjsat.search.config.PLAYOUTS`):
``"rows"`` clears more turtle deals per playout than ``"safe"`` at about the same CPU, and
``"safe"`` more than ``"uniform"`` (the figures are in benchmarks/README.md, section
search)."""

DEFAULT_PAIR_TEST: dict[int, str] = {SHISEN: "cells", SH3D: "bits"}
"""The pair test of the numba kernels (:data:`mjsat.search.config.PAIR_TESTS`) by game
kind, the bitsets where they pay: they make the whole search cheaper on turtle deals of
Shisen-Sho on the Mahjong grid, and change nothing measurable on full rectangles of whole
tiles, where the cell walk is as fast on the crowded positions the search mostly tests
(the figures: benchmarks/README.md, section pairs)."""


class SearchOptionError(ValueError):
    """A search option whose value cannot work (a count that is not a non-negative
    integer, a switch that is neither on nor off)."""


class UnknownEngineError(SearchOptionError):
    """An ``engine`` option that is neither ``numba`` nor ``python``."""


class UnknownPlayoutError(SearchOptionError):
    """A ``playout`` option that is not one of :data:`mjsat.search.config.PLAYOUTS`."""


class UnknownPairTestError(SearchOptionError):
    """A ``pair_test`` option that is not one of :data:`mjsat.search.config.PAIR_TESTS`."""


@dataclasses.dataclass(frozen=True)
class SearchOptions:
    """Every option of the pairing-set search, with its default (see the module docstring).

    ``None`` stands for a default that depends on the board (:meth:`resolve`).

    Notes
    -----
    ``attempts``: de Bondt's number is the number of groups of four tiles or more
    (:func:`default_attempts`); with the cheap incremental playouts (numba, Mahjong, with
    ``scan``) the default is :data:`FAST_PLAIN_SHARE` of it, the guided ones following.
    A guided playout keeps a random move only when the pruning scan still clears the
    position after it.

    ``bondt``: de Bondt's tree with backward adaptation (de Bondt 2012, section 3.2);
    ``critical`` is then ignored (:meth:`~mjsat.search.pairing.PythonSearch._search_bondt`).

    ``freeze_pair`` and ``loose_pair`` are Gimeno Fortea's cleaning rules that look one pair
    ahead in a group of four tiles left; their soundness:
    :class:`~mjsat.search.pairing.PythonSearch`. ``freeze_pair`` is on by default where it
    pays (:data:`FREEZE_PAIR_KINDS`); ``loose_pair`` is ignored on Shisen-Sho. ``joint`` is
    Gimeno Fortea's ternary enumeration.

    ``presearch``: the search resumes where it stopped, for twice as many nodes each time
    the attempts done double (after 1/8, 2/8, 4/8 of them), so that deals refuted in a few
    nodes skip most attempts; 0: all attempts first, as de Bondt does.

    ``pair_test``: de Bondt's row and column bitsets (de Bondt 2020, Theorems 3.2 and 3.3);
    unset: the game's entry of :data:`DEFAULT_PAIR_TEST`. A grid with a row or column longer
    than :data:`mjsat.search.kernels_bits.LINE_BITS` cells walks cells; ``stats`` names the
    test that ran as ``pair_test``.

    ``playout``: the policies of :data:`mjsat.search.config.PLAYOUTS`; the Python engine and
    the other games draw uniformly.
    """

    engine: str = "numba"
    """``numba``: the compiled kernels; ``python``: the pure-Python reference."""
    node_limit: int | None = None
    """Search nodes before answering ``unknown`` (unset: no limit)."""
    attempts: int | None = None
    """Random playouts before the search (unset: de Bondt's number of groups of four or more, 0.6 of it with the scan-guided ones after)."""
    guided: int | None = None
    """Scan-guided random playouts after the plain ones (unset: de Bondt's number with numba on Mahjong and the scan, else 0)."""
    presearch: int = 0
    """numba: search nodes before the playouts, then twice as many each time the playouts done double (0: playouts first)."""
    prior: bool = True
    """Mahjong: Gimeno Fortea's prior analysis, a group whose every pairing stacks its tiles in a cycle refutes the deal."""
    freeze: bool = True
    """Cleaning rule: a group whose present tiles can all go now is played in any pairing."""
    loose: bool = True
    """Cleaning rule (Mahjong): of three free tiles of a group of four, a loose one waits for the fourth."""
    scan: bool = True
    """The pruning scan of the relaxed game, at the start and at every search node."""
    critical: bool = True
    """Branch on the group whose pairings fail most probes (probing each pairing with a scan)."""
    bondt: bool = False
    """Search with de Bondt's "pairing one, then two" tree instead of the critical-group probing."""
    freeze_pair: bool | None = None
    """Cleaning rule: a group of four left in which removing one pair frees the other goes at once (unset: on for shisen-sho-3d)."""
    loose_pair: bool = False
    """Cleaning rule (Mahjong): two free tiles go when their removal leaves a third free and loose."""
    joint: bool = False
    """Without ``critical``: branch jointly on every group with a playable pair, over the product of their pairings."""
    pair_test: str | None = None
    """numba, Shisen-Sho: ``cells`` walks the grid, ``bits`` reads row and column bitsets (unset: bits on shisen-sho-3d)."""
    playout: str | None = None
    """numba, Mahjong: how a stuck playout draws a pair, ``uniform``, ``safe`` or ``rows`` (unset: rows)."""

    @classmethod
    def of(cls, options: SearchOptions | None = None, **given: Any) -> SearchOptions:
        """``options`` (default: the defaults) with the fields of ``given`` replaced, checked.

        Raises
        ------
        SearchOptionError
            ``given`` names no option (one line naming it), or :meth:`check` fails.
        """
        base = options if options is not None else _DEFAULT
        if not given:
            return base.check() if options is not None else base
        if options is None:  # the options of a call by name: checked once per process
            try:
                key = tuple(sorted((name, type(v), v) for name, v in given.items()))
                hit = _OF_GIVEN.get(key)
            except TypeError:  # a value that is not hashable: checked below, not kept
                key, hit = None, None
            if hit is not None:
                return hit
        names = option_names()
        for name in given:
            if name not in names:
                raise SearchOptionError(f"the search takes no option {name!r} (known: {', '.join(sorted(names))})")
        made = dataclasses.replace(base, **given).check()
        if options is None and key is not None:
            if len(_OF_GIVEN) >= _OF_GIVEN_KEEP:
                _OF_GIVEN.clear()
            _OF_GIVEN[key] = made
        return made

    def check(self) -> SearchOptions:
        """Refuse a value that cannot work, before any board; return ``self``.

        Raises
        ------
        UnknownEngineError
            ``engine`` is not one of :data:`ENGINES`.
        UnknownPairTestError
            ``pair_test`` is neither unset nor one of :data:`~mjsat.search.config.PAIR_TESTS`.
        UnknownPlayoutError
            ``playout`` is neither unset nor one of :data:`~mjsat.search.config.PLAYOUTS`.
        SearchOptionError
            A count (``node_limit``, ``attempts``, ``guided``, ``presearch``) that is not a
            non-negative integer, or a switch that is neither true nor false (``1`` and
            ``0`` count as such; ``freeze_pair`` may be unset), for every board.

        Notes
        -----
        :math:`O(1)`.
        """
        if self.engine not in ENGINES:
            raise UnknownEngineError(f"unknown engine {self.engine!r} (known: {', '.join(ENGINES)})")
        if self.pair_test is not None and self.pair_test not in PAIR_TESTS:
            raise UnknownPairTestError(f"unknown pair_test {self.pair_test!r} (known: {', '.join(PAIR_TESTS)})")
        if self.playout is not None and self.playout not in PLAYOUTS:
            raise UnknownPlayoutError(f"unknown playout {self.playout!r} (known: {', '.join(PLAYOUTS)})")
        for name in _COUNTS:
            value = getattr(self, name)
            if value is None and name != "presearch":
                continue
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
                raise SearchOptionError(f"{name} must be an integer >= 0, got {value!r}")
        for name in _SWITCHES:
            value = getattr(self, name)
            if value is None and name == "freeze_pair":
                continue
            if not (isinstance(value, (bool, np.bool_, numbers.Integral)) and value in (0, 1)):
                allowed = "true or false (on/off)" + (" or unset" if name == "freeze_pair" else "")
                raise SearchOptionError(f"{name} must be {allowed}, got {str(value)[:40]!r}")
        return self

    def playout_rule(self, incremental: bool) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """The numbers of random playouts, plain and scan-guided, of a board with ``k``
        groups of four tiles or more, as ``(num, den, fixed)`` each: ``ceil(k * num / den)
        + fixed`` playouts. ``incremental``: with the incremental kernels (numba on
        Mahjong)."""
        share = _FAST_SHARE if incremental and self.scan else (1, 1)
        plain = (0, 1, int(self.attempts)) if self.attempts is not None else (*share, 0)
        if self.guided is not None:
            guided = (0, 1, int(self.guided))
        elif self.scan and incremental:
            guided = (1, 1, 0)
        else:
            guided = (0, 1, GUIDED_ATTEMPTS if self.scan else 0)
        return plain, guided

    def playout_counts(self, fours: int, incremental: bool) -> tuple[int, int]:
        """``(plain, guided)``: the random playouts of a board with ``fours`` groups of four
        tiles or more (:meth:`playout_rule`)."""
        (a, b, c), (d, e, f) = self.playout_rule(incremental)
        return -(-fours * a // b) + c, -(-fours * d // e) + f

    def rules(self, kind: int) -> np.ndarray:
        """The kernels' rule array (``int64[N_RULES]``, slots ``R_*``) on a geometry of
        ``kind``: ``freeze_pair`` resolved by :data:`FREEZE_PAIR_KINDS`, ``playout`` by
        :data:`DEFAULT_PLAYOUT`."""
        opts = np.zeros(N_RULES, dtype=np.int64)
        opts[R_FREEZE], opts[R_LOOSE], opts[R_SCAN], opts[R_CRITICAL] = (
            self.freeze,
            self.loose,
            self.scan,
            self.critical,
        )
        opts[R_FREEZE_PAIR] = self.freeze_pair_on(kind)
        opts[R_LOOSE_PAIR], opts[R_JOINT] = self.loose_pair, self.joint
        opts[R_PLAYOUT] = PLAYOUTS.index(self.playout or DEFAULT_PLAYOUT)
        return opts

    def switches(self, kind: int) -> dict[str, bool]:
        """The rules as the keywords of the pure-Python twin
        (:class:`~mjsat.search.pairing.PythonSearch`) on a geometry of ``kind``."""
        names = ("freeze", "loose", "scan", "critical", "bondt", "loose_pair", "joint")
        return {**{name: bool(getattr(self, name)) for name in names}, "freeze_pair": self.freeze_pair_on(kind)}

    def freeze_pair_on(self, kind: int) -> bool:
        """``freeze_pair`` on a geometry of ``kind`` (unset: :data:`FREEZE_PAIR_KINDS`)."""
        return bool(self.freeze_pair) if self.freeze_pair is not None else kind in FREEZE_PAIR_KINDS

    def pair_test_of(self, kind: int) -> str:
        """The Shisen-Sho pair test on a geometry of ``kind`` (unset: :data:`DEFAULT_PAIR_TEST`)."""
        return self.pair_test or DEFAULT_PAIR_TEST[kind]

    def resolve(self, geo: Geometry, time_limit: float | None = None) -> Resolved:
        """What a run of these options needs on the board of ``geo``.

        Parameters
        ----------
        geo : Geometry
            The board's geometry (:func:`mjsat.search.pairing.geometry`).
        time_limit : float or None
            The run's time limit (the one-call driver looks at no clock).

        Notes
        -----
        :math:`O(G)` for ``G`` groups.
        """
        from mjsat.search.drivers import choose_driver

        incremental = self.engine == "numba" and geo.kind == MAHJONG
        plain, guided = self.playout_counts(default_attempts(geo), incremental)
        return Resolved(choose_driver(self, geo.kind, geo.n, time_limit), plain, guided, self.rules(geo.kind))


_DEFAULT = SearchOptions()
_OF_GIVEN: dict[tuple[tuple[str, type, Any], ...], SearchOptions] = {}
"""The options :meth:`SearchOptions.of` made from options by name, by their sorted
``(name, type, value)`` (so ``1.0``, refused, never stands for ``1``, accepted)."""
_OF_GIVEN_KEEP = 256
_FAST_SHARE = (FAST_PLAIN_SHARE.numerator, FAST_PLAIN_SHARE.denominator)
_COUNTS = ("node_limit", "attempts", "guided", "presearch")
_SWITCHES = ("prior", "freeze", "loose", "scan", "critical", "bondt", "freeze_pair", "loose_pair", "joint")


class Resolved(NamedTuple):
    """The options resolved for one board (:meth:`SearchOptions.resolve`)."""

    driver: str
    """The name of the driver that runs the search (:data:`mjsat.search.drivers.DRIVERS`)."""
    attempts: int
    """The plain random playouts."""
    guided: int
    """The scan-guided random playouts."""
    rules: np.ndarray
    """The kernels' rule array, ``int64[N_RULES]`` indexed by the ``R_*`` slots."""


def default_attempts(geo: Geometry) -> int:
    """de Bondt's number of random attempts: the number of groups of four tiles or more.

    de Bondt (2020, section 5) gives it for Mahjong (36 on the 144-tile layouts, as in his
    2012 paper); the same number is used for Shisen-Sho here.
    """
    return sum(1 for m in geo.members if len(m) >= 4)


def option_names() -> frozenset[str]:
    """The names of the search options (the fields of :class:`SearchOptions`)."""
    return _NAMES


_NAMES = frozenset(f.name for f in dataclasses.fields(SearchOptions))


def _field_docs() -> dict[str, str]:
    """The one-line docstring under each field of :class:`SearchOptions`, read from its
    source."""
    tree = ast.parse(inspect.getsource(SearchOptions))
    body = tree.body[0].body  # type: ignore[attr-defined]  # the class statement
    docs = {}
    for stmt, nxt in itertools.pairwise(body):
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            if isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant):
                docs[stmt.target.id] = " ".join(str(nxt.value.value).split())
    return docs


def options_table() -> str:
    """The Markdown page of the search options (``docs/guide/search-options.md``), rendered
    from the fields of :class:`SearchOptions`: name, default, what it does."""
    docs = _field_docs()
    lines = [
        "# Options of the search",
        "",
        "<!-- generated by mjsat.search.options.options_table(); a test checks this file against it -->",
        "",
        "`mjsat solve --method search -O KEY=VALUE` (and every method or plan that runs the search)",
        "takes these options; switches read `on`/`off`, `true`/`false` or `yes`/`no`.",
        "A value that cannot work is refused before any board, with one line naming the option.",
        "",
        "| option | default | what |",
        "|---|---|---|",
    ]
    for f in dataclasses.fields(SearchOptions):
        default = f.default
        shown = "unset" if default is None else ("on" if default is True else "off" if default is False else default)
        what = docs[f.name].replace("``", "`")
        lines.append(f"| `{f.name}` | {shown} | {what} |")
    return "\n".join(lines) + "\n"


def docs_page() -> Path:
    """Where :func:`options_table` is written in the source tree."""
    return Path(__file__).resolve().parent.parent / "docs" / "guide" / "search-options.md"


def check_search_options(**given: Any) -> None:
    """The check of the ``search`` method (:attr:`mjsat.methods.MethodInfo.check`): the
    options ``given`` by name, as :meth:`SearchOptions.of` takes them.

    Raises
    ------
    SearchOptionError
        An unknown name, or a value :meth:`SearchOptions.check` refuses.
    """
    SearchOptions.of(**given)
