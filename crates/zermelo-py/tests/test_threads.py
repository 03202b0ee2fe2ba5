"""The GIL is released while solving (other Python threads run) and Ctrl-C interrupts a long
solve."""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import List, Optional

import numpy as np
import pytest

import zermelo


def big_graph(nodes: int, edges: int) -> zermelo.Graph:
    rng = np.random.default_rng(1)
    return zermelo.Graph(rng.integers(0, nodes, size=(edges, 2), dtype=np.int64), nodes)


def test_other_threads_run_while_solving() -> None:
    g = big_graph(1_000_000, 4_000_000)
    ticks = 0
    stop = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    time.sleep(0.05)
    before = ticks
    start = time.perf_counter()
    g.solve()
    elapsed = time.perf_counter() - start
    during = ticks - before
    stop.set()
    t.join()
    # With the GIL held the counter could not move at all while solving.
    assert during >= max(3, int(elapsed * 1000 * 0.05)), (during, elapsed)


@pytest.mark.skipif(not hasattr(signal, "SIGINT"), reason="needs SIGINT")
def test_ctrl_c_interrupts_a_long_solve() -> None:
    # Two moves per node: most positions decided, about 2 s of sequential solving here.
    g = big_graph(3_000_000, 6_000_000)
    start = time.perf_counter()
    g.solve()
    full = time.perf_counter() - start
    delay = min(0.3, full / 4)
    armed = threading.Event()
    late = []

    def on_sigint(signum: int, frame: object) -> None:
        if armed.is_set():
            raise KeyboardInterrupt
        late.append(signum)  # the solve ended first: never interrupt pytest itself

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        timer = threading.Timer(delay, lambda: os.kill(os.getpid(), signal.SIGINT))
        armed.set()
        timer.start()
        start = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            g.solve()
        interrupted = time.perf_counter() - start
        armed.clear()
        timer.join()
    finally:
        armed.clear()
        signal.signal(signal.SIGINT, previous)
    assert not late
    assert interrupted < delay + max(0.3, full / 2), (interrupted, delay, full)


def test_best_moves_from_several_threads_at_once() -> None:
    # The first access computes them without the GIL; others must neither deadlock nor differ.
    s = big_graph(300_000, 1_000_000).solve()
    results: List[Optional[np.ndarray]] = [None] * 4

    def read(i: int) -> None:
        results[i] = s.best_move.copy()

    threads = [threading.Thread(target=read, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
        assert not t.is_alive(), "deadlock"
    first = results[0]
    assert first is not None
    assert all(r is not None and np.array_equal(r, first) for r in results)
    zermelo.verify(s.graph, s.outcome, s.depth, first)
