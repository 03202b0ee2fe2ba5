"""The exception classes of zermelo.

Every error of the Rust library reaches Python as one of these (the mapping from the library's
error kinds is in ``crates/zermelo-py/src/errors.rs``). They all derive from
:class:`ZermeloError`; most are also a built-in class, so ``except ValueError`` or
``except OSError`` catch them where Python code expects that.
"""

from __future__ import annotations

from typing import List, Optional

__all__ = [
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
]


class ZermeloError(Exception):
    """Base class of every zermelo error."""


class ReadError(ZermeloError, OSError):
    """The input could not be read (a missing file, permissions, a read error)."""

    source: str
    line: Optional[int]
    kind: str
    message: str


class ParseError(ZermeloError, ValueError):
    """Bad input: where it is and what was expected.

    Attributes: ``source`` (the file name), ``line`` (1-based, or ``None`` when the problem
    is not on one line), ``kind`` (``syntax``, ``out-of-range``, ``truncated``, ``corrupt``,
    ``inconsistent``) and ``message`` (what is wrong, without the place).
    """

    source: str
    line: Optional[int]
    kind: str
    message: str


class CorruptError(ParseError):
    """A binary file (graph, solution, chess table) whose checksum or structure is wrong."""


class TooBig(ZermeloError):
    """The input is valid but over a limit: nodes, memory, positions explored."""

    source: str
    line: Optional[int]
    kind: str
    message: str


class GraphError(ZermeloError, ValueError):
    """A graph, its verdicts or a parity arena cannot be built (a node out of range,
    conflicting verdicts, a parity vertex without successor)."""


class CycleError(ZermeloError, ValueError):
    """The graph has a cycle where an acyclic one is needed; ``cycle`` lists its nodes."""

    cycle: List[int]


class VerifyError(ZermeloError):
    """A claimed solution breaks a rule of the certificate; ``node`` is where (retrograde)."""

    node: int


class InvalidPosition(ZermeloError, ValueError):
    """A chess position (FEN or board) that is malformed or illegal."""


class MissingTable(ZermeloError, KeyError):
    """No table for this material, or too many pieces (a ``KeyError``, like python-chess's
    ``MissingTableError``)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


for _cls in (ZermeloError, ReadError, ParseError, CorruptError, TooBig, GraphError, CycleError,
             VerifyError, InvalidPosition, MissingTable):
    _cls.__module__ = "zermelo"  # shown as zermelo.ParseError in tracebacks
del _cls
