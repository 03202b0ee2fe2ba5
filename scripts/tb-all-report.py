#!/usr/bin/env python3
"""The figures of a run of scripts/tb-all-run.sh.

    scripts/tb-all-report.py DIR [--rows N] [--compare REGULAR_STATS] [--markdown FILE]

Prints each segment of DIR/times.log less the pauses of DIR/pauses.log, the run time (the
figure), the peak memory (mem.log's VmHWM, /usr/bin/time's maximum resident size), the last N
five-piece tables (DTM and DTZ seconds, their sum less the pauses inside it) against the first
complete run (the per-table table of docs/benchmarks/chess.md's "`tb gen --all 5` across
sessions", the journal behind BENCHMARKS.md), and
a projection of the whole run from the tables done.

--compare takes Syzygy's statistics file (syzygy-tables.info's stats/regular/regular-stats.txt,
github.com/niklasf/syzygy-tables.info) and compares `tb stats MATERIAL --format json` of every
five-piece table finished: the five classes per side to move, and per winning side the longest
DTZ of a win and of a cursed win (Syzygy's "longest win for white" is over both sides to move:
ours is the larger of white's longest win and black's longest loss).

--markdown writes every five-piece table finished as one row of a Markdown table: its times,
sizes and longest mate, its `tb stats` (the five classes per side to move, the longest DTZ of
a win and of a cursed win per winning side) and, with --compare, Syzygy's verdict.
"""
import argparse
import json
import re
import subprocess
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLASSES = ["win", "cursed_win", "draw", "blessed_loss", "lose"]


def stamp(s):
    s = s.rstrip("Z")
    fmt = "%Y-%m-%dT%H:%M:%S"
    if "." in s:
        s, fmt = s[: s.index(".") + 7], fmt + ".%f"
    return datetime.strptime(s, fmt).replace(tzinfo=timezone.utc).timestamp()


def intervals(path, opening, closing, now):
    out, cur = [], None
    if path.exists():
        for line in path.read_text().splitlines():
            w = line.split()
            if w and w[0] == opening:
                cur = stamp(w[1])
            elif w and w[0] in closing and cur is not None:
                out.append((cur, stamp(w[1])))
                cur = None
    if cur is not None:
        out.append((cur, now))
    return out


def first_run():
    """material -> total seconds, from the first complete run (docs/benchmarks/chess.md)."""
    text = (ROOT / "docs" / "benchmarks" / "chess.md").read_text()
    part = text[text.index("`tb gen --all 5` across sessions") :]
    rows = {}
    for m in re.finditer(r"^\| \d+ \| (K\w+) \| [\d.]+ \| [\d.]+ \| ([\d.]+) \|", part, re.M):
        rows.setdefault(m.group(1), float(m.group(2)))
    return rows


def syzygy_stats(path):
    out, cur, side = {}, None, None
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        m = re.match(r"^#+ (\S+) #+$", line)
        if m:
            cur = out.setdefault(m.group(1), {"w": [0] * 5, "b": [0] * 5, "longest": {}})
            continue
        if cur is None:
            continue
        if line.startswith("White to move"):
            side = "w"
        elif line.startswith("Black to move"):
            side = "b"
        elif m := re.match(r"^(\d+) positions are (wins|cursed wins|draws|cursed losses|losses)\.$", line):
            k = ["wins", "cursed wins", "draws", "cursed losses", "losses"].index(m.group(2))
            cur[side][k] = int(m.group(1))
        elif m := re.match(r"^Longest (win|cursed win) for (white|black): (\d+) ply", line):
            cur["longest"][(m.group(1), m.group(2))] = int(m.group(3))
    return out


