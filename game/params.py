"""The parameters of the page's API, checked: every bad one is a :class:`BadRequestError`
(the server answers 400 with its message), never an exception of what it would reach.

:func:`json_object` reads a request body (strict JSON through
:func:`mjsat.fileio.parse_json`: bounded nesting, numbers of at most 30 digits, no key
twice); :func:`integer` and :func:`name` read one parameter, missing, of the wrong type
or out of range each said on one line naming it.

>>> integer({"seed": 3}, "seed")
3
>>> integer({"seed": -1}, "seed")
Traceback (most recent call last):
...
mjsat.game.params.BadRequestError: "seed" must be an integer in 0..9223372036854775807, got -1
>>> name({"difficulty": "x"}, "difficulty", ("normal", "hard"))
Traceback (most recent call last):
...
mjsat.game.params.BadRequestError: "difficulty" must be one of normal, hard, got 'x'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mjsat.fileio import InputFileError, parse_json

__all__ = ["BadRequestError", "MAX_BODY_BYTES", "INT_MAX", "json_object", "integer", "name"]

MAX_BODY_BYTES = 40 * 1024 * 1024
"""Largest request body read."""
INT_MAX = 2**63 - 1
"""Largest integer a parameter may have (a seed, a tile number, a count)."""


class BadRequestError(ValueError):
    """A request the API does not accept (the message is sent back with status 400)."""


def json_object(body: bytes) -> dict[str, Any]:
    """The JSON object of a request body (an empty body is ``{}``).

    Raises
    ------
    BadRequestError
        Too large, not UTF-8, not strict JSON, or not an object.
    """
    if len(body) > MAX_BODY_BYTES:
        raise BadRequestError("request too large")
    try:
        text = body.decode("utf-8") if body else "{}"
        data = parse_json(text, "the request body")
    except UnicodeDecodeError:
        raise BadRequestError("request body is not UTF-8 JSON") from None
    except InputFileError as exc:
        raise BadRequestError(f"request body is not JSON: {exc.message}") from None
    if not isinstance(data, dict):
        raise BadRequestError("request body must be a JSON object")
    return data


_MISSING: Any = object()


def integer(data: dict[str, Any], key: str, *, low: int = 0, high: int = INT_MAX, default: Any = _MISSING) -> int:
    """The integer ``data[key]``, in ``low..high`` (``default`` when missing and given).

    Raises
    ------
    BadRequestError
        Missing without a default, not an integer (a bool, a float, a string), or out of
        range.
    """
    if key not in data:
        if default is _MISSING:
            raise BadRequestError(f'"{key}" is missing: an integer in {low}..{high}')
        return default
    v = data[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise BadRequestError(f'"{key}" must be an integer in {low}..{high}, got {_short(v)}')
    if not low <= v <= high:
        raise BadRequestError(f'"{key}" must be an integer in {low}..{high}, got {_short(v)}')
    return v


def name(data: dict[str, Any], key: str, choices: Sequence[str], default: Any = _MISSING) -> str:
    """The text ``data[key]``, one of ``choices`` (``default`` when missing and given).

    Raises
    ------
    BadRequestError
        Missing without a default, not text, or not one of ``choices``.
    """
    if key not in data:
        if default is _MISSING:
            raise BadRequestError(f'"{key}" is missing: one of {", ".join(choices)}')
        return default
    v = data[key]
    if not isinstance(v, str) or v not in choices:
        raise BadRequestError(f'"{key}" must be one of {", ".join(choices)}, got {_short(v)}')
    return v


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
