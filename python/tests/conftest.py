"""Shared paths of the Python tests: the repository's models and data, and the built binary."""

import os
import signal
import subprocess
import sys
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


def python_that_ctrl_c_reaches(script: str) -> subprocess.Popen:
    """A Python child running `script`, its stdout piped, that takes SIGINT as a terminal's
    Ctrl-C: as KeyboardInterrupt. A shell that starts a job in the background without job
    control (`cmd &` in a script, as CI runners may) makes SIGINT ignored; a child inherits
    that, and Python installs its handler only where SIGINT is not ignored, so the child
    would never see the signal. The default is restored in the child before it starts."""
    return subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
