"""Writing files: atomic, and a file that cannot be written is one line of input error."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from mjsat.cli import cli
from mjsat.fileio import OutputFileError, write_text_atomic


def test_atomic_write_replaces_and_leaves_no_temporary(tmp_path):
    p = tmp_path / "a.txt"
    write_text_atomic(p, "one")
    write_text_atomic(p, "two")
    assert p.read_text() == "two" and sorted(x.name for x in tmp_path.iterdir()) == ["a.txt"]


def test_missing_folders_are_made(tmp_path):
    write_text_atomic(tmp_path / "missing" / "a.txt", "x")
    assert (tmp_path / "missing" / "a.txt").read_text() == "x"


def test_unwritable_targets_are_output_errors_and_overwrite_nothing(tmp_path):
    (tmp_path / "plain").write_text("keep")
    with pytest.raises(OutputFileError, match=r"plain/a.txt: cannot create the folder"):
        write_text_atomic(tmp_path / "plain" / "a.txt", "x")
    folder = tmp_path / "folder"
    (folder / "inside").mkdir(parents=True)
    with pytest.raises(OutputFileError, match="folder"):
        write_text_atomic(folder, "x")
    assert (folder / "inside").is_dir() and sorted(x.name for x in tmp_path.iterdir()) == ["folder", "plain"]
    assert (tmp_path / "plain").read_text() == "keep"


def test_cli_reports_an_unwritable_output_on_one_line(tmp_path):
    (tmp_path / "plain").write_text("keep")
    r = CliRunner().invoke(cli, ["reduce", "family", "complete", "--k", "2", "-o", str(tmp_path / "plain" / "f.cnf")])
    assert r.exit_code == 2 and r.output.strip().count("\n") == 0 and "cannot create the folder" in r.output
