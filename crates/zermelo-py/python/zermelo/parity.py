"""Parity games: an arena (a graph with an owner, 0 = Even or 1 = Odd, and a priority per
vertex) whose infinite plays Even wins when the largest priority seen infinitely often is even.

>>> import zermelo
>>> a = zermelo.parity.Arena([[0, 1], [0, 2], [1, 0], [2, 0]], owner=[0, 1, 1], priority=[2, 1, 3])
>>> s = zermelo.parity.solve(a)
>>> s.winner.tolist(), s.strategy.tolist()
([0, 0, 0], [1, -1, -1])
>>> zermelo.parity.verify(a, s.winner, s.strategy)

:func:`solve` runs the library's pipeline (priority compression, winning self-loops, then
priority promotion ``"pp"`` or Zielonka's ``"zielonka"``; ``scc=True`` solves strongly
connected components bottom first); :func:`verify` checks any claimed solution.
"""

from __future__ import annotations

from ._native import Arena, ParitySolution
from ._native import parity_load as load
from ._native import parity_solve as solve
from ._native import parity_verify as verify

__all__ = ["Arena", "ParitySolution", "load", "solve", "verify"]
