"""zermelo.chess.Tablebase.generate: the library call behind `zermelo tb gen`, from Python: the
tables it writes probe right and are byte for byte the command line's; present tables are kept;
errors are the package's classes."""

from __future__ import annotations

from pathlib import Path

import pytest

import zermelo
from zermelo.chess import Tablebase, generate

from conftest import run

FEN = "8/8/8/8/8/2k5/8/K6R w - - 0 1"


def test_generate_writes_both_tables_and_probes_them(tmp_path: Path) -> None:
    tb = Tablebase(tmp_path / "tables")
    written = tb.generate("krvk")  # any orientation and case, as the command line
    assert [Path(p).name for p in written] == ["KRvK.zct", "KRvK.zdz"]
    assert tb.probe_dtm(FEN) == 27
    assert tb.probe_dtz(FEN) == 27
    assert tb.probe_wdl(FEN) == 2
    assert tb.probe(FEN).best_move == "h1d1"
    # A second call finds them present and writes nothing.
    assert tb.generate("KRvK") == []


def test_the_files_are_the_command_lines(cli: Path, tmp_path: Path) -> None:
    ours, theirs = tmp_path / "python", tmp_path / "cli"
    tb = generate(ours, "KQvK", rule=20)
    assert tb.rule == 20 and tb.probe_wdl("8/8/8/8/8/2k5/8/KQ6 w - - 0 1") == 2
    run(cli, "tb", "gen", "KQvK", "--rule", "20", "--tables", str(theirs), "-q")
    for name in ["KQvK.zct", "KQvK.zdz"]:
        assert (ours / name).read_bytes() == (theirs / name).read_bytes(), name
    # Dependencies first, the same bytes too: KPvK needs the four other 3-piece tables.
    ours, theirs = tmp_path / "python-all", tmp_path / "cli-all"
    written = Tablebase(ours).generate(all=3)
    run(cli, "tb", "gen", "--all", "3", "--tables", str(theirs), "-q")
    names = [Path(p).name for p in written]
    assert len(names) == 10 and names[-2:] == ["KPvK.zct", "KPvK.zdz"]
    for name in names:
        assert (ours / name).read_bytes() == (theirs / name).read_bytes(), name


def test_generate_errors_are_the_package_classes(tmp_path: Path) -> None:
    tb = Tablebase(tmp_path / "t")
    with pytest.raises(ValueError, match="tables exist for 3 to 6 pieces, this has 2"):
        tb.generate("KvK")
    with pytest.raises(ValueError, match="invalid material"):
        tb.generate("KQ")
    with pytest.raises(ValueError, match="all = 7"):
        tb.generate(all=7)
    with pytest.raises(ValueError, match="name a material"):
        tb.generate()
    with pytest.raises(zermelo.TooBig, match="KQvKR \\(DTM and DTZ\\), the largest table"):
        tb.generate("KQvKR", max_memory=1 << 20)
    assert not (tmp_path / "t" / "KQvK.zct").exists()
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    with pytest.raises(zermelo.ReadError, match="not a directory \\(the tables' folder\\)"):
        Tablebase(a_file).generate("KRvK")
    with pytest.raises(OSError):
        Tablebase(a_file).generate("KRvK")
