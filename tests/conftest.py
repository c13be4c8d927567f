"""Shared test fixtures: where the raw layout files of other games are, seeded RNGs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
LAYOUT_SOURCES = REPO.parent / "shared" / "layout-sources"


@pytest.fixture
def layout_sources() -> Path:
    """The folder of xmahjongg/KMahjongg/GNOME layout files; skips when it is absent."""
    if not LAYOUT_SOURCES.is_dir():
        pytest.skip("../shared/layout-sources is not present")
    return LAYOUT_SOURCES


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261122)
