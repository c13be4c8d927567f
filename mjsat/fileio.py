"""Reading and writing files: the errors and helpers shared by every reader and writer.

Readers
    :func:`read_bytes` is where every reader opens its input: a regular file only (a
    folder, a pipe, a device is one line of error; a FIFO is never waited on), at most
    :data:`mjsat.limits.MAX_INPUT_BYTES` bytes. :func:`read_text` gives a file's text: UTF-8, a leading byte-order mark dropped; any
    other bytes are an :class:`InputFileError` naming the file and the line.
    :func:`parse_json` parses JSON with bounded nesting (:data:`mjsat.limits.MAX_JSON_DEPTH`),
    no ``NaN``/``Infinity`` and no integer of more than :data:`MAX_DIGITS` digits;
    :func:`parse_decimal` reads one integer field of a text format. Every failure is an
    :class:`InputFileError`: one line, ``file:line: problem``.

Writers
    :func:`write_text_atomic` and :func:`write_texts_atomic` (files that belong together,
    such as a CNF and its variable map) write through temporary files renamed into place,
    so a failure leaves every target as it was. The rules, the same for every ``-o``:

    * a missing folder on the way to the file is created;
    * a symbolic link is written through: its target is replaced, the link stays;
    * an existing file keeps its permission bits; a new one gets the default ones
      (``0666`` less the umask);
    * an existing target that is not a regular file (``/dev/stdout``, a pipe) is written
      in place, before any regular file is replaced; a FIFO that no process reads is
      refused (no wait);
    * any failure is an :class:`OutputFileError`: one line naming the file and the
      reason.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import re
import secrets
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from mjsat.limits import MAX_INPUT_BYTES, MAX_JSON_DEPTH

__all__ = [
    "InputFileError",
    "OutputFileError",
    "MAX_DIGITS",
    "decode_text",
    "read_bytes",
    "read_text",
    "text_lines",
    "parse_json",
    "json_array_lines",
    "read_json_lines",
    "parse_decimal",
    "prepare_output",
    "write_text_atomic",
    "write_texts_atomic",
    "FileInUseError",
    "exclusive_lock",
]

PathLike = str | os.PathLike[str]

MAX_DIGITS = 30
"""Longest integer (in digits, sign excluded) any reader accepts: far beyond every range
the files need, and short enough that converting it costs nothing."""


class InputFileError(ValueError):
    """A malformed input file; ``str()`` is one line naming the file, the line and the problem.

    >>> str(InputFileError("board.txt", 3, "expected 4 integers, got 3"))
    'board.txt:3: expected 4 integers, got 3'
    """

    def __init__(self, path: PathLike, line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        where = self.path if line is None else f"{self.path}:{line}"
        super().__init__(f"{where}: {_one_line(message)}")


class OutputFileError(ValueError):
    """An output file that cannot be written; ``str()`` is one line naming the file.

    >>> str(OutputFileError("out/board.json", "cannot write: Permission denied"))
    'out/board.json: cannot write: Permission denied'
    """

    def __init__(self, path: PathLike, message: str) -> None:
        self.path = str(path)
        self.message = message
        super().__init__(f"{self.path}: {_one_line(message)}")


def _one_line(message: str) -> str:
    return " ".join(message.split()) if "\n" in message or "\r" in message else message


# --------------------------------------------------------------------------- reading


def decode_text(data: bytes, path: PathLike = "<bytes>") -> str:
    """``data`` as UTF-8 text without a leading byte-order mark.

    >>> decode_text(b"\\xef\\xbb\\xbf0 0 0\\n")
    '0 0 0\\n'
    >>> decode_text(b"0 0 0\\n\\xff\\n", "f")
    Traceback (most recent call last):
    ...
    mjsat.fileio.InputFileError: f:2: not UTF-8 text: byte 0xff at column 1

    Raises
    ------
    InputFileError
        A byte sequence that is not UTF-8, with its line and column.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputFileError(path, line, f"not UTF-8 text: byte 0x{data[exc.start]:02x} at column {column}") from None


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def read_bytes(path: PathLike) -> bytes:
    """The bytes of the regular file ``path``, at most :data:`mjsat.limits.MAX_INPUT_BYTES`.

    The one place every reader opens its input: a folder, a pipe, a device or a socket is
    refused without being read (a FIFO is opened without waiting for a writer), and a
    file above the size limit is refused before it is read.

    Raises
    ------
    InputFileError
        No such file, not a regular file, too large, or unreadable: one line naming it.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise InputFileError(path, None, "no such file") from None
    except IsADirectoryError:
        raise InputFileError(path, None, "is a folder, not a file") from None
    except OSError as exc:
        raise InputFileError(path, None, _os_reason(exc)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a regular file")
            raise InputFileError(path, None, f"is {kind}, not a regular file: only files are read")
        limit = MAX_INPUT_BYTES.value
        if st.st_size > limit:
            raise InputFileError(
                path, None, f"{st.st_size:,} bytes, above the limit of {limit:,} (set {MAX_INPUT_BYTES.env} to lift it)"
            )
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 24))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise InputFileError(path, None, _os_reason(exc)) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise InputFileError(
            path, None, f"more than {limit:,} bytes, above the limit (set {MAX_INPUT_BYTES.env} to lift it)"
        )
    return data


def read_text(path: PathLike) -> str:
    """The text of the regular file ``path`` (see :func:`read_bytes`, :func:`decode_text`).

    Raises
    ------
    InputFileError
        As :func:`read_bytes`, or not UTF-8.
    """
    return decode_text(read_bytes(path), path)


_NEWLINE = re.compile(r"\r\n|\r|\n")


def text_lines(text: str) -> list[str]:
    """The lines of ``text`` as an editor numbers them (``\\n``, ``\\r\\n`` or ``\\r`` ends
    a line; unlike :meth:`str.splitlines`, form feeds and Unicode separators do not).

    >>> text_lines("a\\r\\nb\\x0cc\\rd\\n")
    ['a', 'b\\x0cc', 'd']
    """
    out = _NEWLINE.split(text)
    if out and out[-1] == "":
        out.pop()
    return out


_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in ``text`` (strings skipped).

    The depth at the ``i``-th opening bracket is ``i + 1`` less the closing brackets
    before it: linear passes in numpy, no Python loop over characters.
    """
    if "[" not in text and "{" not in text:
        return 0
    b = np.frombuffer(_JSON_STRING.sub("", text).encode("utf-8", "surrogatepass"), dtype=np.uint8)
    opens = np.flatnonzero((b == 0x5B) | (b == 0x7B))
    closes = np.flatnonzero((b == 0x5D) | (b == 0x7D))
    return int((np.arange(1, len(opens) + 1) - np.searchsorted(closes, opens)).max(initial=0))


