#!/usr/bin/env python3
"""python-chess reads Syzygy files to zermelo's own values: random legal positions of every
material in SYZYGY_DIR (files `zermelo tb export --format syzygy` wrote, or any others) probed
with python-chess's `chess.syzygy` (probe_wdl, probe_dtz) and with `zermelo tb probe --stdin`
on zermelo's tables in ZERMELO_DIR. Exit 0 when every position agrees, 1 on any difference
(the first ones printed), 2 on bad usage or a missing table.

    scripts/syzygy-export-check.py ZERMELO_DIR SYZYGY_DIR[:SMALLER_DIR...] [-n N] [-j JOBS]
        [--journal FILE] [MATERIAL...]

What "agrees" means (python-chess's DTZ rounding included): the class python-chess's WDL
probe gives is the class zermelo gives at halfmove clock 0; python-chess's DTZ equals
zermelo's (both signed as Syzygy signs them: 101 and more for a cursed win), or is one ply
closer to zero with the same sign where the file stores the value in moves: a prober reading
such a value doubles it, so it may come out one ply short (python-chess's and lichess's
`precise_dtz`; zermelo's reader of the same files says where: `dtz_rounded`, asked of
`zermelo tb probe --stdin --tables SYZYGY_DIR`). Such positions are counted per material. Positions
are drawn by a seeded generator (the same positions on every run); where both sides have
pawns, a quarter of them have en passant rights. Materials are probed side by side in JOBS
processes. With --journal FILE each material's result is appended to FILE as a JSON line when
it is done, and a rerun with the same journal takes from it the materials whose files (by
SHA-256), position count and seed are unchanged: a check of hours can be interrupted and
resumed. Used by crates/zermelo-py/tests/test_syzygy_export.py (every 3-4-piece material,
in CI) and by hand for 5-piece exports (docs/benchmarks/chess.md).

The `zermelo` binary: --zermelo, else $ZERMELO_BIN, else target/release/zermelo, else
target/debug/zermelo of this checkout.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import subprocess
import sys
import time
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

import chess
import chess.syzygy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WDL_OF_CATEGORY = {"win": 2, "cursed-win": 1, "draw": 0, "blessed-loss": -1, "loss": -2}


class Result(NamedTuple):
    material: str
    positions: int
    rounded: int
    differences: List[str]
    seconds: float


def random_board(rng: random.Random, material: str) -> Optional[chess.Board]:
    """A legal position of `material` (e.g. KQvKR) with a random side to move, or None."""
    white, black = material.split("v")
    board = chess.Board(None)
    for symbol in white + black.lower():
        squares = [s for s in chess.SQUARES if board.piece_at(s) is None]
        if symbol in "Pp":
            squares = [s for s in squares if 1 <= chess.square_rank(s) <= 6]
        board.set_piece_at(rng.choice(squares), chess.Piece.from_symbol(symbol))
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    return board if board.is_valid() else None


def with_en_passant(board: chess.Board) -> Optional[chess.Board]:
    """The position with an en passant square behind a pawn of the side not to move that
    could just have made a double step, when a capture en passant is then legal."""
    for square in chess.SQUARES:
        piece = board.piece_at(square)
        if piece is None or piece.piece_type != chess.PAWN or piece.color == board.turn:
            continue
        if chess.square_rank(square) != (3 if piece.color == chess.WHITE else 4):
            continue
        behind = square - 8 if piece.color == chess.WHITE else square + 8
        start = square - 16 if piece.color == chess.WHITE else square + 16
        if board.piece_at(behind) or board.piece_at(start):
            continue
        candidate = board.copy()
        candidate.ep_square = behind
        if candidate.is_valid() and candidate.has_legal_en_passant():
            return candidate
    return None


def positions(material: str, n: int, seed: int) -> List[chess.Board]:
    """`n` distinct legal positions of `material` (fewer when it has fewer)."""
    rng = random.Random(f"{seed}:{material}")
    both_pawns = "P" in material.split("v")[0] and "P" in material.split("v")[1]
    ep_wanted = n // 4 if both_pawns else 0
    seen: Dict[str, chess.Board] = {}
    attempts = 0
    while len(seen) < n and attempts < 50 * n:
        attempts += 1
        board = random_board(rng, material)
        if board is not None and ep_wanted > 0 and attempts < 25 * n:
            board = with_en_passant(board)
        if board is None or board.fen() in seen:
            continue
        ep_wanted -= 1 if board.ep_square is not None else 0
        seen[board.fen()] = board
    return list(seen.values())


def zermelo_answers(zermelo: str, tables: str, fens: List[str]) -> List[Dict[str, Any]]:
    """`zermelo tb probe --stdin` on `fens`: one JSON object per FEN."""
    p = subprocess.run(
        [zermelo, "-q", "--threads", "1", "tb", "probe", "--stdin", "--tables", tables],
        input="".join(f + "\n" for f in fens),
        capture_output=True,
        text=True,
    )
    if p.returncode != 0:
        raise RuntimeError(f"zermelo tb probe --stdin exited {p.returncode}: {p.stderr.strip()}")
    return [json.loads(line) for line in p.stdout.splitlines()]


def dtz_agrees(ours: int, theirs: int, may_round: bool) -> Tuple[bool, bool]:
    """(agrees, rounded): python-chess's DTZ `theirs` against zermelo's exact `ours`; one ply
    closer to zero only where the file stores the value in moves (`may_round`)."""
    if theirs == ours:
        return True, False
    short = may_round and ours not in (-1, 0, 1) and theirs == ours - (1 if ours > 0 else -1)
    return short, short


def compare(
    board: chess.Board, tb: chess.syzygy.Tablebase, z: Dict[str, Any], s: Dict[str, Any]
) -> Tuple[Optional[str], bool]:
    """(difference or None, rounded) of one position: zermelo's answer `z` on its own tables,
    `s` zermelo's reading of the same Syzygy files (which says where a DTZ is rounded)."""
    if z.get("fen") != board.fen() or "category" not in z:
        return f"{board.fen()}: zermelo answered {json.dumps(z)[:300]}", False
    try:
        wdl, dtz = tb.probe_wdl(board), tb.probe_dtz(board)
    except Exception as e:  # a file python-chess cannot read is a difference, named
        return f"{board.fen()}: python-chess raised {type(e).__name__}: {e}", False
    z_wdl, z_dtz = WDL_OF_CATEGORY[z["category"]], z["dtz"]
    ok, short = dtz_agrees(z_dtz, dtz, bool(s.get("dtz_rounded")))
    if wdl != z_wdl or not ok:
        return f"{board.fen()}: python-chess wdl {wdl} dtz {dtz}, zermelo wdl {z_wdl} dtz {z_dtz}", False
    return None, short


