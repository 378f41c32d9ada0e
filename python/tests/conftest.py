"""Shared paths of the Python tests: the repository's models and data, and the built binary."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def models() -> Path:
    return ROOT / "models"


@pytest.fixture
def data() -> Path:
    return ROOT / "data"


def binary() -> Path:
    """The command line, for the tests that compare with it or watch it (EDGEMATCH_BIN, else target/release)."""
    return Path(os.environ.get("EDGEMATCH_BIN", ROOT / "target" / "release" / "edgematch"))
