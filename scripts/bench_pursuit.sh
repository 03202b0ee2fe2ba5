#!/usr/bin/env bash
# The compact engine on the police board of BENCHMARKS.md ("Games"), side by side with another
# zermelo binary (e.g. one built from an older commit), runs alternating so that a busy machine
# disturbs every line alike. Prints one line per run and a Markdown table of medians.
#
#   scripts/bench_pursuit.sh BASELINE_ZERMELO [SIZE [RUNS]]     (default: 100 3)
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=${1:?usage: scripts/bench_pursuit.sh BASELINE_ZERMELO [SIZE [RUNS]]}
SIZE=${2:-100}
RUNS=${3:-3}
DATA=target/bench-data
mkdir -p "$DATA"
BOARD="$DATA/open$SIZE.txt"
python3 -c "n=$SIZE; print(n, n); [print(''.join('P' if (r,c)==(0,0) else 'T' if (r,c)==(n-1,n-1) else '.' for c in range(n))) for r in range(n)]" > "$BOARD"
cargo build --release --quiet -p zermelo-cli
Z=target/release/zermelo
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }

median() { sort -g | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
# solver LABEL: the command line of one variant
solver() {
  case $1 in
    baseline) echo "$BASE" ;;
    counter) echo "$Z --counting counter" ;;
    recompute) echo "$Z --counting recompute" ;;
  esac
}
for round in $(seq "$RUNS"); do
  for label in baseline counter recompute; do
    read -r -a cmd <<< "$(solver $label)"
    /usr/bin/time -f "$label %e %M" -o "$LOG.t" "${cmd[0]}" -q game police-thief "$BOARD" \
      "${cmd[@]:1}" > "$LOG.$label.out"
    tee -a "$LOG" < "$LOG.t"
  done
  cmp -s "$LOG.baseline.out" "$LOG.counter.out" && cmp -s "$LOG.baseline.out" "$LOG.recompute.out" \
    || { echo "outputs differ" >&2; exit 1; }
done
rm -f "$LOG".*
echo
echo "| run | median time | median peak memory |"
echo "|---|---|---|"
for label in baseline counter recompute; do
  t=$(grep "^$label " "$LOG" | awk '{print $2}' | median)
  m=$(grep "^$label " "$LOG" | awk '{print $3}' | median)
  echo "| $label | $t s | $(awk -v k="$m" 'BEGIN {printf "%.0f MB", k * 1024 / 1e6}') |"
done
