#!/usr/bin/env python3
"""Fails when two source files of a crate import each other, directly or around a circle.

Every crate should read from the top down (ARCHITECTURE.md): where two files use each other,
what they share moves to a file below both. This script reads each crate's `src/` as text,
turns every path that names another module of the same crate (`crate::a::b`, `super::x`,
`self::y`, a child module by its bare name, `use` groups included) into an arrow from the file
to the file of the deepest module the path reaches, and prints every strongly connected set of
two or more files with the arrows that tie it. Test modules (`#[cfg(test)] mod ...`) and
comments are left out, as tests may look anywhere.

Usage: scripts/check-imports.py [--graph] [CRATE_DIR ...]   (default: every crates/*)
    --graph   also print every arrow, crate by crate
Exit 0 when there is no circle, 1 when there is one.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def modules(src: Path) -> dict[tuple[str, ...], Path]:
    """Module path -> file, for every .rs file under src (lib.rs/main.rs are the root)."""
    found: dict[tuple[str, ...], Path] = {}
    for f in sorted(src.rglob("*.rs")):
        parts = list(f.relative_to(src).with_suffix("").parts)
        if parts[-1] in ("mod", "lib", "main"):
            parts = parts[:-1]
        if len(f.relative_to(src).parts) > 1 and f.name in ("lib.rs", "main.rs"):
            continue  # a binary's own tree (src/bin/...) is not part of the library
        found.setdefault(tuple(parts), f)
    return found


def strip(text: str) -> str:
    """The text without test modules, comments and string literals."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip() == "#[cfg(test)]":
            nxt = next((l for l in lines[i + 1:] if l.strip()), "")
            if re.match(r"\s*(pub(\([^)]*\))?\s+)?mod\s", nxt):
                break  # test modules end the file here
        out.append(line)
        i += 1
    code = "\n".join(out)
    code = re.sub(r'"(?:\\.|[^"\\])*"', '""', code)
    code = re.sub(r"//[^\n]*", "", code)
    return re.sub(r"/\*.*?\*/", "", code, flags=re.S)


def expand(path: str, rest: str) -> list[str]:
    """`a::{b, c::{d, e}}` -> `a::b`, `a::c::d`, `a::c::e` (rest starts after `a::`)."""
    if not rest.startswith("{"):
        m = re.match(rf"{IDENT}(::{IDENT})*", rest)
        return [path + "::" + m.group(0)] if m else [path]
    depth, items, cur = 0, [], ""
    for ch in rest[1:]:
        if ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                break
            depth -= 1
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    items.append(cur)
    paths = []
    for item in items:
        item = item.strip()
        if not item or item == "self":
            paths.append(path)
            continue
        head = re.match(rf"({IDENT}(?:::{IDENT})*)(::)?(.*)", item, re.S)
        if not head:
            continue
        if head.group(2):
            paths += expand(path + "::" + head.group(1), head.group(3).strip())
        else:
            paths.append(path + "::" + head.group(1))
    return paths


def refs_of(code: str, children: set[str]) -> list[str]:
    """Every module path the code names: `crate::`, `super::`, `self::` paths and paths that
    start with a child module's bare name, `use` groups expanded."""
    refs: list[str] = []
    for m in re.finditer(rf"\b((?:crate|super|self)(?:::(?:super|{IDENT}))*)::(\{{|{IDENT})", code):
        refs += expand(m.group(1), code[m.start(2):])
    for m in re.finditer(rf"(?<![:\w])({IDENT})::(\{{|{IDENT})", code):
        if m.group(1) in children:
            refs += expand("self::" + m.group(1), code[m.start(2):])
    return refs


