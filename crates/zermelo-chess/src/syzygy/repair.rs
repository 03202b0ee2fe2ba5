//! The pairs rounds of Syzygy's compression ([`super::compress`]): from one symbol per
//! distinct value, rounds of pair substitution (Re-Pair, Larsson and Moffat 1999). Each round
//! counts the adjacent pairs of symbols, makes a new symbol of each of the most frequent pairs
//! that do not overlap one another, and replaces them left to right. A symbol stands for at
//! most 256 values (the published probers keep a symbol's length in a byte) and there are at
//! most 4095 symbols (12-bit numbers). Each round is O(n + p log p) for n symbols in the
//! sequence and p pairs taken into account.
//!
//! A long sequence is cut into one chunk per thread, each counted and rewritten on its own
//! thread; the result is the sequential one, symbol for symbol, because the chunks are cut
//! where the sequential pass carries nothing across:
//! * counting, between two different symbols (a run `aaaa` holds two pairs `aa`, not three,
//!   which a cut inside a run would change);
//! * replacing, after a symbol that begins no chosen pair (so no pair straddles the cut). A
//!   round's pairs never overlap except in a run of a pair `aa`, which the cut keeps whole.
//!
//! Only the first round counts every pair. A replacement changes only the windows that hold a
//! symbol of a chosen pair or a new symbol, so each later round counts again only the pairs of
//! those symbols ([`PairCounts`]), in the replacement's own pass as it writes them (the
//! windows across its chunks after), and keeps the others' counts, those seen at least
//! [`Tuning::min_pair_count`] times (a pair that is not counted again cannot grow); only the
//! candidates within the round's share of the most frequent are sorted.

use rayon::prelude::*;

/// Most values a symbol stands for.
pub(crate) const MAX_SYMBOL_VALUES: u32 = 256;
/// Most symbols (12-bit numbers; `0xfff` marks a leaf).
pub(crate) const MAX_SYMBOLS: usize = 4095;
/// Sequences shorter than this are not cut into chunks.
const PARALLEL_FROM: usize = 1 << 20;

/// The knobs of the pairs compression.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tuning {
    /// A pair seen fewer times is not worth a symbol (3 bytes in the table).
    pub(crate) min_pair_count: u32,
    /// The most new symbols one round makes: counts go stale as pairs are replaced.
    pub(crate) max_new_per_round: usize,
    /// A round takes only pairs seen at least this share of the most frequent pair's count
    /// (in 1/256): the counts of the others change most as the first are replaced.
    pub(crate) min_share: u32,
}

pub(crate) const TUNING: Tuning = Tuning {
    min_pair_count: 6,
    max_new_per_round: 256,
    min_share: 128,
};

/// One symbol: a value, or two symbols in turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Symbol {
    Leaf(u16),
    Pair(u16, u16),
}

/// A sequence after the pairs rounds.
pub(crate) struct Repaired {
    /// The symbols, leaves first (in order of first appearance), then the pairs as made.
    pub(crate) symbols: Vec<Symbol>,
    /// Per symbol, the values it stands for.
    pub(crate) len: Vec<u32>,
    /// The sequence of symbols.
    pub(crate) seq: Vec<u16>,
    /// Per symbol, how often it occurs in `seq`.
    pub(crate) freq: Vec<u64>,
}

/// A sequence to compress: bytes (WDL classes), or 16-bit values that the leaf symbols then
/// overwrite (no second copy of a long sequence).
pub(crate) enum Values<'a> {
    Bytes(&'a [u8]),
    Owned(Vec<u16>),
}

impl Values<'_> {
    pub(crate) fn len(&self) -> usize {
        match self {
            Values::Bytes(v) => v.len(),
            Values::Owned(v) => v.len(),
        }
    }
}

