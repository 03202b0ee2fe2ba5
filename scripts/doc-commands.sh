#!/usr/bin/env bash
# Runs every command shown in the user guide (docs/guide/*.md) and README.md, so that the docs
# cannot drift from the program. How commands are marked (docs/guide/index.md says it too):
#
#   ```console        every line starting with `$ ` is a command, run in order in one shell per
#   $ zermelo ...     page (a line ending in `\` continues on the next); other lines are sample
#   output            output and are not compared. A command must exit 0, or the code written
#   ```               after it as `# exit N` (for example `$ zermelo solve /dev/zero  # exit 2`).
#
#   ```python         run with the package's interpreter (target/pyenv, made by
#   ...               scripts/python-tests.sh; $DOC_PYTHON overrides), in the page's folder after
#   ```               the commands above it; skipped with a note if there is no such interpreter.
#
#   A ```sh, ```bash or ```text block holding commands is not run; each needs the comment
#   `<!-- not run: REASON -->` on the line before it (hours of work, a server left running,
#   `kill -9`), or this script fails: nothing is shown unrun by accident.
#
# Each page runs in a fresh temporary folder holding a copy of examples/, with `zermelo` first
# on PATH: $ZERMELO_BIN, else target/debug/zermelo after `cargo test --workspace --no-run`: the
# binary `cargo test` builds, so ./test.sh builds nothing more (`cargo build -p zermelo-cli`
# resolves the dependencies' features without the tests' and compiled them all again: 165 s
# of a clean clone's run). Usage:
#   scripts/doc-commands.sh [PAGE.md ...]        default: README.md and docs/guide/*.md
#   scripts/doc-commands.sh --list [PAGE.md ...] print the commands, run nothing
# With DOC_OUTPUTS=DIR every command's output (stdout and stderr) is appended to DIR/PAGE.out
# after a `$ COMMAND` line, so that two binaries' outputs can be compared with diff (a change
# that must leave every documented output as it was: ZERMELO_BIN=old, then new).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

list=0
if [ "${1:-}" = "--list" ]; then
    list=1
    shift