class _NotStandard(ValueError):
    """A JSON token that Python accepts but JSON does not (``NaN``), an over-long number,
    or a key twice in one object; ``token`` is what to look for to name the line."""

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


def _refuse_constant(token: str) -> Any:
    raise _NotStandard(f"{token} is not a JSON number", token)


def _bounded_int(token: str) -> int:
    if len(token.lstrip("-")) > MAX_DIGITS:
        raise _NotStandard(
            f"a number of {len(token.lstrip('-'))} digits (at most {MAX_DIGITS}): {token[:20]}...", token
        )
    return int(token)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) < len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise _NotStandard(f"the key {twice[:40]!r} twice in one object", f'"{twice}"')
    return out


def _line_of(text: str, needle: str | None, nth: int = 1) -> int | None:
    """The line of the ``nth`` occurrence of ``needle`` in ``text`` (best effort)."""
    at = -1
    for _ in range(nth):
        at = text.find(needle, at + 1) if needle else -1
        if at < 0:
            return None
    return text.count("\n", 0, at) + 1


def parse_json(text: str, path: PathLike = "<json>") -> Any:
    """Parse JSON text strictly, with file errors.

    Parameters
    ----------
    text : str
    path : str or path-like
        Named in errors.

    Returns
    -------
    Any
        The parsed value.

    Raises
    ------
    InputFileError
        Not JSON (with the line), nested deeper than :data:`mjsat.limits.MAX_JSON_DEPTH`,
        ``NaN``/``Infinity``, an integer of more than :data:`MAX_DIGITS` digits, or a key
        twice in one object (``{"a": 1, "a": 2}``, which Python reads last-wins).

    >>> parse_json('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> parse_json("[" * 100 + "]" * 100, "deep.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjsat.fileio.InputFileError: deep.json: JSON nested 100 deep, above the limit of 64 ...
    """
    limit = MAX_JSON_DEPTH.value
    opened = text.count("[") + text.count("{")  # bounds the depth: most texts stop here
    depth = _json_depth(text) if opened > limit else 0
    if depth > limit:
        raise InputFileError(
            path, None, f"JSON nested {depth} deep, above the limit of {limit} (set {MAX_JSON_DEPTH.env} to lift it)"
        )
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_int=_bounded_int, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise InputFileError(path, exc.lineno, f"invalid JSON: {exc.msg}") from None
    except _NotStandard as exc:
        nth = 2 if str(exc).startswith("the key") else 1
        raise InputFileError(path, _line_of(text, exc.token, nth), f"invalid JSON: {exc}") from None
    except ValueError as exc:  # pragma: no cover - a number json cannot convert (the digit check comes first)
        raise InputFileError(path, None, f"invalid JSON: {exc}") from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise InputFileError(path, None, "invalid JSON: nested too deep") from None