/// The pairs rounds over `values` (each below 4096, at least one), on one chunk per thread of
/// rayon's pool when the sequence is long.
pub(crate) fn repair(values: Values, tuning: &Tuning) -> Repaired {
    let chunks = if values.len() >= PARALLEL_FROM {
        rayon::current_num_threads()
    } else {
        1
    };
    repair_in(values, tuning, chunks)
}

/// [`repair`] on `chunks` chunks.
fn repair_in(values: Values, tuning: &Tuning, chunks: usize) -> Repaired {
    assert!(values.len() > 0);
    let (symbols, seq, freq) = leaves(values, chunks);
    let mut r = Repaired {
        len: vec![1; symbols.len()],
        symbols,
        seq,
        freq,
    };
    let mut counts = PairCounts {
        scratch: (0..chunks).map(|_| Counts::default()).collect(),
        kept: Vec::new(),
        dirty: vec![true; r.symbols.len()],
    };
    count_windows(&r.seq, &mut counts);
    let mut rounds = 0;
    while r.symbols.len() < MAX_SYMBOLS {
        let pairs = best_pairs(&r, tuning, &mut counts);
        if pairs.is_empty() {
            break;
        }
        // The pairs whose counts the replacement may change: those of a symbol in a chosen
        // pair, or of a new symbol.
        let s = r.symbols.len() + pairs.len();
        counts.dirty = vec![false; s];
        for &(a, b) in &pairs {
            counts.dirty[usize::from(a)] = true;
            counts.dirty[usize::from(b)] = true;
        }
        counts.dirty[r.symbols.len()..].fill(true);
        replace_pairs(&mut r, &pairs, &mut counts);
        rounds += 1;
    }
    if rounds > 0 {
        r.freq = frequencies(&r.seq, r.symbols.len(), chunks);
    }
    r
}

/// How often each of `symbols` symbols occurs in `seq` (on `chunks` chunks).
fn frequencies(seq: &[u16], symbols: usize, chunks: usize) -> Vec<u64> {
    seq.par_chunks(seq.len().div_ceil(chunks).max(1))
        .map(|c| {
            let mut freq = vec![0u64; symbols];
            for &x in c {
                freq[usize::from(x)] += 1;
            }
            freq
        })
        .reduce_with(add)
        .expect("a symbol")
}

/// Counts the windows of `seq` with a dirty symbol into the scratch tables, on one chunk
/// per table (cut between two different symbols, where the count carries nothing across).
fn count_windows(seq: &[u16], counts: &mut PairCounts) {
    if seq.len() < 2 {
        return;
    }
    let s = counts.dirty.len();
    let dirty = &counts.dirty;
    let windows = seq.len() - 1;
    let tables = &mut counts.scratch;
    let cut = cuts(windows, tables.len(), |p| seq[p - 1] != seq[p]);
    tables[..cut.len() - 1]
        .par_iter_mut()
        .zip(cut.par_windows(2))
        .for_each(|(t, w)| {
            t.make_room(s);
            t.add_windows(seq, w[0], w[1], dirty);
        });
}

/// Where to cut `0..n` into about `chunks` pieces: `0`, then cuts `p` (`0 < p < n`) for
/// which `ok(p)`, each the first such at or after its share, then `n`.
fn cuts(n: usize, chunks: usize, ok: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut out = vec![0];
    for j in 1..chunks {
        let mut p = (j * n / chunks).max(out[out.len() - 1] + 1);
        while p < n && !ok(p) {
            p += 1;
        }
        if p >= n {
            break;
        }
        out.push(p);
    }
    out.push(n);
    out
}

/// `seq` cut at `cuts` into disjoint mutable pieces.
fn pieces<'a>(mut seq: &'a mut [u16], cuts: &[usize]) -> Vec<&'a mut [u16]> {
    let mut out = Vec::with_capacity(cuts.len());
    for w in cuts.windows(2) {
        let (head, tail) = std::mem::take(&mut seq).split_at_mut(w[1] - w[0]);
        out.push(head);
        seq = tail;
    }
    out
}

