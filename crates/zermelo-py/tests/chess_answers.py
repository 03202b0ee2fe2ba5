"""The same answers as `zermelo tb probe`: zermelo.chess.Tablebase's probes of positions
against the command line's JSON answers (test_chess.py on KQvK, test_chess_six.py on a
6-piece table)."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Sequence

import pytest

import zermelo
from zermelo.chess import Tablebase

chess = pytest.importorskip("chess")  # python-chess: test.sh installs it

SYZYGY_WDL = {"win": 2, "cursed-win": 1, "draw": 0, "blessed-loss": -1, "loss": -2}
SIGN = {"win": 1, "lose": -1, "draw": 0}


def random_fens(n: int, seed: int, white: Sequence[int]) -> List[str]:
    """`n` legal positions (either side to move) of the two kings and White's pieces of the
    roles `white` (python-chess's piece types) on random squares, from `seed`."""
    rng = random.Random(seed)
    out: List[str] = []
    while len(out) < n:
        board = chess.Board(None)
        squares = rng.sample(range(64), 2 + len(white))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square, role in zip(squares[2:], white):
            board.set_piece_at(square, chess.Piece(role, chess.WHITE))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid():
            out.append(board.fen())
    return out


def cli_answers(cli: Path, tables: Path, fens: List[str]) -> List[Dict[str, Any]]:
    """`zermelo tb probe --stdin`'s answer to each FEN, in order."""
    p = subprocess.run(
        [str(cli), "tb", "probe", "--stdin", "--tables", str(tables)],
        input="\n".join(fens) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    answers = [json.loads(line) for line in p.stdout.splitlines()]
    assert len(answers) == len(fens)
    return answers


def assert_same_answer(tb: Tablebase, fen: str, want: Dict[str, Any]) -> None:
    """Every probe of `fen` (as a FEN and as a python-chess board) equals the command line's
    answer `want`: outcome, DTM, the class and DTZ under the 50-move rule, Syzygy's WDL, every
    move (python-chess's legal moves), and the best move first in the rule's order."""
    board = chess.Board(fen)
    for arg in (fen, board):
        probe = tb.probe(arg)
        assert zermelo.OUTCOME_NAMES[probe.outcome] == want["outcome"], fen
        assert tb.probe_dtm(arg) == SIGN[want["outcome"]] * (want.get("dtm_plies") or 0), fen
        assert probe.category == want["category"], fen
        assert tb.probe_dtz(arg) == want["dtz"] == probe.dtz, fen
        assert tb.probe_wdl(arg) == SYZYGY_WDL[want["category"]] == probe.wdl, fen
        moves = tb.probe_moves(arg)
        assert sorted(m for m, _ in moves) == sorted(m["uci"] for m in want["moves"]), fen
        assert sorted(m for m, _ in moves) == sorted(m.uci() for m in board.legal_moves), fen
        if moves:
            assert probe.best_move == want["moves"][0]["uci"], fen
        else:
            assert probe.best_move is None, fen
