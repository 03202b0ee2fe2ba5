#!/usr/bin/env bash
# Checks the benchmark dashboard (BENCHMARKS.md, issue 46) and the journal behind it
# (docs/benchmarks/*.md). Fails, naming the file and line, when:
#   * the dashboard has 300 lines or more (detail belongs in the journal);
#   * a table of the dashboard lacks the columns
#     | what | command | CPU | figure | anchor side by side | date | commit |
#     or a row has another number of cells;
#   * a row with a figure names no CPU (the CPU cell empty, "-", or naming no Intel, AMD, Xeon,
#     EPYC, Zen, Core, Ryzen, ...), or has no date (YYYY-MM-DD) or no commit (a short hash);
#   * a relative link of the dashboard or of a journal file points to a file that does not
#     exist, or to a heading (#anchor) that the Markdown file it names does not have.
#
#   scripts/check-benchmarks.sh [DASHBOARD.md]     default: BENCHMARKS.md
#
# Python 3 standard library only; no build needed (test.sh runs it right after `cargo fmt`).
set -euo pipefail
cd "$(dirname "$0")/.."

exec python3 - "${1:-BENCHMARKS.md}" <<'PY'
import re
import sys
from pathlib import Path

MAX_LINES = 300
COLUMNS = ["what", "command", "CPU", "figure", "anchor side by side", "date", "commit"]
CPU_WORDS = re.compile(
    r"\b(Intel|AMD|Xeon|EPYC|Zen|Core|Ryzen|Threadripper|Opteron|Pentium|Celeron|Atom|"
    r"Apple|Graviton|Neoverse|Ampere|ARM|Arm|POWER|RISC-V)\b"
)
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
COMMIT = re.compile(r"^`?[0-9a-f]{7,40}`?$")
NONE = {"", "-", "—", "–", "n/a", "?"}

errors = []


def error(path, line, message):
    errors.append(f"{path}:{line}: {message}")


def cells(row):
    """The cells of a Markdown table row; `\\|` is a pipe inside a cell."""
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return [c.strip() for c in re.split(r"(?<!\\)\|", row)]


def prose_lines(text):
    """(line number, line) outside fenced code blocks, inline code removed."""
    fence = None
    for n, line in enumerate(text.splitlines(), 1):
        m = re.match(r"^\s*(```+|~~~+)", line)
        if m:
            if fence is None:
                fence = m.group(1)[:3]
            elif m.group(1).startswith(fence):
                fence = None
            continue
        if fence is None:
            yield n, re.sub(r"`+[^`]*`+", "", line)


def slug(heading):
    """GitHub's anchor of a heading: the text of links and code kept, markup and punctuation
    dropped, lower case, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


anchor_cache = {}


def anchors(path):
    if path not in anchor_cache:
        seen, out = {}, set()
        fence = None
        for line in path.read_text(encoding="utf-8").splitlines():
            m = re.match(r"^\s*(```+|~~~+)", line)
            if m:
                fence = None if fence else m.group(1)[:3]
                continue
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if fence is None and m:
                base = slug(m.group(1))
                k = seen.get(base, 0)
                seen[base] = k + 1
                out.add(base if k == 0 else f"{base}-{k}")
        anchor_cache[path] = out
    return anchor_cache[path]


def check_links(path):
    text = path.read_text(encoding="utf-8")
    for n, line in prose_lines(text):
        for m in re.finditer(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", line):
            target = m.group(1)
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                continue  # https:, mailto:, ...: not checked here
            file_part, _, anchor = target.partition("#")
            dest = (path.parent / file_part).resolve() if file_part else path.resolve()
            if not dest.exists():
                error(path, n, f"link to {target}: {file_part} does not exist")
                continue
            if anchor and dest.is_file() and dest.suffix == ".md" and anchor not in anchors(dest):
                error(path, n, f"link to {target}: {dest.name} has no heading #{anchor}")


def check_dashboard(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    if len(lines) >= MAX_LINES:
        error(path, len(lines), f"{len(lines)} lines: the dashboard must stay under {MAX_LINES} "
              "(dated detail belongs in docs/benchmarks/)")
    in_code = False
    header = None
    for n, line in enumerate(lines, 1):
        if re.match(r"^\s*(```|~~~)", line):
            in_code = not in_code
            continue
        if in_code or not line.lstrip().startswith("|"):
            header = None
            continue
        row = cells(line)
        if header is None:  # the first line of a table
            header = row
            if row != COLUMNS:
                error(path, n, "a table of the dashboard must have the columns | "
                      + " | ".join(COLUMNS) + " | (found | " + " | ".join(row) + " |)")
            continue
        if all(re.fullmatch(r":?-+:?", c) for c in row):
            continue  # the delimiter row
        if header != COLUMNS:
            continue  # reported once at its header
        if len(row) != len(COLUMNS):
            error(path, n, f"{len(row)} cells, the dashboard's tables have {len(COLUMNS)}")
            continue
        what, _, cpu, figure, _, date, commit = row
        if figure.lower() in NONE:
            continue  # a row without a figure
        name = what if len(what) <= 60 else what[:57] + "..."
        if cpu.lower() in NONE or not CPU_WORDS.search(cpu):
            error(path, n, f'the figure of "{name}" names no CPU (CPU cell: "{cpu}")')
        if not DATE.match(date):
            error(path, n, f'the figure of "{name}" has no date YYYY-MM-DD (date cell: "{date}")')
        if not COMMIT.match(commit):
            error(path, n, f'the figure of "{name}" has no commit (commit cell: "{commit}")')


dashboard = Path(sys.argv[1])
if not dashboard.is_file():
    sys.exit(f"check-benchmarks: {dashboard}: no such file")
check_dashboard(dashboard)
check_links(dashboard)
journal = sorted(Path("docs/benchmarks").glob("*.md"))
if not journal:
    error(Path("docs/benchmarks"), 0, "no journal files (*.md)")
for f in journal:
    check_links(f)

if errors:
    print("\n".join(errors), file=sys.stderr)
    print(f"check-benchmarks: {len(errors)} problem(s)", file=sys.stderr)
    sys.exit(1)
print(f"check-benchmarks: {dashboard} ({len(dashboard.read_text(encoding='utf-8').splitlines())} lines) "
      f"and {len(journal)} journal files in docs/benchmarks/: every figure names its CPU, every link resolves")
PY
