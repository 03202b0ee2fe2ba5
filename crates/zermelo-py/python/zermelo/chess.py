"""Chess endgame tables: zermelo's (WDL, DTZ and DTM, 3 to 6 pieces, no castling) and Syzygy's
published ones (WDL and DTZ, up to 7 pieces), probed together.

Generate tables with :meth:`Tablebase.generate` (or the command line, ``zermelo tb gen KQvK
--tables DIR``: the same library call, the same files), then probe them by FEN or with a
python-chess board; the methods are named like ``chess.syzygy.Tablebase`` so that code moves
over easily::

    with zermelo.chess.Tablebase("tables") as tb:
        tb.generate("KQvK")   # and any smaller table it needs; kept if already there
        tb.probe_wdl(board)   # 2 win, 1 cursed win, 0 draw, -1 blessed loss, -2 loss
        tb.probe_dtz(board)   # Syzygy-signed distance to zeroing (50-move rule)
        tb.probe_dtm(board)   # signed plies to mate
        tb.probe(board)       # Probe(outcome, depth, wdl, dtm, dtz, best_move), the clock applied

A :class:`Tablebase` may be given several directories (a list, or ``"a:b"`` as the command
line's ``--tables``, or :meth:`Tablebase.add_directory` as python-chess), holding zermelo's
files, Syzygy's (``KQvKR.rtbw``/``.rtbz``) or both: WDL and DTZ come from zermelo's table of a
material when there is one, else from Syzygy's (the same numbers as ``chess.syzygy``, a DTZ
possibly rounded: :meth:`Tablebase.probe_dtz_precise`), DTM from zermelo's only.
:class:`SyzygyTables` reads Syzygy's files alone, as ``chess.syzygy.open_tablebase`` does.

Positions with no table raise :class:`zermelo.MissingTable` (a ``KeyError``, like
python-chess's ``MissingTableError``); ``get_wdl`` / ``get_dtm`` return ``None`` instead.
"""

from __future__ import annotations

import os
from types import TracebackType
from typing import TYPE_CHECKING, List, Optional, Sequence, Tuple, Type, Union

from ._errors import MissingTable
from ._native import NativeSyzygyTables, NativeTablebase, Probe

if TYPE_CHECKING:  # python-chess is optional
    import chess as _chess

    BoardLike = Union[str, _chess.Board]
else:
    BoardLike = object

__all__ = ["Tablebase", "Probe", "SyzygyTables", "generate"]


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


class _Getters:
    """python-chess's ``get_*`` probes: ``probe_*``, or a default when a table is missing."""

    def probe_wdl(self, board: BoardLike) -> int:
        raise NotImplementedError

    def probe_dtz(self, board: BoardLike) -> int:
        raise NotImplementedError

    def get_wdl(self, board: BoardLike, default: Optional[int] = None) -> Optional[int]:
        """``probe_wdl``, or ``default`` when a table is missing."""
        try:
            return self.probe_wdl(board)
        except MissingTable:
            return default

    def get_dtz(self, board: BoardLike, default: Optional[int] = None) -> Optional[int]:
        """``probe_dtz``, or ``default`` when a table is missing."""
        try:
            return self.probe_dtz(board)
        except MissingTable:
            return default


Directories = Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]]


def _directories(directories: Directories) -> List[str]:
    """One directory, ``"a:b"`` (several, as the command line's ``--tables``), or a sequence."""
    if isinstance(directories, str):
        return [d for d in directories.split(os.pathsep) if d]
    if isinstance(directories, os.PathLike):
        return [os.fspath(directories)]
    return [os.fspath(d) for d in directories]