def stats(dir, material):
    """`tb stats MATERIAL --format json` of the run's table, or None if it is gone. Kept in
    DIR/stats/MATERIAL.json (a few seconds per table to count) until the table changes."""
    tables = [dir / "tables" / f"{material}.{ext}" for ext in ("zct", "zdz")]
    if not all(t.exists() for t in tables):
        return None
    cache = dir / "stats" / f"{material}.json"
    if cache.exists() and cache.stat().st_mtime > max(t.stat().st_mtime for t in tables):
        try:
            return json.loads(cache.read_text())
        except ValueError:
            pass  # damaged: counted again below
    r = subprocess.run(
        [str(dir / "zermelo"), "tb", "stats", material, "--tables", str(dir / "tables"), "--format", "json"],
        capture_output=True, text=True, check=True,
    )
    cache.parent.mkdir(exist_ok=True)
    part = cache.with_suffix(".part")
    part.write_text(r.stdout)
    part.replace(cache)
    return json.loads(r.stdout)


def longest_dtz(o):
    """Per winning side, the longest DTZ of a win and of a cursed win, as Syzygy counts them."""
    longest = {}
    for kind, winner in [("win", "white"), ("cursed win", "white"), ("win", "black"), ("cursed win", "black")]:
        loser = "black" if winner == "white" else "white"
        win, loss = ("longest_dtz_win", "longest_dtz_loss") if kind == "win" else (
            "longest_dtz_cursed_win", "longest_dtz_blessed_loss")
        longest[(kind, winner)] = max(o[winner][win], o[loser][loss])
    return longest


