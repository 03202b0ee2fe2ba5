#!/usr/bin/env bash
# Load test of `zermelo serve` on loopback with wrk (Debian's package; installed if missing).
#   1. /api/solve?trace=true on a 5-node graph; 2. /api/solve on a 1,000-node random graph;
#   3. the 5-node load again while a second wrk sends malformed and oversized requests;
#   4. GET /api/tb (KQvK, every move probed) on the tables in $TABLES, or on the 3-piece tables
#      generated into a temporary directory;
# then checks that the server still answers a known graph correctly. Prints wrk's reports.
# Usage: scripts/load.sh [DURATION, default 10s]
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10s}

if ! command -v wrk >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
cargo build --release --locked --quiet -p zermelo-cli --bin zermelo
bin="${CARGO_TARGET_DIR:-target}"/release/zermelo
work=$(mktemp -d)
tables=${TABLES:-$work/tables}
[ -n "${TABLES:-}" ] || "$bin" tb gen --all 3 --tables "$tables" -q >/dev/null
"$bin" serve --bind 127.0.0.1:0 --max-body 64K --tables "$tables" 2>"$work/log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
url=""
for _ in $(seq 100); do
    url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$work/log" || true)
    [ -n "$url" ] && break
    sleep 0.1
done
[ -n "$url" ] || { cat "$work/log" >&2; exit 1; }

expect='"solution":[{"node":0,"outcome":"draw","depth":null,"best_move":2},{"node":1,"outcome":"win","depth":1,"best_move":3}'
check() {
    local got
    got=$(curl -s -X POST --data-binary '{"nodes":5,"edges":[[0,1],[0,2],[1,3],[2,1],[2,4],[4,2]]}' "$url/api/solve")
    case "$got" in
        *"$expect"*) echo "check: the server answers the seed graph correctly" ;;
        *) echo "error: wrong answer after load: $got" >&2; exit 1 ;;
    esac
}
no_errors() { # wrk's report must show no non-2xx answers and no socket errors
    if grep -E "Non-2xx|Socket errors" "$1"; then echo "error: failures in $1" >&2; exit 1; fi
}

"$bin" gen random --nodes 1000 --edges 4000 --seed 7 -q -o "$work/g1k.txt"

echo "== 1. POST /api/solve?trace=true, 5 nodes, 6 edges"
wrk -t2 -c32 -d"$duration" --latency -s scripts/load/solve.lua "$url" | tee "$work/r1"
no_errors "$work/r1"
echo "== 2. POST /api/solve, 1,000 nodes, 4,000 edges (edge list)"
BODY_FILE="$work/g1k.txt" wrk -t2 -c32 -d"$duration" --latency -s scripts/load/solve-file.lua "$url" | tee "$work/r2"
no_errors "$work/r2"
echo "== 3. as 1, with malformed and oversized requests mixed in by a second wrk"
wrk -t1 -c8 -d"$duration" -s scripts/load/abuse.lua "$url" >"$work/abuse" 2>&1 &
abuser=$!
wrk -t2 -c32 -d"$duration" --latency -s scripts/load/solve.lua "$url" | tee "$work/r3"
wait "$abuser" || true
echo "-- the abusive load:"; cat "$work/abuse"
no_errors "$work/r3"
echo "== 4. GET /api/tb, KQvK"
wrk -t2 -c32 -d"$duration" --latency "$url/api/tb?fen=${FEN:-4k3/8/4K3/4Q3/8/8/8/8%20w%20-%20-%200%201}" | tee "$work/r4"
no_errors "$work/r4"
check
kill -0 "$server" || { echo "error: the server died" >&2; exit 1; }
echo "load test passed"
