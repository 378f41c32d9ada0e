"""edgematch: edge-matching puzzles (Eternity II and kin) from Python.

Load or plant an instance, solve it with OR-Tools CP-SAT, CaDiCaL, HiGHS or the
native search (the default races them), and let the independent checker verify
any board::

    import edgematch
    instance = edgematch.generate(8, frame_colours=3, interior_colours=6)
    result = edgematch.solve(instance, time_limit=60)
    print(result.status, result.score, result.max_score)
    result.board.pieces        # numpy array (height, width), 0-based pieces
    edgematch.verify(instance, result.board).valid

Every board `solve` returns has passed the checker. Errors raise
`edgematch.Error` (a ValueError) with the command line's message.
"""

from ._edgematch import (
    ORTOOLS_VERSION,
    Board,
    Error,
    Instance,
    Result,
    Verdict,
    __version__,
    generate,
    load,
    load_board,
    solve,
    verify,
)

SOLVERS = ("auto", "search", "sat", "cpsat", "dfs", "mip")
"""The solver names `solve` takes."""

OBJECTIVES = ("full", "score")
"""The objectives `solve` takes."""

__all__ = [
    "Board",
    "Error",
    "Instance",
    "OBJECTIVES",
    "ORTOOLS_VERSION",
    "Result",
    "SOLVERS",
    "Verdict",
    "__version__",
    "generate",
    "load",
    "load_board",
    "solve",
    "verify",
]
