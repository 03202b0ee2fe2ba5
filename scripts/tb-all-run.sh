#!/usr/bin/env bash
# A long `tb gen` run with the logging its figure needs (docs/benchmarks/chess.md, issue 18): the run's
# segments (a run survives kills and resumes), the pauses taken for builds and measurements
# (subtracted from its figure), the memory every 2 s, every table line with the time it ended.
#
#   scripts/tb-all-run.sh start DIR [MATERIAL...]  in the background: `tb gen --all 5` into
#                                                  DIR/tables, or each MATERIAL in turn (with
#                                                  the smaller tables it needs); without
#                                                  materials it resumes what DIR was running;
#                                                  3v2 or 4v1 for one half of the 5-piece tables
#   scripts/tb-all-run.sh pause DIR                SIGSTOP the generator (logged)
#   scripts/tb-all-run.sh cont DIR                 SIGCONT it (logged)
#   scripts/tb-all-run.sh killed DIR               after a kill that logged nothing (session end,
#                                                  machine lost): ends the segment at the last
#                                                  memory sample (or the newest file written)
#
# The binary is copied into DIR at the first start (target/release/zermelo, built if missing)
# and its commit recorded in DIR/build.txt; a later start keeps it (copy another one in by hand
# to switch builds between two tables). `scripts/tb-all-report.py DIR` prints the figures.
set -euo pipefail

cmd=${1:?usage: scripts/tb-all-run.sh start|pause|cont|killed DIR [MATERIAL...]}
dir=${2:?usage: scripts/tb-all-run.sh start|pause|cont|killed DIR [MATERIAL...]}
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
now() { date -u +%FT%T.%NZ; }
generator() { pgrep -f "^$dir/zermelo tb gen" | head -1 || true; }

case $cmd in
start)
    mkdir -p "$dir/tables"
    dir=$(cd "$dir" && pwd)
    [[ -n $(generator) ]] && { echo "tb-all-run: a run is going on in $dir" >&2; exit 1; }
    if [[ ! -x $dir/zermelo ]]; then
        [[ -x $root/target/release/zermelo ]] || cargo build --release -q -p zermelo-cli --manifest-path "$root/Cargo.toml"
        cp "$root/target/release/zermelo" "$dir/zermelo"
        git -C "$root" rev-parse --short HEAD > "$dir/build.txt"
    fi
    # 3v2 / 4v1: the five-piece tables of three pieces against two, or four against one, in
    # the order of `--all 5`. Neither half depends on the other (captures lead to four pieces,
    # promotions stay in the half), so each can be measured alone; each makes the smaller
    # tables it needs in its run (the two halves count some 3-4-piece tables twice).
    if [[ ${1:-} == 3v2 || ${1:-} == 4v1 ]]; then
        half=$1
        set -- $("$dir/zermelo" tb plan --all 5 --tables "$dir/tables" --format json | python3 -c '
import json, sys
weak = 2 if sys.argv[1] == "3v2" else 1
for t in json.load(sys.stdin)["tables"]:
    if t["pieces"] == 5 and len(t["material"].split("v")[1]) == weak:
        print(t["material"])' "$half")
    fi
    # Materials given are kept for the resumes (a start without any resumes what was started).
    (($#)) && printf '%s\n' "$@" > "$dir/materials.txt"
    cat > "$dir/run.sh" <<EOF
#!/usr/bin/env bash
cd "$dir"
echo "start \$(date -u +%FT%TZ) build \$(cat build.txt)" >> times.log
stamp() { while IFS= read -r l; do printf '%s %s\n' "\$(date -u +%FT%TZ)" "\$l"; done; }
set +e
if [[ -s materials.txt ]]; then
    for m in \$(cat materials.txt); do
        /usr/bin/time -v "$dir/zermelo" tb gen "\$m" --tables tables --stats -q 2>> gen.err | stamp >> gen.out
        code=\${PIPESTATUS[0]}
        [[ \$code == 0 ]] || break
    done
else
    /usr/bin/time -v "$dir/zermelo" tb gen --all 5 --tables tables --stats -q 2>> gen.err | stamp >> gen.out
    code=\${PIPESTATUS[0]}
fi
echo "end \$(date -u +%FT%TZ) exit \$code" >> times.log
EOF
    chmod +x "$dir/run.sh"
    cat > "$dir/memlog.sh" <<EOF
#!/usr/bin/env bash
# run.sh runs as "bash DIR/run.sh": no anchor on the pattern.
while pgrep -f "$dir/run.sh" > /dev/null; do
    p=\$(pgrep -f "^$dir/zermelo tb gen" | head -1)
    if [[ -n \$p ]]; then
        s=\$(grep -E 'VmHWM|VmRSS|RssAnon|RssFile' /proc/\$p/status 2>/dev/null | awk '{printf "%s %s ", \$1, \$2}')
        echo "\$(date -u +%FT%TZ) \$s" >> "$dir/mem.log"
    fi
    sleep 2
done
EOF
    chmod +x "$dir/memlog.sh"
    setsid nohup "$dir/run.sh" > /dev/null 2>&1 &
    sleep 1
    setsid nohup "$dir/memlog.sh" > /dev/null 2>&1 &
    echo "started in $dir (build $(cat "$dir/build.txt")); figures: scripts/tb-all-report.py $dir"
    ;;
pause | cont)
    p=$(generator)
    [[ -z $p ]] && { echo "tb-all-run: no run in $dir" >&2; exit 1; }
    if [[ $cmd == pause ]]; then kill -STOP "$p"; echo "stop $(now)" >> "$dir/pauses.log"
    else kill -CONT "$p"; echo "cont $(now)" >> "$dir/pauses.log"; fi
    ;;
killed)
    last=$( (tail -1 "$dir/mem.log" 2> /dev/null || true) | cut -d' ' -f1)
    how="the last memory sample"
    if [[ -z $last ]]; then
        # No memory log: the newest file the run wrote (tables, checkpoints, its output).
        newest=$(find "$dir" -type f ! -name times.log ! -name pauses.log -printf '%T@\n' | sort -n | tail -1)
        last=$(date -u -d "@${newest:-$(date +%s)}" +%FT%TZ)
        how="the newest file written"
    fi
    echo "killed $last (no end logged; $how)" >> "$dir/times.log"
    if [[ -f $dir/pauses.log ]] && [[ $(tail -1 "$dir/pauses.log" | cut -d' ' -f1) == stop ]]; then
        echo "cont $last" >> "$dir/pauses.log"
    fi
    echo "segment closed at $last"
    ;;
*)
    echo "tb-all-run: unknown command $cmd" >&2
    exit 2
    ;;
esac
