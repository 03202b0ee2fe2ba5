"""python-chess reads the files `zermelo tb export --format syzygy` writes to zermelo's own
values: every 3-4-piece table generated (`tb gen --all 4`), exported (`tb export --all 4`),
and 1,000 random positions of each of the 35 materials probed with ``chess.syzygy``
against ``zermelo tb probe`` by scripts/syzygy-export-check.py (WDL, and DTZ with
python-chess's rounding: one ply short only where the file stores moves). Every position of
every table is compared by zermelo's own reader of the exported files
(crates/zermelo-chess/tests/syzygy_export.rs with ZERMELO_EXPORT_SAMPLE=0, and `tb verify
--against`); python-chess at about 2 ms a position cannot visit 1.3 x 10^8 positions in CI."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Optional

import chess

from conftest import ROOT, run

SCRIPT = ROOT / "scripts" / "syzygy-export-check.py"
PER_MATERIAL = 1000


def check_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("syzygy_export_check", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_python_chess_reads_every_exported_3_4_piece_table_as_zermelo(
    cli: Path, tmp_path: Path
) -> None:
    tables, out = tmp_path / "tables", tmp_path / "syzygy"
    run(cli, "-q", "tb", "gen", "--all", "4", "--tables", str(tables))
    run(cli, "-q", "tb", "export", "--format", "syzygy", "--all", "4",
        "--tables", str(tables), "-o", str(out))
    assert len(list(out.glob("*.rtbw"))) == len(list(out.glob("*.rtbz"))) == 35
    p = subprocess.run(
        [sys.executable, str(SCRIPT), str(tables), str(out), "-n", str(PER_MATERIAL),
         "-j", "2", "--zermelo", str(cli)],
        capture_output=True, text=True,
    )
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"35 materials, {35 * PER_MATERIAL} positions" in p.stdout, p.stdout
    assert "all agree" in p.stdout, p.stdout


class WrongTablebase:
    """A stand-in for ``chess.syzygy.Tablebase`` answering fixed values."""

    def __init__(self, wdl: int, dtz: int) -> None:
        self.wdl, self.dtz = wdl, dtz

    def probe_wdl(self, board: Any) -> int:
        return self.wdl

    def probe_dtz(self, board: Any) -> int:
        return self.dtz


def test_a_difference_is_reported() -> None:
    check = check_script()
    board = chess.Board("8/8/8/8/8/2k5/8/K6R w - - 0 1")
    z = {"fen": board.fen(), "category": "win", "dtz": 27}

    def compare(wdl: int, dtz: int, rounded: bool) -> Optional[str]:
        difference: Optional[str] = check.compare(
            board, WrongTablebase(wdl, dtz), z, {"dtz_rounded": rounded})[0]
        return difference

    assert compare(2, 27, False) is None
    assert compare(2, 26, True) is None  # stored in moves: one ply short
    assert compare(2, 26, False) is not None  # stored in plies: must be exact
    assert compare(2, 25, True) is not None
    assert compare(1, 27, False) is not None
    assert compare(2, -27, True) is not None
    assert "zermelo answered" in str(check.compare(board, WrongTablebase(2, 27), {"error": "x"}, {})[0])