/// One leaf symbol per distinct value, numbered in order of first appearance (two at least,
/// so that the code has two symbols), the sequence of leaf symbols and their frequencies.
fn leaves(values: Values, chunks: usize) -> (Vec<Symbol>, Vec<u16>, Vec<u64>) {
    let n = values.len();
    let cut = cuts(n, chunks, |_| true);
    let firsts = match &values {
        Values::Bytes(v) => first_appearances(v, &cut),
        Values::Owned(v) => first_appearances(v, &cut),
    };
    let mut order: Vec<(usize, u16)> = (0..4096u16)
        .filter_map(|v| {
            let at = firsts.iter().map(|f| f[usize::from(v)]).min()?;
            (at != usize::MAX).then_some((at, v))
        })
        .collect();
    order.sort_unstable();
    let mut id = vec![u16::MAX; 4096];
    let mut symbols: Vec<Symbol> = Vec::with_capacity(order.len() + 1);
    for &(_, v) in &order {
        id[usize::from(v)] = symbols.len() as u16;
        symbols.push(Symbol::Leaf(v));
    }
    if symbols.len() == 1 {
        symbols.push(symbols[0]);
    }
    let s = symbols.len();
    let (seq, freq) = match values {
        Values::Bytes(v) => {
            let mut seq = vec![0u16; n];
            let freq = pieces(&mut seq, &cut)
                .into_par_iter()
                .zip(cut.par_windows(2))
                .map(|(out, w)| {
                    let mut freq = vec![0u64; s];
                    for (o, &x) in out.iter_mut().zip(&v[w[0]..w[1]]) {
                        *o = id[usize::from(x)];
                        freq[usize::from(*o)] += 1;
                    }
                    freq
                })
                .reduce_with(add);
            (seq, freq)
        }
        Values::Owned(mut seq) => {
            let freq = pieces(&mut seq, &cut)
                .into_par_iter()
                .map(|out| {
                    let mut freq = vec![0u64; s];
                    for o in out.iter_mut() {
                        *o = id[usize::from(*o)];
                        freq[usize::from(*o)] += 1;
                    }
                    freq
                })
                .reduce_with(add);
            (seq, freq)
        }
    };
    (symbols, seq, freq.expect("a chunk"))
}

/// Per chunk of `values` (cut at `cut`), where each value first appears (`usize::MAX`: not
/// in the chunk).
fn first_appearances<T: Copy + Into<usize> + Sync>(values: &[T], cut: &[usize]) -> Vec<Vec<usize>> {
    cut.par_windows(2)
        .map(|w| {
            let mut first = vec![usize::MAX; 4096];
            for (k, &v) in values[w[0]..w[1]].iter().enumerate().rev() {
                first[v.into()] = w[0] + k;
            }
            first
        })
        .collect()
}

fn add(mut a: Vec<u64>, b: Vec<u64>) -> Vec<u64> {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
    a
}

/// Row length of the count tables: a pair `(a, b)` is counted at `a * STRIDE + b`.
const STRIDE: usize = 4096;

/// The pair counts from round to round. A replacement changes only the windows that hold a
/// symbol of a chosen pair or a new symbol (the *dirty* symbols): every other pair keeps its
/// count (runs of other symbols included, as nothing is removed between two symbols), and
/// only the windows with a dirty symbol are counted again. Pairs seen fewer than
/// [`Tuning::min_pair_count`] times are not kept: a count that is not counted again does not
/// grow.
struct PairCounts {
    /// One table per chunk for the windows counted again.
    scratch: Vec<Counts>,
    /// `(a * STRIDE + b, count)` of the pairs seen at least `min_pair_count` times.
    kept: Vec<(u32, u32)>,
    /// Per symbol, whether its pairs are counted again this round.
    dirty: Vec<bool>,
}

/// A chunk's counts of the windows counted again: `count[a * STRIDE + b]`, and the entries
/// that are not zero.
#[derive(Default)]
struct Counts {
    count: Vec<u32>,
    seen: Vec<u32>,
}

