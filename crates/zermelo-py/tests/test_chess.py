"""zermelo.chess.Tablebase on a KQvK table made by the command line: FEN and python-chess
boards, the same answers as `zermelo tb probe`, missing tables, bad positions."""

from __future__ import annotations

from pathlib import Path

import pytest

import zermelo
from zermelo.chess import Tablebase

from chess_answers import SYZYGY_WDL, assert_same_answer, cli_answers, random_fens
from conftest import run

chess = pytest.importorskip("chess")  # python-chess: test.sh installs it


@pytest.fixture(scope="module")
def tables(cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("tables")
    run(cli, "tb", "gen", "KQvK", "--tables", str(d), "-q")
    return d


def test_probes_match_cli(cli: Path, tables: Path) -> None:
    fens = random_fens(40, 7, [chess.QUEEN])
    tb = Tablebase(tables)
    for fen, want in zip(fens, cli_answers(cli, tables, fens)):
        assert_same_answer(tb, fen, want)


def test_dtm_only_directory(cli: Path, tables: Path, tmp_path: Path) -> None:
    # Without the DTZ table: WDL from the DTM table (no rule), probe_dtz a missing table.
    only = tmp_path / "dtm-only"
    only.mkdir()
    (only / "KQvK.zct").write_bytes((tables / "KQvK.zct").read_bytes())
    tb = Tablebase(only)
    fen = "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"
    assert tb.probe_wdl(fen) == 2 and tb.probe_dtm(fen) == 1
    assert tb.probe(fen).dtz is None and tb.probe(fen).category is None
    with pytest.raises(zermelo.MissingTable):
        tb.probe_dtz(fen)
    assert tb.get_dtz(fen) is None


def test_known_positions(tables: Path) -> None:
    with Tablebase(tables) as tb:
        mated = chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
        assert mated.is_checkmate()
        assert tb.probe_wdl(mated) == -2 and tb.probe_dtm(mated) == 0 and tb.probe_dtz(mated) == -1
        p = tb.probe(mated)
        assert p.outcome == zermelo.LOSE and p.depth == 0 and p.best_move is None
        stalemate = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
        assert stalemate.is_stalemate()
        assert tb.probe_wdl(stalemate) == 0 and tb.probe(stalemate).depth is None
        mate_in_one = chess.Board("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1")
        assert tb.probe_dtm(mate_in_one) == 1 and tb.probe_dtz(mate_in_one) == 1
        assert tb.probe(mate_in_one).best_move in {"b1b8", "b1h7"}
        two_kings = chess.Board("7k/8/6K1/8/8/8/8/8 w - - 0 1")
        assert tb.probe_wdl(two_kings) == 0
        assert repr(tb.probe(mate_in_one)).startswith("Probe(WIN, depth=1, wdl=2, dtm=1, dtz=1, best_move=")


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
    with pytest.raises(zermelo.MissingTable):
        tb.probe_dtz("7k/8/6K1/8/8/8/8/1R6 w - - 0 1")
    assert repr(tb) == f"Tablebase({str(tables)!r})"


def test_short_rule_has_cursed_wins(cli: Path, tmp_path: Path) -> None:
    # Under a 10-ply rule, KQvK has wins that need more than 10 plies to the next zeroing
    # move (`tb gen` counts 10,239 cursed wins). `tb probe` reads only 100-ply tables, so the
    # classes are checked against their definition: a win whose DTZ exceeds the rule is cursed.
    d = tmp_path / "rule10"
    run(cli, "tb", "gen", "KQvK", "--tables", str(d), "--rule", "10", "-q")
    tb = Tablebase(d, rule=10)
    assert tb.rule == 10
    seen = set()
    for fen in random_fens(200, 11, [chess.QUEEN]):
        probe = tb.probe(fen)
        assert probe.dtz is not None and probe.category is not None
        if probe.outcome == zermelo.WIN:
            assert probe.category == ("win" if probe.dtz <= 10 else "cursed-win")
        elif probe.outcome == zermelo.LOSE:
            assert probe.category == ("loss" if -probe.dtz <= 10 else "blessed-loss")
        else:
            assert probe.category == "draw" and probe.dtz == 0
        assert probe.wdl == SYZYGY_WDL[probe.category] == tb.probe_wdl(fen)
        seen.add(probe.category)
    assert {"cursed-win", "blessed-loss"} <= seen
    with pytest.raises(zermelo.CorruptError, match="rule"):
        Tablebase(d).probe_dtz("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1")  # 10-ply tables read for 100
    with pytest.raises(ValueError):
        Tablebase(d, rule=0)
