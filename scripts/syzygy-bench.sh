#!/usr/bin/env bash
# Probe speed on Syzygy's published tables, side by side in one run: zermelo's reader (mapped,
# warm; the criterion bench crates/zermelo-chess/benches/syzygy.rs) and python-chess's
# chess.syzygy on the same 10,000 random positions of every 4-piece material.
#
#   scripts/syzygy-bench.sh [SYZYGY_DIR]     default: ../shared/syzygy-3-4
#
# PYTHON (default /work/main/target/pyenv/bin/python, else python3) must have python-chess.
# Prints the CPU, the load, then criterion's lines and python-chess's microseconds per probe.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(cd "${1:-$root/../shared/syzygy-3-4}" && pwd)
python=${PYTHON:-/work/main/target/pyenv/bin/python}
[[ -x $python ]] || python=python3

lscpu | grep -E "^(Model name|CPU family|Model):" | tr -s ' ' || true
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
ZERMELO_SYZYGY_DIR=$dir cargo bench -q -p zermelo-chess --manifest-path "$root/Cargo.toml" \
    --bench syzygy -- --warm-up-time 2 --measurement-time 5 2>&1 \
    | grep -E "^(syzygy|tablebase)|time:"

"$python" - "$dir" "$root/target/syzygy-bench-fens.txt" <<'PY'
import sys
import time

import chess
import chess.syzygy

directory, fens = sys.argv[1], sys.argv[2]
boards = [chess.Board(line.strip()) for line in open(fens) if line.strip()]
with chess.syzygy.open_tablebase(directory) as tb:
    for board in boards:  # warm, as the criterion bench is
        tb.probe_dtz(board)
    for name, probe in [("probe_wdl", tb.probe_wdl), ("probe_dtz", tb.probe_dtz)]:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            for board in boards:
                probe(board)
            best = min(best, time.perf_counter() - start)
        print(f"python-chess {chess.__version__} {name} (same positions, warm): "
              f"{best / len(boards) * 1e6:.1f} us")
PY
