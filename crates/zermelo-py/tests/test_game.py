"""zermelo.solve_game: games written in Python, checked against closed forms and the oracle;
exceptions from the game; states per second."""

from __future__ import annotations

import random
import time
from typing import Any, Dict, Iterable, List, Optional, Tuple

import numpy as np
import pytest

import zermelo

from conftest import oracle


class Subtraction:
    """Take 1, 2 or 3 from a pile; who cannot move loses: lost exactly at multiples of 4."""

    def moves(self, n: int) -> List[int]:
        return [n - k for k in (1, 2, 3) if k <= n]


def test_subtraction_closed_form() -> None:
    r = zermelo.solve_game(Subtraction(), 40)
    assert len(r) == 41
    for n in range(41):
        assert r.outcome(n) == (zermelo.LOSE if n % 4 == 0 else zermelo.WIN)
        assert r.depth(n) == (n // 4) * 2 + (0 if n % 4 == 0 else 1)
    assert r.best_move(39) == 36 and r.best_move(0) is None
    assert r.line(9) == [9, 8, 7, 4, 3, 0]
    assert 40 in r and 41 not in r
    with pytest.raises(KeyError):
        r.outcome(41)
    assert r.states[0] == 40 and r.index(40) == 0
    assert repr(r) == "GameSolution(states=41, start=40: LOSE, win=30, lose=11, draw=0)"
    s = r.solution
    assert s.outcome[r.index(12)] == zermelo.LOSE
    s.verify()
    assert r.counts.lose == 11


class Graphy:
    """A game over tuple states from a random graph, with verdicts by terminal_value."""

    def __init__(self, succ: Dict[int, List[int]], verdicts: Dict[int, int]) -> None:
        self.succ, self.verdicts = succ, verdicts

    def moves(self, state: Tuple[str, int]) -> Iterable[Tuple[str, int]]:
        return (("s", v) for v in self.succ[state[1]])

    def terminal_value(self, state: Tuple[str, int]) -> Optional[str]:
        v = self.verdicts.get(state[1])
        return None if v is None else zermelo.OUTCOME_NAMES[v]


def test_random_games_against_oracle() -> None:
    rng = random.Random(5)
    for trial in range(150):
        n = rng.randint(1, 12)
        edges = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, 3 * n))]
        verdicts = {rng.randrange(n): rng.choice([0, 1, 2]) for _ in range(rng.randint(0, 2))}
        succ: Dict[int, List[int]] = {u: [] for u in range(n)}
        for u, v in edges:
            succ[u].append(v)
        misere = trial % 2 == 1
        r = zermelo.solve_game(Graphy(succ, verdicts), ("s", 0), misere=misere)
        want_o, want_d = oracle(n, edges, misere, verdicts)
        for state in r.states:
            assert r.outcome(state) == want_o[state[1]]
            assert r.depth(state) == want_d[state[1]]


def test_game_errors() -> None:
    class Raises:
        def moves(self, n: int) -> List[int]:
            if n == 3:
                raise RuntimeError("boom at 3")
            return [n + 1]

    with pytest.raises(RuntimeError, match="boom at 3"):
        zermelo.solve_game(Raises(), 0)

    class Unhashable:
        def moves(self, n: Any) -> List[Any]:
            return [[1, 2]]

    with pytest.raises(TypeError, match="hashable"):
        zermelo.solve_game(Unhashable(), 0)

    class NotIterable:
        def moves(self, n: int) -> int:
            return 3

    with pytest.raises(TypeError, match="iterable"):
        zermelo.solve_game(NotIterable(), 0)  # type: ignore[arg-type]

    class BadVerdict:
        def moves(self, n: int) -> List[int]:
            return [n + 1] if n < 3 else []

        def terminal_value(self, n: int) -> Any:
            return 7 if n == 2 else None

    with pytest.raises(ValueError, match="outcome code 7"):
        zermelo.solve_game(BadVerdict(), 0)

    class Endless:
        def moves(self, n: int) -> List[int]:
            return [n + 1]

    with pytest.raises(zermelo.TooBig):
        zermelo.solve_game(Endless(), 0, max_states=1000)
    with pytest.raises(TypeError, match="moves"):
        zermelo.solve_game(object(), 0)  # type: ignore[arg-type]


class Grid:
    """Walk on a cyclic grid (a game with many draws): about 4 moves per state."""

    def __init__(self, size: int) -> None:
        self.size = size

    def moves(self, s: Tuple[int, int]) -> List[Tuple[int, int]]:
        x, y = s
        n = self.size
        if x == 0 and y == 0:
            return []
        return [((x + 1) % n, y), (x, (y + 1) % n), ((x * 2) % n, y)]


def test_states_per_second() -> None:
    """Prints the rate (BENCHMARKS.md has the measured figures); asserts only a floor far
    below the target so that a loaded CI machine does not fail it."""
    t = time.perf_counter()
    r = zermelo.solve_game(Grid(300), (1, 1))
    elapsed = time.perf_counter() - t
    rate = len(r) / elapsed
    print(f"\nsolve_game: {len(r)} states in {elapsed:.3f} s = {rate:,.0f} states/s")
    assert len(r) == 300 * 300
    assert rate > 10_000
    assert r.outcome((0, 0)) == zermelo.LOSE
