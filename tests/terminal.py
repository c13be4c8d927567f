"""A program in a real pseudo-terminal, driven as a user drives it: tmux runs it, keys are
sent with ``send-keys`` and the screen is read back with ``capture-pane``."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import pytest


class Terminal:
    """``with Terminal(tmp_path, argv) as term:`` runs ``argv`` in a tmux pane of its own
    server (a socket in ``tmp_path``), ``width`` x ``height`` characters."""

    def __init__(self, tmp_path: Path, argv: list[str], *, width: int = 110, height: int = 32, env=None) -> None:
        if shutil.which("tmux") is None:
            pytest.skip("tmux is not installed")
        self.socket = str(tmp_path / "tmux.sock")
        self.argv = argv
        self.width, self.height = width, height
        self.env = env or {}

    def _tmux(self, *args: str) -> str:
        out = subprocess.run(["tmux", "-S", self.socket, *args], capture_output=True, text=True, timeout=30)
        return out.stdout

    def __enter__(self) -> Terminal:
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env.items())
        command = f"env -u COLUMNS -u LINES {exports} {shlex.join(self.argv)}; echo '[exit '$?']'; sleep 60"
        size = ["-x", str(self.width), "-y", str(self.height)]
        # the pane is sized first (a placeholder runs), then the program starts in it
        subprocess.run(
            ["tmux", "-S", self.socket, "-f", "/dev/null", "new-session", "-d", *size, "sleep 600"],
            check=True,
            timeout=30,
        )
        self._tmux("set-option", "-g", "window-size", "manual")
        self._tmux("resize-window", *size)
        got = self._tmux("display-message", "-p", "#{window_width}x#{window_height}").strip()
        assert got == f"{self.width}x{self.height}", got
        self._tmux("respawn-pane", "-k", command)
        return self

    def __exit__(self, *exc: object) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True, timeout=30)

    def screen(self) -> str:
        """The text on the screen now."""
        return self._tmux("capture-pane", "-p")

    def press(self, *keys: str) -> None:
        """Send keys (tmux names: ``Enter``, ``Space``, ``Left``, ``C-c``, or letters)."""
        self._tmux("send-keys", *keys)

    def type(self, text: str) -> None:
        """Type ``text`` literally."""
        self._tmux("send-keys", "-l", text)

    def wait_for(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        """Wait until the screen matches ``pattern`` (a regular expression)."""
        end = time.monotonic() + timeout
        while True:
            text = self.screen()
            m = re.search(pattern, text)
            if m:
                return m
            if time.monotonic() > end:
                raise AssertionError(f"{pattern!r} not on the screen within {timeout:g} s:\n{text}")
            time.sleep(0.1)
