"""Shared fixtures: the repository, the `zermelo` command line (for same-answer tests) and a
pure-Python oracle of retrograde analysis."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[3]


def cli_path() -> Path:
    """The `zermelo` binary: $ZERMELO_BIN, else target/{debug,release}/zermelo of this
    checkout (test.sh builds it before pytest), else on PATH."""
    env = os.environ.get("ZERMELO_BIN")
    candidates = [Path(env)] if env else []
    candidates += [ROOT / "target" / "debug" / "zermelo", ROOT / "target" / "release" / "zermelo"]
    found = shutil.which("zermelo")
    if found:
        candidates.append(Path(found))
    for c in candidates:
        if c.is_file():
            return c
    pytest.fail(
        "the zermelo command line is needed for same-answer tests: "
        "cargo build -p zermelo-cli, or set ZERMELO_BIN"
    )


@pytest.fixture(scope="session")
def cli() -> Path:
    return cli_path()


def run(cli: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Runs the command line; fails the test with its stderr when it fails."""
    p = subprocess.run([str(cli), *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        pytest.fail(f"zermelo {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


def oracle(
    n: int,
    edges: Sequence[Tuple[int, int]],
    misere: bool = False,
    verdicts: Optional[Dict[int, int]] = None,
) -> Tuple[List[int], List[int]]:
    """Naive least-fixpoint iteration (seed 003): round k decides the positions of depth k.
    Independent of the library: no counters, no queue. Codes WIN 0, LOSE 1, DRAW 2."""
    verdicts = verdicts or {}
    succ: List[List[int]] = [[] for _ in range(n)]
    for u, v in edges:
        succ[u].append(v)
    outcome: List[Optional[int]] = [None] * n
    depth = [-1] * n
    for u in range(n):
        if u in verdicts:
            outcome[u] = verdicts[u]
            depth[u] = -1 if verdicts[u] == 2 else 0
        elif not succ[u]:
            outcome[u] = 0 if misere else 1
            depth[u] = 0
    k = 0
    while True:
        k += 1
        decided = []
        for u in range(n):
            if outcome[u] is not None:
                continue
            if any(outcome[v] == 1 for v in succ[u]):
                decided.append((u, 0))
            elif all(outcome[v] == 0 for v in succ[u]):
                decided.append((u, 1))
        if not decided:
            break
        for u, o in decided:
            outcome[u] = o
            depth[u] = k
    return [2 if o is None else o for o in outcome], depth
