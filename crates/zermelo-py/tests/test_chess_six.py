"""zermelo.chess.Tablebase on a 6-piece table (KQQQQvK, the smallest kind: four identical
pieces): the same answers as `zermelo tb probe` on random positions of both sides to move.

The table takes a few minutes to generate. test.sh runs the Rust suite first, whose 6-piece
test (crates/zermelo-cli/tests/serve_cli.rs) leaves its tables in target/tmp/six-piece;
scripts/python-tests.sh passes that directory as $ZERMELO_SIX_PIECE_TABLES. Without it the
fixture generates the table itself."""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path
from typing import List

import pytest

import zermelo
from zermelo.chess import Tablebase

from conftest import run

chess = pytest.importorskip("chess")  # python-chess: test.sh installs it

MATERIAL = "KQQQQvK"


@pytest.fixture(scope="module")
def tables(cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("ZERMELO_SIX_PIECE_TABLES")
    if given:
        d = Path(given)
        for suffix in ("zct", "zdz"):
            assert (d / f"{MATERIAL}.{suffix}").is_file(), f"{d} lacks {MATERIAL}.{suffix}"
        return d
    d = tmp_path_factory.mktemp("six")
    run(cli, "tb", "gen", MATERIAL, "--tables", str(d), "-q")
    return d


def random_fens(n: int, seed: int) -> List[str]:
    rng = random.Random(seed)
    out: List[str] = []
    while len(out) < n:
        board = chess.Board(None)
        squares = rng.sample(range(64), 6)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for s in squares[2:]:
            board.set_piece_at(s, chess.Piece(chess.QUEEN, chess.WHITE))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid():
            out.append(board.fen())
    return out


SYZYGY_WDL = {"win": 2, "cursed-win": 1, "draw": 0, "blessed-loss": -1, "loss": -2}
SIGN = {"win": 1, "lose": -1, "draw": 0}


def test_six_piece_probes_match_cli(cli: Path, tables: Path) -> None:
    fens = random_fens(300, 11)
    # Black to move without a legal move: a checkmate, then a stalemate.
    fens += ["k7/2Q5/1Q6/8/8/8/8/Q1Q3K1 b - - 0 1", "k7/2Q5/1Q6/8/6Q1/7Q/8/6K1 b - - 0 1"]
    p = subprocess.run(
        [str(cli), "tb", "probe", "--stdin", "--tables", str(tables)],
        input="\n".join(fens) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    want = [json.loads(line) for line in p.stdout.splitlines()]
    assert len(want) == len(fens)
    seen = set()
    with Tablebase(tables) as tb:
        for fen, w in zip(fens, want):
            board = chess.Board(fen)
            probe = tb.probe(board)
            seen.add(w["category"])
            assert zermelo.OUTCOME_NAMES[probe.outcome] == w["outcome"], fen
            assert tb.probe_dtm(fen) == SIGN[w["outcome"]] * (w.get("dtm_plies") or 0), fen
            assert probe.category == w["category"] and tb.probe_dtz(board) == w["dtz"], fen
            assert tb.probe_wdl(fen) == SYZYGY_WDL[w["category"]] == probe.wdl, fen
            moves = tb.probe_moves(board)
            assert sorted(m for m, _ in moves) == sorted(m["uci"] for m in w["moves"]), fen
            assert sorted(m.uci() for m in board.legal_moves) == sorted(m for m, _ in moves)
    # Random positions of this material: white wins, black loses or is stalemated.
    assert {"win", "loss", "draw"} <= seen, seen