fi
pages=("$@")
if [ ${#pages[@]} -eq 0 ]; then
    pages=(README.md docs/guide/*.md)
fi

if [ "$list" = 0 ]; then
    if [ -z "${ZERMELO_BIN:-}" ]; then
        cargo test --workspace --locked --no-run --quiet
        ZERMELO_BIN=$root/target/debug/zermelo
    fi
    bin=$(mktemp -d)
    trap 'rm -rf "$bin"' EXIT
    ln -s "$(realpath "$ZERMELO_BIN")" "$bin/zermelo"
    python=${DOC_PYTHON:-$root/target/pyenv/bin/python}
    if ! "$python" -c 'import zermelo' >/dev/null 2>&1; then
        echo "doc-commands: no Python with the zermelo package ($python): Python blocks skipped" >&2
        python=""
    fi
fi

# Writes the bash script of one page to stdout (python3 does the Markdown parsing).
page_script() {
    python3 - "$1" <<'EOF'
import re, shlex, sys

path = sys.argv[1]
lines = open(path, encoding="utf-8").read().split("\n")
out = []
fence = None          # the info string of the open block, None outside blocks
block = []            # (line number, text) of the open block
problems = []

def command_blocks(lang, start, body):
    if lang == "console":
        i = 0
        while i < len(body):
            n, text = body[i]
            i += 1
            if not text.startswith("$ "):
                continue
            cmd = text[2:]
            while cmd.endswith("\\") and i < len(body):
                cmd = cmd[:-1] + "\n" + body[i][1]
                i += 1
            m = re.search(r"#\s*exit (\d+)\b", cmd)
            code = int(m.group(1)) if m else 0
            out.append(("cmd", n, cmd, code))
    elif lang == "python":
        out.append(("python", start, "\n".join(t for _, t in body), 0))

i = 0
while i < len(lines):
    text = lines[i]
    m = re.match(r"^```(\S*)", text)
    if fence is None and m:
        fence = m.group(1)
        start = i + 1
        block = []
        marked = i > 0 and re.match(r"^<!-- not run: .+ -->$", lines[i - 1].strip())
    elif fence is not None and text.startswith("```"):
        if fence in ("console", "python"):
            command_blocks(fence, start, block)
        elif fence in ("sh", "bash", "shell", "text", "") and not marked:
            if any(re.match(r"^\s*(\$ )?(zermelo|cargo|curl|\./|scripts/|pip|python|printf|echo|kill|make|srun)\b", t)
                   for _, t in block):
                problems.append(f"{path}:{start}: a ```{fence} block of commands without "
                                "`<!-- not run: REASON -->` before it (make it ```console to run it)")
        fence = None
    elif fence is not None:
        block.append((i + 1, text))
    i += 1

if problems:
    print("\n".join(problems), file=sys.stderr)
    sys.exit(1)
for kind, n, cmd, code in out:
    where = f"{path}:{n}"
    if kind == "cmd":
        print(f"step {shlex.quote(where)} {code} {shlex.quote(cmd)}")
    else:
        print(f"pystep {shlex.quote(where)} {shlex.quote(cmd)}")
EOF
}

failed=0
total=0
for page in "${pages[@]}"; do
    script=$(page_script "$page")
    if [ "$list" = 1 ]; then
        printf '%s\n' "$script"
        continue
    fi
    [ -n "$script" ] || continue
    dir=$(mktemp -d)
    cp -r examples "$dir/examples"
    count=$(grep -c '^\(step\|pystep\) ' <<<"$script" || true)
    total=$((total + count))
    start=$(date +%s)
    # One shell per page: files, variables and background jobs carry from one command to the next.
    outputs=""
    if [ -n "${DOC_OUTPUTS:-}" ]; then
        mkdir -p "$DOC_OUTPUTS"
        outputs=$(realpath "$DOC_OUTPUTS")/$(basename "$page" .md).out
        : >"$outputs"
    fi
    if ! (cd "$dir" && PATH="$bin:$PATH" DOC_PY="$python" DOC_OUT="$outputs" timeout 600 bash -c '
        set -u
        log=$(mktemp)
        trap '\''kill $(jobs -p) 2>/dev/null; rm -f "$log"'\'' EXIT
        step() {
            local where=$1 want=$2 cmd=$3 got
            eval "$cmd" >"$log" 2>&1 </dev/null
            got=$?
            if [ -n "$DOC_OUT" ]; then
                { printf "\$ %s  # exit %s\n" "$cmd" "$got"; cat "$log"; } >>"$DOC_OUT"
            fi
            if [ "$got" != "$want" ]; then
                printf "\n%s: exit %s, expected %s:\n  \$ %s\n" "$where" "$got" "$want" "$cmd" >&2
                sed "s/^/    /" "$log" | tail -n 40 >&2
                exit 1
            fi
        }
        pystep() {
            local where=$1 code=$2
            if [ -z "$DOC_PY" ]; then return 0; fi
            if ! "$DOC_PY" -c "$code" >"$log" 2>&1 </dev/null; then
                printf "\n%s: the Python block failed:\n" "$where" >&2
                sed "s/^/    /" "$log" | tail -n 40 >&2
                exit 1
            fi
        }
        '"$script"'
    '); then
        failed=$((failed + 1))
    fi
    echo "doc-commands: $page: $count commands, $(($(date +%s) - start)) s"
    rm -rf "$dir"
done

if [ "$list" = 0 ]; then
    if [ "$failed" -gt 0 ]; then
        echo "doc-commands: $failed page(s) failed" >&2
        exit 1
    fi
    echo "doc-commands: all $total commands of ${#pages[@]} pages ran as documented"
fi
