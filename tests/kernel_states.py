"""What the search kernels' tests share: random positions of a geometry, the kernels of a board."""

from __future__ import annotations

import numpy as np

from mjsat.search.config import Rules
from mjsat.search.kernels import Kernels
from mjsat.search.pairing import pairings

ALL_RULES = Rules(freeze=True, loose=True, scan=True, critical=True)


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


def kernels_of(geo, rules=ALL_RULES) -> Kernels:
    """The kernels of ``geo`` under ``rules`` (a :class:`~mjsat.search.config.Rules` or four flags)."""
    return Kernels(geo, Rules(*(bool(v) for v in rules)))