impl Counts {
    /// Room for `s` symbols (every count zero).
    fn make_room(&mut self, s: usize) {
        if self.count.len() < s * STRIDE {
            let rows = (2 * s).max(s + 256).min(MAX_SYMBOLS);
            self.count = vec![0; rows * STRIDE];
        }
    }

    /// Counts the pairs with a dirty symbol among the windows starting at `lo..hi` of `seq`,
    /// the first of them counted as if after two different symbols.
    fn add_windows(&mut self, seq: &[u16], lo: usize, hi: usize, dirty: &[bool]) {
        let mut skip_equal = false;
        for w in seq[lo..=hi].windows(2) {
            let (a, b) = (usize::from(w[0]), usize::from(w[1]));
            // A run `aaaa` holds two pairs `aa`, not three.
            if a == b {
                if skip_equal {
                    skip_equal = false;
                    continue;
                }
                skip_equal = true;
            } else {
                skip_equal = false;
            }
            if !dirty[a] && !dirty[b] {
                continue;
            }
            let k = a * STRIDE + b;
            let c = &mut self.count[k];
            if *c == 0 {
                self.seen.push(k as u32);
            }
            *c = c.saturating_add(1);
        }
    }

    /// Adds `n` to the count at `k`.
    #[inline]
    fn add(&mut self, k: usize, n: u32) {
        let c = &mut self.count[k];
        if *c == 0 {
            self.seen.push(k as u32);
        }
        *c = c.saturating_add(n);
    }

    /// Adds `other`'s counts to these, clearing `other`.
    fn absorb(&mut self, other: &mut Counts) {
        for &k in &other.seen {
            let k = k as usize;
            let c = &mut self.count[k];
            if *c == 0 {
                self.seen.push(k as u32);
            }
            *c = c.saturating_add(other.count[k]);
            other.count[k] = 0;
        }
        other.seen.clear();
    }
}

/// The pairs to make symbols of this round: the most frequent first, none overlapping
/// another (no symbol both ends one chosen pair and starts another, one pair per first
/// symbol), within the limits of symbol count and length.
fn best_pairs(r: &Repaired, tuning: &Tuning, counts: &mut PairCounts) -> Vec<(u16, u16)> {
    let (seq, len) = (&r.seq, &r.len);
    let s = len.len();
    if seq.len() < 2 {
        return Vec::new();
    }
    let dirty = &counts.dirty;
    let is_dirty = |k: u32| dirty[k as usize / STRIDE] || dirty[k as usize % STRIDE];
    counts.kept.retain(|&(k, _)| !is_dirty(k));
    // The windows with a dirty symbol were counted into the scratch tables (by
    // `count_windows` or `replace_pairs`).
    let (first, rest) = counts.scratch.split_first_mut().expect("a table");
    for t in rest.iter_mut() {
        if !t.seen.is_empty() {
            first.absorb(t);
        }
    }
    for &k in &first.seen {
        let c = std::mem::take(&mut first.count[k as usize]);
        if c >= tuning.min_pair_count {
            counts.kept.push((k, c));
        }
    }
    first.seen.clear();
    let mut candidates: Vec<(u32, u16, u16)> = counts
        .kept
        .iter()
        .map(|&(k, c)| {
            (
                c,
                (k as usize / STRIDE) as u16,
                (k as usize % STRIDE) as u16,
            )
        })
        .filter(|&(_, a, b)| len[usize::from(a)] + len[usize::from(b)] <= MAX_SYMBOL_VALUES)
        .collect();
    // Only pairs within the share of the most frequent are taken: the others are not sorted.
    let top = candidates.iter().map(|c| u64::from(c.0)).max().unwrap_or(0);
    let share = u64::from(tuning.min_share);
    candidates.retain(|c| u64::from(c.0) * 256 >= top * share);
    candidates.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
    let room = (MAX_SYMBOLS - s).min(tuning.max_new_per_round);
    let (mut first, mut second) = (vec![false; s], vec![false; s]);
    let mut chosen = Vec::new();
    for (_, a, b) in candidates {
        if chosen.len() == room {
            break;
        }
        let (ua, ub) = (usize::from(a), usize::from(b));
        if first[ua] || second[ua] || first[ub] {
            continue;
        }
        first[ua] = true;
        second[ub] = true;
        chosen.push((a, b));
    }
    chosen
}

