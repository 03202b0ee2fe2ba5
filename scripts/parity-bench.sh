#!/usr/bin/env bash
# Parity games: whole-process time (parse + solve + write the paritysol solution) of every
# solver on a corpus made by `zermelo gen parity`, each solution checked by `zermelo parity
# verify`. Every solver runs without SCC decomposition (the default) and with it (`--scc`).
# Prints a Markdown table: wall and CPU (user + sys) seconds, peak memory.
#
#   scripts/parity-bench.sh [TIMEOUT_SECONDS]     (default 60: a run past it is reported as such)
#
# Games are generated once into target/parity-data/ (under $CARGO_TARGET_DIR when it is set).
# With OINK=/path/to/oink (Oink's `oink` binary, built from github.com/trolando/oink), Oink's
# solvers in OINK_SOLVERS (default: tl ortl ppq npp psi zlk) run on the same games in the same
# loop, side by side, their solutions checked by `zermelo parity verify` too; CORPUS_ONLY=REGEX
# keeps the games whose name matches.
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT=${1:-60}
TARGET=${CARGO_TARGET_DIR:-target}
DATA=$TARGET/parity-data
mkdir -p "$DATA"
cargo build --release --quiet -p zermelo-cli
Z=$TARGET/release/zermelo
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }

# name | gen arguments
CORPUS="random_1m_p8|random --vertices 1000000 --max-priority 8 --min-degree 1 --max-degree 10 --seed 1
random_100k_p200_d2|random --vertices 100000 --max-priority 200 --min-degree 1 --max-degree 3 --seed 2
ladder_100000|ladder 100000
recursive_ladder_1000|recursive-ladder 1000
recursive_ladder_5000|recursive-ladder 5000
recursive_ladder_10000|recursive-ladder 10000
friedmann_100|friedmann 100
friedmann_1000|friedmann 1000
two_counters_10|two-counters 10
two_counters_15|two-counters 15
two_counters_20|two-counters 20
jurdzinski_50x50|jurdzinski 50 50
jurdzinski_100x100|jurdzinski 100 100
synthesis_20k_c6|synthesis --states 8 --automaton-states 1500 --components 6 --inputs 1 --outputs 1 --max-priority 7 --seed 3
synthesis_220k_c20|synthesis --states 32 --automaton-states 1000 --components 20 --inputs 3 --outputs 2 --max-priority 9 --seed 4
synthesis_1m_c1|synthesis --states 64 --automaton-states 4000 --components 1 --max-priority 8 --seed 3
synthesis_1m_c200|synthesis --states 100 --automaton-states 3500 --components 200 --max-priority 6 --seed 6"

echo "CPU: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| game | vertices | edges | solver | scc | wall s | CPU s | peak MiB | verified |"
echo "|---|---:|---:|---|---|---:|---:|---:|---|"
declare -A total_cpu
# Every solver of the registry and auto without SCC decomposition (the default), the fast ones
# with it too (`--scc`); PARITY_RUNS="solver mode ..." (one pair per line) narrows it.
RUNS=${PARITY_RUNS:-"auto no-scc
auto scc
pp no-scc
pp scc
tl no-scc
rtl no-scc
ortl no-scc
qpz no-scc
fpj no-scc
si no-scc
zielonka no-scc
zielonka scc"}
OINK=${OINK:-}
OINK_SOLVERS=${OINK_SOLVERS:-"tl ortl ppq npp psi zlk"}
if [ -n "$OINK" ]; then
  for o in $OINK_SOLVERS; do RUNS+=$'\n'"oink-$o no-scc"; done
fi
while IFS='|' read -r name args; do
  [[ "$name" =~ ${CORPUS_ONLY:-.} ]] || continue
  f="$DATA/$name.pg"
  # shellcheck disable=SC2086
  [ -s "$f" ] || $Z --quiet gen parity $args -o "$f" </dev/null
  while read -r solver mode; do
    flag=(); [ "$mode" = scc ] && flag=(--scc)
    sol="$DATA/$name.$solver.$mode.sol"
    if [[ "$solver" == oink-* ]]; then
      cmd=("$OINK" --"${solver#oink-}" "$f" "$sol")
    else
      cmd=($Z --quiet parity "$f" --solver "$solver" "${flag[@]}" -o "$sol")
    fi
    if out=$(timeout "$LIMIT" /usr/bin/time -f "TIME %e %U %S %M" "${cmd[@]}" 2>&1 </dev/null); then
      read -r wall user sys kb < <(grep '^TIME' <<<"$out" | cut -d' ' -f2-)
      counts=$(grep -o '[0-9]* vertices, [0-9]* edges' <<<"$out" | head -1 || true)
      v=${counts%% vertices*}; e=${counts#*, }; e=${e%% edges}
      cpu=$(awk "BEGIN {print $user + $sys}")
      total_cpu[$solver $mode]=$(awk "BEGIN {print ${total_cpu[$solver $mode]:-0} + $cpu}")
      ok=$($Z parity verify "$f" "$sol" </dev/null >/dev/null 2>&1 && echo yes || echo NO)
      echo "| $name | $v | $e | $solver | $mode | $wall | $cpu | $((kb / 1024)) | $ok |"
    else
      total_cpu[$solver $mode]=$(awk "BEGIN {print ${total_cpu[$solver $mode]:-0} + $LIMIT}")
      echo "| $name | | | $solver | $mode | > $LIMIT | | | timed out |"
    fi
  done <<<"$RUNS"
done <<<"$CORPUS"
echo
while read -r solver mode; do
  echo "total CPU seconds, $solver, $mode: ${total_cpu[$solver $mode]} (a timeout counts as $LIMIT)"
done <<<"$RUNS"
