#!/usr/bin/env bash
# Runs a command inside a memory cgroup whose limit counts the page cache too (cgroup v2
# `memory.max`, or v1 `memory.limit_in_bytes`), after dropping the caches, so that what does
# not fit truly goes to the disk and back; prints the wall time, the peak resident memory of
# the command and the peak usage of the group (page cache included). Needs root.
#
#   scripts/in-cgroup.sh 6G -- target/release/zermelo --max-memory 6G tb gen KQBvKRN --tables T
#
# Exit: the command's exit code; 2 for bad usage or no memory cgroup to make.
set -euo pipefail

limit=${1:?usage: scripts/in-cgroup.sh SIZE -- COMMAND...}
shift
[[ ${1:-} == -- ]] && shift
[[ $# -gt 0 ]] || { echo "in-cgroup: no command" >&2; exit 2; }
bytes=$(numfmt --from=iec "${limit%B}") || { echo "in-cgroup: bad size $limit" >&2; exit 2; }

name=zermelo-$$
if [[ -f /sys/fs/cgroup/cgroup.controllers ]]; then
    group=/sys/fs/cgroup/$name
    mkdir "$group"
    echo "$bytes" > "$group/memory.max"
    peak_file=$group/memory.peak
elif [[ -d /sys/fs/cgroup/memory ]]; then
    group=/sys/fs/cgroup/memory/$name
    mkdir "$group"
    echo "$bytes" > "$group/memory.limit_in_bytes"
    peak_file=$group/memory.max_usage_in_bytes
else
    echo "in-cgroup: no memory cgroup (v1 or v2) on this machine" >&2
    exit 2
fi
cleanup() { rmdir "$group" 2>/dev/null || true; }
trap cleanup EXIT

sync
echo 3 > /proc/sys/vm/drop_caches || echo "in-cgroup: could not drop the caches" >&2
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; group limit $limit ($bytes bytes)"
times=$(mktemp)
set +e
(echo "$BASHPID" > "$group/cgroup.procs" && exec /usr/bin/time -f '%e %M' -o "$times" "$@")
code=$?
set -e
read -r wall rss < "$times" || true
rm -f "$times"
echo "wall ${wall:-?} s; command peak resident $(( ${rss:-0} / 1024 )) MiB; group peak (page cache included) $(( $(cat "$peak_file" 2>/dev/null || echo 0) >> 20 )) MiB"
exit "$code"
