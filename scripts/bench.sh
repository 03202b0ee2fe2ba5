#!/usr/bin/env bash
# Whole-process comparison on the issue's workload: the seed-style reference vs zermelo
# (text and binary input, 1 and 2 threads). Prints a Markdown table of medians.
#
#   scripts/bench.sh [NODES EDGES [RUNS]]     (default: 10000000 50000000 3)
#
# Inputs are generated once into target/bench-data/ (about 790 MB of text + 560 MB binary).
set -euo pipefail
cd "$(dirname "$0")/.."

NODES=${1:-10000000}
EDGES=${2:-50000000}
RUNS=${3:-3}
DATA=target/bench-data
mkdir -p "$DATA"
TXT="$DATA/g-$NODES-$EDGES.txt"
ZG="$DATA/g-$NODES-$EDGES.zg"

cargo build --release --quiet -p zermelo-cli -p seed-reference
cargo build --release --quiet -p zermelo --example memory_latency
Z=target/release/zermelo
REF=target/release/seed-reference
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }

[ -s "$TXT" ] || $Z gen random --nodes "$NODES" --edges "$EDGES" --seed 2 -o "$TXT"
[ -s "$ZG" ] || $Z --quiet convert "$TXT" "$ZG"

# median of the numbers on standard input
median() { sort -g | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# run LABEL CMD...: RUNS timed runs; prints "LABEL|median seconds|median peak MiB|median solve s"
run() {
    local label=$1; shift
    local times=() mems=() solves=()
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f "%e %M" -o "$DATA/time.out" "$@" >"$DATA/stdout.out" 2>"$DATA/stderr.out"
        read -r secs kib <"$DATA/time.out"
        times+=("$secs"); mems+=("$((kib / 1024))")
        solves+=("$(grep -o 'solve [0-9.]*s' "$DATA/stderr.out" | grep -o '[0-9.]*' || echo '-')")
    done
    printf '%s|%s|%s|%s\n' "$label" \
        "$(printf '%s\n' "${times[@]}" | median)" \
        "$(printf '%s\n' "${mems[@]}" | median)" \
        "$(printf '%s\n' "${solves[@]}" | grep -v '^-$' | median | grep . || echo '-')"
    sed -n '1,6p' "$DATA/stdout.out" | tr '\n' ' ' >"$DATA/last-summary.out"
}

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)
family=$(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | xargs)
model=$(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | cut -d: -f2 | xargs)
latency=$(target/release/examples/memory_latency 1024 | cut -d' ' -f1)
echo "machine: $cpu (family $family, model $model), $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; memory latency $latency ns per dependent random load"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "input: $NODES nodes, $EDGES edges ($(du -hL "$TXT" | cut -f1) text, $(du -hL "$ZG" | cut -f1) binary); $RUNS runs each, medians"
echo
rows=()
rows+=("$(run "seed-style reference (text)" $REF "$TXT")")
ref_summary=$(cat "$DATA/last-summary.out")
rows+=("$(run "zermelo text, 2 threads" $Z --quiet --threads 2 solve "$TXT" --summary --stats)")
z_summary=$(cat "$DATA/last-summary.out")
rows+=("$(run "zermelo text, 1 thread" $Z --quiet --threads 1 solve "$TXT" --summary --stats)")
rows+=("$(run "zermelo binary .zg, 2 threads" $Z --quiet --threads 2 solve "$ZG" --summary --stats)")
rows+=("$(run "zermelo binary .zg, 1 thread" $Z --quiet --threads 1 solve "$ZG" --summary --stats)")

ref_time=$(echo "${rows[0]}" | cut -d'|' -f2)
echo "| run | whole process (s) | speed-up vs reference | peak RSS (MiB) | solve phase (s) |"
echo "|---|---|---|---|---|"
for r in "${rows[@]}"; do
    IFS='|' read -r label secs mem solve <<<"$r"
    speedup=$(awk -v a="$ref_time" -v b="$secs" 'BEGIN {printf "%.1fx", a / b}')
    echo "| $label | $secs | $speedup | $mem | ${solve:--} |"
done
echo
if [ "$ref_summary" = "$z_summary" ]; then
    echo "outputs agree: $z_summary"
else
    echo "OUTPUTS DIFFER:"; echo " reference: $ref_summary"; echo " zermelo:   $z_summary"; exit 1
fi