/// Replaces the chosen pairs left to right, adding their symbols; counts the new sequence's
/// windows with a dirty symbol (`counts.dirty`, for the new symbols) into
/// the scratch tables, as [`Counts::add_windows`] counts them over the whole sequence.
///
/// Each chunk counts the windows inside what it writes as if a run began there; the windows
/// across two chunks are counted after, with the runs of one symbol that span chunks (a run
/// of `n` holds `n / 2` pairs, whatever its chunks hold alone).
fn replace_pairs(r: &mut Repaired, pairs: &[(u16, u16)], counts: &mut PairCounts) {
    // Per first symbol: its second and the new symbol.
    let mut by_first = vec![None; r.symbols.len()];
    for &(a, b) in pairs {
        by_first[usize::from(a)] = Some((b, r.symbols.len() as u16));
        r.len.push(r.len[usize::from(a)] + r.len[usize::from(b)]);
        r.symbols.push(Symbol::Pair(a, b));
    }
    let s = r.symbols.len();
    let seq = &mut r.seq;
    let cut = cuts(seq.len(), counts.scratch.len(), |p| {
        by_first[usize::from(seq[p - 1])].is_none()
    });
    let dirty = &counts.dirty;
    let done: Vec<Replaced> = pieces(seq, &cut)
        .into_par_iter()
        .zip(counts.scratch.par_iter_mut())
        .map(|(piece, table)| {
            table.make_room(s);
            let (mut read, mut write) = (0, 0);
            // The last symbol written and whether its window with the one before was a
            // counted `aa` (the next `aa` then is not).
            let mut prev = usize::MAX;
            let mut skip_equal = false;
            let clean = |x: u16| !dirty[usize::from(x)];
            while read < piece.len() {
                // A stretch of symbols that are not dirty, after one that is not: none
                // begins a chosen pair (their symbols are dirty) and no window is counted.
                // The window that ends it joins two different symbols.
                if prev == usize::MAX || !dirty[prev] {
                    let start = read;
                    while read < piece.len() && clean(piece[read]) {
                        piece[write] = piece[read];
                        read += 1;
                        write += 1;
                    }
                    if read > start {
                        prev = usize::from(piece[write - 1]);
                        skip_equal = false;
                        if read == piece.len() {
                            break;
                        }
                    }
                }
                let x = piece[read];
                let y = match by_first[usize::from(x)] {
                    Some((b, new)) if piece.get(read + 1) == Some(&b) => {
                        read += 2;
                        new
                    }
                    _ => {
                        read += 1;
                        x
                    }
                };
                piece[write] = y;
                let yu = usize::from(y);
                write += 1;
                if prev != usize::MAX {
                    let counted = if prev == yu {
                        skip_equal = !skip_equal;
                        skip_equal
                    } else {
                        skip_equal = false;
                        true
                    };
                    if counted && (dirty[prev] || dirty[yu]) {
                        table.add(prev * STRIDE + yu, 1);
                    }
                }
                prev = yu;
            }
            let out = &piece[..write];
            let run = |it: &mut dyn Iterator<Item = &u16>, sym: u16| {
                1 + it.take_while(|&&v| v == sym).count()
            };
            Replaced {
                written: write,
                first: out[0],
                lead: run(&mut out[1..].iter(), out[0]),
                last: out[write - 1],
                trail: run(&mut out[..write - 1].iter().rev(), out[write - 1]),
            }
        })
        .collect();
    count_across(&done, dirty, &mut counts.scratch[0]);
    // The pieces moved together, each to the end of the one before.
    let mut end = 0;
    for (w, d) in cut.windows(2).zip(&done) {
        seq.copy_within(w[0]..w[0] + d.written, end);
        end += d.written;
    }
    seq.truncate(end);
}

