"""zermelo.chess.Tablebase over Syzygy's published files (the 3-piece ones in examples/syzygy,
and the 3-4-piece set at ../shared/syzygy-3-4 where it is), alone and beside zermelo's tables:
the same WDL and DTZ as python-chess's chess.syzygy, DTM where zermelo has it, the halfmove
clock applied by ``probe`` as ``zermelo tb probe`` applies it."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import List, Optional

import chess
import chess.syzygy
import pytest

import zermelo
from zermelo.chess import Tablebase

from conftest import ROOT, run

EXAMPLES = ROOT / "examples" / "syzygy"
SHARED = ROOT.parent / "shared" / "syzygy-3-4"
KRK = "8/8/8/8/8/2k5/8/K6R w - - 0 1"


def random_boards(rng: random.Random, material: str, n: int) -> List["chess.Board"]:
    """`n` legal positions of `material` (e.g. KRvK), either side to move."""
    white, black = material.split("v")
    out: List[chess.Board] = []
    while len(out) < n:
        board = chess.Board(None)
        for symbol in white + black.lower():
            squares = [s for s in chess.SQUARES if board.piece_at(s) is None]
            if symbol in "Pp":
                squares = [s for s in squares if 1 <= chess.square_rank(s) <= 6]
            board.set_piece_at(rng.choice(squares), chess.Piece.from_symbol(symbol))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid():
            out.append(board)
    return out


def same_as_python_chess(directory: Path, materials: List[str], per_material: int) -> int:
    tb = Tablebase(directory)
    rng = random.Random(43)
    checked = 0
    with chess.syzygy.open_tablebase(str(directory)) as theirs:
        for material in materials:
            for board in random_boards(rng, material, per_material):
                wdl, dtz = theirs.probe_wdl(board), theirs.probe_dtz(board)
                assert (tb.probe_wdl(board), tb.probe_dtz(board)) == (wdl, dtz), board.fen()
                probe = tb.probe(board)
                assert (probe.wdl, probe.dtz, probe.dtm) == (wdl, dtz, None), board.fen()
                checked += 1
    return checked


def test_three_piece_files_answer_as_python_chess() -> None:
    assert same_as_python_chess(EXAMPLES, ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"], 200) == 1000


@pytest.mark.skipif(not (SHARED / "KQvKR.rtbw").is_file(), reason="no ../shared/syzygy-3-4")
def test_four_piece_files_answer_as_python_chess() -> None:
    materials = sorted(f[:-5] for f in os.listdir(SHARED) if f.endswith(".rtbw"))
    assert same_as_python_chess(SHARED, materials, 60) == 60 * len(materials)


def test_probe_applies_the_clock_and_says_where_a_dtz_is_rounded() -> None:
    tb = Tablebase(EXAMPLES)
    fresh = tb.probe(KRK)
    assert (fresh.category, fresh.dtz, fresh.dtz_precise, fresh.dtm) == ("win", 27, False, None)
    assert tb.probe_dtz_precise(KRK) == (27, False)
    assert fresh.best_move == "h1d1"
    # 73 plies on the clock: the rounded 27 may be 28, so a win or a cursed win.
    assert tb.probe("8/8/8/8/8/2k5/8/K6R w - - 73 1").category == "maybe-win"
    assert tb.probe("8/8/8/8/8/2k5/8/K6R w - - 80 1").category == "cursed-win"
    board = chess.Board(KRK)
    board.halfmove_clock = 80
    assert tb.probe(board).category == "cursed-win"
    assert tb.probe(board).wdl == 2  # as probe_wdl: a fresh clock


def test_several_directories_and_both_kinds(cli: Path, tmp_path: Path) -> None:
    ours = tmp_path / "zermelo"
    run(cli, "tb", "gen", "KRvK", "--tables", str(ours), "-q")
    syzygy = tmp_path / "syzygy"
    syzygy.mkdir()
    for name in ["KQvK.rtbw", "KQvK.rtbz"]:
        shutil.copy(EXAMPLES / name, syzygy / name)
    kqk = "8/8/8/8/8/2k5/8/K6Q w - - 0 1"
    for tb in [
        Tablebase([ours, syzygy]),
        Tablebase(f"{ours}{os.pathsep}{syzygy}"),
    ]:
        # KRvK from zermelo's tables: exact DTZ and a DTM; KQvK from Syzygy's: no DTM.
        assert tb.probe_dtz_precise(KRK) == (27, True) and tb.probe_dtm(KRK) == 27
        assert tb.probe(KRK).dtm == 27
        assert tb.probe(kqk).dtm is None and tb.probe_wdl(kqk) == 2
        with pytest.raises(zermelo.MissingTable):
            tb.probe_dtm(kqk)
        assert tb.directories == [str(ours), str(syzygy)]
    one = Tablebase(ours)
    with pytest.raises(zermelo.MissingTable, match="KQvK.rtbw"):
        one.probe_wdl(kqk)
    one.add_directory(syzygy)
    assert one.probe_wdl(kqk) == 2 and one.directory == str(ours)
    # The same answer as the command line with the same directories.
    p = subprocess.run(
        [str(cli), "tb", "probe", "--stdin", "--tables", f"{ours}:{syzygy}"],
        input=kqk + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    row = json.loads(p.stdout)
    probe = one.probe(kqk)
    assert (probe.category, probe.dtz, probe.best_move) == (
        row["category"],
        row["dtz"],
        row["moves"][0]["uci"],
    )


def test_damaged_files_are_errors_naming_them(tmp_path: Path) -> None:
    for name in ["KRvK.rtbw", "KRvK.rtbz"]:
        shutil.copy(EXAMPLES / name, tmp_path / name)
    path = tmp_path / "KRvK.rtbz"
    data = path.read_bytes()
    path.write_bytes(bytes([0x91, 0xA9, 0x5E, 0xEB]) + data[4:])
    tb = Tablebase(tmp_path)
    assert tb.probe_wdl(KRK) == 2  # the WDL file is sound
    with pytest.raises(zermelo.CorruptError, match=r"KRvK\.rtbz.*atomic"):
        tb.probe_dtz(KRK)
    path.write_bytes(data[: len(data) - 40])
    with pytest.raises(zermelo.CorruptError, match=r"KRvK\.rtbz"):
        Tablebase(tmp_path).probe(KRK)
    missing: Optional[int] = Tablebase(tmp_path).get_dtz("8/8/8/8/8/2k5/8/K6Q w - - 0 1")
    assert missing is None
