"""Sphinx configuration of the mjsat docs site (``make docs``: offline, warnings as errors)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

from importlib.metadata import version as _version  # noqa: E402

project = "mjsat"
author = "the mjsat developers"
copyright = "2026, the mjsat developers"
release = _version("mjsat")
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "sphinx_click",
    "mjsat_docs",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "screenshots.py", "**/README.md"]
templates_path = ["_templates"]

# Offline: no intersphinx, no remote images (the pages load MathJax when read, not when built).
html_theme = "furo"
html_title = f"mjsat {release}"
html_static_path: list[str] = []
html_show_sourcelink = False

myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 4

autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_typehints = "none"  # the numpydoc sections say the types
autodoc_member_order = "bysource"
autodoc_inherit_docstrings = False  # a Textual widget's render() would show Textual's own docstring
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

nitpicky = False
# numpydoc gives each docstring's References its own citation labels; a module that lists
# a paper without citing it inline is fine.
suppress_warnings = ["ref.citation"]