/// What one chunk of a replacement wrote.
struct Replaced {
    written: usize,
    /// The first symbol written and the length of its run at the start.
    first: u16,
    lead: usize,
    /// The last symbol written and the length of its run at the end.
    last: u16,
    trail: usize,
}

/// The windows across the chunks of a replacement (each counted its own alone): a window
/// between two different symbols counts once; a run of one symbol across chunks holds half
/// its length in pairs, less what its parts counted alone.
fn count_across(done: &[Replaced], dirty: &[bool], table: &mut Counts) {
    // The open run: its symbol, its length and the pairs its parts counted.
    let mut run: Option<(u16, usize, usize)> = None;
    let close = |(a, n, counted): (u16, usize, usize), table: &mut Counts| {
        let a = usize::from(a);
        if n / 2 > counted && dirty[a] {
            table.add(a * STRIDE + a, (n / 2 - counted) as u32);
        }
    };
    for d in done {
        let whole = d.lead == d.written;
        match run {
            Some((a, n, c)) if a == d.first => {
                let merged = (a, n + d.lead, c + d.lead / 2);
                if whole {
                    run = Some(merged);
                    continue;
                }
                close(merged, table);
            }
            Some((a, n, c)) => {
                close((a, n, c), table);
                let (a, b) = (usize::from(a), usize::from(d.first));
                if dirty[a] || dirty[b] {
                    table.add(a * STRIDE + b, 1);
                }
                if whole {
                    run = Some((d.first, d.lead, d.lead / 2));
                    continue;
                }
            }
            None if whole => {
                run = Some((d.first, d.lead, d.lead / 2));
                continue;
            }
            None => {}
        }
        run = Some((d.last, d.trail, d.trail / 2));
    }
    if let Some(open) = run {
        close(open, table);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rounds as they were written before the sequence was cut into chunks: one pass to
    /// count every pair, one to replace, a count table zeroed per round, every candidate
    /// sorted.
    fn sequential(values: &[u16], tuning: &Tuning) -> (Vec<Symbol>, Vec<u16>) {
        let mut id = vec![u16::MAX; 4096];
        let mut symbols = Vec::new();
        let mut seq: Vec<u16> = values
            .iter()
            .map(|&v| {
                let slot = &mut id[usize::from(v)];
                if *slot == u16::MAX {
                    *slot = symbols.len() as u16;
                    symbols.push(Symbol::Leaf(v));
                }
                *slot
            })
            .collect();
        if symbols.len() == 1 {
            symbols.push(symbols[0]);
        }
        let mut len: Vec<u32> = vec![1; symbols.len()];
        while symbols.len() < MAX_SYMBOLS {
            let s = len.len();
            let mut count = vec![0u32; s * s];
            let mut skip_equal = false;
            for w in seq.windows(2) {
                let (a, b) = (usize::from(w[0]), usize::from(w[1]));
                if a == b {
                    if skip_equal {
                        skip_equal = false;
                        continue;
                    }
                    skip_equal = true;
                } else {
                    skip_equal = false;
                }
                count[a * s + b] = count[a * s + b].saturating_add(1);
            }
            let mut candidates: Vec<(u32, u16, u16)> = (0..s * s)
                .map(|k| (count[k], (k / s) as u16, (k % s) as u16))
                .filter(|&(c, a, b)| {
                    c >= tuning.min_pair_count
                        && len[usize::from(a)] + len[usize::from(b)] <= MAX_SYMBOL_VALUES
                })
                .collect();
            candidates
                .sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
            let room = (MAX_SYMBOLS - s).min(tuning.max_new_per_round);
            let (mut first, mut second) = (vec![false; s], vec![false; s]);
            let mut pairs = Vec::new();
            let top = candidates.first().map_or(0, |c| u64::from(c.0));
            for (c, a, b) in candidates {
                if pairs.len() == room || u64::from(c) * 256 < top * u64::from(tuning.min_share) {
                    break;
                }
                let (ua, ub) = (usize::from(a), usize::from(b));
                if first[ua] || second[ua] || first[ub] {
                    continue;
                }
                first[ua] = true;
                second[ub] = true;
                pairs.push((a, b));
            }
            if pairs.is_empty() {
                break;
            }
            let mut by_first = vec![None; symbols.len()];
            for &(a, b) in &pairs {
                by_first[usize::from(a)] = Some((b, symbols.len() as u16));
                len.push(len[usize::from(a)] + len[usize::from(b)]);
                symbols.push(Symbol::Pair(a, b));
            }
            let (mut read, mut write) = (0, 0);
            while read < seq.len() {
                let x = seq[read];
                match by_first[usize::from(x)] {
                    Some((b, new)) if seq.get(read + 1) == Some(&b) => {
                        seq[write] = new;
                        read += 2;
                    }
                    _ => {
                        seq[write] = x;
                        read += 1;
                    }
                }
                write += 1;
            }
            seq.truncate(write);
        }
        (symbols, seq)
    }

    /// Runs of random values with random lengths.
    fn noise(n: usize, seed: u64, range: u64, run: u64) -> Vec<u16> {
        let mut state = seed | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut out = Vec::new();
        while out.len() < n {
            let v = (next() % range) as u16;
            for _ in 0..1 + next() % run {
                out.push(v);
            }
        }
        out.truncate(n);
        out
    }

    /// Cut into 1 to 7 chunks, the rounds make the symbols and the sequence the sequential
    /// rounds make, with the frequencies of that sequence.
    #[test]
    fn chunks_give_the_sequential_rounds() {
        let cases = [
            vec![3],
            vec![2, 2, 2, 2, 4],
            vec![5; 1000],
            noise(1000, 1, 5, 1),
            noise(20_000, 2, 2, 40),
            noise(30_000, 3, 300, 3),
            noise(50_000, 4, 4, 2000),
            noise(60_000, 5, 3, 7),
            // Periodic: runs of pairs `ab` and of `aa` across every cut.
            (0..40_000).map(|k| [1, 1, 1, 2][k % 4]).collect(),
            // Long runs of one symbol, whose pairs' symbols run across the cuts round after
            // round.
            (0..50_000).map(|k| u16::from(k % 997 == 0)).collect(),
            (0..50_000)
                .map(|k| u16::from(k % 6 == 5 || k % 4 == 3))
                .collect(),
            // A run of a chosen pair's second symbol across two chunks of a replacement.
            noise(5000, 4, 4, 20),
        ];
        for (n, values) in cases.iter().enumerate() {
            let (symbols, seq) = sequential(values, &TUNING);
            for chunks in 1..=7 {
                let r = repair_in(Values::Owned(values.clone()), &TUNING, chunks);
                assert_eq!(r.symbols, symbols, "case {n}, {chunks} chunks");
                assert_eq!(r.seq, seq, "case {n}, {chunks} chunks");
                let mut freq = vec![0u64; symbols.len()];
                for &x in &seq {
                    freq[usize::from(x)] += 1;
                }
                assert_eq!(r.freq, freq, "case {n}, {chunks} chunks");
                if values.iter().all(|&v| v < 256) {
                    let bytes: Vec<u8> = values.iter().map(|&v| v as u8).collect();
                    let b = repair_in(Values::Bytes(&bytes), &TUNING, chunks);
                    assert_eq!((b.symbols, b.seq), (r.symbols, r.seq), "case {n} as bytes");
                }
            }
        }
    }
}