def compare(o, material, syz):
    if o is None:
        return "absent", "(moved or deleted since; made again later in the run)"
    s = syz[material]
    ours = {"w": [o["white"][k] for k in CLASSES], "b": [o["black"][k] for k in CLASSES]}
    longest = longest_dtz(o)
    dtz_equal = all(v == s["longest"].get(k, 0) for k, v in longest.items())
    same_empty = all((ours[x][i] == 0) == (s[x][i] == 0) for x in "wb" for i in range(5))
    if ours["w"] == s["w"] and ours["b"] == s["b"] and dtz_equal:
        return "equal", ""
    ratios = sorted(s[x][i] / ours[x][i] for x in "wb" for i in range(5) if ours[x][i])
    verdict = "counts differ" if dtz_equal and same_empty else "DISAGREE"
    return verdict, f"ratios {ratios[0]:.3f}-{ratios[-1]:.3f}; ours {ours}, Syzygy {s['w']} {s['b']}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--rows", type=int, default=10)
    ap.add_argument("--compare", metavar="REGULAR_STATS")
    ap.add_argument("--markdown", metavar="FILE", type=Path)
    a = ap.parse_args()
    dir = a.dir.resolve()
    now = datetime.now(timezone.utc).timestamp()
    segments = intervals(dir / "times.log", "start", ("end", "killed"), now)
    pauses = intervals(dir / "pauses.log", "stop", ("cont",), now)

    def paused(x, y):
        return sum(max(0.0, min(y, q) - max(x, p)) for p, q in pauses)

    total = 0.0
    for k, (x, y) in enumerate(segments, 1):
        p = paused(x, y)
        total += y - x - p
        print(f"segment {k}: {y - x:.0f} s, paused {p:.0f} s, ran {y - x - p:.0f} s")
    print(f"run time {total:.0f} s = {total / 3600:.3f} h")
    mem = dir / "mem.log"
    if mem.exists():
        hwm = [int(m.group(1)) for m in re.finditer(r"VmHWM: (\d+)", mem.read_text())]
        if hwm:
            print(f"peak (VmHWM) {max(hwm) / 1024:.0f} MiB")
    err = dir / "gen.err"
    if err.exists():
        rss = [int(m.group(1)) for m in re.finditer(r"Maximum resident set size \(kbytes\): (\d+)", err.read_text())]
        if rss:
            print(f"peak (/usr/bin/time, per segment) {', '.join(f'{r / 1024:.0f}' for r in rss)} MiB")

    first, done, times, facts = first_run(), [], {}, {}
    for line in (dir / "gen.out").read_text().splitlines() if (dir / "gen.out").exists() else []:
        w = line.split(" ", 1)
        m = re.match(r"^(K\w+v\w+)( DTZ)?: \d+ bytes, ([\d.]+) s", w[1]) if len(w) > 1 else None
        if not m or sum(c.isupper() for c in m.group(1)) != 5:
            continue
        t = times.setdefault(m.group(1), [0.0, 0.0])
        t[1 if m.group(2) else 0] = float(m.group(3))
        f = facts.setdefault(m.group(1), {})
        size = re.search(r": (\d+) bytes", w[1])
        f["dtz_mb" if m.group(2) else "dtm_mb"] = int(size.group(1)) / 1e6
        if mate := re.search(r"longest mate (\d+) moves with white to move, (\d+) with black", w[1]):
            f["mate"] = f"{mate.group(1)}/{mate.group(2)}"
        if m.group(2):
            end = stamp(w[0])
            took = t[0] + t[1]
            # A table made again (deleted and regenerated) counts once, with its last times.
            done = [r for r in done if r[0] != m.group(1)]
            done.append((m.group(1), t[0], t[1], took - paused(end - took - 2, end)))
    for mat, dtm, dtz, net in done[-a.rows :] if a.rows else []:
        ref = first.get(mat)
        vs = f"first run {ref:7.1f}  ratio {net / ref:.3f}" if ref else ""
        print(f"{mat:8} DTM {dtm:7.1f}  DTZ {dtz:6.1f}  net {net:7.1f}  {vs}")
    if done:
        net = sum(r[3] for r in done)
        ref = sum(first.get(r[0], 0) for r in done)
        rest = sum(v for k, v in first.items() if k not in {r[0] for r in done})
        line = f"{len(done)} five-piece tables, {net:.0f} s of table time"
        if ref:
            f = net / ref
            line += (f", {f:.3f}x the first run's {ref:.0f} s; the {110 - len(done)} others took"
                     f" {rest:.0f} s then: projected {(net + rest * f) / 3600:.2f} h of table time,"
                     f" {(total + rest * f) / 3600:.2f} h of run time")
        print(line)
    syz = syzygy_stats(a.compare) if a.compare else None
    rows = []
    if syz is not None or a.markdown:
        verdicts = {}
        for k, (mat, dtm, dtz, net) in enumerate(done, 1):
            o = stats(dir, mat)
            verdict, detail = compare(o, mat, syz) if syz is not None else ("", "")
            if syz is not None:
                verdicts.setdefault(verdict, []).append(mat)
                print(f"{mat}\t{verdict}\t{detail}")
            rows.append(markdown_row(k, mat, dtm, dtz, net, facts.get(mat, {}), o, verdict, detail))
        if syz is not None:
            print("; ".join(f"{v}: {len(ms)}" for v, ms in verdicts.items()))
    if a.markdown:
        head = ("| # | table | DTM s | DTZ s | total s | DTM MB | DTZ MB | longest mate (moves, w/b) "
                "| white to move: win / cursed win / draw / blessed loss / loss "
                "| black to move: win / cursed win / draw / blessed loss / loss "
                "| longest DTZ win (plies, white/black wins) | longest DTZ cursed win (white/black) "
                "| Syzygy's statistics |")
        rule = "|" + "---|" * head.count(" | ") + "---|"
        a.markdown.write_text("\n".join([head, rule, *rows]) + "\n")
        print(f"{len(rows)} rows written to {a.markdown}")


def markdown_row(k, mat, dtm, dtz, net, f, o, verdict, detail):
    cells = [str(k), mat, f"{dtm:.1f}", f"{dtz:.1f}", f"{net:.1f}",
             f"{f.get('dtm_mb', 0):.1f}", f"{f.get('dtz_mb', 0):.1f}", f.get("mate", "")]
    if o is None:
        cells += ["(table gone)"] * 4
    else:
        for side in ("white", "black"):
            cells.append(" / ".join(f"{o[side][c]:,}" for c in CLASSES))
        longest = longest_dtz(o)
        cells.append(f"{longest[('win', 'white')]}/{longest[('win', 'black')]}")
        cells.append(f"{longest[('cursed win', 'white')]}/{longest[('cursed win', 'black')]}")
    if verdict == "counts differ":
        # The ratios only: two equal pieces are counted once by Syzygy where we count both orders.
        cells.append(f"counts differ ({detail.split(';')[0]})")
    else:
        cells.append(verdict or "")
    return "| " + " | ".join(cells) + " |"


if __name__ == "__main__":
    main()
