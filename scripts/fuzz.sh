#!/usr/bin/env bash
# Runs zermelo's fuzz targets (fuzz/fuzz_targets/*.rs) with libFuzzer through cargo-fuzz on the
# stable toolchain (--sanitizer none), each for a time budget, starting from the corpus kept in
# fuzz/corpus/TARGET. New inputs go to a scratch folder, so the repository's corpus only changes
# when --keep is given. Fails (exit 1) on the first crash, leak of a limit or timeout, and leaves
# the reproducer in fuzz/artifacts/TARGET/.
#
#   scripts/fuzz.sh                      every target, 10 s each (what test.sh runs)
#   scripts/fuzz.sh --seconds 600 fen    one target for 10 minutes
#   scripts/fuzz.sh --keep --seconds 600 every target, new corpus entries kept in fuzz/corpus
#   scripts/fuzz.sh --jobs 1             one target at a time (default: one per core)
#   scripts/fuzz.sh --list               the targets
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

seconds=10
keep=0
# libFuzzer runs one thread per target: run as many targets at once as there are cores.
jobs=$(nproc 2>/dev/null || echo 1)
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        --jobs) jobs="$2"; shift 2 ;;
        --list) ls fuzz/fuzz_targets | sed 's/\.rs$//'; exit 0 ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --jobs wants a positive number, not '$jobs'" >&2; exit 2; }
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(ls fuzz/fuzz_targets | sed 's/\.rs$//')
fi

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "==> installing cargo-fuzz"
    cargo install cargo-fuzz --locked --quiet
fi

# Chess tables are ~80 KB; everything else is text or small binaries.
max_len() {
    case "$1" in
        chess_table) echo 131072 ;;
        *) echo 16384 ;;
    esac
}

(cd fuzz && cargo fuzz build --sanitizer none --release >/dev/null)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for t in "${targets[@]}"; do
    [ -f "fuzz/fuzz_targets/$t.rs" ] || { echo "fuzz.sh: no target $t" >&2; exit 2; }
done

# One target: its summary line (and on failure the end of libFuzzer's log) printed whole under
# a lock, so targets running at once do not interleave; `$scratch/$t.failed` marks a failure.
run_one() {
    local t=$1 out seeds log report
    mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
    if [ "$keep" = 1 ]; then out="$root/fuzz/corpus/$t"; seeds=(); else
        out="$scratch/$t"; mkdir -p "$out"; seeds=("$root/fuzz/corpus/$t"); fi
    log="$scratch/$t.log"
    report="$scratch/$t.report"
    # rss/malloc limits turn an allocation sized by unchecked input into a reported crash.
    if (cd fuzz && exec cargo fuzz run --sanitizer none --release "$t" "$out" "${seeds[@]}" -- \
            -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=20 \
            -rss_limit_mb=4096 -malloc_limit_mb=2048 -print_final_stats=1) >"$log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
        cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo '?')
        echo "fuzz $t: ok, $runs runs in ${seconds}s, coverage $cov edges, 0 crashes" >"$report"
    else
        { echo "fuzz $t: FAILED (reproducer in fuzz/artifacts/$t/)"; tail -40 "$log"; } >"$report"
        touch "$scratch/$t.failed"
    fi
    if [ -n "${FUZZ_LOG_DIR:-}" ]; then cp "$log" "$FUZZ_LOG_DIR/"; fi
    flock "$scratch/print.lock" cat "$report"
}

running=0
for t in "${targets[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
    run_one "$t" &
    running=$((running + 1))
done
wait
failed=$(find "$scratch" -maxdepth 1 -name '*.failed' | wc -l)
passed=$(( ${#targets[@]} - failed ))
echo "fuzz: $passed passed, $failed failed"
[ "$failed" = 0 ]