class Tablebase(_Getters):
    """Directories of tables, zermelo's and Syzygy's, searched in order and opened lazily
    (memory-mapped) on first probe."""

    def __init__(self, directories: Directories, *, rule: int = 100) -> None:
        """``directories``: one, several (a list or ``"a:b"``), each holding zermelo's tables,
        Syzygy's or both. ``rule``: the drawing rule in plies the DTZ tables were made for
        (``zermelo tb gen --rule``; 100 is the 50-move rule, the only one Syzygy's tables
        know: under another rule they are not read)."""
        self._rule = rule
        self._native = NativeTablebase(_directories(directories), rule)

    def add_directory(self, directory: Union[str, "os.PathLike[str]"]) -> None:
        """Searches ``directory`` too, after the others (python-chess's ``add_directory``)."""
        self._native = NativeTablebase(self.directories + [os.fspath(directory)], self._rule)

    @property
    def rule(self) -> int:
        """The drawing rule in plies."""
        return self._native.rule

    @property
    def directory(self) -> str:
        """The first directory (the one :meth:`generate` writes into)."""
        return self.directories[0]

    @property
    def directories(self) -> List[str]:
        """The directories searched, in order."""
        return self._native.directories

    def probe_wdl(self, board: BoardLike) -> int:
        """For the side to move, as Syzygy under the 50-move rule (the clock taken as 0):
        2 win, 1 cursed win (won without the rule), 0 draw, -1 blessed loss, -2 loss, from
        zermelo's DTZ table or Syzygy's WDL table. A directory with only zermelo's DTM table
        of this material answers from it: 2, 0 or -2 (no rule)."""
        return self._native.probe_wdl(_fen(board))

    def probe_dtm(self, board: BoardLike) -> int:
        """Signed plies to mate: positive if the side to move mates, negative if it is mated,
        0 for a draw or a position already mated."""
        return self._native.probe_dtm(_fen(board))

    def probe_dtz(self, board: BoardLike) -> int:
        """Syzygy-signed distance to zeroing (plies to the next capture or pawn move, or mate,
        under the 50-move rule): positive in a win, negative in a loss, 0 drawn, -1 mated. From
        zermelo's DTZ table (``zermelo tb gen`` writes it next to the DTM one), else Syzygy's:
        then what python-chess's ``probe_dtz`` returns, possibly rounded
        (:meth:`probe_dtz_precise`)."""
        return self._native.probe_dtz(_fen(board))[0]

    def probe_dtz_precise(self, board: BoardLike) -> Tuple[int, bool]:
        """The DTZ and whether it is exact; when not (a Syzygy table that stores moves), the
        truth may be one ply further from zero."""
        return self._native.probe_dtz(_fen(board))

    def probe(self, board: BoardLike) -> Probe:
        """The answer for the position with its halfmove clock (a FEN's fifth field; a board's
        ``halfmove_clock``), as ``zermelo tb probe`` prints it: outcome, depth to mate, WDL,
        class under the rule with the clock, DTZ, DTM and the best move (UCI)."""
        return self._native.probe(_fen(board))

    def probe_moves(self, board: BoardLike) -> List[Tuple[str, int]]:
        """Every legal move (UCI) with its signed DTM for the side that moves, best first."""
        return self._native.probe_moves(_fen(board))

    def generate(
        self,
        material: Optional[str] = None,
        *,
        all: Optional[int] = None,
        work_dir: Union[str, "os.PathLike[str]", None] = None,
        max_memory: Optional[int] = None,
        wait: bool = True,
        checkpoint_every: float = 60.0,
        mapped: bool = False,
    ) -> List[str]:
        """Generates the DTM and DTZ tables (under this tablebase's rule) of ``material``
        (``"KQvKR"``) and of every smaller table it depends on that the directory lacks, or
        with ``all=N`` every table of 3 to N pieces, into the directory (made if missing), as
        ``zermelo tb gen`` does: the same files, byte for byte. Returns the paths written;
        tables already there are checked and kept.

        Like the command line it keeps its peak memory under ``max_memory`` bytes (default:
        3/4 of the machine's memory, or of its memory cgroup's limit): a table whose state does
        not fit is generated out of core (its state in a file in ``work_dir``), and one that
        needs more than the limit even so is refused up front with :class:`zermelo.TooBig`; it
        takes a lock per table in the directory (``wait=False``: raise
        :class:`zermelo.ZermeloError` instead of waiting for another process), checkpoints
        every ``checkpoint_every`` seconds in ``work_dir`` (default ``DIR/.work``) so that the
        same call resumes an interrupted run, and with ``mapped`` keeps the solver's state in a
        file there. It runs without the GIL; Ctrl-C raises ``KeyboardInterrupt`` at once while
        the table being made is finished in the background. A material no table holds raises
        ``ValueError``; a folder or file that cannot be used, or a disk that runs full,
        :class:`zermelo.ReadError`.
        """
        return self._native.generate(
            material,
            all=all,
            work_dir=None if work_dir is None else os.fspath(work_dir),
            max_memory=max_memory,
            wait=wait,
            checkpoint_every=checkpoint_every,
            mapped=mapped,
        )

    def get_dtm(self, board: BoardLike, default: Optional[int] = None) -> Optional[int]:
        """``probe_dtm``, or ``default`` when the table is missing."""
        try:
            return self.probe_dtm(board)
        except MissingTable:
            return default

    def close(self) -> None:
        """Nothing to release before the object goes (its mapped tables go with it); kept for
        python-chess parity."""

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
        dirs = self.directories
        return f"Tablebase({dirs[0]!r})" if len(dirs) == 1 else f"Tablebase({dirs!r})"


