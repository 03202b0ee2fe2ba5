#!/usr/bin/env bash
# Reactive synthesis over SYNTCOMP's parity-track benchmarks (the folder parity/ of the
# SYNTCOMP benchmarks repository, eHOA files), zermelo side by side with Knor when a Knor
# binary is given. One TSV line per benchmark, then a summary on standard error.
#
#   scripts/synth-bench.sh DIR [--knor PATH] [--timeout S] [--size-timeout S] [--out FILE]
#                              [--no-size] [--no-knor-size]
#
# Per benchmark (files that are Git LFS pointers are skipped: not in the mirror):
#   zermelo synth --realizability FILE        answer (exit 10 / 20 / other) and time
#   zermelo synth FILE -o c.aag               ANDs and latches of the controller, then
#   zermelo synth verify FILE c.aag           exit 0 expected
#   knor --real FILE                          answer and time (with --knor)
#   knor --best --compress -a FILE            ANDs and latches (Knor's smallest: four encodings,
#                                             each compressed by ABC), unless --no-knor-size
# Columns: file zermelo_rc zermelo_s knor_rc knor_s ands latches verify_rc knor_ands knor_latches
# Times are wall-clock seconds of the whole process (parse + game + solve), GNU date.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${1:?usage: scripts/synth-bench.sh DIR [--knor PATH] [--timeout S] [--out FILE]}
shift
knor="" timeout=120 size_timeout=300 out=/dev/stdout size=1 knor_size=1
while [ $# -gt 0 ]; do
    case $1 in
        --knor) knor=$2; shift 2 ;;
        --timeout) timeout=$2; shift 2 ;;
        --size-timeout) size_timeout=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --no-size) size=0; shift ;;
        --no-knor-size) knor_size=0; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

zermelo=${ZERMELO_BIN:-target/release/zermelo}
[ -x "$zermelo" ] || cargo build --release --locked -p zermelo-cli
zermelo=$(realpath "$zermelo")
dir=$(realpath "$dir")
[ -z "$knor" ] || knor=$(realpath "$knor")
case $out in /*) ;; *) out=$PWD/$out ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Knor's ABC writes abc.history into the working directory: run everything in the scratch one.
cd "$work"

now() { date +%s.%N; }
# run SECONDS CMD...: sets rc and secs
run() {
    local limit=$1 start end
    shift
    start=$(now)
    set +e
    timeout "$limit" "$@" >"$work/stdout" 2>"$work/stderr"
    rc=$?
    set -e
    end=$(now)
    secs=$(printf '%.3f' "$(echo "$end - $start" | bc)")
}
# header of an aag file: ANDs and latches
size_of() { if [ -s "$1" ]; then awk 'NR == 1 { print $6 "\t" $4 }' "$1"; else printf -- '-\t-'; fi; }

printf 'file\tzermelo_rc\tzermelo_s\tknor_rc\tknor_s\tands\tlatches\tverify_rc\tknor_ands\tknor_latches\n' >"$out"
find "$dir" -name '*.ehoa' | LC_ALL=C sort | while read -r file; do
    if head -c 64 "$file" | grep -q git-lfs; then
        continue
    fi
    name=${file#"$dir"/}
    run "$timeout" "$zermelo" -q synth --realizability "$file"
    z_rc=$rc z_s=$secs
    k_rc=- k_s=-
    if [ -n "$knor" ]; then
        run "$timeout" "$knor" --real "$file"
        k_rc=$rc k_s=$secs
    fi
    ands=- latches=- v_rc=- k_ands=- k_latches=-
    if [ "$size" = 1 ] && [ "$z_rc" = 10 ]; then
        rm -f "$work/c.aag"
        run "$size_timeout" "$zermelo" -q synth "$file" -o "$work/c.aag"
        if [ "$rc" = 10 ]; then
            read -r ands latches < <(size_of "$work/c.aag")
            run "$size_timeout" "$zermelo" -q synth verify "$file" "$work/c.aag"
            v_rc=$rc
        fi
        if [ -n "$knor" ] && [ "$knor_size" = 1 ] && [ "$k_rc" = 10 ]; then
            run "$size_timeout" "$knor" --best --compress -a "$file"
            if [ "$rc" = 10 ]; then
                cp "$work/stdout" "$work/k.aag"
                read -r k_ands k_latches < <(size_of "$work/k.aag")
            fi
        fi
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$z_rc" "$z_s" "$k_rc" "$k_s" \
        "$ands" "$latches" "$v_rc" "$k_ands" "$k_latches" >>"$out"
done

if [ "$out" != /dev/stdout ]; then
    awk -F'\t' 'NR > 1 {
        n++; zt += $3; if ($2 == 10) zr++; else if ($2 == 20) zu++; else zo++
        if ($4 != "-") { kt += $5; if ($4 == 10) kr++; else if ($4 == 20) ku++; else ko++
            if (($2 == 10 || $2 == 20) && ($4 == 10 || $4 == 20) && $2 != $4) differ++ }
        if ($6 != "-") { zs += $6 + $7; sized++ }
        if ($8 != "-" && $8 != 0) bad++
        if ($6 != "-" && $9 != "-") { both++; bz += $6 + $7; bk += $9 + $10 }
    } END {
        printf "%d benchmarks; zermelo: %d realizable, %d unrealizable, %d other, %.1f s\n", n, zr, zu, zo, zt
        if (kt > 0) printf "knor: %d realizable, %d unrealizable, %d other, %.1f s; answers differ on %d\n", kr, ku, ko, kt, differ
        printf "controllers: %d, ANDs + latches %d, failing verify %d\n", sized, zs, bad
        if (both > 0) printf "sized by both: %d, zermelo %d, knor %d (ratio %.3f)\n", both, bz, bk, bz / bk
    }' "$out" >&2
fi
