"""Reading a model back into moves: what every encoding's decoder shares.

Each encoding module gives its encode function and its decoder, a subclass of
:class:`Decoder` beside it (:class:`mjsat.encoders.layered.LayeredDecoder`,
:class:`mjsat.encoders.parity.ParityDecoder`, :class:`mjsat.encoders.order.OrderDecoder`,
:class:`mjsat.encoders.acyclic.AcyclicDecoder`); :data:`mjsat.encoders.encodings.ENCODINGS`
names them. A decoder holds the named variables of one CNF and the encoding's
parameters, and is saved in a variable map (:meth:`Decoder.to_json`,
:meth:`Decoder.from_json`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from mjsat.board import Move, TileId

__all__ = [
    "Decoded",
    "Decoder",
    "PrecedenceDecoder",
    "InvalidMapError",
    "true_set",
    "topological",
    "is_map_int",
    "short_repr",
    "MAP_INT",
]


class InvalidMapError(ValueError):
    """Variable-map data that :meth:`Decoder.from_json` cannot use; ``item`` is the index
    of the offending entry of ``vars`` (``None`` for the header)."""

    def __init__(self, message: str, item: int | None = None) -> None:
        super().__init__(message)
        self.item = item


def true_set(model: Iterable[int]) -> set[int]:
    """The variables set true in a model (a list of signed ints).

    >>> sorted(true_set([1, -2, 3]))
    [1, 3]
    """
    return {v for v in model if v > 0}


@dataclasses.dataclass(frozen=True)
class Decoded:
    """A model read back: the chosen pairing and the pairs in the encoding's order."""

    pairing: list[Move]
    moves: list[Move]


@dataclasses.dataclass
class Decoder:
    """How to read a model of one encoding back into moves (a subclass per encoding).

    Attributes
    ----------
    encoding : str
        The encoding's name (a class attribute of each subclass, as are
        :attr:`stepped` and :attr:`pairing_variables`).
    keys : dict of tuple -> int
        Every named variable (``('m', a, b)``, ``('r', t, s)``, ``('lt', u, v)``, ...).
    params : dict
        Encoding parameters (``exhaustive``: True when UNSAT of this CNF proves the board
        unsolvable; the others are the subclass's).
    """

    encoding: ClassVar[str] = ""
    stepped: ClassVar[bool] = False
    """The encoding has parallel steps (``params['steps']``; ``mjsat encode --steps``)."""
    pairing_variables: ClassVar[bool] = True
    """The CNF has a variable ``('m', a, b)`` per candidate pair (so its models can be
    enumerated by pairing)."""
    keys: dict[tuple, int]
    params: dict

    def pairing(self, model: Iterable[int]) -> list[Move]:
        """The chosen pairs of a model: its true pairing variables ``('m', a, b)``."""
        on = true_set(model)
        return sorted((k[1], k[2]) for k, v in self.keys.items() if k[0] == "m" and v in on)

    def decode(self, model: Iterable[int]) -> Decoded:
        """The pairing and the move order the model states (not yet replayed)."""
        raise NotImplementedError

    def to_json(self) -> dict:
        """The data a variable map holds: encoding, parameters, ``[variable, *name]`` entries."""
        return {
            "encoding": self.encoding,
            "params": self.params,
            "vars": [[v, *k] for k, v in sorted(self.keys.items(), key=lambda kv: kv[1])],
        }

    @classmethod
    def check_params(cls, params: dict, tiles: int | None) -> int | None:
        """Check the encoding's own parameters of map data; returns the number of tiles
        when they state it and ``tiles`` is ``None``, else ``tiles``.

        Raises
        ------
        InvalidMapError
        """
        return tiles

    @classmethod
    def from_json(cls, data: dict) -> Decoder:
        """The decoder of :meth:`to_json`'s data (as a variable map file holds it), checked.

        ``data`` may also give ``tiles`` and ``variables`` (a map file's header); then
        every tile and variable named must lie in range. ``data["encoding"]`` must be
        this class's encoding (:func:`mjsat.encoders.encodings.decoder_from_json` picks
        the class by name).

        Raises
        ------
        InvalidMapError
            A value of the wrong type or out of range, another encoding, parameters the
            encoding cannot use.
        """
        if not isinstance(data, dict):
            raise InvalidMapError("expected a JSON object")
        if data.get("encoding") != cls.encoding:
            raise InvalidMapError(f'"encoding" must be {cls.encoding}, got {short_repr(data.get("encoding"))}')
        for key in ("tiles", "variables"):
            if key in data and not (_is_int(data[key]) and 0 <= data[key] < MAP_INT):
                raise InvalidMapError(f'"{key}" must be a non-negative integer, got {short_repr(data[key])}')
        tiles, variables = data.get("tiles"), data.get("variables")
        params = data.get("params", {})
        if not isinstance(params, dict):
            raise InvalidMapError(f'"params" must be an object, got {short_repr(params)}')
        params = dict(params)
        if "exhaustive" in params and not isinstance(params["exhaustive"], bool):
            raise InvalidMapError(
                f'"params": "exhaustive" must be true or false, got {short_repr(params["exhaustive"])}'
            )
        for key in ("steps", "bound"):
            if key in params and not (_is_int(params[key]) and 0 <= params[key] < MAP_INT):
                raise InvalidMapError(
                    f'"params": "{key}" must be a non-negative integer, got {short_repr(params[key])}'
                )
        if cls.stepped and "steps" not in params:
            raise InvalidMapError(f'the {cls.encoding} encoding needs "params": "steps"')
        tiles = cls.check_params(params, tiles)
        raw = data.get("vars")
        if not isinstance(raw, list):
            raise InvalidMapError(f'"vars" must be a list of [variable, name, ...], got {short_repr(raw)}')
        keys: dict[tuple, int] = {}
        for i, item in enumerate(raw):
            if not (isinstance(item, list) and len(item) >= 2 and _is_int(item[0]) and isinstance(item[1], str)):
                raise InvalidMapError(f"expected [variable, name, ...], got {short_repr(item)}", i)
            var, kind, args = item[0], item[1], item[2:]
            top = variables if variables is not None else MAP_INT - 1
            if not 1 <= var <= top:
                raise InvalidMapError(f"variable {var} is out of range 1..{top}", i)
            if not all(_is_int(a) and abs(a) < MAP_INT for a in args):
                raise InvalidMapError(f"expected integers after the name, got {short_repr(item)}", i)
            if kind in _TILE_KEYS:
                if len(args) != 2:
                    raise InvalidMapError(f"a {kind!r} variable names two numbers, got {short_repr(item)}", i)
                named = args[:1] if kind == "r" else args
                hi = tiles - 1 if tiles is not None else MAP_INT - 1
                if not all(0 <= t <= hi for t in named) or args[-1] < 0:
                    raise InvalidMapError(f"{short_repr(item)} names a tile out of range 0..{hi}", i)
            name = (kind, *args)  # not `keys[(kind, *args)]`: mypy reads that as 3.11's `keys[kind, *args]`
            keys[name] = var
        return cls(keys, params)


