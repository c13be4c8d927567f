"""What the search kernels' tests share: random positions of a geometry, and kernel arguments."""

from __future__ import annotations

import numpy as np

from mjsat.search import kernels as K, kernels_bits as KB
from mjsat.search.pairing import SH3D, SHISEN, pairings


def random_state(geo, rng):
    """A random position (random pairs of each group gone) and a random partial pairing set."""
    present = np.ones(geo.n, dtype=np.uint8)
    partner = np.full(geo.n, -1, dtype=np.int32)
    for tiles in geo.members:
        tiles = list(tiles)
        rng.shuffle(tiles)
        gone = 2 * int(rng.integers(0, len(tiles) // 2 + 1))
        present[tiles[:gone]] = 0
        live = tiles[gone:]
        if live and (len(live) == 2 or rng.random() < 0.4):
            p = pairings(len(live))[int(rng.integers(len(pairings(len(live)))))]
            for i, j in p:
                partner[live[i]], partner[live[j]] = live[j], live[i]
    return present, partner


def kernel_args(geo, pair_test="cells"):
    """``(kind, gr, mj, sh, ws, moves)`` for calling the kernels on ``geo``; the workspace
    has the bitsets of ``pair_test`` (:data:`mjsat.search.kernels_bits.WORDS_OF_PAIR_TEST`)."""
    kind, gr, mj, sh, pt = K.arrays(geo)
    words = KB.WORDS_OF_PAIR_TEST[pair_test](sh, kind == SH3D) if kind in (SHISEN, SH3D) else 0
    ws = K.workspace(geo.n, len(geo.members), int(sh[2] * sh[3]), words)
    moves = np.zeros((geo.n // 2 + 1, 2), dtype=np.int32)
    return kind, gr, mj, sh, ws, moves


def apply_against_twins(board, geo, rng, opts, twin, others, states=3):
    """The kernel's apply with ``opts`` on ``states`` random positions of ``geo`` (from
    :func:`random_state`): each time it must leave the position the Python twin ``twin``
    (a :class:`~mjsat.search.pairing.PythonSearch`) leaves. Returns, for each twin of
    ``others``, the number of positions where that twin's apply left another position (how
    often the rules the kernel adds to it changed the outcome)."""
    kind, gr, mj, sh, ws, moves = kernel_args(geo)
    differ = [0] * len(others)
    for _ in range(states):
        present, partner = random_state(geo, rng)
        want = bytearray(present.tobytes())
        twin.apply(want, partner.tolist(), [])
        for i, other in enumerate(others):
            got = bytearray(present.tobytes())
            other.apply(got, partner.tolist(), [])
            differ[i] += got != want
        p = present.copy()
        K._apply(kind, gr, mj, sh, p, partner.copy(), moves, 0, opts, ws)
        assert bytes(p) == bytes(want), repr(board)
    return differ
