#!/usr/bin/env python3
"""Sizes of exported Syzygy files against the published ones, table by table.

    scripts/syzygy-sizes.py OUT [--published FILE] [--limit 1.25]

OUT holds the files `zermelo tb export --format syzygy` wrote. FILE lists the published files
(`NAME<TAB>BYTES`, `#` comments; default docs/benchmarks/syzygy-published-sizes.tsv, the 3-5-piece
set as syzygy-tables.info lists it). Prints one Markdown row per material (WDL and DTZ bytes,
exported and published, and the ratios), then the totals. Exit 1 when a file is more than LIMIT
times its published size, 2 on bad input; files of OUT that are not in the list are named and
skipped.
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def published(path: str) -> dict:
    sizes = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 2 or not parts[1].isdigit():
                sys.exit(f"{path}:{number}: expected NAME<TAB>BYTES, found {line!r}")
            sizes[parts[0]] = int(parts[1])
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument(
        "--published", default=os.path.join(ROOT, "docs/benchmarks/syzygy-published-sizes.tsv")
    )
    parser.add_argument("--limit", type=float, default=1.25)
    args = parser.parse_args()
    try:
        sizes = published(args.published)
        names = sorted(os.listdir(args.out))
    except OSError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    materials = sorted(
        {n[: -len(".rtbw")] for n in names if n.endswith((".rtbw", ".rtbz"))},
        key=lambda m: (len(m), m),
    )
    status = 0
    totals = [0, 0, 0, 0]
    worst = (0.0, "")
    print("| material | WDL bytes | published | ratio | DTZ bytes | published | ratio |")
    print("|---|---|---|---|---|---|---|")
    for m in materials:
        cells = [m]
        for k, ext in enumerate(("rtbw", "rtbz")):
            name = f"{m}.{ext}"
            if name not in sizes:
                print(f"  {name}: not in {args.published}, skipped", file=sys.stderr)
                cells += ["-", "-", "-"]
                continue
            path = os.path.join(args.out, name)
            if not os.path.exists(path):
                cells += ["missing", f"{sizes[name]:,}", "-"]
                status = 1
                continue
            ours, theirs = os.path.getsize(path), sizes[name]
            ratio = ours / theirs
            worst = max(worst, (ratio, name))
            totals[2 * k] += ours
            totals[2 * k + 1] += theirs
            cells += [f"{ours:,}", f"{theirs:,}", f"{ratio:.3f}x"]
            if ratio > args.limit:
                print(f"  over {args.limit}x: {name}", file=sys.stderr)
                status = 1
        print("| " + " | ".join(cells) + " |")
    if materials:
        w = totals[0] / max(totals[1], 1)
        z = totals[2] / max(totals[3], 1)
        print(
            f"| all {len(materials)} | {totals[0]:,} | {totals[1]:,} | {w:.3f}x | "
            f"{totals[2]:,} | {totals[3]:,} | {z:.3f}x |"
        )
        print(f"largest ratio: {worst[1]} {worst[0]:.3f}x")
    return status


if __name__ == "__main__":
    sys.exit(main())
