//! The labels of the nodes a process owns, shared by its workers: one atomic state word per
//! node, and (when best moves are wanted) one atomic best-move key.
//!
//! Reports ("child `from` is LOSE / WIN / a draw") are applied in place, by whichever worker
//! holds them: the worker whose frontier node sent it (a predecessor in the same process) or
//! the worker that received it from another process. A state word changes by compare-and-swap,
//! exactly as in `zermelo::solve::retrograde_parallel`, so a node is decided once whatever the
//! order of a round's reports: a node with a LOSE child never has its counter reach zero, so
//! WIN and LOSE decisions never race.
//!
//! Best moves need no second pass either: every report that counts takes the minimum of the
//! node's key and a key that orders the reports as `solve::best_move` chooses among them,
//!
//! | report, decided depth `D` | key | so the minimum is |
//! |---|---|---|
//! | LOSE child, node WIN at `D` | `D · 2^32 + from` | the least LOSE child of the deciding round |
//! | WIN child, node undecided or LOSE at `D` | `(2^32 - 1 - D) · 2^32 + from` | the least WIN child of the latest round, i.e. of the round that emptied the counter |
//! | DRAW child (after the rounds), node undecided | `from` | the least DRAW child |
//!
//! A WIN's LOSE keys (`D < 2^30`) are below any WIN key; a draw never had a LOSE child; the low
//! 32 bits of the minimum are the best move (`u64::MAX`: none).

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;
use zermelo::graph::Rules;
use zermelo::{NodeId, Outcome};

use crate::shard::Shard;

/// State word of an owned node: a 2-bit tag and a 30-bit payload (counter or depth).
pub(crate) const UNDECIDED: u32 = 0;
pub(crate) const WIN: u32 = 1;
pub(crate) const LOSE: u32 = 2;
pub(crate) const DRAW: u32 = 3;
pub(crate) const PAYLOAD_MAX: u32 = (1 << 30) - 1;

#[inline]
pub(crate) fn pack(tag: u32, payload: u32) -> u32 {
    tag << 30 | payload
}
#[inline]
pub(crate) fn tag(word: u32) -> u32 {
    word >> 30
}
#[inline]
pub(crate) fn payload(word: u32) -> u32 {
    word & PAYLOAD_MAX
}

/// What a report says about the child that sends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Kind {
    Lost,
    Won,
    Drawn,
}

/// The owned nodes' labels: `[lo, lo + words.len())`.
pub(crate) struct Labels {
    lo: NodeId,
    words: Vec<AtomicU32>,
    /// Best-move keys (see the module docs); empty without best moves.
    keys: Vec<AtomicU64>,
}

impl Labels {
    /// Terminals decided at depth 0, the rest undecided with their out-degree, on the current
    /// rayon pool; `None` if a counter does not fit the word.
    pub(crate) fn new(
        shard: &Shard,
        rules: &Rules,
        (lo, hi): (NodeId, NodeId),
        best_moves: bool,
    ) -> Option<Labels> {
        let stuck = rules.convention().stuck_outcome();
        let explicit = !rules.verdicts().is_empty();
        let words = (lo..hi)
            .into_par_iter()
            .map(|u| {
                let degree = shard.out_degree(u);
                let verdict = explicit
                    .then(|| rules.explicit_verdict(u))
                    .flatten()
                    .or((degree == 0).then_some(stuck));
                Some(AtomicU32::new(match verdict {
                    Some(Outcome::Win) => pack(WIN, 0),
                    Some(Outcome::Lose) => pack(LOSE, 0),
                    Some(Outcome::Draw) => pack(DRAW, 0),
                    None if degree > PAYLOAD_MAX => return None,
                    None => pack(UNDECIDED, degree),
                }))
            })
            .collect::<Option<Vec<AtomicU32>>>()?;
        let keys = if best_moves {
            (lo..hi)
                .into_par_iter()
                .map(|_| AtomicU64::new(u64::MAX))
                .collect()
        } else {
            Vec::new()
        };
        Some(Labels { lo, words, keys })
    }

    /// Whether this process owns `u`.
    #[inline]
    pub(crate) fn owns(&self, u: NodeId) -> bool {
        (u.wrapping_sub(self.lo) as usize) < self.words.len()
    }

    /// Hints that the state word of `u` will be read soon (nothing if `u` is not owned).
    #[inline(always)]
    pub(crate) fn prefetch(&self, u: NodeId) {
        zermelo::prefetch::prefetch(&self.words, u.wrapping_sub(self.lo) as usize);
    }

    #[inline]
    pub(crate) fn word(&self, u: NodeId) -> u32 {
        self.words[(u - self.lo) as usize].load(Relaxed)
    }

    /// The best move of `u` (`NO_MOVE` when there is none or best moves are not kept).
    #[inline]
    pub(crate) fn best(&self, u: NodeId) -> NodeId {
        self.keys
            .get((u - self.lo) as usize)
            .map_or(crate::NO_MOVE, |k| k.load(Relaxed) as NodeId)
    }

