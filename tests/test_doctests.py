"""Every docstring example of every module runs (networkx's discipline)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

PACKAGES = [
    "mjsat",
    "mjsat.layouts",
    "mjsat.search",
    "mjsat.play",
    "mjsat.runs",
    "mjsat.encoders",
    "mjsat.reductions",
    "mjsat.game",
]


def _modules() -> list[str]:
    names: list[str] = []
    for pkg_name in PACKAGES:
        pkg = importlib.import_module(pkg_name)
        names.append(pkg_name)
        names.extend(f"{pkg_name}.{m.name}" for m in pkgutil.iter_modules(pkg.__path__) if not m.ispkg)
    return sorted(set(names))


@pytest.mark.parametrize("name", _modules())
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
