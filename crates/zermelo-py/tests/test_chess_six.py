"""zermelo.chess.Tablebase on a 6-piece table (KQQQQvK, the smallest kind: four identical
pieces): the same answers as `zermelo tb probe` on random positions of both sides to move.

The table takes a few minutes to generate. test.sh runs the Rust suite first, whose 6-piece
test (crates/zermelo-cli/tests/serve_cli.rs) leaves its tables in target/tmp/six-piece;
scripts/python-tests.sh passes that directory as $ZERMELO_SIX_PIECE_TABLES. Without it the
fixture generates the table itself."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from zermelo.chess import Tablebase

from chess_answers import assert_same_answer, cli_answers, random_fens
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


def test_six_piece_probes_match_cli(cli: Path, tables: Path) -> None:
    fens = random_fens(300, 11, [chess.QUEEN] * 4)
    # Black to move without a legal move: a checkmate, then a stalemate.
    fens += ["k7/2Q5/1Q6/8/8/8/8/Q1Q3K1 b - - 0 1", "k7/2Q5/1Q6/8/6Q1/7Q/8/6K1 b - - 0 1"]
    answers = cli_answers(cli, tables, fens)
    with Tablebase(tables) as tb:
        for fen, want in zip(fens, answers):
            assert_same_answer(tb, fen, want)
    # Random positions of this material: white wins, black loses or is stalemated.
    assert {"win", "loss", "draw"} <= {a["category"] for a in answers}