    /// The state words and best-move keys of `[lo, hi)`, for a checkpoint.
    pub(crate) fn save(&self, (lo, hi): (NodeId, NodeId)) -> (Vec<u32>, Vec<u64>) {
        let range = (lo - self.lo) as usize..(hi - self.lo) as usize;
        let words = self.words[range.clone()].iter().map(|w| w.load(Relaxed));
        let keys = self.keys.get(range).unwrap_or_default();
        (
            words.collect(),
            keys.iter().map(|k| k.load(Relaxed)).collect(),
        )
    }

    /// Restores `[lo, lo + words.len())` from a checkpoint.
    pub(crate) fn restore(&self, lo: NodeId, words: &[u32], keys: &[u64]) {
        let at = (lo - self.lo) as usize;
        for (cell, &w) in self.words[at..].iter().zip(words) {
            cell.store(w, Relaxed);
        }
        if !self.keys.is_empty() {
            for (cell, &k) in self.keys[at..].iter().zip(keys) {
                cell.store(k, Relaxed);
            }
        }
    }

    /// Applies "child `from` is `kind`" to `to` (owned), in the round that decides depth
    /// `depth`; true when it decides `to`.
    #[inline]
    pub(crate) fn report(&self, kind: Kind, depth: u32, to: NodeId, from: NodeId) -> bool {
        let i = (to - self.lo) as usize;
        let cell = &self.words[i];
        let mut cur = cell.load(Relaxed);
        let (decided, key) = match kind {
            Kind::Drawn => {
                if tag(cur) == UNDECIDED {
                    self.keys[i].fetch_min(u64::from(from), Relaxed);
                }
                return false;
            }
            Kind::Lost => {
                let won = pack(WIN, depth);
                let decided = loop {
                    if tag(cur) != UNDECIDED {
                        break false;
                    }
                    match cell.compare_exchange_weak(cur, won, Relaxed, Relaxed) {
                        Ok(_) => break true,
                        Err(actual) => cur = actual,
                    }
                };
                let counts = decided || cur == won;
                (
                    decided,
                    counts.then(|| u64::from(depth) << 32 | u64::from(from)),
                )
            }
            Kind::Won => {
                let lost = pack(LOSE, depth);
                let (decided, counts) = loop {
                    if tag(cur) != UNDECIDED {
                        break (false, cur == lost);
                    }
                    let last = payload(cur) == 1;
                    let new = if last { lost } else { cur - 1 };
                    match cell.compare_exchange_weak(cur, new, Relaxed, Relaxed) {
                        Ok(_) => break (last, true),
                        Err(actual) => cur = actual,
                    }
                };
                let round = u64::from(u32::MAX - depth);
                (decided, counts.then(|| round << 32 | u64::from(from)))
            }
        };
        if let (Some(key), Some(best)) = (key, self.keys.get(i)) {
            best.fetch_min(key, Relaxed);
        }
        decided
    }

    /// The owned nodes of `[lo, hi)` decided at `depth`.
    pub(crate) fn frontier(&self, (lo, hi): (NodeId, NodeId), depth: u64) -> Vec<NodeId> {
        (lo..hi)
            .filter(|&u| {
                let w = self.word(u);
                matches!(tag(w), WIN | LOSE) && u64::from(payload(w)) == depth
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(words: &[u32]) -> Labels {
        Labels {
            lo: 10,
            words: words.iter().map(|&w| AtomicU32::new(w)).collect(),
            keys: words.iter().map(|_| AtomicU64::new(u64::MAX)).collect(),
        }
    }

    #[test]
    fn keys_pick_the_moves_of_the_deciding_round() {
        // Node 10: WIN at 3 (LOSE children 7 and 5 in round 2, an earlier WIN child 1).
        // Node 11: LOSE at 4 (WIN children 9 at depth 1, then 8 and 6 at depth 3).
        // Node 12: a draw (WIN child 2, DRAW children 40 and 30).
        let l = labels(&[pack(UNDECIDED, 3), pack(UNDECIDED, 3), pack(UNDECIDED, 2)]);
        assert!(!l.report(Kind::Won, 2, 10, 1));
        assert!(!l.report(Kind::Won, 2, 11, 9));
        assert!(!l.report(Kind::Won, 2, 12, 2));
        assert!(l.report(Kind::Lost, 3, 10, 7));
        assert!(!l.report(Kind::Lost, 3, 10, 5));
        assert!(!l.report(Kind::Won, 4, 11, 8));
        assert!(l.report(Kind::Won, 4, 11, 6));
        // Later reports to decided nodes change nothing.
        assert!(!l.report(Kind::Won, 5, 11, 0));
        assert!(!l.report(Kind::Lost, 5, 10, 0));
        l.report(Kind::Drawn, 0, 12, 40);
        l.report(Kind::Drawn, 0, 12, 30);
        l.report(Kind::Drawn, 0, 10, 0);
        assert_eq!(l.word(10), pack(WIN, 3));
        assert_eq!(l.word(11), pack(LOSE, 4));
        assert_eq!(tag(l.word(12)), UNDECIDED);
        assert_eq!([l.best(10), l.best(11), l.best(12)], [5, 6, 30]);
    }
}
