#!/bin/bash
# The fault table of docs/cluster.md: two `zermelo solve --cluster` processes on 127.0.0.1, one
# of them killed (SIGKILL, SIGTERM, SIGINT) or stopped (SIGSTOP past --peer-timeout) in each
# phase; prints one Markdown row per run with what the survivor did (exit code, seconds from the
# signal to its exit, its error line).
#
#   scripts/cluster-faults.sh hook  GRAPH   # each phase held by ZERMELO_CLUSTER_TEST_PAUSE
#   scripts/cluster-faults.sh timed GRAPH   # no hook: the signal comes after 0.3, 1, 2, 4 s
#
# ZERMELO=path/to/zermelo (default target/release/zermelo). Runs in a temporary folder.
set -u
Z=${ZERMELO:-$(pwd)/target/release/zermelo}
mode=$1
G=$(realpath "$2")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"

# run PHASE-or-DELAY VICTIM SIGNAL
run() {
  local port=$((20000 + RANDOM % 30000)) pause="" delay=0 p victim survivor
  printf '127.0.0.1:%s\n127.0.0.1:%s\n' $port $((port + 1)) > hosts
  if [ "$mode" = hook ]; then pause=$1; else delay=$1; fi
  local args=(solve "$G" --cluster --processes 2 --hosts hosts -q --format csv
    --peer-timeout 3 --work-dir work --checkpoint-every 1)
  local pids=()
  for i in 1 0; do
    ZERMELO_CLUSTER_TEST_PAUSE=$pause "$Z" "${args[@]}" --process $i -o out$i.csv \
      > /dev/null 2> err$i &
    pids[$i]=$!
  done
  victim=${pids[$2]}; survivor=${pids[$((1 - $2))]}
  if [ "$mode" = hook ]; then
    for _ in $(seq 600); do grep -q "test hook" err$2 && break; sleep 0.05; done
  else
    sleep "$delay"
  fi
  kill -"$3" "$victim" 2> /dev/null
  local t0=$(date +%s.%N)
  wait "$survivor"; local rc=$?
  local took=$(echo "$(date +%s.%N) - $t0" | bc)
  [ "$3" = STOP ] && kill -CONT "$victim"
  wait "$victim" 2> /dev/null
  local line=$(grep -v "test hook" err$((1 - $2)) | grep -v '^$' | head -3 | tr '\n' ' ')
  local panics=$(cat err0 err1 | grep -c -i "panicked\|backtrace")
  printf '| %s | %s | SIG%s | %s | %.2f | %s | %s |\n' "$1" "$2" "$3" "$rc" "$took" \
    "$panics" "${line:-(none)}"
  rm -rf work
}

echo "| $([ "$mode" = hook ] && echo phase || echo 'signal after (s)') | killed | signal | survivor's exit | seconds to exit | panic lines | survivor's message |"
echo "|---|---|---|---|---|---|---|"
if [ "$mode" = hook ]; then
  for phase in connecting loading round draws gathering writing; do
    for victim in 0 1; do
      for sig in KILL TERM INT STOP; do run $phase $victim $sig; done
    done
  done
else
  for delay in 0.3 1 2 4; do
    for victim in 0 1; do
      for sig in KILL TERM INT STOP; do run $delay $victim $sig; done
    done
  done
fi
