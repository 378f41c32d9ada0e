"""edgematch: edge-matching puzzles (Eternity II and kin) from Python.

Load or plant an instance, solve it with OR-Tools CP-SAT, CaDiCaL, HiGHS or the
native search (the default races them), and let the independent checker verify
any board::

    import edgematch
    instance = edgematch.generate(8, frame_colours=3, interior_colours=6)
    result = edgematch.solve(instance, time_limit=60)
    print(result.status, result.score, result.max_score)   # status: a Status (a str)
    result.board.pieces        # numpy array (height, width), 0-based pieces
    edgematch.verify(instance, result.board).valid

For long score searches, `solve(..., objective="score", on_best=f, target=n)`
calls `f(board, score, seconds)` with each new best board as the run goes, and
`improve(instance, board, ...)` repairs a full board with CP-SAT region by region.

Every board `solve` and `improve` return or pass to `on_best` has passed the
checker. Errors raise `edgematch.Error` (a ValueError) with the command line's
message; a file that cannot be read raises the matching OSError
(FileNotFoundError, PermissionError, ...).
"""

from ._edgematch import (
    ORTOOLS_VERSION,
    Board,
    Error,
    Improved,
    Instance,
    Result,
    Verdict,
    __version__,
    generate,
    improve,
    load,
    load_board,
    solve,
    verify,
)
from ._status import Status

SOLVERS = ("auto", "search", "sat", "cpsat", "dfs", "mip")
"""The solver names `solve` takes."""

OBJECTIVES = ("full", "score")
"""The objectives `solve` takes."""

__all__ = [
    "Board",
    "Error",
    "Improved",
    "Instance",
    "OBJECTIVES",
    "ORTOOLS_VERSION",
    "Result",
    "SOLVERS",
    "Status",
    "Verdict",
    "__version__",
    "generate",
    "improve",
    "load",
    "load_board",
    "solve",
    "verify",
]