def read_json_lines(path: PathLike, *, repair: bool = False) -> list[tuple[int, Any]]:
    """The JSON value of each line of an append-only results file, with its 1-based line
    number (``[]`` when the file does not exist); blank lines are skipped.

    A last line without its newline (a writer killed in the middle of it) is dropped,
    and with ``repair`` cut from the file, so that appending goes on cleanly.

    Raises
    ------
    InputFileError
        The file cannot be read or cut, is not UTF-8, or a complete line is not JSON
        (the message names the line).

    Notes
    -----
    :math:`O(L)` for a file of ``L`` bytes.
    """
    p = Path(path)
    if not p.exists():
        return []
    data = read_bytes(p)
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        data = data[:cut]
        if repair:
            try:
                with open(p, "r+b") as fh:
                    fh.truncate(cut)
            except OSError as exc:
                raise InputFileError(p, None, f"cannot cut the half-written last line: {_os_reason(exc)}") from None
    values = []
    for i, line in enumerate(decode_text(data, p).split("\n"), start=1):
        if not line.strip():
            continue
        try:
            values.append((i, parse_json(line, p)))
        except InputFileError as exc:
            raise InputFileError(p, i, f"not a JSON line: {exc.message}") from None
    return values


def json_array_lines(text: str, key: str | None) -> list[int]:
    """The 1-based line of each element of the JSON array under ``key`` (the top-level
    array when ``key`` is None), best effort: for messages that name a line.

    >>> json_array_lines('{"a": 1,\\n "tiles": [\\n  [0, 1],\\n  [2, 3]]}', "tiles")
    [3, 4]
    """
    m = re.search(rf'"{re.escape(key)}"\s*:\s*\[', text) if key is not None else re.match(r"\s*\[", text)
    if not m:
        return []
    lines: list[int] = []
    depth = 1
    line = text.count("\n", 0, m.end()) + 1
    in_str = False
    expect_item = True
    i = m.end()
    while i < len(text) and depth > 0:
        ch = text[i]
        if ch == "\n":
            line += 1
        elif in_str:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
            if depth == 1 and expect_item:
                lines.append(line)
                expect_item = False
        elif ch in "[{":
            if depth == 1 and expect_item:
                lines.append(line)
                expect_item = False
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 1:
            expect_item = True
        elif depth == 1 and expect_item and not ch.isspace():
            lines.append(line)
            expect_item = False
        i += 1
    return lines


_DECIMAL = re.compile(r"[+-]?[0-9]+")


