"""zermelo.chess.Tablebase on a KQvK table made by the command line: FEN and python-chess
boards, the same answers as `zermelo tb probe`, missing tables, bad positions."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any, List

import pytest

import zermelo
from zermelo.chess import Tablebase

from conftest import run

chess = pytest.importorskip("chess")  # python-chess: test.sh installs it


@pytest.fixture(scope="module")
def tables(cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("tables")
    run(cli, "tb", "gen", "KQvK", "--tables", str(d), "-q")
    return d


def random_fens(n: int, seed: int) -> List[str]:
    rng = random.Random(seed)
    out: List[str] = []
    while len(out) < n:
        board = chess.Board(None)
        squares = rng.sample(range(64), 3)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.QUEEN, chess.WHITE))
        board.set_piece_at(squares[2], chess.Piece(chess.KING, chess.BLACK))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid():
            out.append(board.fen())
    return out


def test_probes_match_cli(cli: Path, tables: Path) -> None:
    fens = random_fens(40, 7)
    p = subprocess.run(
        [str(cli), "tb", "probe", "--stdin", "--tables", str(tables)],
        input="\n".join(fens) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    want = [json.loads(line) for line in p.stdout.splitlines()]
    tb = Tablebase(tables)
    sign = {"win": 1, "lose": -1, "draw": 0}
    for fen, w in zip(fens, want):
        board = chess.Board(fen)
        for arg in (fen, board):
            probe = tb.probe(arg)
            assert zermelo.OUTCOME_NAMES[probe.outcome] == w["outcome"]
            assert tb.probe_wdl(arg) == 2 * sign[w["outcome"]]
            assert tb.probe_dtm(arg) == sign[w["outcome"]] * (w.get("dtm_plies") or 0)
            best = w["moves"][0]["uci"] if w["moves"] else None
            assert probe.best_move == best
            if best is not None:
                assert chess.Move.from_uci(best) in board.legal_moves
        assert [m for m, _ in tb.probe_moves(fen)] == [m["uci"] for m in w["moves"]]


def test_known_positions(tables: Path) -> None:
    with Tablebase(tables) as tb:
        mated = chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
        assert mated.is_checkmate()
        assert tb.probe_wdl(mated) == -2 and tb.probe_dtm(mated) == 0
        p = tb.probe(mated)
        assert p.outcome == zermelo.LOSE and p.depth == 0 and p.best_move is None
        stalemate = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
        assert stalemate.is_stalemate()
        assert tb.probe_wdl(stalemate) == 0 and tb.probe(stalemate).depth is None
        mate_in_one = chess.Board("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1")
        assert tb.probe_dtm(mate_in_one) == 1
        assert tb.probe(mate_in_one).best_move in {"b1b8", "b1h7"}
        two_kings = chess.Board("7k/8/6K1/8/8/8/8/8 w - - 0 1")
        assert tb.probe_wdl(two_kings) == 0
        assert "Probe(WIN, depth=1" in repr(tb.probe(mate_in_one))


def test_errors(tables: Path) -> None:
    tb = Tablebase(tables)
    with pytest.raises(zermelo.MissingTable) as e:
        tb.probe_wdl("7k/8/6K1/8/8/8/8/1R6 w - - 0 1")
    assert isinstance(e.value, KeyError) and "KRvK" in str(e.value)
    assert tb.get_wdl("7k/8/6K1/8/8/8/8/1R6 w - - 0 1") is None
    assert tb.get_dtm("7k/8/6K1/8/8/8/8/1R6 w - - 0 1", default=-99) == -99
    with pytest.raises(zermelo.InvalidPosition):
        tb.probe_wdl("not a fen")
    with pytest.raises(zermelo.InvalidPosition):
        tb.probe("7k/8/8/8/8/8/8/K6Q w - - 0 1")  # the side not to move is in check
    with pytest.raises(ValueError):  # InvalidPosition is a ValueError
        tb.probe(chess.Board())  # castling rights
    with pytest.raises(TypeError):
        tb.probe(42)  # type: ignore[arg-type]
    with pytest.raises(NotImplementedError):
        tb.probe_dtz("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1")
    assert repr(tb) == f"Tablebase({str(tables)!r})"
