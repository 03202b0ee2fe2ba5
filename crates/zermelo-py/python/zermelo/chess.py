"""Chess endgame tables made by zermelo (WDL + DTM, 3 to 5 pieces, no castling).

Generate tables with the command line (``zermelo tb gen KQvK --tables DIR``), then probe them
by FEN or with a python-chess board; the methods are named like ``chess.syzygy.Tablebase`` so
that code moves over easily::

    with zermelo.chess.Tablebase("tables") as tb:
        tb.probe_wdl(board)   # 2 win, 0 draw, -2 loss, for the side to move
        tb.probe_dtm(board)   # signed plies to mate
        tb.probe(board)       # Probe(outcome, depth, wdl, dtm, best_move)

Positions with no table raise :class:`zermelo.MissingTable` (a ``KeyError``, like
python-chess's ``MissingTableError``); ``get_wdl`` / ``get_dtm`` return ``None`` instead.
"""

from __future__ import annotations

import os
from types import TracebackType
from typing import TYPE_CHECKING, List, Optional, Tuple, Type, Union

from ._errors import MissingTable
from ._native import NativeTablebase, Probe

if TYPE_CHECKING:  # python-chess is optional
    import chess as _chess

    BoardLike = Union[str, _chess.Board]
else:
    BoardLike = object

__all__ = ["Tablebase", "Probe"]


def _fen(board: BoardLike) -> str:
    """The FEN of a FEN string or of anything with a ``fen()`` method (a python-chess board)."""
    if isinstance(board, str):
        return board
    fen = getattr(board, "fen", None)
    if callable(fen):
        text = fen()
        if isinstance(text, str):
            return text
    raise TypeError(
        f"expected a FEN string or a chess.Board, got {type(board).__name__}"
    )


class Tablebase:
    """A directory of zermelo tables, opened lazily on first probe."""

    def __init__(self, directory: Union[str, "os.PathLike[str]"]) -> None:
        self._native = NativeTablebase(os.fspath(directory))

    @property
    def directory(self) -> str:
        """The directory the tables are read from."""
        return os.fspath(self._native.directory)

    def probe_wdl(self, board: BoardLike) -> int:
        """2 if the side to move wins, 0 for a draw, -2 if it loses (no 50-move rule)."""
        return self._native.probe_wdl(_fen(board))

    def probe_dtm(self, board: BoardLike) -> int:
        """Signed plies to mate: positive if the side to move mates, negative if it is mated,
        0 for a draw or a position already mated."""
        return self._native.probe_dtm(_fen(board))

    def probe_dtz(self, board: BoardLike) -> int:
        """Not available yet: zermelo's tables hold DTM; DTZ tables are being added to the
        library. Raises ``NotImplementedError``."""
        raise NotImplementedError(
            "zermelo tables hold WDL and DTM; probe_dtz comes with the DTZ tables"
        )

    def probe(self, board: BoardLike) -> Probe:
        """The value (outcome, depth, WDL, DTM) and best move (UCI) of the position."""
        return self._native.probe(_fen(board))

    def probe_moves(self, board: BoardLike) -> List[Tuple[str, int]]:
        """Every legal move (UCI) with its signed DTM for the side that moves, best first."""
        return self._native.probe_moves(_fen(board))

    def get_wdl(self, board: BoardLike, default: Optional[int] = None) -> Optional[int]:
        """``probe_wdl``, or ``default`` when the table is missing."""
        try:
            return self.probe_wdl(board)
        except MissingTable:
            return default

    def get_dtm(self, board: BoardLike, default: Optional[int] = None) -> Optional[int]:
        """``probe_dtm``, or ``default`` when the table is missing."""
        try:
            return self.probe_dtm(board)
        except MissingTable:
            return default

    def close(self) -> None:
        """Nothing to release (tables are read into memory); kept for python-chess parity."""

    def __enter__(self) -> "Tablebase":
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Tablebase({self.directory!r})"
