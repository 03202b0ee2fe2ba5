#!/usr/bin/env bash
# Side by side: zermelo's `tb gen` (DTM + DTZ) against Syzygy's generator (WDL + DTZ) for
# one table, both with their smaller tables already present, one after the other in one run.
#
#   RTBGEN_DIR=/path/to/syzygy1-tb/src SYZYGY_TABLES=DIR ZERMELO_TABLES=DIR \
#     scripts/tb-bench.sh KRBvKR [THREADS]
#
# RTBGEN_DIR holds Syzygy's built `rtbgen` and `rtbgenp` (github.com/syzygy1/tb: `make` in
# src/, needs libzstd-dev); SYZYGY_TABLES its .rtbw/.rtbz files of the tables the material
# captures or promotes into (Syzygy names a table with the side of greater value first:
# KNvKP, not KPvKN; `rtbgenp -t 2 KNvKP` in that folder with RTBPATH=. makes one that
# rtbgenp KNPvKN then finds); ZERMELO_TABLES zermelo's .zct/.zdz files of the same. Neither
# folder is written: each tool generates into a fresh temporary folder. Prints the machine,
# the load, and one Markdown row per tool (wall, user and system CPU seconds, peak memory).
set -euo pipefail

material=${1:?usage: scripts/tb-bench.sh MATERIAL [THREADS]}
threads=${2:-$(nproc)}
: "${RTBGEN_DIR:?set RTBGEN_DIR to the src folder of syzygy1/tb (with rtbgen, rtbgenp built)}"
: "${SYZYGY_TABLES:?set SYZYGY_TABLES to the folder of Syzygy's smaller tables}"
: "${ZERMELO_TABLES:?set ZERMELO_TABLES to the folder of zermelo's smaller tables}"
root=$(cd "$(dirname "$0")/.." && pwd)
zermelo=${ZERMELO:-$root/target/release/zermelo}
[[ -x $zermelo ]] || cargo build --release -q -p zermelo-cli --manifest-path "$root/Cargo.toml"
gen=$RTBGEN_DIR/rtbgen
[[ $material == *P* ]] && gen=$RTBGEN_DIR/rtbgenp
[[ -x $gen ]] || { echo "tb-bench: $gen is not built" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/syzygy" "$work/zermelo"
for f in "$ZERMELO_TABLES"/*.zct "$ZERMELO_TABLES"/*.zdz; do
    [[ -e $f && $(basename "$f") != "$material".* ]] && ln -s "$(realpath "$f")" "$work/zermelo/"
done

row() { # name, time file
    awk -v name="$1" -F'\t' '{printf "| %s | %.1f | %.1f | %.1f | %.0f |\n", name, $1, $2, $3, $4/1024}' "$2"
}

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; threads $threads"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
(cd "$work/syzygy" && RTBPATH=$SYZYGY_TABLES /usr/bin/time -f '%e\t%U\t%S\t%M' -o "$work/syzygy.time" \
    "$gen" -t "$threads" "$material" > "$work/syzygy.log")
/usr/bin/time -f '%e\t%U\t%S\t%M' -o "$work/zermelo.time" \
    "$zermelo" tb gen "$material" --tables "$work/zermelo" --threads "$threads" --stats -q \
    > "$work/zermelo.log" 2>&1
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
grep -E "^(stats: )?$material" "$work/zermelo.log" || true
echo
echo "| $material | wall s | user s | sys s | peak MiB |"
echo "|---|---|---|---|---|"
row "Syzygy rtbgen (WDL + DTZ)" "$work/syzygy.time"
row "zermelo tb gen (DTM + DTZ)" "$work/zermelo.time"
awk -F'\t' 'FNR==1 && NR==1 {s=$1; su=$2+$3} FNR==1 && NR==2 {printf "\nratio zermelo/Syzygy: wall %.2fx, CPU %.2fx\n", $1/s, ($2+$3)/su}' \
    "$work/syzygy.time" "$work/zermelo.time"