def arrows(src: Path) -> dict[Path, dict[Path, set[str]]]:
    """file -> file it takes names from -> the names. A name that a module only re-exports
    (`pub use child::Name`) is taken from the file that defines it, as a reader finds it."""
    mods = modules(src)
    by_file = {f: m for m, f in mods.items()}
    codes = {f: strip(f.read_text(encoding="utf-8")) for f in by_file}

    def children(here: tuple[str, ...]) -> set[str]:
        return {m[-1] for m in mods if len(m) == len(here) + 1 and m[: len(here)] == here}

    # Re-exports: module -> name -> the path it stands for.
    reexports: dict[tuple[str, ...], dict[str, str]] = {}
    for f, here in by_file.items():
        table: dict[str, str] = {}
        for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", codes[f]):
            body = m.group(1).strip()
            head = re.match(rf"({IDENT}(?:::{IDENT})*)::(.*)", body, re.S)
            if not head:
                continue
            first = head.group(1).split("::")[0]
            if first not in ("crate", "self", "super") and first not in children(here):
                continue  # another crate's names
            prefix = head.group(1) if first in ("crate", "self", "super") else "self::" + head.group(1)
            for path in expand(prefix, head.group(2).strip()):
                table[path.split("::")[-1]] = path
        reexports[here] = table

    def resolve(ref: str, here: tuple[str, ...], depth: int = 0) -> tuple[str, ...] | None:
        segs = ref.split("::")
        base: tuple[str, ...] = () if segs[0] == "crate" else here
        while segs and segs[0] in ("crate", "self", "super"):
            if segs.pop(0) == "super":
                base = base[:-1]
        target = base
        i = 0
        while i < len(segs) and target + (segs[i],) in mods:
            target = target + (segs[i],)
            i += 1
        if i < len(segs) and depth < 8:
            through = reexports.get(target, {}).get(segs[i])
            if through is not None:
                return resolve("::".join([through] + segs[i + 1:]), target, depth + 1)
        return target if target in mods else None

    edges: dict[Path, dict[Path, set[str]]] = {f: {} for f in by_file}
    for f, here in by_file.items():
        for ref in refs_of(codes[f], children(here)):
            target = resolve(ref, here)
            to = mods.get(target) if target is not None else None
            if to is None or to == f:
                continue
            # A module's own `pub use child::...` lines are no arrows of their own: a reader
            # who takes such a name is sent to the child.
            if re.search(rf"\bpub(?:\([^)]*\))?\s+use\s+[^;]*\b{re.escape(ref.split('::')[-1])}\b", codes[f]) \
                    and len(target) == len(here) + 1 and target[: len(here)] == here:
                continue
            edges[f].setdefault(to, set()).add(ref.split("::")[-1])
    return edges


def circles(edges: dict[Path, dict[Path, set[str]]]) -> list[list[Path]]:
    """Strongly connected sets of two or more files (Tarjan, iterative)."""
    index: dict[Path, int] = {}
    low: dict[Path, int] = {}
    stack: list[Path] = []
    on: set[Path] = set()
    found = []
    counter = 0
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(edges.get(w, {}))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def main(argv: list[str]) -> int:
    graph = "--graph" in argv
    dirs = [Path(a) for a in argv if a != "--graph"] or sorted((ROOT / "crates").iterdir())
    total_files = total_arrows = 0
    bad = 0
    for crate in dirs:
        src = crate / "src"
        if not src.is_dir():
            continue
        edges = arrows(src)
        total_files += len(edges)
        total_arrows += sum(len(t) for t in edges.values())
        rel = lambda p: str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p)
        if graph:
            print(f"{rel(crate)}:")
            for f in sorted(edges):
                for to in sorted(edges[f]):
                    print(f"  {rel(f)} -> {rel(to)}: {', '.join(sorted(edges[f][to]))}")
        for comp in circles(edges):
            bad += 1
            print(f"circle of {len(comp)} files in {rel(crate)}:", file=sys.stderr)
            members = set(comp)
            for f in comp:
                for to, names in sorted(edges[f].items()):
                    if to in members:
                        print(f"  {rel(f)} -> {rel(to)}: {', '.join(sorted(names))}", file=sys.stderr)
    if bad:
        print(f"check-imports: {bad} circle(s) of files that import each other", file=sys.stderr)
        return 1
    print(f"check-imports: {total_files} files, {total_arrows} arrows between files, no circle")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