def parse_decimal(
    path: PathLike, line: int | None, text: str, what: str, low: int | None = None, high: int | None = None
) -> int:
    """One integer field of a text format: ASCII decimal digits with an optional sign,
    at most :data:`MAX_DIGITS` of them, in ``low..high`` when given.

    >>> parse_decimal("f", 1, "-12", "row", -100, 100)
    -12
    >>> parse_decimal("f", 3, "1" * 5000, "row", 0, 10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjsat.fileio.InputFileError: f:3: row: 111111111111... (5000 digits) is out of range 0..10

    Raises
    ------
    InputFileError
        Not an integer (``1.5``, ``1_000``, ``²``), or out of range.
    """
    if not _DECIMAL.fullmatch(text):
        raise InputFileError(path, line, f"{what}: expected an integer, got {text[:40]!r}")
    span = "" if low is None or high is None else f" {low}..{high}"
    digits = len(text.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise InputFileError(path, line, f"{what}: {text[:12]}... ({digits} digits) is out of range{span}")
    value = int(text)
    if (low is not None and value < low) or (high is not None and value > high):
        raise InputFileError(path, line, f"{what}: {value} is out of range{span}")
    return value


# --------------------------------------------------------------------------- writing


def _os_reason(exc: OSError) -> str:
    return exc.strerror or exc.__class__.__name__


def prepare_output(path: PathLike) -> Path:
    """The file an output to ``path`` really goes to, with its folder made.

    A symbolic link (or a chain of them) is followed to its target; the folders missing
    on the way to the file are created. A path that names a device or a pipe
    (``/dev/stdout``) is returned as it is.

    Raises
    ------
    OutputFileError
        The path is a folder, or its folder cannot be created.
    """
    p = Path(path)
    try:
        mode = os.stat(p).st_mode  # through links
    except (FileNotFoundError, NotADirectoryError):
        mode = None
    except OSError as exc:
        raise OutputFileError(path, f"cannot write: {_os_reason(exc)}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise OutputFileError(path, "is a folder, not a file")
    if mode is not None and not stat.S_ISREG(mode):
        return p  # a device or a pipe (/dev/stdout): written in place, through its name
    target = Path(os.path.realpath(p)) if p.is_symlink() else p
    folder = target.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputFileError(
            path, f"cannot create the folder {str(folder)!r}: a file of that name is in the way"
        ) from None
    except OSError as exc:
        raise OutputFileError(path, f"cannot create the folder {str(folder)!r}: {_os_reason(exc)}") from None
    return target


def _temporary(target: Path, data: bytes, path: PathLike) -> Path:
    """Write ``data`` to a new file beside ``target`` with ``target``'s mode; its path."""
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise OutputFileError(path, f"cannot write: {_os_reason(exc)}") from None
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:
        raise OutputFileError(path, f"cannot write in {str(target.parent)!r}: {_os_reason(exc)}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            if mode is not None:
                os.fchmod(fh.fileno(), mode)
            fh.write(data)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OutputFileError(path, f"cannot write: {_os_reason(exc)}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def _write_in_place(target: Path, data: bytes, path: PathLike) -> None:
    """Write into an existing target that is not a regular file (a device, a pipe).

    The file is opened without waiting: a pipe that no process reads (a FIFO nobody
    opened) is refused at once instead of blocking for ever.
    """
    try:
        fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OutputFileError(path, "a pipe that no process reads: nothing written") from None
        raise OutputFileError(path, f"cannot write: {_os_reason(exc)}") from None
    try:
        os.set_blocking(fd, True)
        with os.fdopen(fd, "wb", closefd=True) as fh:
            fh.write(data)
    except OSError as exc:
        raise OutputFileError(path, f"cannot write: {_os_reason(exc)}") from None


def write_texts_atomic(files: Iterable[tuple[PathLike, str]]) -> None:
    """Write several text files (UTF-8) so that either all are replaced or none is.

    Every text goes to a temporary file beside its target first, and every target that
    is not a regular file (a device, a pipe) is written next; only when all of them are
    written are the temporary files renamed into place, and a rename that fails puts back
    the files already replaced. A device that refuses its text (``/dev/full``) thus leaves
    every regular target as it was. The rules of the module docstring apply (folders
    created, links written through, modes kept).

    Parameters
    ----------
    files : iterable of (path, text)

    Raises
    ------
    OutputFileError
        A file cannot be written (its folder cannot be made or written, the disk is
        full, the path is a folder, two paths are one file); no target has changed.
    """
    items = [(path, prepare_output(path), text.encode("utf-8")) for path, text in files]
    seen: dict[str, PathLike] = {}
    for path, target, _ in items:
        key = os.path.realpath(target)
        if key in seen:
            raise OutputFileError(path, f"named twice among the outputs (also as {str(seen[key])!r})")
        seen[key] = path
    special = [(p, t, d) for p, t, d in items if t.exists() and not t.is_file()]
    regular = [(p, t, d) for p, t, d in items if not (t.exists() and not t.is_file())]
    temps: list[Path] = []
    try:
        for path, target, data in regular:
            temps.append(_temporary(target, data, path))
        for path, target, data in special:  # before any rename: a device that fails changes nothing
            _write_in_place(target, data, path)
    except BaseException:
        for tmp in temps:
            tmp.unlink(missing_ok=True)
        raise
    backups: list[Path | None] = []
    done = 0
    try:
        for (path, target, _), tmp in zip(regular, temps):
            backup = None
            if target.exists():
                backup = target.with_name(f".{target.name}.{secrets.token_hex(4)}.old")
                try:
                    os.link(target, backup)
                except OSError:
                    backup = None
            backups.append(backup)
            try:
                os.replace(tmp, target)
            except OSError as exc:
                raise OutputFileError(path, f"cannot write: {_os_reason(exc)}") from None
            done += 1
    except BaseException:
        for (_, target, _), backup in zip(regular[:done], backups[:done]):
            try:
                if backup is not None:
                    os.replace(backup, target)
                else:
                    target.unlink(missing_ok=True)
            except OSError:
                pass
        for tmp in temps[done:]:
            tmp.unlink(missing_ok=True)
        for backup in backups[done:]:
            if backup is not None:
                backup.unlink(missing_ok=True)
        raise
    for backup in backups:
        if backup is not None:
            backup.unlink(missing_ok=True)


def write_text_atomic(path: PathLike, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file, so a failure changes nothing.

    See :func:`write_texts_atomic` for the rules and the errors.
    """
    write_texts_atomic([(path, text)])


# --------------------------------------------------------------------------- one writer


class FileInUseError(OutputFileError):
    """An output file another process holds the lock of (:func:`exclusive_lock`)."""


_HELD: dict[str, int] = {}
"""The locks this process holds (lock file -> depth): taking one again nests."""


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        text = ""
    return f"pid {text}" if text.isdigit() else "pid unknown"


@contextlib.contextmanager
def exclusive_lock(path: PathLike) -> Iterator[Path]:
    """Hold the advisory lock of the output ``path`` for the ``with`` block: one writer at a time.

    The lock is ``fcntl.flock`` on a hidden file beside the target, ``.NAME.lock``, which
    holds the process id of its holder and is removed when the block ends (a process that
    is killed leaves the file; the kernel drops its lock, and the next run takes it).
    The lock survives a rename of the target itself (a rewrite through a temporary file),
    which a lock on the target's own inode would not. Within one process the lock nests.

    Yields
    ------
    Path
        The target (:func:`prepare_output`).

    Raises
    ------
    FileInUseError
        Another process holds the lock: one line naming the file and that process's id.
    OutputFileError
        The path is not a regular file (a device, a pipe, a folder), or the lock file
        cannot be made.
    """
    target = prepare_output(path)
    if target.exists() and not target.is_file():
        raise OutputFileError(path, "not a regular file: a results file must be one (it is appended to and rewritten)")
    lock = target.with_name(f".{target.name}.lock")
    key = os.path.abspath(lock)
    if key in _HELD:
        _HELD[key] += 1
        try:
            yield target
        finally:
            _HELD[key] -= 1
        return
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as exc:
            raise OutputFileError(path, f"cannot make its lock file {str(lock)!r}: {_os_reason(exc)}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            who = _holder(fd)
            os.close(fd)
            raise FileInUseError(
                path, f"in use by another process ({who}); wait for it to end, or write to another file"
            ) from None
        try:
            same = os.stat(lock).st_ino == os.fstat(fd).st_ino  # not removed by the holder before us
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        _HELD[key] = 1
        yield target
    finally:
        _HELD.pop(key, None)
        with contextlib.suppress(OSError):
            os.unlink(lock)  # while still held: a process waiting on this file sees it gone and retries
        os.close(fd)
