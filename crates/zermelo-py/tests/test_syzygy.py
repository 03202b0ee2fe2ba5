"""zermelo.chess.SyzygyTables against python-chess's chess.syzygy on the published 3-4-piece
tables (../shared/syzygy-3-4 beside the repository; skipped when absent): the same WDL and
DTZ on random positions of every material."""

from __future__ import annotations

import os
import random
from typing import Optional

import chess
import chess.syzygy
import pytest

import zermelo
import zermelo.chess

TABLES = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "shared", "syzygy-3-4")
PER_MATERIAL = 300

pytestmark = pytest.mark.skipif(
    not os.path.isfile(os.path.join(TABLES, "KQvKR.rtbw")),
    reason="Syzygy's 3-4-piece tables are not at ../shared/syzygy-3-4",
)


def random_board(rng: random.Random, material: str) -> Optional["chess.Board"]:
    white, black = material.split("v")
    board = chess.Board(None)
    for symbol in white + black.lower():
        squares = [s for s in chess.SQUARES if board.piece_at(s) is None]
        if symbol in "Pp":
            squares = [s for s in squares if 1 <= chess.square_rank(s) <= 6]
        board.set_piece_at(rng.choice(squares), chess.Piece.from_symbol(symbol))
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    return board if board.is_valid() else None


def test_same_answers_as_python_chess() -> None:
    ours = zermelo.chess.SyzygyTables(TABLES)
    materials = sorted(f[:-5] for f in os.listdir(TABLES) if f.endswith(".rtbw"))
    rng = random.Random(4343)
    checked = 0
    with chess.syzygy.open_tablebase(TABLES) as theirs:
        for material in materials:
            done = 0
            while done < PER_MATERIAL:
                board = random_board(rng, material)
                if board is None:
                    continue
                wdl, dtz = theirs.probe_wdl(board), theirs.probe_dtz(board)
                assert (ours.probe_wdl(board), ours.probe_dtz(board)) == (wdl, dtz), board.fen()
                done += 1
                checked += 1
    assert checked == PER_MATERIAL * len(materials)


def test_errors_name_the_table(tmp_path: "os.PathLike[str]") -> None:
    empty = zermelo.chess.SyzygyTables([tmp_path])
    with pytest.raises(zermelo.MissingTable, match="KRvK.rtbw"):
        empty.probe_wdl("8/8/8/8/8/2k5/8/K6R w - - 0 1")
    assert empty.get_dtz("8/8/8/8/8/2k5/8/K6R w - - 0 1") is None
    with open(os.path.join(os.fspath(tmp_path), "KRvK.rtbw"), "wb") as f:
        f.write(bytes(80))
    with pytest.raises(zermelo.CorruptError, match="bad magic"):
        zermelo.chess.SyzygyTables(tmp_path).probe_wdl("8/8/8/8/8/2k5/8/K6R w - - 0 1")
