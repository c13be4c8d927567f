"""Errors and helpers shared by every file reader (layouts, boards, solutions, CNF)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["InputFileError", "OutputFileError", "read_text", "write_text_atomic"]


class InputFileError(ValueError):
    """A malformed input file; ``str()`` is one line naming the file, the line and the problem.

    >>> str(InputFileError("board.txt", 3, "expected 4 integers, got 3"))
    'board.txt:3: expected 4 integers, got 3'
    """

    def __init__(self, path: str | os.PathLike[str], line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        where = self.path if line is None else f"{self.path}:{line}"
        super().__init__(f"{where}: {message}")


class OutputFileError(ValueError):
    """A file that cannot be written; ``str()`` is one line naming the file and the reason.

    >>> str(OutputFileError("out/board.json", "No such file or directory"))
    'out/board.json: cannot write: No such file or directory'
    """

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: cannot write: {reason}")


def read_text(path: str | os.PathLike[str]) -> str:
    """The text of ``path``, with file-system and decoding failures as :class:`InputFileError`."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise InputFileError(path, None, "no such file") from None
    except IsADirectoryError:
        raise InputFileError(path, None, "is a directory, not a file") from None
    except OSError as exc:
        raise InputFileError(path, None, exc.strerror or str(exc)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, so a failure overwrites nothing.

    Raises
    ------
    OutputFileError
        The file cannot be written (no such folder, no permission, a folder of that name).
    """
    p = Path(path)
    tmp = p.with_name(f".{p.name}.tmp{os.getpid()}")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, p)
    except OSError as exc:
        raise OutputFileError(path, exc.strerror or str(exc)) from None
    finally:
        if tmp.exists():
            tmp.unlink()
