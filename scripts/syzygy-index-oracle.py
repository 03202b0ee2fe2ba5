#!/usr/bin/env python3
"""Writes crates/zermelo-chess/tests/data/syzygy-index-oracle.csv: the index python-chess's
chess.syzygy gives random positions of 6- and 7-piece materials under a given layout (the piece
codes and part order a file's header declares), the oracle that zermelo's Syzygy index
arithmetic is checked against for piece counts no published file is kept for here
(crates/zermelo-chess/src/syzygy/table.rs, mod many_pieces).

No table file is read: python-chess's Table takes its material from the file name, and its
norm, factor and encode functions work from the header's fields, which this script supplies.

Usage: scripts/syzygy-index-oracle.py [PER_LAYOUT] [OUT]   (defaults: 300 and the file above)
Deterministic (a seeded generator).
"""
import os
import random
import sys

import chess
import chess.syzygy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "crates", "zermelo-chess", "tests", "data", "syzygy-index-oracle.csv")
CODE = {"P": 1, "N": 2, "B": 3, "R": 4, "Q": 5, "K": 6}

# (material as Syzygy names its file, piece codes in the header's order, order, order2): the
# leading part first (three unique pieces, the kings, or the leading pawns then the other
# colour's pawns), then groups of equal pieces; `order` and `order2` place the leading part and
# the second pawn group among the parts, as headers do in various ways.
LAYOUTS = [
    ("KQRvKQR", "K Q R k q r", 0, 0x0F),
    ("KQRvKQR", "K Q R k q r", 3, 0x0F),
    ("KQRBvKQR", "K Q R B k q r", 0, 0x0F),
    ("KQRBvKQR", "K Q R B k q r", 4, 0x0F),
    ("KNNNvKRR", "K k N N N r r", 0, 0x0F),
    ("KNNNvKRR", "K k N N N r r", 2, 0x0F),
    ("KRRvKBB", "K k R R b b", 1, 0x0F),
    ("KRPPvKR", "P P K R k r", 0, 0x0F),
    ("KRPPvKR", "P P K R k r", 2, 0x0F),
    ("KPPPvKPP", "p p P P P K k", 0, 1),
    ("KPPPvKPP", "p p P P P K k", 1, 0),
    ("KPPPvKPP", "p p P P P K k", 0, 2),
    ("KRPPvKQP", "p P P K R k q", 0, 1),
    ("KRPPvKQP", "p P P K R k q", 2, 1),
    ("KPPPPvKP", "p P P P P K k", 1, 0),
    ("KPPvKPP", "P P p p K k", 0, 1),
]


def code(symbol):
    return CODE[symbol.upper()] | (8 if symbol.islower() else 0)


def index_of(table, pieces, order, order2, board):
    """The index python-chess computes for `board` (white as the file's first side)."""
    n = table.num
    norm = [0] * n
    factor = [0] * chess.syzygy.TBPIECES
    p = [0] * chess.syzygy.TBPIECES

    def squares(c):
        bb = board.pieces_mask(c & 7, chess.WHITE if c < 8 else chess.BLACK)
        return list(chess.scan_forward(bb))

    if not table.has_pawns:
        table.set_norm_piece(norm, pieces)
        table.calc_factors_piece(factor, order, norm)
        i = 0
        while i < n:
            for s in squares(pieces[i]):
                p[i] = s
                i += 1
        return table.encode_piece(norm, p, factor), 0
    i = 0
    for s in squares(pieces[0]):
        p[i] = s
        i += 1
    f = table.pawn_file(p)
    table.set_norm_pawn(norm, pieces)
    table.calc_factors_pawn(factor, order, order2, norm, f)
    while i < n:
        for s in squares(pieces[i]):
            p[i] = s
            i += 1
    return table.encode_pawn(norm, p, factor), f


def random_board(rng, material):
    white, black = material.split("v")
    board = chess.Board(None)
    for symbol in white + black.lower():
        squares = [s for s in chess.SQUARES if board.piece_at(s) is None]
        if symbol in "Pp":
            squares = [s for s in squares if 1 <= chess.square_rank(s) <= 6]
        board.set_piece_at(rng.choice(squares), chess.Piece.from_symbol(symbol))
    board.turn = chess.WHITE
    return board if board.is_valid() else None


def main():
    per_layout = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    out_path = sys.argv[2] if len(sys.argv) > 2 else OUT
    rng = random.Random(4307)
    rows = []
    for material, layout, order, order2 in LAYOUTS:
        table = chess.syzygy.Table(f"/nonexistent/{material}.rtbw")
        pieces = [code(s) for s in layout.split()]
        done = 0
        while done < per_layout:
            board = random_board(rng, material)
            if board is None:
                continue
            idx, f = index_of(table, pieces, order, order2, board)
            codes = " ".join(str(c) for c in pieces)
            rows.append(f"{material},{codes},{order},{order2},{board.fen()},{f},{idx}")
            done += 1
    with open(out_path, "w") as out:
        out.write(f"# python-chess {chess.__version__} chess.syzygy index arithmetic; "
                  "scripts/syzygy-index-oracle.py\n")
        out.write("material,codes,order,order2,fen,file,index\n")
        out.write("\n".join(rows) + "\n")
    print(f"{len(rows)} positions -> {out_path}")


if __name__ == "__main__":
    main()
