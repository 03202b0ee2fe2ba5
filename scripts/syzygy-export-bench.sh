#!/usr/bin/env bash
# zermelo's tables exported to Syzygy's format, against Syzygy's own files of the same materials:
# the time of `tb export` per material, the size of each file against the published one (target
# <= 1.25x), and python-chess reading the exported files to zermelo's values on N random
# positions per material (scripts/syzygy-export-check.py).
#
#   scripts/syzygy-export-bench.sh ZERMELO_DIR SYZYGY_DIR OUT [MATERIAL...]
#
# ZERMELO_DIR holds zermelo's tables (`tb gen MATERIAL --tables ZERMELO_DIR`); SYZYGY_DIR the
# published files, or those Syzygy's generator writes (`rtbgen`/`rtbgenp`, which made the
# published ones); OUT receives the exported files. Materials: default every `.rtbw` of
# SYZYGY_DIR with a `.zdz` in ZERMELO_DIR. Environment: ZERMELO_BIN (default
# target/release/zermelo), PYTHON (a python with python-chess; default target/pyenv/bin/python,
# else python3), POSITIONS (default 100000), JOBS (python-chess processes, default 2), THREADS
# (`tb export --threads`, default 2), TBCHECK (Syzygy's `tbcheck`: when set, run on every
# exported file), SMALLER (a directory of the smaller tables' Syzygy files, which probes of
# the exported ones need for their captures; e.g. the published 3-4-piece set). Exit 1 when a file is over 1.25x, a checksum fails or a position differs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[[ $# -ge 3 ]] || { sed -n '2,17p' "$0" >&2; exit 2; }
zdir=$1 sdir=$2 out=$3
shift 3
zermelo=${ZERMELO_BIN:-$root/target/release/zermelo}
python=${PYTHON:-$root/target/pyenv/bin/python}
[[ -x $python ]] || python=python3
materials=("$@")
if [[ ${#materials[@]} -eq 0 ]]; then
    for f in "$sdir"/*.rtbw; do
        m=$(basename "$f" .rtbw)
        [[ -f $zdir/$m.zdz ]] && materials+=("$m")
    done
fi
mkdir -p "$out"
lscpu | grep -E "^(Model name|CPU family|Model):" | tr -s ' ' || true
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"

status=0
echo "| file | exported bytes | published bytes | ratio | export wall s | CPU s | peak KiB |"
echo "|---|---|---|---|---|---|---|"
for m in "${materials[@]}"; do
    times=$( { /usr/bin/time -f "%e %U %S %M" "$zermelo" -q --threads "${THREADS:-2}" tb export \
        --format syzygy "$m" --tables "$zdir" -o "$out" >/dev/null; } 2>&1 | tail -1)
    read -r wall user sys peak <<<"$times"
    cpu=$(echo "$user + $sys" | bc)
    for ext in rtbw rtbz; do
        ours=$(stat -c %s "$out/$m.$ext")
        theirs=$(stat -c %s "$sdir/$m.$ext")
        ratio=$(echo "scale=3; $ours / $theirs" | bc)
        printf '| %s.%s | %s | %s | %sx | %s | %s | %s |\n' "$m" "$ext" "$ours" "$theirs" "$ratio" \
            "$wall" "$cpu" "$peak"
        if (($(echo "$ratio > 1.25" | bc))); then
            echo "  over 1.25x: $m.$ext" >&2
            status=1
        fi
    done
done

if [[ -n ${TBCHECK:-} ]]; then
    checked=$(cd "$out" && for m in "${materials[@]}"; do "$TBCHECK" "$m.rtbw" "$m.rtbz"; done)
    echo "$checked"
    if grep -qv ': OK!$' <<<"$checked"; then status=1; fi
fi

smaller=${SMALLER:+:$SMALLER}
"$python" "$root/scripts/syzygy-export-check.py" "$zdir" "$out$smaller" "${materials[@]}" \
    -n "${POSITIONS:-100000}" -j "${JOBS:-2}" --zermelo "$zermelo" || status=1
exit $status
