#!/usr/bin/env python3
"""Writes crates/zermelo-chess/tests/data/syzygy-oracle.csv: python-chess's probe_wdl and
probe_dtz on random positions of every 3-4-piece Syzygy table, the oracle that
crates/zermelo-chess/tests/syzygy.rs checks zermelo's Syzygy reader against.

Usage: scripts/syzygy-oracle.py [TABLE_DIR] [PER_MATERIAL] [OUT]
(defaults: ../shared/syzygy-3-4, 200 and the file above; a larger file elsewhere is checked
with ZERMELO_SYZYGY_ORACLE=OUT cargo test -p zermelo-chess --test syzygy python). Deterministic: the positions come from a seeded
generator; positions with an en passant square are included where one can be set legally.
"""
import os
import random
import sys

import chess
import chess.syzygy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "crates", "zermelo-chess", "tests", "data", "syzygy-oracle.csv")
PIECES = {c: chess.Piece.from_symbol(c) for c in "KQRBNPkqrbnp"}


def random_board(rng, material):
    """A legal position of `material` (e.g. KQvKR) with a random side to move, or None."""
    white, black = material.split("v")
    board = chess.Board(None)
    for symbol in white + black.lower():
        squares = [s for s in chess.SQUARES if board.piece_at(s) is None]
        if symbol in "Pp":
            squares = [s for s in squares if 1 <= chess.square_rank(s) <= 6]
        board.set_piece_at(rng.choice(squares), PIECES[symbol])
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    return board if board.is_valid() else None


def with_en_passant(board):
    """The position with an en passant square behind a pawn of the side not to move that
    could just have made a double step, when a capture en passant is then legal."""
    for square in chess.SQUARES:
        piece = board.piece_at(square)
        if piece is None or piece.piece_type != chess.PAWN or piece.color == board.turn:
            continue
        rank = 3 if piece.color == chess.WHITE else 4
        if chess.square_rank(square) != rank:
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


def main():
    table_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "syzygy-3-4")
    per_material = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    out_path = sys.argv[3] if len(sys.argv) > 3 else OUT
    materials = sorted(f[:-5] for f in os.listdir(table_dir) if f.endswith(".rtbw"))
    rng = random.Random(43)
    rows = []
    with chess.syzygy.open_tablebase(table_dir) as tb:
        for material in materials:
            seen = set()
            # Where both sides have pawns, a quarter of the positions have en passant rights
            # (found by rejection: few random placements allow a capture en passant).
            ep_wanted = per_material // 4 if material.count("P") == 2 and "vKP" in material else 0
            while len(seen) < per_material:
                board = random_board(rng, material)
                if board is not None and ep_wanted > 0:
                    board = with_en_passant(board)
                if board is None or board.fen() in seen:
                    continue
                ep_wanted -= 1 if board.ep_square is not None else 0
                seen.add(board.fen())
                rows.append((board.fen(), tb.probe_wdl(board), tb.probe_dtz(board)))
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    with open(out_path, "w") as out:
        out.write("# python-chess %s chess.syzygy on %s; scripts/syzygy-oracle.py\n" % (chess.__version__, os.path.basename(os.path.normpath(table_dir))))
        out.write("fen,wdl,dtz\n")
        for fen, wdl, dtz in rows:
            out.write("%s,%d,%d\n" % (fen, wdl, dtz))
    print("%d positions of %d materials -> %s" % (len(rows), len(materials), out_path))


if __name__ == "__main__":
    main()
