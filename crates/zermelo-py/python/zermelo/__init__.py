"""zermelo: solve two-player games on graphs.

Positions are nodes, moves are directed edges, cycles are allowed. zermelo labels every
position WIN, LOSE or DRAW for the player to move by retrograde analysis (O(V + E)), with the
number of plies to the end under optimal play (the winner hurries, the loser stalls), the best
move of every position and a certificate check.

>>> import numpy as np, zermelo
>>> s = zermelo.solve(np.array([[0, 1], [0, 2], [1, 3], [2, 1], [2, 4], [4, 2]]))
>>> s.outcome.tolist() == [zermelo.DRAW, zermelo.WIN, zermelo.DRAW, zermelo.LOSE, zermelo.DRAW]
True
>>> s.depth.tolist()
[-1, 1, -1, 0, -1]

Also: :func:`load` (every format of the command line), :func:`grundy`, :func:`solve_game`
(games written in Python), :mod:`zermelo.parity` (parity games) and :mod:`zermelo.chess`
(endgame tables), :mod:`zermelo.cgt` (game values) and :func:`synth` (controllers from SYNTCOMP
specifications). Errors are :class:`ZermeloError` subclasses.
"""

from __future__ import annotations

from . import _errors
from ._errors import (
    CorruptError,
    CycleError,
    GraphError,
    InvalidPosition,
    MissingTable,
    ParseError,
    ReadError,
    TooBig,
    VerifyError,
    ZermeloError,
)
from ._native import (
    DRAW,
    LOSE,
    WIN,
    Counts,
    GameSolution,
    Graph,
    Line,
    Solution,
    __version__,
    LoopyGrundy,
    grundy,
    load,
    loopy_grundy,
    solve,
    solve_game,
    synth,
    synth_verify,
    Synthesis,
    verify,
)

#: The name of each outcome code: ``OUTCOME_NAMES[WIN] == "win"``.
OUTCOME_NAMES = ("win", "lose", "draw")

from . import cgt, chess, parity  # noqa: E402  (after the names they use)

__all__ = [
    "WIN",
    "LOSE",
    "DRAW",
    "OUTCOME_NAMES",
    "Graph",
    "Solution",
    "Counts",
    "Line",
    "GameSolution",
    "solve",
    "load",
    "grundy",
    "loopy_grundy",
    "LoopyGrundy",
    "verify",
    "solve_game",
    "synth",
    "synth_verify",
    "Synthesis",
    "parity",
    "chess",
    "cgt",
    "ZermeloError",
    "ReadError",
    "ParseError",
    "CorruptError",
    "TooBig",
    "GraphError",
    "CycleError",
    "VerifyError",
    "InvalidPosition",
    "MissingTable",
    "__version__",
]

del _errors
