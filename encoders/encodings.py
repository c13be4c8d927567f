"""The SAT encodings by name: each entry carries its encode function and its decoder.

>>> sorted(ENCODINGS)
['acyclic', 'layered', 'order', 'parity', 'stacks']
>>> ENCODINGS["parity"].stepped, ENCODINGS["parity"].pairing_variables
(True, False)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from pysat.formula import CNF, IDPool

from mjsat.board import Board
from mjsat.encoders.acyclic import AcyclicDecoder, encode_acyclic
from mjsat.encoders.decoding import Decoder, InvalidMapError, short_repr
from mjsat.encoders.errors import EncodingError
from mjsat.encoders.layered import LayeredDecoder, encode_layered, first_steps
from mjsat.encoders.order import OrderDecoder, encode_order
from mjsat.encoders.parity import ParityDecoder, encode_parity, first_parity_steps
from mjsat.encoders.stacks import StacksDecoder, encode_stacks
from mjsat.limits import MAX_STEP_CELLS

__all__ = ["Encoding", "ENCODINGS", "DEFAULT_ENCODING", "get_encoding", "encode", "decoder_from_json"]


@dataclasses.dataclass(frozen=True)
class Encoding:
    """One SAT encoding of a board.

    Attributes
    ----------
    encode : callable
        ``encode(board, *, vpool=None, req=None, deadline=None[, steps=None]) -> (CNF, Decoder)``.
    decoder : type of Decoder
        Its decoder class, which names the encoding and states its facts.
    first_steps : callable or None
        Stepped encodings: the number of steps the ``sat`` method tries first for ``n``
        tiles, before the proved bound.
    """

    encode: Callable[..., tuple[CNF, Decoder]]
    decoder: type[Decoder]
    first_steps: Callable[[int], int] | None = None

    @property
    def name(self) -> str:
        return self.decoder.encoding

    @property
    def stepped(self) -> bool:
        """It takes a number of parallel steps (``steps=``)."""
        return self.decoder.stepped

    @property
    def pairing_variables(self) -> bool:
        """Its CNF has a variable per candidate pair."""
        return self.decoder.pairing_variables


ENCODINGS: dict[str, Encoding] = {
    e.name: e
    for e in (
        Encoding(encode_layered, LayeredDecoder, first_steps),
        Encoding(encode_parity, ParityDecoder, first_parity_steps),
        Encoding(encode_order, OrderDecoder),
        Encoding(encode_acyclic, AcyclicDecoder),
        Encoding(encode_stacks, StacksDecoder),
    )
}
"""Encoding name -> :class:`Encoding`."""

DEFAULT_ENCODING = "acyclic"
"""The single CNF written when none is named: exhaustive and the most compact on the
reduction boards (see ``benchmarks/README.md``). :func:`mjsat.encoders.sat.solve_sat`
defaults to ``auto``: parity with a few steps first, then an exhaustive CNF."""


def get_encoding(name: str | None) -> Encoding:
    """The encoding of a name (case and spaces ignored; ``None``: :data:`DEFAULT_ENCODING`).

    Raises
    ------
    EncodingError
        An unknown name.
    """
    key = DEFAULT_ENCODING if name is None else name.strip().lower()
    if key not in ENCODINGS:
        raise EncodingError(f"unknown encoding {name!r} (known: {', '.join(ENCODINGS)})")
    return ENCODINGS[key]


def encode(
    board: Board,
    *,
    encoding: str | None = None,
    vpool: IDPool | None = None,
    steps: int | None = None,
) -> tuple[CNF, Decoder]:
    """Encode ``board`` with the named encoding (default :data:`DEFAULT_ENCODING`).

    Raises
    ------
    EncodingError
        Unknown encoding, or ``steps`` with an encoding that has no steps.
    SizeLimitError
        ``steps`` times the tiles above :data:`mjsat.limits.MAX_STEP_CELLS`.
    """
    enc = get_encoding(encoding)
    if steps is None:
        return enc.encode(board, vpool=vpool)
    if not enc.stepped:
        stepped = " and ".join(name for name, e in ENCODINGS.items() if e.stepped)
        raise EncodingError(f"the {enc.name} encoding has no steps (only {stepped} take --steps)")
    MAX_STEP_CELLS.check(int(steps) * len(board), f"{steps} steps on a board of {len(board)} tiles", verb="makes")
    return enc.encode(board, vpool=vpool, steps=steps)


def decoder_from_json(data: Any) -> Decoder:
    """The decoder that a variable map's data (:meth:`Decoder.to_json`) describes, checked
    by its encoding's class (:meth:`Decoder.from_json`).

    Raises
    ------
    InvalidMapError
        Not an object, an unknown encoding, or data the encoding's decoder refuses.
    """
    if not isinstance(data, dict):
        raise InvalidMapError("expected a JSON object")
    name = data.get("encoding")
    entry = ENCODINGS.get(name) if isinstance(name, str) else None
    if entry is None:
        raise InvalidMapError(f'"encoding" must be one of {", ".join(ENCODINGS)}, got {short_repr(name)}')
    return entry.decoder.from_json(data)
