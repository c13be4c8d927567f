"""The documentation: the README's examples run, the site builds with no warning (its
tutorials' examples run in the build), its internal links resolve, and the help texts
name what the registry holds."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

from click.testing import CliRunner

from mjsat.cli import cli

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

_MARKED = re.compile(r"^<!-- test[^>]*-->\n```(\w+)\n(.*?)^```$", re.M | re.S)


def readme_blocks(language: str) -> list[str]:
    """The fenced blocks of README.md in ``language`` that a ``<!-- test ... -->`` line marks."""
    text = (ROOT / "README.md").read_text()
    return [body for lang, body in _MARKED.findall(text) if lang == language]


def _workdir(tmp_path: Path) -> Path:
    (tmp_path / "instances").symlink_to(ROOT / "instances")
    return tmp_path


def test_readme_marks_python_and_shell_examples():
    assert readme_blocks("python") and readme_blocks("sh")


def test_readme_python_runs(tmp_path):
    code = "\n".join(readme_blocks("python"))
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=_workdir(tmp_path), capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("solvable 72 ")


def test_readme_shell_runs(tmp_path):
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}")
    work = _workdir(tmp_path)
    for block in readme_blocks("sh"):
        for line in block.splitlines():
            command = line.split("#", 1)[0].strip()
            if not command:
                continue
            out = subprocess.run(command, shell=True, cwd=work, env=env, capture_output=True, text=True, timeout=600)
            assert out.returncode == 0, f"{command}: {out.stderr}"
    assert (work / "board.svg").read_text().startswith("<svg")
    assert '"status": "solvable"' in (work / "solution.json").read_text()


def test_readme_is_short():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200


def test_benchmarks_readme_names_no_path_of_a_machine():
    text = (ROOT / "benchmarks" / "README.md").read_text()
    assert not re.search(r"/(home|root|Users|work)/\w", text)


def test_limits_table_names_every_limit_with_its_default():
    from mjsat import limits
    from mjsat.encoders import errors

    found = [v for module in (limits, errors) for v in vars(module).values() if isinstance(v, limits.Limit)]
    text = (ROOT / "docs" / "guide" / "limits.md").read_text()
    assert len(found) >= 11
    assert all(f"| `{limit.env}` | {limit.default:,} |" in text for limit in found), [
        limit.env for limit in found if f"| `{limit.env}` | {limit.default:,} |" not in text
    ]


def test_solve_help_names_every_method_and_encoding():
    from mjsat.encoders.encodings import ENCODINGS
    from mjsat.methods import METHODS

    text = " ".join(CliRunner().invoke(cli, ["solve", "--help"], terminal_width=200).output.split())
    method_help = text.split("--method TEXT", 1)[1].split("--time-limit", 1)[0]
    encoding_help = text.split("--encoding TEXT", 1)[1].split("--solver", 1)[0]
    assert all(re.search(rf"\b{name}\b", method_help) for name in METHODS), method_help
    assert all(re.search(rf"\b{name}\b", encoding_help) for name in ENCODINGS), encoding_help


def test_version_is_the_installed_metadata():
    from importlib.metadata import version

    import mjsat

    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output.split()[-1] == mjsat.__version__ == version("mjsat")


def test_public_api_is_complete():
    import mjsat

    for name in mjsat.__all__:
        assert getattr(mjsat, name) is not None, name
    assert mjsat.solve is __import__("mjsat.methods").methods.solve


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        d = dict(attrs)
        if d.get("id"):
            self.ids.add(d["id"] or "")
        for key in ("href", "src"):
            value = d.get(key)
            if value and not urlparse(value).scheme and not value.startswith(("mailto:", "//")):
                self.links.append(value)


def _broken_links(html: Path) -> list[str]:
    """Links of the built site to a page, a file or an anchor that is not there."""
    pages: dict[Path, _Links] = {}
    html = html.resolve()
    for page in html.rglob("*.html"):
        parser = _Links()
        parser.feed(page.read_text())
        pages[page.resolve()] = parser
    broken = []
    for page, parser in pages.items():
        for link in parser.links:
            parsed = urlparse(link)
            path, anchor = parsed.path, parsed.fragment
            target = (page.parent / unquote(path)).resolve() if path else page
            if not target.exists():
                broken.append(f"{page.relative_to(html)}: {link}")
            elif anchor and target.suffix == ".html" and unquote(anchor) not in pages[target].ids:
                broken.append(f"{page.relative_to(html)}: {link} (no such anchor)")
    return broken


def test_docs_build_without_warnings_and_links_resolve(tmp_path):
    """``make docs`` as a test: offline, warnings as errors, the tutorials' examples run in
    the build; then every internal link and anchor of the built pages resolves."""
    html = tmp_path / "html"
    out = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q", "-d", str(tmp_path / "doctrees")]
        + [str(ROOT / "docs"), str(html)],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert out.returncode == 0, out.stderr[-5000:]
    assert (html / "reference" / "cli.html").exists() and (html / "reference" / "api.html").exists()
    assert _broken_links(html) == []


def test_link_check_finds_a_missing_page_and_anchor(tmp_path):
    (tmp_path / "a.html").write_text('<h1 id="top">A</h1><a href="b.html#there">b</a><a href="#top">up</a>')
    (tmp_path / "b.html").write_text('<p id="here">B</p><a href="c.html">c</a><img src="a.html?v=1">')
    assert sorted(_broken_links(tmp_path)) == ["a.html: b.html#there (no such anchor)", "b.html: c.html"]
