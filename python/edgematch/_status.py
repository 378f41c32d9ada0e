"""`Status`: how a solve ended, as a `str` enum (equal to the plain strings "solved", ...)."""

import enum


class Status(str, enum.Enum):
    """How a solve ended: the library's `Status`, by name.

    A `str` subclass: `result.status == "solved"` holds for `Status.SOLVED`,
    and `str()`, `format()` and JSON give the plain value.
    """

    SOLVED = "solved"
    """A full board that passed the checker."""
    INFEASIBLE = "infeasible"
    """The solver proved there is no solution."""
    UNKNOWN = "unknown"
    """The limit (time, target) was reached with neither a solution nor a proof."""
    INTERRUPTED = "interrupted"
    """The run was stopped from outside (Ctrl-C, `on_best` raising)."""

    def __str__(self) -> str:
        return self.value
