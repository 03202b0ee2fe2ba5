"""A tour of zermelo from Python (run it as a script or paste it cell by cell into Jupyter).

    pip install ./crates/zermelo-py        # from the repository root; needs a Rust toolchain
    pip install chess matplotlib           # optional: boards and the depth histogram
    python examples/python/tour.py

1. a game graph from numpy: outcomes, depths, best moves, a line, the certificate check;
2. a game written in Python (tic-tac-toe), explored and solved from the empty board;
3. a chess endgame table (KQvK) made with the command line and probed with python-chess;
4. the histogram of depths (a PNG with matplotlib, else text).
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, Optional, Tuple

import numpy as np

import zermelo

# -- 1. A graph from numpy -----------------------------------------------------------------

rng = np.random.default_rng(7)
nodes = 100_000
edges = rng.integers(0, nodes, size=(250_000, 2), dtype=np.int64)  # any (m, 2) integer array
solution = zermelo.solve(edges, nodes)
print(solution)  # Solution(nodes=100000, win=..., lose=..., draw=..., max_depth=...)

outcome, depth, best = solution.outcome, solution.depth, solution.best_move  # numpy views
won = np.flatnonzero(outcome == zermelo.WIN)
deepest = int(won[np.argmax(depth[won])])
print(f"deepest win: node {deepest} in {depth[deepest]} plies, first move to {best[deepest]}")
line = solution.line(deepest)
print(f"its principal line: {len(line)} positions,", " -> ".join(map(str, line.nodes[:8])), "...")
solution.verify()  # the library's certificate check: raises zermelo.VerifyError if wrong

# -- 2. A game written in Python -------------------------------------------------------------

Board = Tuple[str, ...]  # nine cells "X", "O" or " "; X moves first
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe:
    """Positions are boards; the player to move follows from the counts of X and O."""

    @staticmethod
    def to_move(board: Board) -> str:
        return "X" if board.count("X") == board.count("O") else "O"

    def moves(self, board: Board) -> List[Board]:
        me = self.to_move(board)
        return [board[:i] + (me,) + board[i + 1 :] for i, c in enumerate(board) if c == " "]

    def terminal_value(self, board: Board) -> Optional[int]:
        # The player who just moved completed a line: the player to move has lost.
        if any(board[a] != " " and board[a] == board[b] == board[c] for a, b, c in LINES):
            return zermelo.LOSE
        return zermelo.DRAW if " " not in board else None


empty: Board = (" ",) * 9
game = zermelo.solve_game(TicTacToe(), empty)
print(game)  # 5478 positions; the empty board is a DRAW
print("X's best first move:", game.best_move(empty))
corner: Board = ("X", " ", " ", " ", "O", " ", " ", " ", " ")
print("X in a corner, O in the centre:", zermelo.OUTCOME_NAMES[game.outcome(corner)])

# -- 3. A chess endgame table ------------------------------------------------------------------


def zermelo_cli() -> Optional[str]:
    """The command line: $ZERMELO_BIN, on PATH, or built in this repository's target/."""
    root = Path(__file__).resolve().parents[2]
    for c in [os.environ.get("ZERMELO_BIN"), shutil.which("zermelo")] + [
        str(root / "target" / p / "zermelo") for p in ("release", "debug")
    ]:
        if c and Path(c).is_file():
            return c
    return None


cli = zermelo_cli()
if cli is None:
    print("(no zermelo command line found: skipping the tablebase; cargo build -p zermelo-cli)")
else:
    with tempfile.TemporaryDirectory() as tables:
        subprocess.run([cli, "tb", "gen", "KQvK", "--tables", tables, "-q"], check=True)
        with zermelo.chess.Tablebase(tables) as tb:
            fen = "8/8/8/8/8/2k5/8/KQ6 w - - 0 1"
            print("KQvK", fen, "->", tb.probe(fen))
            try:
                import chess  # python-chess, optional: the same probes take a Board

                board = chess.Board(fen)
                print("probe_wdl:", tb.probe_wdl(board), " probe_dtz:", tb.probe_dtz(board), " probe_dtm:", tb.probe_dtm(board))
            except ImportError:
                print("probe_wdl(fen):", tb.probe_wdl(fen), " probe_dtm(fen):", tb.probe_dtm(fen))

# -- 4. Depth histogram -------------------------------------------------------------------------

decided = depth[depth >= 0]
counts = np.bincount(decided)
try:
    # Imported by name so that the script type-checks without matplotlib installed.
    plt = importlib.import_module("matplotlib.pyplot")
    importlib.import_module("matplotlib").use("Agg")
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.bar(np.arange(len(counts)), counts)
    ax.set_xlabel("depth (plies)")
    ax.set_ylabel("positions")
    ax.set_yscale("log")
    out = Path(tempfile.gettempdir()) / "zermelo-depths.png"
    fig.savefig(out, dpi=100, bbox_inches="tight")
    print("depth histogram written to", out)
except ImportError:
    bins = np.histogram(decided, bins=12)
    for (lo, hi), c in zip(zip(bins[1][:-1], bins[1][1:]), bins[0]):
        print(f"depth {lo:5.0f}-{hi:5.0f} {c:8d} {'#' * int(50 * c / bins[0].max())}")

sys.exit(0)
