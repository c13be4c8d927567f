"""What the search kernels' tests share: random positions of a geometry, and kernel arguments."""

from __future__ import annotations

import numpy as np

from mjsat.search import kernels as K
from mjsat.search.pairing import pairings


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


def kernel_args(geo):
    """``(kind, gr, mj, sh, ws, moves)`` for calling the kernels on ``geo``."""
    kind, gr, mj, sh, pt = K.arrays(geo)
    ws = K.workspace(geo.n, len(geo.members), int(sh[2] * sh[3]))
    moves = np.zeros((geo.n // 2 + 1, 2), dtype=np.int32)
    return kind, gr, mj, sh, ws, moves