def generate(
    directory: Directories,
    material: Optional[str] = None,
    *,
    all: Optional[int] = None,
    rule: int = 100,
    work_dir: Union[str, "os.PathLike[str]", None] = None,
    max_memory: Optional[int] = None,
    wait: bool = True,
    checkpoint_every: float = 60.0,
    mapped: bool = False,
) -> Tablebase:
    """Generates tables into ``directory`` (see :meth:`Tablebase.generate`) and returns the
    tablebase, ready to probe::

        tb = zermelo.chess.generate("tables", "KRvK")
        tb.probe_dtm("8/8/8/8/8/2k5/8/K6R w - - 0 1")   # 27
    """
    tb = Tablebase(directory, rule=rule)
    tb.generate(
        material,
        all=all,
        work_dir=work_dir,
        max_memory=max_memory,
        wait=wait,
        checkpoint_every=checkpoint_every,
        mapped=mapped,
    )
    return tb


class SyzygyTables(_Getters):
    """Syzygy's published tables (``.rtbw`` WDL, ``.rtbz`` DTZ) in one or more directories,
    read by zermelo; the probes return what ``chess.syzygy.Tablebase`` returns on the same
    files, rounding of DTZ included."""

    def __init__(
        self,
        directories: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]],
    ) -> None:
        """One directory or several, searched in order (python-chess's ``add_directory``)."""
        if isinstance(directories, (str, os.PathLike)):
            directories = [directories]
        self._native = NativeSyzygyTables([os.fspath(d) for d in directories])

    @property
    def directories(self) -> List[str]:
        """The directories searched, in order."""
        return self._native.directories

    def probe_wdl(self, board: BoardLike) -> int:
        """2 win, 1 cursed win, 0 draw, -1 blessed loss, -2 loss (halfmove clock 0)."""
        return self._native.probe_wdl(_fen(board))

    def probe_dtz(self, board: BoardLike) -> int:
        """Syzygy's DTZ (python-chess's ``probe_dtz``: possibly rounded, see
        :meth:`probe_dtz_precise`)."""
        return self._native.probe_dtz(_fen(board))[0]

    def probe_dtz_precise(self, board: BoardLike) -> Tuple[int, bool]:
        """The DTZ and whether it is exact; when not, the truth may be one ply further from
        zero."""
        return self._native.probe_dtz(_fen(board))

    def __repr__(self) -> str:
        return f"SyzygyTables({self.directories!r})"
