"""Writing files: atomic, and a file that cannot be written is one line of input error."""

from __future__ import annotations

import os
import re

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


def test_exclusive_lock_refuses_a_second_holder_naming_it(tmp_path):
    import subprocess
    import sys

    from mjsat.fileio import FileInUseError, exclusive_lock

    out = tmp_path / "r.jsonl"
    holder = subprocess.Popen(
        [sys.executable, "-c", f"from mjsat.fileio import exclusive_lock\nwith exclusive_lock({str(out)!r}):\n print('in', flush=True)\n input()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout.readline() == "in\n"
        with pytest.raises(
            FileInUseError, match=rf"^{re.escape(str(out))}: in use by another process \(pid {holder.pid}\)"
        ):
            with exclusive_lock(out):
                pass
    finally:
        holder.communicate("\n", timeout=30)
    with exclusive_lock(out) as target:  # free again; nests within one process
        with exclusive_lock(out):
            assert target == out
        assert (tmp_path / ".r.jsonl.lock").read_text() == f"{os.getpid()}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_exclusive_lock_refuses_a_device(tmp_path):
    from mjsat.fileio import exclusive_lock

    with pytest.raises(OutputFileError, match=r"^/dev/null: not a regular file"):
        with exclusive_lock("/dev/null"):
            pass
