"""The arrays a numba run of the search writes, kept between runs by size, and the first
state of the kernels' random playouts for a seed."""

from __future__ import annotations

import collections
import functools
import threading
from typing import Any

import numpy as np

from mjsat.search.config import N_STATS

__all__ = ["SCRATCH", "Scratch", "ScratchPool", "playout_state"]


@functools.lru_cache(maxsize=256)
def playout_state(seed: int) -> int:
    """The first state of the kernels' random playouts for ``seed`` (drawn from
    ``numpy.random.default_rng(seed)``; kept, as a generator costs more than a playout)."""
    return int(np.random.default_rng(seed).integers(1, 2**62))


class Scratch:
    """The arrays one numba run writes, for boards of one size: the kernels' workspace
    (:func:`~mjsat.search.kernels.workspace`), the playouts' position, partners and moves,
    and the search's stacks (built when first needed). See :class:`ScratchPool`.

    Attributes
    ----------
    key : tuple of int
        ``(n, groups, grid cells, bit words)``: the size it fits.
    nbytes : int
        The bytes of its arrays (the stacks' too once built).
    """

    __slots__ = ("key", "nbytes", "ws", "pres", "partner", "moves", "rng", "stacks")

    def __init__(self, K: Any, key: tuple[int, ...]) -> None:
        n, ngroups, cells, words = key
        self.key = key
        self.ws = K.workspace(n, ngroups, cells, words)
        self.pres = np.ones(n, dtype=np.uint8)
        self.partner = np.full(n, -1, dtype=np.int32)
        self.moves = np.zeros((n // 2 + 1, 2), dtype=np.int32)
        self.rng = np.zeros(1, dtype=np.uint64)
        self.stacks: tuple[np.ndarray, ...] | None = None
        self.nbytes = sum(a.nbytes for a in (*self.ws, self.pres, self.partner, self.moves, self.rng))

    def search_stacks(self, K: Any, gr: Any) -> tuple[np.ndarray, ...]:
        """``(P, Q, bg, bgr, allow, nxt, mend, moves, st)`` of :func:`~mjsat.search.kernels._dfs`
        at the full deal of the groups ``gr``; one search per run uses them."""
        if self.stacks is not None:
            K._wipe_stacks(gr, *self.stacks)
            return self.stacks
        n, ngroups = self.key[0], self.key[1]
        P, Q, *rest = K._new_stacks(n, ngroups)
        P[0] = 1
        K._autopair(gr, P[0], Q[0])
        self.stacks = (P, Q, *rest, np.zeros((n // 2 + 1, 2), dtype=np.int32), np.zeros(N_STATS, dtype=np.int64))
        self.nbytes += sum(a.nbytes for a in self.stacks)
        return self.stacks


class ScratchPool:
    """The scratch arrays that ended numba runs gave back, by size, for the next runs.

    A run takes a :class:`Scratch` of its size (:meth:`take`: one given back, made fit
    for a new run by :func:`~mjsat.search.kernels.restart` and, for its search,
    :func:`~mjsat.search.kernels._wipe_stacks`; or a new one) and gives it back when it
    ends (:meth:`give_back`). Runs alive at once each hold their own. At most ``depth`` scratches of a size are kept, and at most
    ``max_bytes`` in all (the sizes used longest ago are dropped first).

    Notes
    -----
    A scratch is about :math:`n^2 / 2` ints (the legal-move list); taking one back costs
    two fills instead of some thirty allocations.
    """

    def __init__(self, depth: int = 4, max_bytes: int = 1 << 24) -> None:
        self.depth = depth
        self.max_bytes = max_bytes
        self._free: collections.OrderedDict[tuple[int, ...], list[Scratch]] = collections.OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def take(self, K: Any, key: tuple[int, ...]) -> Scratch:
        """A scratch of size ``key`` (``(n, groups, grid cells, bit words)``)."""
        with self._lock:
            free = self._free.get(key)
            if not free:
                scratch = None
            else:
                scratch = free.pop()
                self._bytes -= scratch.nbytes
        if scratch is None:
            return Scratch(K, key)
        K.restart(scratch.ws)
        return scratch

    def give_back(self, scratch: Scratch) -> None:
        """Keep ``scratch`` for a later run of its size (dropped when the pool is full)."""
        if self.depth == 0 or scratch.nbytes > self.max_bytes:
            return
        with self._lock:
            free = self._free.setdefault(scratch.key, [])
            self._free.move_to_end(scratch.key)
            if len(free) >= self.depth:
                return
            free.append(scratch)
            self._bytes += scratch.nbytes
            while self._bytes > self.max_bytes:
                _, dropped = self._free.popitem(last=False)
                self._bytes -= sum(s.nbytes for s in dropped)

    def __len__(self) -> int:
        """The scratches kept."""
        return sum(len(v) for v in self._free.values())

    @property
    def nbytes(self) -> int:
        """The bytes of the arrays of the scratches kept."""
        return self._bytes


SCRATCH = ScratchPool()
"""The scratch arrays of the numba runs of this process."""
