"""The same answers as the command line: examples/, random graphs (text, numpy, .zg),
Grundy values; the error classes of bad files."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np
import pytest

import zermelo

from conftest import ROOT, run

CODE = {"win": zermelo.WIN, "lose": zermelo.LOSE, "draw": zermelo.DRAW}


def cli_solution(cli: Path, *args: str) -> Tuple[List[int], List[int], List[int]]:
    rows = list(csv.DictReader(io.StringIO(run(cli, "solve", *args, "--format", "csv", "-q").stdout)))
    outcome = [CODE[r["outcome"]] for r in rows]
    depth = [int(r["depth"]) if r["depth"] else -1 for r in rows]
    best = [int(r["best_move"]) if r["best_move"] else -1 for r in rows]
    return outcome, depth, best


EXAMPLES = ["cycle.txt", "chain.json", "subtraction.txt", "stalemate.txt", "cop-path.txt"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples_match_cli(cli: Path, name: str) -> None:
    path = ROOT / "examples" / name
    for misere in (False, True):
        flags = ["--misere"] if misere else []
        s = zermelo.load(path, misere=misere)
        assert (s.solve().outcome.tolist(), s.solve().depth.tolist(), s.solve().best_move.tolist()) == cli_solution(
            cli, str(path), *flags
        )


def test_verdicts_file_matches_cli(cli: Path) -> None:
    path, verdicts = ROOT / "examples" / "stalemate.txt", ROOT / "examples" / "stalemate.verdicts"
    s = zermelo.load(path, verdicts=verdicts).solve()
    assert (s.outcome.tolist(), s.depth.tolist(), s.best_move.tolist()) == cli_solution(
        cli, str(path), "--verdicts", str(verdicts)
    )


def test_two_player_matches_cli(cli: Path) -> None:
    path = ROOT / "examples" / "partizan.txt"
    s = zermelo.load(path, input="two-player").solve()
    out = run(cli, "solve", str(path), "--input", "two-player", "--format", "csv", "-q").stdout
    for row in csv.DictReader(io.StringIO(out)):
        node = 2 * int(row["position"]) + int(row["to_move"])
        assert s.outcome[node] == CODE[row["outcome"]]
        assert s.depth[node] == (int(row["depth"]) if row["depth"] else -1)


def read_edge_list(path: Path) -> Tuple[int, np.ndarray]:
    lines = [ln for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    n, m = map(int, lines[0].split())
    edges = np.array([list(map(int, ln.split())) for ln in lines[1 : m + 1]], dtype=np.int64).reshape(-1, 2)
    return n, edges


@pytest.mark.parametrize("seed", range(6))
def test_random_graphs_match_cli(cli: Path, tmp_path: Path, seed: int) -> None:
    nodes, edges = [(50, 120), (200, 300), (1000, 5000), (3000, 3000), (20, 80), (5000, 20000)][seed]
    path = tmp_path / "g.txt"
    run(cli, "gen", "random", "--nodes", str(nodes), "--edges", str(edges), "--seed", str(seed), "-o", str(path), "-q")
    want = cli_solution(cli, str(path))
    n, array = read_edge_list(path)
    for s in (zermelo.solve(array, n), zermelo.load(path).solve(), zermelo.solve(array.astype(np.uint32), n)):
        assert (s.outcome.tolist(), s.depth.tolist(), s.best_move.tolist()) == want
    zg = tmp_path / "g.zg"
    run(cli, "convert", str(path), str(zg), "-q")
    s = zermelo.load(zg).solve()
    assert zermelo.load(zg).format == "binary"
    assert (s.outcome.tolist(), s.depth.tolist(), s.best_move.tolist()) == want


def test_grundy_matches_cli(cli: Path) -> None:
    path = ROOT / "examples" / "subtraction.txt"
    rows = list(csv.DictReader(io.StringIO(run(cli, "grundy", str(path), "--format", "csv", "-q").stdout)))
    assert zermelo.grundy(zermelo.load(path)).tolist() == [int(r["grundy"]) for r in rows]


def test_loopy_grundy_matches_cli(cli: Path, tmp_path: Path) -> None:
    """Graphs with cycles: `zermelo grundy` prints generalized values; Python gives the same."""
    rng = np.random.default_rng(7)
    for k in range(20):
        n = int(rng.integers(2, 30))
        edges = rng.integers(0, n, size=(int(rng.integers(1, 3 * n)), 2))
        path = tmp_path / f"g{k}.txt"
        path.write_text(f"{n} {len(edges)}\n" + "".join(f"{u} {v}\n" for u, v in edges))
        rows = list(csv.DictReader(io.StringIO(run(cli, "grundy", str(path), "--format", "csv", "-q").stdout)))
        values = zermelo.loopy_grundy(zermelo.load(path))
        assert [values.text(u) for u in range(n)] == [r["grundy"] for r in rows]


def test_parse_error_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("3 2\n0 1\n1 x\n")
    with pytest.raises(zermelo.ParseError) as e:
        zermelo.load(bad)
    assert e.value.line == 3 and e.value.source == str(bad) and e.value.kind == "syntax"
    assert str(e.value).startswith(f"{bad}:3:")
    out_of_range = tmp_path / "range.txt"
    out_of_range.write_text("3 1\n0 7\n")
    with pytest.raises(zermelo.ParseError) as e:
        zermelo.load(out_of_range)
    assert e.value.kind == "out-of-range" and e.value.line == 2
    truncated = tmp_path / "short.txt"
    truncated.write_text("3 5\n0 1\n")
    with pytest.raises(zermelo.ParseError) as e:
        zermelo.load(truncated)
    assert e.value.kind == "truncated"
    with pytest.raises(ValueError, match="input"):
        zermelo.load(bad, input="xml")


def test_read_error_too_big_and_corrupt(cli: Path, tmp_path: Path) -> None:
    with pytest.raises(zermelo.ReadError) as e:
        zermelo.load(tmp_path / "missing.txt")
    assert isinstance(e.value, OSError) and e.value.kind == "io"
    huge = tmp_path / "huge.txt"
    huge.write_text("1000000000 1\n0 1\n")
    with pytest.raises(zermelo.TooBig):
        zermelo.load(huge, max_memory=10_000_000)
    src = tmp_path / "g.txt"
    run(cli, "gen", "random", "--nodes", "100", "--edges", "300", "--seed", "3", "-o", str(src), "-q")
    zg = tmp_path / "g.zg"
    run(cli, "convert", str(src), str(zg), "-q")
    data = bytearray(zg.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged = tmp_path / "damaged.zg"
    damaged.write_bytes(bytes(data))
    with pytest.raises(zermelo.CorruptError):
        zermelo.load(damaged)
