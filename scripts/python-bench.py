"""Benchmarks of the Python package (BENCHMARKS.md, "Python").

    target/pyenv/bin/python scripts/python-bench.py rows [NODES EDGES FILE]
        zermelo.Graph(edges) + .solve() on a uniform random (m, 2) array (int64 and uint32),
        best of 3; writes the same rows to FILE as raw u32 pairs for the library's baseline:
        cargo run --release -p zermelo --example solve_rows FILE NODES
    target/pyenv/bin/python scripts/python-bench.py games
        zermelo.solve_game states per second, against the Python floor (only the moves()
        calls) and a plain-Python breadth-first search with a dict (no solving).
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable, Dict, List, Tuple

import numpy as np

import zermelo


def rows(n: int, m: int, path: str) -> None:
    edges = np.random.default_rng(1).integers(0, n, size=(m, 2), dtype=np.int64)
    edges.astype("<u4").tofile(path)
    for dtype in (np.int64, np.uint32):
        a = edges.astype(dtype)
        best = [float("inf")] * 3
        for _ in range(3):
            t0 = time.perf_counter()
            g = zermelo.Graph(a, n)
            t1 = time.perf_counter()
            s = g.solve()
            outcome, depth = s.outcome, s.depth
            t2 = time.perf_counter()
            best = [min(b, x) for b, x in zip(best, (t1 - t0, t2 - t1, t2 - t0))]
            del g, s, outcome, depth
        print(f"python {np.dtype(dtype).name}: build {best[0]:.3f} s, solve {best[1]:.3f} s, total {best[2]:.3f} s")


class Grid:
    """A walk on an n x n torus with a doubling move; (0, 0) is the only terminal."""

    def __init__(self, size: int) -> None:
        self.size = size

    def moves(self, s: Tuple[int, int]) -> List[Tuple[int, int]]:
        x, y = s
        n = self.size
        if x == 0 and y == 0:
            return []
        return [((x + 1) % n, y), (x, (y + 1) % n), ((x * 2) % n, y)]


class Count:
    """Take 1 or 2 from a counter."""

    def moves(self, n: int) -> List[int]:
        return [n - 1, n - 2] if n >= 2 else []


def best_of(f: Callable[[], Any], runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def games() -> None:
    cases: List[Tuple[str, Any, Any]] = [
        ("torus 1000 x 1000, tuple states, 3 moves", Grid(1000), (1, 1)),
        ("counter 10^6, int states, 2 moves", Count(), 1_000_000),
    ]
    for name, game, start in cases:
        solved = zermelo.solve_game(game, start)
        states = solved.states
        n = len(states)
        t_solve = best_of(lambda: zermelo.solve_game(game, start))

        def calls() -> None:
            for s in states:
                game.moves(s)

        def python_bfs() -> None:
            ids: Dict[Any, int] = {start: 0}
            order = [start]
            edges = []
            i = 0
            while i < len(order):
                u = order[i]
                i += 1
                for v in game.moves(u):
                    j = ids.get(v)
                    if j is None:
                        j = ids[v] = len(order)
                        order.append(v)
                    edges.append((i - 1, j))

        t_calls = best_of(calls)
        t_bfs = best_of(python_bfs, 1)
        print(
            f"{name}: {n:,} states; solve_game {t_solve:.3f} s = {n / t_solve:,.0f} states/s; "
            f"moves() calls alone {n / t_calls:,.0f}/s; plain-Python BFS {n / t_bfs:,.0f}/s"
        )


if __name__ == "__main__":
    if sys.argv[1:2] == ["rows"]:
        args = sys.argv[2:] or ["10000000", "50000000", "/tmp/zermelo-rows.u32"]
        rows(int(args[0]), int(args[1]), args[2])
    elif sys.argv[1:2] == ["games"]:
        games()
    else:
        sys.exit(__doc__)
