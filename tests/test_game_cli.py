"""``mjsat game``: the command starts the server on loopback and refuses bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from mjsat.cli import cli

MJSAT = Path(sys.executable).with_name("mjsat")


def test_help_lists_the_game():
    runner = CliRunner()
    assert "game" in runner.invoke(cli, ["--help"]).output
    res = runner.invoke(cli, ["game", "--help"])
    assert res.exit_code == 0 and "mjsat game --layout turtle --seed 7 --difficulty hard" in res.output


def test_bad_input_is_one_line_with_exit_2(tmp_path):
    runner = CliRunner()
    bad = tmp_path / "broken.save"
    bad.write_text('{"format": "mjsat-game", "version": 1, "board": {"tiles": []')
    for args in (["game", str(bad), "--no-browser"], ["game", "--layout", "no-such-layout", "--no-browser"]):
        res = runner.invoke(cli, args)
        assert res.exit_code == 2, res.output
        errors = [line for line in res.output.splitlines() if "error" in line]
        assert len(errors) == 1 and errors[0].startswith("mjsat: error:"), res.output


def test_the_command_serves_the_game_on_loopback():
    proc = subprocess.Popen(
        [str(MJSAT), "game", "--layout", "tiny", "--seed", "1", "--no-browser", "--check-seconds", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = ""
        end = time.monotonic() + 120
        while "http://" not in line and time.monotonic() < end:
            line = proc.stdout.readline()
        url = line.split()[2]
        assert url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(url + "api/state", timeout=30) as res:
            state = json.loads(res.read())
        assert state["layout"] == "tiny" and len(state["tiles"]) == 8
        assert state["meta"]["difficulty"] == "normal" and state["meta"]["verdict"] == "solvable"
    finally:
        os.kill(proc.pid, signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_a_stop_while_the_solver_warms_up_is_quiet():
    """Ctrl-C (SIGINT to the terminal's process group) or SIGTERM soon after the server
    starts, while the solver child is still importing: no traceback from either process."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        proc = subprocess.Popen(
            [str(MJSAT), "game", "--explain", "height2", "--seed", "3", "--no-browser"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own process group, as a shell's job
            env={**os.environ, "PYTHONFAULTHANDLER": "1"},  # SIGABRT prints every thread's stack
        )
        try:
            line = proc.stdout.readline()
            assert "http://127.0.0.1:" in line
            os.killpg(proc.pid, sig)
            try:
                _, err = proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGABRT)  # where it hangs, for the failure's message
                _, err = proc.communicate(timeout=10)
                pytest.fail(f"no exit 30 s after {sig!r}; its threads:\n{err[-6000:]}")
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        assert "Traceback" not in err and len(err.splitlines()) <= 1, err
        assert proc.returncode in (130, 128 + signal.SIGTERM, -signal.SIGTERM), (sig, proc.returncode, err)