def open_syzygy(directories: str) -> chess.syzygy.Tablebase:
    """python-chess's tablebase over a `:`-separated list of directories, the first holding a
    table winning as in zermelo's `--tables` (python-chess keeps the last file of a name)."""
    tb = chess.syzygy.Tablebase()
    for d in reversed(directories.split(":")):
        tb.add_directory(d)
    return tb


def check_material(job: Tuple[str, str, str, str, int, int]) -> Result:
    material, zermelo, ztables, stables, n, seed = job
    started = time.perf_counter()
    boards = positions(material, n, seed)
    fens = [b.fen() for b in boards]
    try:
        answers = zermelo_answers(zermelo, ztables, fens)
        syzygy = zermelo_answers(zermelo, stables, fens)
    except RuntimeError as e:
        return Result(material, len(boards), 0, [str(e)], time.perf_counter() - started)
    differences: List[str] = []
    rounded = 0
    with open_syzygy(stables) as tb:
        for board, z, s in zip(boards, answers, syzygy, strict=True):
            difference, short = compare(board, tb, z, s)
            rounded += short
            if difference:
                differences.append(difference)
    return Result(material, len(boards), rounded, differences, time.perf_counter() - started)


def files_digest(directory: str, material: str) -> str:
    """SHA-256 of a material's .rtbw and .rtbz in `directory`, in turn."""
    h = hashlib.sha256()
    for ext in (".rtbw", ".rtbz"):
        with open(os.path.join(directory, material + ext), "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()


def journal_key(material: str, digest: str, n: int, seed: int, ztables: str) -> str:
    return json.dumps([material, digest, n, seed, os.path.abspath(ztables)])


def read_journal(path: Optional[str]) -> Dict[str, Result]:
    """The results a journal holds, by key; a missing journal holds none. A line cut short
    by an interrupted write is skipped (its material is checked again)."""
    out: Dict[str, Result] = {}
    if path is None or not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                e = json.loads(line)
                r = Result(e["material"], e["positions"], e["rounded"], e["differences"], e["seconds"])
                out[e["key"]] = r
            except (ValueError, KeyError, TypeError):
                continue
    return out


def zermelo_binary(given: Optional[str]) -> str:
    candidates = [given, os.environ.get("ZERMELO_BIN")]
    candidates += [os.path.join(ROOT, "target", p, "zermelo") for p in ("release", "debug")]
    for c in candidates:
        if c and os.path.isfile(c):
            return c
    sys.exit("syzygy-export-check: no zermelo binary (--zermelo, $ZERMELO_BIN, or cargo build)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("zermelo_dir", help="zermelo's tables (.zdz)")
    parser.add_argument(
        "syzygy_dir",
        help="Syzygy's files (.rtbw, .rtbz); A:B: also the smaller tables in B (first wins)",
    )
    parser.add_argument("materials", nargs="*", help="default: every .rtbw in SYZYGY_DIR")
    parser.add_argument("-n", "--positions", type=int, default=1000, help="per material")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--zermelo", help="the zermelo binary")
    parser.add_argument(
        "--journal", help="append each material's result here; a rerun skips those done"
    )
    args = parser.parse_args()
    zermelo = zermelo_binary(args.zermelo)
    first = args.syzygy_dir.split(":")[0]
    materials = args.materials or sorted(f[:-5] for f in os.listdir(first) if f.endswith(".rtbw"))
    if not materials:
        print(f"syzygy-export-check: no .rtbw files in {args.syzygy_dir}", file=sys.stderr)
        return 2
    for m in materials:
        for ext in (".rtbw", ".rtbz"):
            if not os.path.isfile(os.path.join(first, m + ext)):
                print(f"syzygy-export-check: {m}{ext} is not in {first}", file=sys.stderr)
                return 2
    keys = {
        m: journal_key(m, files_digest(first, m), args.positions, args.seed, args.zermelo_dir)
        for m in materials
    } if args.journal else {}
    try:
        journal = read_journal(args.journal)
        if args.journal:
            open(args.journal, "a", encoding="utf-8").close()
    except OSError as e:
        print(f"syzygy-export-check: --journal {args.journal}: {e.strerror}", file=sys.stderr)
        return 2
    done = [journal[keys[m]] for m in materials if keys.get(m) in journal]
    todo = [m for m in materials if keys.get(m) not in journal]
    if done:
        print(f"{len(done)} materials taken from {args.journal}, {len(todo)} to check", flush=True)
    jobs = [(m, zermelo, args.zermelo_dir, args.syzygy_dir, args.positions, args.seed) for m in todo]
    started = time.perf_counter()
    total, rounded, failed = 0, 0, 0

    def report(r: Result) -> None:
        nonlocal total, rounded, failed
        total += r.positions
        rounded += r.rounded
        if r.differences:
            failed += 1
            print(f"{r.material}: DIFFERENT: {len(r.differences)} of {r.positions} positions", flush=True)
            for d in r.differences[:10]:
                print(f"  {d}")
        else:
            print(
                f"{r.material}: {r.positions} positions agree "
                f"({r.rounded} DTZ one ply short, stored in moves), {r.seconds:.1f} s",
                flush=True,
            )

    for r in done:
        report(r)
    with multiprocessing.Pool(max(1, args.jobs)) as pool:
        for r in pool.imap_unordered(check_material, jobs):
            report(r)
            if args.journal:
                entry = dict(r._asdict(), key=keys[r.material])
                with open(args.journal, "a", encoding="utf-8") as f:
                    f.write(json.dumps(entry) + "\n")
    elapsed = time.perf_counter() - started
    verdict = f"{failed} of {len(materials)} materials differ" if failed else "all agree"
    print(
        f"{len(materials)} materials, {total} positions, python-chess {chess.__version__} on "
        f"{args.syzygy_dir} against zermelo's tables in {args.zermelo_dir}: {verdict} "
        f"({rounded} DTZ one ply short), {elapsed:.1f} s"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
