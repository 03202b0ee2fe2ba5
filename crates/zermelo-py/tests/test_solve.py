"""zermelo.solve / Graph / Solution: answers (seed cases, an independent oracle), numpy
dtypes and shapes, shared read-only memory, best moves, lines, verification."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, List, Tuple

import numpy as np
import pytest

import zermelo

from conftest import ROOT, oracle

CODES = {"WIN": zermelo.WIN, "LOSE": zermelo.LOSE, "DRAW": zermelo.DRAW}
SEEDS = ROOT / "crates" / "zermelo" / "tests" / "data" / "seed-examples.json"


def seed_cases() -> List[Any]:
    """The hand-worked games of the seed documents (the repository's copy of
    shared/cases/seed-examples.json, which crates/zermelo/tests/seed_cases.rs checks too)."""
    return list(json.loads(SEEDS.read_text())["cases"])


@pytest.mark.parametrize("case", seed_cases(), ids=lambda c: c["name"])
def test_seed_examples(case: Any) -> None:
    misere = case.get("terminal") == "WIN"
    s = zermelo.solve(np.array(case["edges"], dtype=np.int64).reshape(-1, 2), case["nodes"], misere=misere)
    assert s.outcome.tolist() == [CODES[label] for label in case["labels"]]
    assert s.depth.tolist() == [-1 if d is None else d for d in case["dist"]]
    s.verify()


def test_worked_example_in_docs() -> None:
    s = zermelo.solve([(0, 1), (0, 2), (1, 3), (2, 1), (2, 4), (4, 2)])
    assert s.outcome.tolist() == [2, 0, 2, 1, 2]
    assert s.depth.tolist() == [-1, 1, -1, 0, -1]
    assert s.best_move.tolist() == [2, 3, 4, -1, 2]
    c = s.counts
    assert (c.win, c.lose, c.draw, c.max_depth) == (1, 1, 3, 1)
    assert repr(s) == "Solution(nodes=5, win=1, lose=1, draw=3, max_depth=1)"
    assert repr(c) == "Counts(win=1, lose=1, draw=3, max_depth=1)"
    line = s.line(0)
    assert line.nodes == [0, 2, 4] and line.repeats_from == 1
    assert list(s.line(1)) == [1, 3] and s.line(1).repeats_from is None
    assert repr(s.line(1)) == "Line(1 -> 3)"
    assert len(s) == 5


def random_graph(rng: random.Random, n: int, m: int) -> List[Tuple[int, int]]:
    return [(rng.randrange(n), rng.randrange(n)) for _ in range(m)]


def test_random_graphs_against_oracle() -> None:
    rng = random.Random(21)
    for trial in range(400):
        n = rng.randint(1, 14)
        edges = random_graph(rng, n, rng.randint(0, 3 * n))
        misere = trial % 3 == 0
        verdicts = {rng.randrange(n): rng.choice([0, 1, 2]) for _ in range(rng.randint(0, 2))}
        s = zermelo.solve(np.array(edges, dtype=np.int64).reshape(-1, 2), n, misere=misere, verdicts=verdicts)
        want_o, want_d = oracle(n, edges, misere, verdicts)
        assert s.outcome.tolist() == want_o, (n, edges, misere, verdicts)
        assert s.depth.tolist() == want_d, (n, edges, misere, verdicts)
        s.verify()
        zermelo.verify(s.graph, s.outcome, s.depth, s.best_move)


@pytest.mark.parametrize(
    "dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, ">i8", "<u4"]
)
def test_every_integer_dtype(dtype: Any) -> None:
    edges = np.array([[0, 1], [1, 2], [2, 3]], dtype=dtype)
    s = zermelo.solve(edges)
    assert s.outcome.tolist() == [zermelo.WIN, zermelo.LOSE, zermelo.WIN, zermelo.LOSE]


def test_non_contiguous_and_fortran_arrays() -> None:
    base = np.array([[0, 1, 9], [1, 2, 9], [2, 3, 9]], dtype=np.int64)
    assert zermelo.solve(base[:, :2]).depth.tolist() == [3, 2, 1, 0]
    assert zermelo.solve(np.asfortranarray(base[:, :2])).depth.tolist() == [3, 2, 1, 0]
    assert zermelo.solve(base[::-1, :2]).depth.tolist() == [3, 2, 1, 0]


def test_sequences_of_pairs_and_empty() -> None:
    assert zermelo.solve([[0, 1]]).outcome.tolist() == [zermelo.WIN, zermelo.LOSE]
    assert zermelo.solve(((0, 1), (1, 0))).outcome.tolist() == [zermelo.DRAW, zermelo.DRAW]
    empty = zermelo.solve([], nodes=3)
    assert empty.outcome.tolist() == [zermelo.LOSE] * 3
    assert len(zermelo.solve(np.zeros((0, 2), dtype=np.int32))) == 0


@pytest.mark.parametrize(
    "bad, error",
    [
        (np.array([[0.0, 1.0]]), TypeError),
        (np.array([[True, False]]), TypeError),
        (np.array([["a", "b"]]), TypeError),
        (np.array([[0, 1, 2]]), ValueError),
        (np.array([0, 1]), ValueError),
        (np.zeros((2, 2, 2), dtype=np.int64), ValueError),
        (np.array([[0, -1]]), ValueError),
        (np.array([[0, 2**32]], dtype=np.int64), ValueError),
        ([[0, 1], [2]], TypeError),
        (42, ValueError),
    ],
)
def test_wrong_types_and_shapes(bad: Any, error: type) -> None:
    with pytest.raises(error):
        zermelo.solve(bad)


def test_messages_name_the_problem() -> None:
    with pytest.raises(TypeError, match="float64"):
        zermelo.solve(np.array([[0.0, 1.0]]))
    with pytest.raises(ValueError, match=r"shape \(k, 2\)"):
        zermelo.solve(np.array([[0, 1, 2]]))
    with pytest.raises(ValueError, match="entry 1 is -1"):
        zermelo.solve(np.array([[0, -1]]))


def test_graph_errors() -> None:
    with pytest.raises(zermelo.GraphError, match="out of range"):
        zermelo.solve([[0, 5]], nodes=3)
    with pytest.raises(ValueError):  # GraphError is a ValueError too
        zermelo.solve([[0, 5]], nodes=3)
    with pytest.raises(zermelo.GraphError, match="two different verdicts"):
        zermelo.solve([[0, 1]], verdicts=[(0, "win"), (0, "lose")])
    with pytest.raises(zermelo.GraphError, match="verdict for node 7"):
        zermelo.solve([[0, 1]], verdicts={7: zermelo.WIN})
    with pytest.raises(ValueError, match="outcome code 5"):
        zermelo.solve([[0, 1]], verdicts={0: 5})
    with pytest.raises(ValueError, match="nodes = -1"):
        zermelo.solve([[0, 1]], nodes=-1)
    with pytest.raises(TypeError):
        zermelo.solve([[0, 1]], verdicts=3)  # type: ignore[arg-type]
    with pytest.raises(zermelo.TooBig):
        zermelo.solve([], nodes=2**33)
    with pytest.raises(zermelo.TooBig, match="GiB"):  # 2^32 - 1 nodes: over any memory here
        zermelo.solve([], nodes=2**32 - 1)


def test_verdicts_forms_agree() -> None:
    edges = [(0, 1), (1, 2), (2, 0)]
    forms: List[Any] = [{1: zermelo.LOSE}, [(1, "lose")], np.array([[1, zermelo.LOSE]]), {1: "LOSS"}]
    results = [zermelo.solve(edges, verdicts=v).outcome.tolist() for v in forms]
    assert all(r == results[0] for r in results)
    # 1 is a lost terminal by verdict; 0 moves into it (WIN); 2's only move is to 0 (LOSE).
    assert results[0] == [zermelo.WIN, zermelo.LOSE, zermelo.LOSE]
    g = zermelo.Graph(edges, verdicts={1: "lose"}, misere=True)
    assert g.verdicts == [(1, zermelo.LOSE)] and g.misere


def test_arrays_share_memory_and_are_read_only() -> None:
    s = zermelo.solve([[0, 1], [1, 2]])
    o, d, b = s.outcome, s.depth, s.best_move
    assert o.dtype == np.int8 and d.dtype == np.int32 and b.dtype == np.int64
    for a in (o, d, b):
        assert not a.flags.writeable and not a.flags.owndata
        assert a.base is s  # type: ignore[comparison-overlap]  # a view of the solution's memory
        with pytest.raises(ValueError):
            a[0] = 1
    # Two views of one column are the same memory.
    assert s.outcome.__array_interface__["data"][0] == o.__array_interface__["data"][0]
    del s
    assert o.tolist() == [zermelo.LOSE, zermelo.WIN, zermelo.LOSE]  # the views keep it alive


def test_graph_object() -> None:
    g = zermelo.Graph(np.array([[0, 1], [0, 2], [2, 1]]))
    assert (g.node_count, g.edge_count, len(g)) == (3, 3, 3)
    assert g.successors(0).tolist() == [1, 2]
    assert g.predecessors(1).tolist() == [0, 2]
    assert g.edges().tolist() == [[0, 1], [0, 2], [2, 1]]
    assert repr(g) == "Graph(nodes=3, edges=3)"
    with pytest.raises(IndexError):
        g.successors(3)
    s = g.solve()
    assert zermelo.solve(g).outcome.tolist() == s.outcome.tolist()
    with pytest.raises(TypeError):
        zermelo.solve(g, misere=True)
    assert s.graph.node_count == 3
    with pytest.raises(IndexError):
        s.line(-1)


def test_verify_rejects_wrong_claims() -> None:
    g = zermelo.Graph([[0, 1], [1, 2]])
    s = g.solve()
    zermelo.verify(g, s.outcome, s.depth, s.best_move)
    with pytest.raises(zermelo.VerifyError) as e:
        zermelo.verify(g, [zermelo.WIN, zermelo.LOSE, zermelo.WIN], [2, 1, 0])
    assert e.value.node == 2
    with pytest.raises(zermelo.VerifyError):
        zermelo.verify(g, s.outcome, [3, 1, 0])
    with pytest.raises(zermelo.VerifyError):
        zermelo.verify(g, s.outcome, s.depth, [2, 2, -1])
    with pytest.raises(ValueError, match="depth"):
        zermelo.verify(g, [zermelo.DRAW] * 3, [0, 0, 0])
    with pytest.raises(ValueError, match="entries"):
        zermelo.verify(g, [zermelo.DRAW] * 3, [-1, -1])
    # A solution checked against another graph.
    other = zermelo.Graph([[0, 1], [1, 2], [2, 0]])
    with pytest.raises(zermelo.VerifyError):
        s.verify(other)


def test_grundy() -> None:
    # Subtract 1 or 2 from piles 0..5: 0 1 2 0 1 2.
    edges = [(n, n - k) for n in range(6) for k in (1, 2) if k <= n]
    values = zermelo.grundy(edges)
    assert values.dtype == np.uint32 and values.tolist() == [0, 1, 2, 0, 1, 2]
    assert zermelo.Graph(edges).grundy().tolist() == values.tolist()
    with pytest.raises(zermelo.CycleError) as e:
        zermelo.grundy([[0, 1], [1, 2], [2, 1]])
    assert sorted(e.value.cycle) == [1, 2]


def test_loopy_grundy() -> None:
    # 0 <-> 1 with no way out: both inf{} (a draw); 2 moves into that cycle or to the terminal
    # 3 (value 0): inf{0}, a win.
    edges = [(0, 1), (1, 0), (2, 0), (2, 3)]
    v = zermelo.loopy_grundy(edges)
    assert len(v) == 4 and v.has_infinite
    assert [v.text(u) for u in range(4)] == ["inf{}", "inf{}", "inf{0}", "0"]
    assert v.finite.tolist() == [-1, -1, -1, 0] and v.finite.dtype == np.int64
    assert v.infinite_options(2) == [0] and v.infinite_options(3) is None
    assert v.outcome.tolist() == [zermelo.DRAW, zermelo.DRAW, zermelo.WIN, zermelo.LOSE]
    assert zermelo.Graph(edges).loopy_grundy().text(2) == "inf{0}"
    assert repr(v) == "LoopyGrundy(nodes=4, infinite=3)"
    # On an acyclic graph the values are the ordinary ones.
    acyclic = [(n, n - k) for n in range(6) for k in (1, 2) if k <= n]
    assert zermelo.loopy_grundy(acyclic).finite.tolist() == zermelo.grundy(acyclic).tolist()
    with pytest.raises(IndexError):
        v.text(4)
    # As `zermelo grundy`: values hold for normal play only.
    for call in (zermelo.grundy, zermelo.loopy_grundy):
        with pytest.raises(ValueError, match="normal play only"):
            call(zermelo.Graph(acyclic, misere=True))
        with pytest.raises(ValueError, match="normal play only"):
            call(zermelo.Graph(acyclic, verdicts={0: "win"}))


def test_error_classes() -> None:
    for cls in (
        zermelo.ReadError,
        zermelo.ParseError,
        zermelo.CorruptError,
        zermelo.TooBig,
        zermelo.GraphError,
        zermelo.CycleError,
        zermelo.VerifyError,
        zermelo.InvalidPosition,
        zermelo.MissingTable,
    ):
        assert issubclass(cls, zermelo.ZermeloError)
    assert issubclass(zermelo.ReadError, OSError)
    assert issubclass(zermelo.ParseError, ValueError)
    assert issubclass(zermelo.CorruptError, zermelo.ParseError)
    assert issubclass(zermelo.MissingTable, KeyError)


def test_examples_directory_loads() -> None:
    for path in sorted((ROOT / "examples").glob("*")):
        if path.suffix in {".txt", ".json"} and path.stem not in {"police", "cop-path"}:
            g = zermelo.load(path, input="two-player" if path.stem == "partizan" else "auto")
            s = g.solve()
            s.verify()
            assert len(s) == g.node_count
