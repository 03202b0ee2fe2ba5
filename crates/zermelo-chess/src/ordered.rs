//! A table's five-class counts as Syzygy's generator counts them: identical pieces as if they
//! were told apart.
//!
//! zermelo's index holds one entry per position up to the board's symmetries, identical
//! pieces interchangeable (a set of squares per kind of piece): its statistics count *orbits*
//! of positions. Syzygy's published statistics count orbits of positions whose identical
//! pieces are labelled (KQQvK's queens as Q1 and Q2). Over one orbit of unlabelled positions
//! `P` there are `R = r_1! x r_2! x ...` labellings (`r_i` identical pieces of each kind), and
//! the symmetries fixing `P` (its stabiliser) merge them: by Burnside's lemma, the labelled
//! orbits over `P` number `(1 / |S|) x` the sum, over the stabiliser `S`, of the labellings
//! each symmetry fixes. A symmetry fixing two distinct squares (the kings') is the identity or
//! the flip along a diagonal through both kings, so `S` is trivial (`R` labelled orbits) or
//! `{identity, flip}`, and the flip fixes a labelling exactly when it fixes each identical
//! piece's square: `R` orbits when every identical piece stands on that diagonal, `R / 2`
//! otherwise. With pawns only the mirror applies, which fixes no position: always `R`.
//!
//! So Syzygy's count of a class is `R x` zermelo's, less `R / 2` for each self-symmetric
//! position of that class with an identical piece off the diagonal; those positions (both
//! kings on a1-h8, each other piece on it or paired with its mirror image) are few and are
//! enumerated and probed here. The 3- and 4-piece tables with identical pieces and KRRvKR agree
//! with Syzygy's statistics this way in every figure (`tests/dtz.rs`).

use crate::dtz::Wdl50;
use crate::index::Indexer;
use crate::material::Material;
use crate::position::Position;
use crate::probe::{ProbeError, Tablebase};
use crate::square::{Color, Square};

/// The five-class counts of `material`'s DTZ table in `tb`, `[side to move][class]` with the
/// classes worst first as in [`Wdl50::ALL`], with identical pieces counted as Syzygy counts
/// them (see the module's documentation). Reads the table's statistics and probes the
/// self-symmetric positions.
///
/// # Errors
/// The DTZ table is missing or unreadable.
pub fn counts_as_syzygy(tb: &Tablebase, material: &Material) -> Result<[[u64; 5]; 2], ProbeError> {
    let material = material.canonical().0;
    let table = tb.dtz_table(&material)?;
    let stats = table.stats().map_err(ProbeError::Table)?;
    let ours = stats
        .wdl50
        .expect("a DTZ table has five-class statistics")
        .counts;
    let indexer = Indexer::new(&material);
    let slots = indexer.slots().to_vec();
    // Runs of identical pieces: `R`, the labellings of one position.
    let mut labellings = 1u64;
    let mut runs = Vec::new();
    let mut i = 2;
    while i < slots.len() {
        let j = (i..slots.len())
            .find(|&j| slots[j] != slots[i])
            .unwrap_or(slots.len());
        labellings *= (1..=(j - i) as u64).product::<u64>();
        runs.push(i..j);
        i = j;
    }
    let mut out = ours.map(|side| side.map(|c| c * labellings));
    if labellings == 1 || material.has_pawns() {
        return Ok(out);
    }
    let mut halved = [[0u64; 5]; 2];
    let diagonal: Vec<u8> = (0..8).map(|k| k * 9).collect();
    for &wk in &diagonal[..4] {
        for &bk in &diagonal {
            if (wk % 8).abs_diff(bk % 8) <= 1 {
                continue;
            }
            let mut squares = vec![wk, bk];
            symmetric(&runs, 0, &mut squares, &mut |squares, off| {
                if !off {
                    return Ok(());
                }
                for turn in [Color::White, Color::Black] {
                    let mut pos = Position::empty(turn);
                    for (&s, &p) in squares.iter().zip(&slots) {
                        pos.set(Square::new(s).expect("a square"), Some(p));
                    }
                    if pos.opponent_in_check() {
                        continue;
                    }
                    let class = Wdl50::of(tb.probe_dtz(&pos)?, tb.rule());
                    halved[turn.index()][class as usize] += 1;
                }
                Ok(())
            })?;
        }
    }
    for (side, counts) in out.iter_mut().enumerate() {
        for (c, count) in counts.iter_mut().enumerate() {
            *count -= labellings / 2 * halved[side][c];
        }
    }
    Ok(out)
}

/// What [`symmetric`] calls with each placement: its squares in slot order, and whether some
/// piece stands off the diagonal.
type Visit<'a> = dyn FnMut(&[u8], bool) -> Result<(), ProbeError> + 'a;

/// Calls `f` with every placement of the pieces of groups `runs[g..]` (after the squares
/// already in `squares`, in slot order) that the flip along a1-h8 maps onto itself: a piece
/// with no equal on the diagonal, a run's pieces on the diagonal or in pairs of mirror
/// images; `off` tells whether some piece is off the diagonal.
fn symmetric(
    runs: &[std::ops::Range<usize>],
    g: usize,
    squares: &mut Vec<u8>,
    f: &mut Visit<'_>,
) -> Result<(), ProbeError> {
    let Some(run) = runs.get(g) else {
        let off = squares.iter().any(|&s| s % 8 != s / 8);
        return f(squares, off);
    };
    let r = run.len();
    let base = squares.len();
    // Candidate squares: free diagonal squares and free pairs (below, mirror image above),
    // chosen in increasing order so that each set is met once.
    let free = |s: u8, squares: &[u8]| !squares.contains(&s);
    let mut units: Vec<(u8, Option<u8>)> = Vec::new();
    for s in 0..64u8 {
        let (file, rank) = (s % 8, s / 8);
        if file == rank && free(s, squares) {
            units.push((s, None));
        } else if rank < file {
            let image = file * 8 + rank;
            if free(s, squares) && free(image, squares) {
                units.push((s, Some(image)));
            }
        }
    }
    choose(&units, 0, r, squares, &mut |squares| {
        symmetric(runs, g + 1, squares, f)
    })?;
    squares.truncate(base);
    Ok(())
}

/// Extends `squares` with units from `units[from..]` (a square, or a square and its mirror
/// image) holding exactly `left` pieces, calling `f` on each completion.
fn choose(
    units: &[(u8, Option<u8>)],
    from: usize,
    left: usize,
    squares: &mut Vec<u8>,
    f: &mut dyn FnMut(&mut Vec<u8>) -> Result<(), ProbeError>,
) -> Result<(), ProbeError> {
    if left == 0 {
        return f(squares);
    }
    for k in from..units.len() {
        let (s, image) = units[k];
        let size = 1 + usize::from(image.is_some());
        if size > left {
            continue;
        }
        let len = squares.len();
        squares.push(s);
        squares.extend(image);
        choose(units, k + 1, left - size, squares, f)?;
        squares.truncate(len);
    }
    Ok(())
}
