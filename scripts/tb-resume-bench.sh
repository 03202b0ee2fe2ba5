#!/usr/bin/env bash
# A rerun after `kill -9` at 70% of a run, timed against the full run (issue 42, point 4):
# a full `tb gen MATERIAL` (F), the same killed with SIGKILL at 0.7 F, the same command again
# (R, resuming from the work folder), and the tables of R compared byte for byte with F's.
#
#   scripts/tb-resume-bench.sh MATERIAL TABLES [FRACTION]
#
# TABLES holds the smaller tables MATERIAL needs (read only: the runs write into a fresh
# temporary folder holding links to them). Prints F, the kill time, the work folder left, R and
# R / F (the issue's target: at most 0.40).
set -euo pipefail
m=${1:?usage: scripts/tb-resume-bench.sh MATERIAL TABLES [FRACTION]}
tables=$(realpath "${2:?usage: scripts/tb-resume-bench.sh MATERIAL TABLES [FRACTION]}")
fraction=${3:-0.7}
root=$(cd "$(dirname "$0")/.." && pwd)
z=${ZERMELO:-$root/target/release/zermelo}
[[ -x $z ]] || cargo build --release -q -p zermelo-cli --manifest-path "$root/Cargo.toml"
r=$(mktemp -d)
trap 'rm -rf "$r"' EXIT
for f in "$tables"/*.zct "$tables"/*.zdz; do
    b=$(basename "$f")
    [[ -e $f && $b != "$m".* ]] && ln -s "$f" "$r/"
done
now() { date +%s.%N; }
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
s=$(now); "$z" tb gen "$m" --tables "$r" --stats -q > "$r/full.log" 2>&1; e=$(now)
full=$(echo "$e - $s" | bc)
echo "full run F = $full s"; grep '^stats' "$r/full.log" || true
mv "$r/$m.zct" "$r/ref.zct"; mv "$r/$m.zdz" "$r/ref.zdz"; rm -rf "$r/.work"
kill_at=$(echo "$full * $fraction" | bc)
"$z" tb gen "$m" --tables "$r" --stats -q > "$r/killed.log" 2>&1 &
pid=$!
sleep "$kill_at"
kill -9 "$pid" 2>/dev/null || echo "the run ended before the kill"
wait "$pid" 2>/dev/null || true
echo "killed at $kill_at s; the work folder:"; (cd "$r/.work" && find . -type f -printf '  %p %s bytes\n')
s=$(now); "$z" tb gen "$m" --tables "$r" --stats -q > "$r/rerun.log" 2>&1; e=$(now)
rerun=$(echo "$e - $s" | bc)
echo "rerun R = $rerun s; R / F = $(echo "scale=3; $rerun / $full" | bc)"; grep '^stats' "$r/rerun.log" || true
cmp "$r/$m.zct" "$r/ref.zct" && cmp "$r/$m.zdz" "$r/ref.zdz" && echo "tables byte-identical"
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
