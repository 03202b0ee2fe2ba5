"""Parity games: an arena (a graph with an owner, 0 = Even or 1 = Odd, and a priority per
vertex) whose infinite plays Even wins when the largest priority seen infinitely often is even.

>>> import zermelo
>>> a = zermelo.parity.Arena([[0, 1], [0, 2], [1, 0], [2, 0]], owner=[0, 1, 1], priority=[2, 1, 3])
>>> s = zermelo.parity.solve(a)
>>> s.winner.tolist(), s.strategy.tolist()
([0, 0, 0], [1, -1, -1])
>>> zermelo.parity.verify(a, s.winner, s.strategy)

:func:`solve` runs the library's pipeline (priority compression, winning self-loops, then the
chosen solver; ``scc=True`` solves strongly connected components bottom first); :func:`verify`
checks any claimed solution. The solvers are the library's registry, the same as the command
line's ``--solver`` choices: :data:`SOLVERS` (``auto``, the default :data:`DEFAULT_SOLVER`, is
a portfolio of the others).

>>> "zielonka" in zermelo.parity.SOLVERS and zermelo.parity.DEFAULT_SOLVER == "auto"
True
"""

from __future__ import annotations

import os
from typing import Any, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from ._native import Arena, ParitySolution
from ._native import parity_default_solver as DEFAULT_SOLVER
from ._native import parity_load as load
from ._native import parity_solve as _solve
from ._native import parity_solvers as SOLVERS
from ._native import parity_verify as verify

__all__ = ["Arena", "ParitySolution", "SOLVERS", "DEFAULT_SOLVER", "load", "solve", "verify"]

_Ints = Union[npt.NDArray[np.integer[Any]], Sequence[int]]
_Edges = Union[npt.NDArray[np.integer[Any]], Sequence[Sequence[int]]]


def solve(
    game: Union[Arena, str, "os.PathLike[str]", _Edges],
    owner: Optional[_Ints] = None,
    priority: Optional[_Ints] = None,
    *,
    solver: Optional[str] = None,
    scc: bool = False,
) -> ParitySolution:
    """Solves a parity game: an :class:`Arena`, the path of a PGSolver file, or edges with
    ``owner`` and ``priority`` arrays (one per vertex).

    ``solver`` is one of :data:`SOLVERS` (``"auto"``, ``"pp"``, ``"zielonka"``, ``"tl"``, ...,
    as ``zermelo parity --solver``), ``None`` for :data:`DEFAULT_SOLVER`; ``scc=True`` solves
    the strongly connected components bottom first. The result's ``winner`` is 0 (Even) or 1 (Odd)
    per vertex and ``strategy`` the winner's move where it owns the vertex (-1 elsewhere).
    """
    if owner is not None or priority is not None:
        if owner is None or priority is None:
            raise TypeError("give both owner and priority with edges")
        game = Arena(game, owner, priority)  # type: ignore[arg-type]
    return _solve(game, solver=solver, scc=scc)  # type: ignore[arg-type]