class PrecedenceDecoder(Decoder):
    """A decoder of an encoding with precedence variables ``('lt', u, v)`` (u gone before
    v): the moves are the chosen pairs in an order that every true precedence goes
    earlier-to-later in (the order and acyclicity encodings)."""

    def precedences(self, on: set[int]) -> list[tuple[TileId, TileId]]:
        """The true precedences ``(u, v)`` of a model (``on``: its true variables)."""
        return [(k[1], k[2]) for k, v in self.keys.items() if k[0] == "lt" and v in on]

    def decode(self, model: Iterable[int]) -> Decoded:
        on = true_set(model)
        pairing = self.pairing(on)
        return Decoded(pairing, topological(pairing, self.precedences(on)))


def topological(pairing: Sequence[Move], before: Sequence[tuple[TileId, TileId]]) -> list[Move]:
    """The pairs ordered so that every ``(u, v)`` of ``before`` goes earlier-to-later
    (Kahn's algorithm, smallest pair index first); a cycle leaves the rest in pairing
    order, for the replay to reject.

    >>> topological([(0, 1), (2, 3)], [(3, 0)])
    [(2, 3), (0, 1)]
    """
    owner = {t: i for i, p in enumerate(pairing) for t in p}
    succ: list[set[int]] = [set() for _ in pairing]
    indeg = [0] * len(pairing)
    for u, v in before:
        i, j = owner.get(u), owner.get(v)
        if i is None or j is None or i == j or j in succ[i]:
            continue
        succ[i].add(j)
        indeg[j] += 1
    ready = sorted(i for i in range(len(pairing)) if indeg[i] == 0)
    out: list[int] = []
    while ready:
        i = ready.pop(0)
        out.append(i)
        for j in sorted(succ[i]):
            indeg[j] -= 1
            if indeg[j] == 0:
                ready.append(j)
        ready.sort()
    if len(out) != len(pairing):  # a cycle: the model broke the encoding; replay will say so
        out += [i for i in range(len(pairing)) if i not in set(out)]
    return [pairing[i] for i in out]


_TILE_KEYS = ("m", "r", "lt", "o")
"""Variable kinds that name tiles: ``m`` (a pair), ``r`` (a tile and a step), ``lt`` and
``o`` (two tiles)."""
MAP_INT = 2**63
"""Every integer of a variable map lies below this."""


def is_map_int(v: object) -> bool:
    """A map value that is an integer (not a bool) in range.

    >>> is_map_int(3), is_map_int(True), is_map_int(2**63)
    (True, False, False)
    """
    return isinstance(v, int) and not isinstance(v, bool) and abs(v) < MAP_INT


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def short_repr(value: Any) -> str:
    """``repr(value)``, cut to 40 characters (for error messages about map data).

    >>> short_repr("x" * 50)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
    """
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
