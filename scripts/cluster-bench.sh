#!/usr/bin/env bash
# Cluster mode on loopback: the single-process solve and 1, 2 and 4 cluster processes,
# alternating, on the 10^7-node / 5x10^7-edge random graph. Prints one line per run
# (wall time and peak memory of every process) and the per-round bytes of each cluster shape.
#
#   scripts/cluster-bench.sh [REPEATS] [WORKDIR]        (defaults: 3, target/cluster-bench)
#
# ZERMELO=path/to/zermelo measures that binary instead of building this checkout's (to compare
# with an older build side by side).
# Everything listens on 127.0.0.1 only.
set -euo pipefail
repeats=${1:-3}
dir=${2:-target/cluster-bench}
port=${CLUSTER_BENCH_PORT:-47400}
if [ -n "${ZERMELO:-}" ]; then
    z=$(realpath "$ZERMELO")
else
    cargo build --release -p zermelo-cli >&2
    z=${CARGO_TARGET_DIR:-$PWD/target}/release/zermelo
fi
mkdir -p "$dir" && cd "$dir"
[ -f g.txt ] || "$z" --quiet gen random --nodes 10000000 --edges 50000000 --seed 2 -o g.txt
for i in 0 1 2 3; do echo "127.0.0.1:$((port + i))"; done > hosts
fmt='%e s %M KiB'
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"

single() {
    /usr/bin/time -f "single --threads 2 $*: $fmt" "$z" --quiet --threads 2 solve g.txt "$@" \
        --stats 2>&1 >/dev/null | grep -v '^stats'
}

cluster() {
    local p=$1 w=$2
    shift 2
    for ((i = p - 1; i >= 1; i--)); do
        /usr/bin/time -f "  process $i: $fmt" "$z" --quiet solve g.txt "$@" --cluster \
            --processes "$p" --process "$i" --hosts hosts --workers "$w" 2>"p$i.err" >/dev/null &
    done
    /usr/bin/time -f "cluster ${p}x$w $*: process 0: $fmt" "$z" --quiet solve g.txt "$@" \
        --cluster --processes "$p" --process 0 --hosts hosts --workers "$w" --stats \
        2>p0.err >/dev/null
    wait
    grep -v '^stats' p0.err
    for ((i = 1; i < p; i++)); do cat "p$i.err"; done
    grep '^stats: round\|bytes between' p0.err >"rounds-${p}x$w.txt"
}

for ((r = 1; r <= repeats; r++)); do
    single --summary
    cluster 1 2 --summary
    cluster 2 1 --summary
    cluster 4 1 --summary
done
echo "per-round figures: $dir/rounds-*.txt"
