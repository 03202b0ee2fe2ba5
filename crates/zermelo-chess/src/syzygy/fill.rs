//! Values for the places of a sequence a prober never reads, chosen so that the sequence
//! compresses well: every such place takes a value allowed there that continues a run.
//!
//! A WDL place may be free (no position, or an illegal one), bounded (a capture reaches the
//! position's class, so any lower class reads the same) or exact. Runs are what the pairs
//! compression turns into few symbols, and the same runs again are what it turns into the
//! same symbols: a stretch of free and bounded places between two exact ones takes, if it
//! may, the class of the neighbour more frequent in the table (so the runs of the common
//! classes grow and those of the rare ones keep the extent their positions give them, which
//! repeats from one part of the board to the next); otherwise it is filled in the fewest
//! runs (greedily, which is optimal for that count). A DTZ place is exact or free; a free
//! stretch takes the more frequent of its two neighbours. O(n) each.

/// A WDL place: an exact class (`0..=4`, Syzygy's class plus 2), a class any lower one may
/// stand for ([`BOUNDED`] plus the class), or [`FREE`].
pub(crate) const BOUNDED: u8 = 8;
/// A WDL place without a position.
pub(crate) const FREE: u8 = 15;

/// The classes allowed at a WDL place, as a bit mask.
fn allowed(place: u8) -> u8 {
    match place {
        FREE => 0b11111,
        p if p & BOUNDED != 0 => (2u8 << (p & 7)) - 1,
        p => 1 << p,
    }
}

/// Chooses a class for every WDL place, in place (each becomes `0..=4`).
pub(crate) fn fill_wdl(places: &mut [u8]) {
    let mut freq = [0u64; 5];
    for &p in places.iter() {
        if p < 5 {
            freq[usize::from(p)] += 1;
        }
    }
    let mut i = 0;
    while i < places.len() {
        if places[i] < 5 {
            i += 1;
            continue;
        }
        let end = places[i..]
            .iter()
            .position(|&p| p < 5)
            .map_or(places.len(), |k| i + k);
        let common = places[i..end].iter().fold(0b11111, |m, &p| m & allowed(p));
        let before = i.checked_sub(1).map(|k| places[k]);
        let after = places.get(end).copied();
        // The more frequent neighbour first: runs of the common classes grow, and the rare
        // ones keep their exact extent, which repeats better.
        let mut neighbours = [before, after];
        if let [Some(a), Some(b)] = neighbours {
            if freq[usize::from(b)] > freq[usize::from(a)] {
                neighbours.swap(0, 1);
            }
        }
        match neighbours
            .into_iter()
            .flatten()
            .find(|&v| common & 1 << v != 0)
        {
            Some(v) => places[i..end].fill(v),
            None => fill_greedy(&mut places[i..end], before, &freq),
        }
        i = end;
    }
}

/// Fills a stretch of free and bounded places in as few runs as possible, continuing
/// `current` where it may: a new run takes a class allowed over the longest stretch ahead (the
/// greedy choice, optimal for the number of runs), the most frequent such class.
fn fill_greedy(places: &mut [u8], mut current: Option<u8>, freq: &[u64; 5]) {
    let mut i = 0;
    while i < places.len() {
        if let Some(c) = current.filter(|&c| allowed(places[i]) & 1 << c != 0) {
            places[i] = c;
            i += 1;
            continue;
        }
        let mut common = allowed(places[i]);
        let mut end = i + 1;
        while end < places.len() && common & allowed(places[end]) != 0 {
            common &= allowed(places[end]);
            end += 1;
        }
        let c = (0..5u8)
            .filter(|&v| common & 1 << v != 0)
            .max_by_key(|&v| (freq[usize::from(v)], std::cmp::Reverse(v)))
            .expect("a class is allowed");
        places[i..end].fill(c);
        current = Some(c);
        i = end;
    }
}

/// Replaces every `free` value: a stretch of them between two values takes the one of the two
/// that is more frequent among the values given (the first on a tie); a stretch at either end
/// its one neighbour (0 if every value is free).
pub(crate) fn fill_free(values: &mut [u16], free: u16) {
    let mut freq = vec![0u64; 1 << 16];
    for &v in values.iter() {
        freq[usize::from(v)] += 1;
    }
    freq[usize::from(free)] = 0;
    let mut i = 0;
    while i < values.len() {
        if values[i] != free {
            i += 1;
            continue;
        }
        let end = values[i..]
            .iter()
            .position(|&v| v != free)
            .map_or(values.len(), |k| i + k);
        let before = i.checked_sub(1).map(|k| values[k]);
        let after = values.get(end).copied();
        let v = match (before, after) {
            (Some(a), Some(b)) if freq[usize::from(b)] > freq[usize::from(a)] => b,
            (Some(a), _) => a,
            (None, Some(b)) => b,
            (None, None) => 0,
        };
        values[i..end].fill(v);
        i = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(v: &[u8]) -> usize {
        1 + v.windows(2).filter(|w| w[0] != w[1]).count()
    }

    #[test]
    fn wdl_places_take_allowed_values_in_few_runs() {
        let b = |c: u8| BOUNDED | c;
        let cases: [(&[u8], usize); 5] = [
            (&[4, FREE, FREE, 4, 2], 2),
            (&[2, b(4), b(4), 2, FREE, 0], 2),
            (&[FREE, FREE, 3], 1),
            (&[4, b(1), 0, 0], 2),
            (&[b(4), b(2), b(3), 4], 2),
        ];
        for (given, want) in cases {
            let mut v = given.to_vec();
            fill_wdl(&mut v);
            for (&p, &c) in given.iter().zip(&v) {
                assert!(c < 5 && allowed(p) & 1 << c != 0, "{given:?} -> {v:?}");
            }
            assert_eq!(runs(&v), want, "{given:?} -> {v:?}");
        }
    }

    #[test]
    fn free_dtz_places_continue_runs() {
        let f = u16::MAX;
        let mut v = vec![f, f, 3, f, 5, f, 5];
        fill_free(&mut v, f);
        assert_eq!(v, [3, 3, 3, 5, 5, 5, 5]);
        let mut all = vec![f; 3];
        fill_free(&mut all, f);
        assert_eq!(all, [0, 0, 0]);
    }
}
