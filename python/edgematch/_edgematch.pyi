"""Type stubs of the native module `edgematch._edgematch` (re-exported by `edgematch`)."""

from os import PathLike
from typing import Callable, Literal, Optional, Union

import numpy as np
import numpy.typing as npt

from ._status import Status

__version__: str
ORTOOLS_VERSION: str

StrPath = Union[str, PathLike[str]]
SolverName = Literal["auto", "search", "sat", "cpsat", "dfs", "mip"]
ObjectiveName = Literal["full", "score"]
OnBest = Callable[["Board", int, float], object]
"""`on_best(board, score, seconds)`: a new best board (checked), its checker's score, seconds since the start."""

class Error(ValueError):
    """A file, an argument or an answer edgematch refuses; the message names the file and the field."""

class Instance:
    """A puzzle: the board size, the pieces and the clue cells."""

    @staticmethod
    def from_arrays(
        pieces: npt.ArrayLike,
        width: int,
        height: int,
        clues: Optional[npt.ArrayLike] = None,
        name: str = "arrays",
    ) -> Instance:
        """An instance from integer arrays: `pieces` (width*height, 4) of N, E, S, W colours
        (0 = grey, at most 255), `clues` (k, 4) of (row, column, piece, rotation), piece
        0-based, as the `pieces` and `clues` properties return them. A bad value raises
        `Error` naming the argument and its row."""

    @property
    def name(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def max_score(self) -> int:
        """The inner joins: the score of a full solution."""
    @property
    def pieces(self) -> npt.NDArray[np.int32]:
        """Shape (pieces, 4): N, E, S, W colours in reference orientation, 0 = grey."""
    @property
    def clues(self) -> list[tuple[int, int, int, int]]:
        """(row, column, piece, rotation) per clue; piece 0-based, clockwise quarter turns."""
    def save(self, path: StrPath) -> None:
        """Writes instance JSON (whole or not at all)."""
    def to_json(self) -> str: ...
    def _repr_svg_(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...

class Board:
    """One optional (piece, rotation) per cell; -1 marks an empty cell in both arrays."""

    @staticmethod
    def from_arrays(
        pieces: npt.ArrayLike, rotations: npt.ArrayLike, instance: Optional[Instance] = None
    ) -> Board:
        """A board from two (height, width) arrays: 0-based pieces, clockwise quarter turns."""
    @property
    def pieces(self) -> npt.NDArray[np.int32]:
        """Shape (height, width): 0-based pieces (rows of Instance.pieces), -1 for empty."""
    @property
    def rotations(self) -> npt.NDArray[np.int32]:
        """Shape (height, width): clockwise quarter turns 0..3, -1 for empty."""
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def placed(self) -> int: ...
    def to_bucas(self, name: Optional[str] = None) -> str:
        """The board as an e2.bucas.name link (the board must know its instance)."""
    def to_json(self) -> str:
        """Board JSON (pieces 1-based, as in the file format)."""
    def save(self, path: StrPath) -> None:
        """Board JSON; an SVG picture for `.svg`; a bucas link for `.url` or `.txt`."""
    def _repr_svg_(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...

class Result:
    """What `solve` returns; `board` has passed the checker."""

    @property
    def status(self) -> Status:
        """A `str` enum: equal to "solved", "infeasible", "unknown" or "interrupted"."""
    @property
    def board(self) -> Optional[Board]: ...
    @property
    def score(self) -> Optional[int]: ...
    @property
    def max_score(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def solver(self) -> SolverName: ...
    @property
    def stats(self) -> dict[str, object]: ...

class Improved:
    """What `improve` returns; `board` has passed the checker."""

    @property
    def status(self) -> Status:
        """`Status.SOLVED` for a full solution, `Status.UNKNOWN` otherwise."""
    @property
    def board(self) -> Board:
        """The best board (the one given if no region could be bettered)."""
    @property
    def score(self) -> int:
        """Its matched inner joins, as the checker counted them."""
    @property
    def max_score(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def stats(self) -> dict[str, int]:
        """`rounds`, `improvements`, `proved` (regions proved optimal), `from` and `to` (scores)."""

class Verdict:
    """The checker's verdict; truthy when the board is a full solution."""

    @property
    def score(self) -> int: ...
    @property
    def max_score(self) -> int: ...
    @property
    def valid(self) -> bool:
        """True for a full board that keeps every rule."""
    @property
    def verdict(self) -> Literal["solution", "partial", "imperfect", "invalid"]: ...
    @property
    def placed(self) -> int: ...
    @property
    def violations(self) -> list[tuple[str, str]]:
        """(kind, message) per violation."""
    @property
    def text(self) -> str:
        """The report `edgematch verify` prints."""
    def __bool__(self) -> bool: ...

def load(path: StrPath, columns: Optional[str] = None, clues: Optional[StrPath] = None) -> Instance:
    """Instance JSON, a piece list, or an e2.bucas.name link (a file or the link itself).

    A file that cannot be read raises the matching OSError (FileNotFoundError,
    PermissionError, ...); malformed content raises `Error`."""

def generate(
    size: Optional[int] = None,
    frame_colours: int = 5,
    interior_colours: int = 17,
    clues: int = 5,
    seed: int = 1,
    width: Optional[int] = None,
    height: Optional[int] = None,
) -> Instance:
    """A planted board built from a known solution."""

def load_board(path: StrPath, instance: Instance) -> Board:
    """A board of `instance` in any board format the command line reads."""

def solve(
    instance: Instance,
    solver: SolverName = "auto",
    time_limit: Optional[float] = None,
    objective: ObjectiveName = "full",
    seed: int = 1,
    threads: Optional[int] = None,
    target: Optional[int] = None,
    on_best: Optional[OnBest] = None,
) -> Result:
    """Solves with the GIL released; Ctrl-C raises KeyboardInterrupt.

    For `objective="score"` only: `target` stops the run once a board scores at least
    that; `on_best(board, score, seconds)` is called with each new best board once the
    checker passed it, scores strictly increasing, from the solving thread (the GIL
    taken for the call only). If `on_best` raises, the run stops and `solve` re-raises.
    """

def improve(
    instance: Instance,
    board: Union[Board, StrPath],
    time_limit: Optional[float] = None,
    target: Optional[int] = None,
    on_best: Optional[OnBest] = None,
    seed: int = 1,
    workers: Optional[int] = None,
) -> Improved:
    """CP-SAT's exact repair of a board, one region at a time, until `time_limit`,
    a full solution or `target` (a partial board, its clue cells kept, is finished
    first); each better board (checked) goes to `on_best` as in `solve`. The GIL is
    released; Ctrl-C raises KeyboardInterrupt."""

def verify(instance: Instance, board: Union[Board, StrPath]) -> Verdict:
    """The checker's verdict on `board` as a solution of `instance`."""
