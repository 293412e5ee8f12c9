"""Shared fixtures: paths to the seeds and to ../shared/data, which may be absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SEEDS_DIR = PROJECT_ROOT / "seeds"
SHARED_DATA = PROJECT_ROOT.parent / "shared" / "data"


@pytest.fixture
def seed_files() -> list[Path]:
    return sorted(SEEDS_DIR.glob("*.txt"))


@pytest.fixture
def shared_data() -> Path:
    """The real public data beside the project; tests using it skip when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present")
    return SHARED_DATA
