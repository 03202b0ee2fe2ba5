//! Subtraction games: a pile of counters; a move takes `s` counters for some `s` in a finite
//! subtraction set `S`.
//!
//! Under normal play the Grundy value is `g(n) = mex { g(n - s) : s ∈ S, s ≤ n }`; under misère
//! play the outcome sequence follows `o(n) = WIN` iff some move reaches a LOSE pile, a pile
//! with no moves being WIN. Cost: O(n·|S|) for the first `n` values.
//!
//! **Periodicity.** Both sequences become periodic (seed 004; Berlekamp, Conway and Guy,
//! *Winning Ways*, ch. 4). Detection rule used here: let `m = max S`. For `n ≥ m` every move is
//! legal, so the value at `n` is a fixed function of the window of the `m` values before it.
//! Hence if the window starting at `i` equals the window starting at `j > i`, the sequence is
//! periodic from `i` with period `j - i` — a proof, not a heuristic. The first repeated window
//! gives the least preperiod and the least period, because the window sequence is a
//! deterministic walk whose first repetition is its cycle (and a period of the values is one of
//! the windows). Windows are compared by a rolling hash and confirmed element by element.

use std::collections::HashMap;

use zermelo::game::{dense_best_move, solve_dense, Game, Ranked, Unmoves};
use zermelo::graph::Convention;
use zermelo::solve::Nimber;
use zermelo::Outcome;

/// Largest element allowed in a subtraction set (it bounds the memory of the period search).
pub const MAX_SUBTRACTION: u64 = 1 << 20;

/// A validated subtraction set: non-empty, positive, at most [`MAX_SUBTRACTION`], sorted and
/// without duplicates.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SubtractionSet(Vec<u64>);

/// Why a list of numbers is not a subtraction set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetError {
    /// No elements.
    #[error("the subtraction set is empty")]
    Empty,
    /// A zero (a move that takes nothing would be a pass).
    #[error("the subtraction set contains 0; every move must take at least one counter")]
    Zero,
    /// An element above [`MAX_SUBTRACTION`].
    #[error("{0} is larger than the supported maximum of {MAX_SUBTRACTION}")]
    TooLarge(u64),
}

impl SubtractionSet {
    /// Validates `values` (in any order, duplicates allowed).
    ///
    /// # Errors
    /// [`SetError`] for an empty set, a 0, or an element above [`MAX_SUBTRACTION`].
    pub fn new(values: impl IntoIterator<Item = u64>) -> Result<SubtractionSet, SetError> {
        let mut v: Vec<u64> = values.into_iter().collect();
        v.sort_unstable();
        v.dedup();
        match (v.first(), v.last()) {
            (None, _) => Err(SetError::Empty),
            (Some(0), _) => Err(SetError::Zero),
            (_, Some(&max)) if max > MAX_SUBTRACTION => Err(SetError::TooLarge(max)),
            _ => Ok(SubtractionSet(v)),
        }
    }

    /// The elements, ascending.
    pub fn values(&self) -> &[u64] {
        &self.0
    }

    /// The largest element (the window length of the periodicity argument).
    pub fn max(&self) -> u64 {
        self.0[self.0.len() - 1]
    }
}

/// A subtraction game by its rules. A position is the pile size.
///
/// As a [`Ranked`] game its index space is the piles `0..=max_pile`, with [`Unmoves`]
/// `n -> n + s`, so [`solve_dense`] gives every pile up to
/// `max_pile` with depths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtraction {
    /// The allowed subtractions.
    pub set: SubtractionSet,
    /// Normal (last to move wins) or misère (last to move loses).
    pub convention: Convention,
    /// The largest pile of the dense index space.
    pub max_pile: u64,
}

impl Game for Subtraction {
    type Position = u64;

    fn moves(&self, &n: &u64, out: &mut Vec<u64>) {
        out.extend(self.set.0.iter().take_while(|&&s| s <= n).map(|s| n - s));
    }

    fn convention(&self) -> Convention {
        self.convention
    }
}

impl Ranked for Subtraction {
    fn index_count(&self) -> u64 {
        self.max_pile.saturating_add(1)
    }

    fn rank(&self, &n: &u64) -> u64 {
        n
    }

    fn unrank(&self, index: u64) -> Option<u64> {
        Some(index)
    }
}

impl Unmoves for Subtraction {
    fn unmoves(&self, &n: &u64, out: &mut Vec<u64>) {
        let up = self.set.0.iter().map_while(|s| n.checked_add(*s));
        out.extend(up.take_while(|&p| p <= self.max_pile));
    }
}

/// `g(0), ..., g(len - 1)` under normal play.
pub fn grundy_values(set: &SubtractionSet, len: usize) -> Vec<Nimber> {
    let mut g: Vec<Nimber> = Vec::with_capacity(len);
    let mut seen = vec![false; set.0.len() + 1];
    for n in 0..len as u64 {
        seen.fill(false);
        for &s in set.0.iter().take_while(|&&s| s <= n) {
            let v = g[(n - s) as usize].0 as usize;
            if v < seen.len() {
                seen[v] = true;
            }
        }
        let mex = seen.iter().position(|&b| !b).unwrap_or(seen.len());
        g.push(Nimber(mex as u32));
    }
    g
}

/// `o(0), ..., o(len - 1)`: WIN or LOSE for the player to move at each pile.
pub fn outcomes(set: &SubtractionSet, convention: Convention, len: usize) -> Vec<Outcome> {
    let mut o: Vec<Outcome> = Vec::with_capacity(len);
    for n in 0..len as u64 {
        let mut moves = set.0.iter().take_while(|&&s| s <= n).peekable();
        let value = if moves.peek().is_none() {
            convention.stuck_outcome()
        } else if moves.any(|&s| o[(n - s) as usize] == Outcome::Lose) {
            Outcome::Win
        } else {
            Outcome::Lose
        };
        o.push(value);
    }
    o
}

/// An eventually periodic sequence: `x(n + period) = x(n)` for every `n ≥ preperiod`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Periodicity {
    /// Where the periodic part starts (0 for a purely periodic sequence).
    pub preperiod: u64,
    /// The least period.
    pub period: u64,
}

impl Periodicity {
    /// The index in `0..preperiod + period` whose value equals the value at `n`.
    pub fn reduce(&self, n: u64) -> u64 {
        if n < self.preperiod {
            n
        } else {
            self.preperiod + (n - self.preperiod) % self.period
        }
    }
}

/// Finds where `seq` starts repeating, by the window rule of the module docs: `seq[n]` must be
/// a function of `seq[n - window..n]`. `None` if no window repeats within `seq`.
pub fn find_periodicity<T: Copy + Eq>(
    seq: &[T],
    window: usize,
    key: impl Fn(T) -> u64,
) -> Option<Periodicity> {
    const BASE: u64 = 0x9E37_79B9_7F4A_7C15;
    if window == 0 || seq.len() < window {
        return None;
    }
    let top = (1..window).fold(1u64, |p, _| p.wrapping_mul(BASE));
    let mut hash = seq[..window]
        .iter()
        .fold(0u64, |h, &x| h.wrapping_mul(BASE).wrapping_add(key(x) + 1));
    let mut first: HashMap<u64, Vec<usize>> = HashMap::new();
    for j in 0..=seq.len() - window {
        if j > 0 {
            let out = key(seq[j - 1]) + 1;
            let inc = key(seq[j + window - 1]) + 1;
            hash = hash
                .wrapping_sub(out.wrapping_mul(top))
                .wrapping_mul(BASE)
                .wrapping_add(inc);
        }
        let starts = first.entry(hash).or_default();
        if let Some(&i) = starts
            .iter()
            .find(|&&i| seq[i..i + window] == seq[j..j + window])
        {
            return Some(Periodicity {
                preperiod: i as u64,
                period: (j - i) as u64,
            });
        }
        starts.push(j);
    }
    None
}

/// How far [`analyse`] computes values looking for a period: two windows plus up to `2^20`
/// values, fewer for large sets so that the work (values × set size) stays near `2^27`.
pub fn search_length(set: &SubtractionSet) -> usize {
    let beyond = ((1usize << 27) / set.0.len()).clamp(1 << 12, 1 << 20);
    2 * set.max() as usize + beyond
}

/// The values of a subtraction game and where they become periodic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequence {
    /// The play convention.
    pub convention: Convention,
    /// Normal play: the Grundy values `g(0..len)`; misère: `None` (the XOR rule does not hold).
    pub grundy: Option<Vec<Nimber>>,
    /// The outcomes `o(0..len)`.
    pub outcomes: Vec<Outcome>,
    /// The periodicity of the Grundy values (normal play) or of the outcomes (misère), if
    /// found within the computed values.
    pub periodicity: Option<Periodicity>,
}

impl Sequence {
    /// The index into the computed values that stands for pile `n`: `n` itself if computed,
    /// else its reduction by the period; `None` beyond the computed values without a period.
    fn index(&self, n: u64) -> Option<usize> {
        if n < self.outcomes.len() as u64 {
            return Some(n as usize);
        }
        self.periodicity.map(|p| p.reduce(n) as usize)
    }

    /// The outcome of pile `n`, if known.
    pub fn outcome(&self, n: u64) -> Option<Outcome> {
        self.index(n).map(|i| self.outcomes[i])
    }

    /// The Grundy value of pile `n` (normal play), if known.
    pub fn grundy(&self, n: u64) -> Option<Nimber> {
        let i = self.index(n)?;
        self.grundy.as_ref().map(|g| g[i])
    }
}

/// Computes [`search_length`] values of the game and their periodicity.
pub fn analyse(set: &SubtractionSet, convention: Convention) -> Sequence {
    let len = search_length(set);
    let window = set.max() as usize;
    match convention {
        Convention::Normal => {
            let g = grundy_values(set, len);
            let periodicity = find_periodicity(&g, window, |v| u64::from(v.0));
            let outcomes = g
                .iter()
                .map(|v| {
                    if v.0 == 0 {
                        Outcome::Lose
                    } else {
                        Outcome::Win
                    }
                })
                .collect();
            Sequence {
                convention,
                grundy: Some(g),
                outcomes,
                periodicity,
            }
        }
        Convention::Misere => {
            let outcomes = outcomes(set, convention, len);
            let periodicity = find_periodicity(&outcomes, window, |o| o as u64);
            Sequence {
                convention,
                grundy: None,
                outcomes,
                periodicity,
            }
        }
    }
}

/// A winning move from pile `n` by the sequence alone: the smallest `s` in the set whose
/// result `n - s` is LOSE. `None` if `n` is not WIN or its value is unknown.
pub fn winning_take(set: &SubtractionSet, seq: &Sequence, n: u64) -> Option<u64> {
    (seq.outcome(n)? == Outcome::Win).then_some(())?;
    set.0
        .iter()
        .take_while(|&&s| s <= n)
        .copied()
        .find(|&s| seq.outcome(n - s) == Some(Outcome::Lose))
}

/// Largest pile valued with depths by the dense solver (about 10 bytes per pile), and the most
/// moves it may generate; larger piles are valued from the (periodic) sequence, without depth.
pub const DENSE_PILE_LIMIT: u64 = 1 << 22;
/// See [`DENSE_PILE_LIMIT`].
pub const DENSE_MOVE_LIMIT: u64 = 1 << 26;

/// A pile's value: its outcome, its depth (plies, under fast win and slow loss) where the dense
/// solver gave it, and the number to take (the fast-win / slow-loss move, or a winning one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PileValue {
    /// WIN or LOSE for the player to move.
    pub outcome: Outcome,
    /// The depth, for piles up to [`DENSE_PILE_LIMIT`].
    pub depth: Option<zermelo::Depth>,
    /// How many counters to take, if there is a move worth making.
    pub take: Option<u64>,
}

/// Why a pile has no value here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PileError {
    /// The pile is past the computed values and they show no period to extend them by.
    #[error(
        "pile {pile} is beyond the {computed} values computed and no period was found in them"
    )]
    Beyond {
        /// The pile asked for.
        pile: u64,
        /// How many values were computed.
        computed: usize,
    },
    /// The dense solver failed (it should not: the limits keep it small).
    #[error("{0}")]
    Solver(String),
}

/// The value of a pile of `n`: by the dense solver, with depths and the fast-win / slow-loss
/// move, when the pile is small enough ([`DENSE_PILE_LIMIT`], [`DENSE_MOVE_LIMIT`]); beyond,
/// by the computed or periodic sequence `seq` (from [`analyse`]), with a winning move and no
/// depth.
///
/// # Errors
/// [`PileError::Beyond`] when the sequence does not reach `n`.
pub fn pile_value(
    set: &SubtractionSet,
    convention: Convention,
    seq: &Sequence,
    n: u64,
) -> Result<PileValue, PileError> {
    let moves = n
        .saturating_add(1)
        .saturating_mul(set.values().len() as u64);
    if n <= DENSE_PILE_LIMIT && moves <= DENSE_MOVE_LIMIT {
        let game = Subtraction {
            set: set.clone(),
            convention,
            max_pile: n,
        };
        let s = solve_dense(&game).map_err(|e| PileError::Solver(e.to_string()))?;
        let take = dense_best_move(&game, &s, &n).map(|to| n - to);
        return Ok(PileValue {
            outcome: s.outcome(n as u32),
            depth: s.depth(n as u32),
            take,
        });
    }
    let outcome = seq.outcome(n).ok_or(PileError::Beyond {
        pile: n,
        computed: seq.outcomes.len(),
    })?;
    Ok(PileValue {
        outcome,
        depth: None,
        take: winning_take(set, seq, n),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use zermelo::game::solve_reachable;

    fn set(v: &[u64]) -> SubtractionSet {
        SubtractionSet::new(v.iter().copied()).unwrap()
    }

    #[test]
    fn pile_values_by_the_solver_and_by_the_period_agree() {
        let s = set(&[1, 3, 4]);
        let seq = analyse(&s, Convention::Normal);
        for n in [0, 1, 2, 7, 100] {
            let v = pile_value(&s, Convention::Normal, &seq, n).unwrap();
            assert_eq!(Some(v.outcome), seq.outcome(n), "pile {n}");
            assert!(v.depth.is_some(), "small piles get depths");
        }
        let big = DENSE_PILE_LIMIT + 3;
        let v = pile_value(&s, Convention::Normal, &seq, big).unwrap();
        assert_eq!((Some(v.outcome), v.depth), (seq.outcome(big), None));
        if v.outcome == Outcome::Win {
            assert_eq!(seq.outcome(big - v.take.unwrap()), Some(Outcome::Lose));
        }
    }

    #[test]
    fn seed_subtract_one_or_two() {
        let s = set(&[1, 2]);
        let g = grundy_values(&s, 9);
        assert_eq!(
            g.iter().map(|v| v.0).collect::<Vec<_>>(),
            [0, 1, 2, 0, 1, 2, 0, 1, 2]
        );
        let seq = analyse(&s, Convention::Normal);
        assert_eq!(
            seq.periodicity,
            Some(Periodicity {
                preperiod: 0,
                period: 3
            })
        );
        assert_eq!(seq.outcome(u64::MAX), Some(Outcome::Lose)); // 2^64 - 1 = 0 mod 3
        assert_eq!(seq.grundy(u64::MAX - 2), Some(Nimber(1)));
    }

    #[test]
    fn known_periods() {
        // {1, 3, 4}: 0 1 0 1 2 3 2, period 7 from the start (Winning Ways).
        let seq = analyse(&set(&[1, 3, 4]), Convention::Normal);
        let g: Vec<u32> = seq.grundy.as_ref().unwrap()[..7]
            .iter()
            .map(|v| v.0)
            .collect();
        assert_eq!(g, [0, 1, 0, 1, 2, 3, 2]);
        assert_eq!(
            seq.periodicity,
            Some(Periodicity {
                preperiod: 0,
                period: 7
            })
        );
        // {2, 5, 6} has a preperiod: check the claim directly on the computed values.
        let seq = analyse(&set(&[2, 5, 6]), Convention::Normal);
        let p = seq.periodicity.unwrap();
        let g = seq.grundy.as_ref().unwrap();
        for n in p.preperiod as usize..g.len() - p.period as usize {
            assert_eq!(g[n], g[n + p.period as usize]);
        }
    }

    #[test]
    fn misere_matches_dense_and_explore() {
        let s = set(&[2, 3, 7]);
        let game = Subtraction {
            set: s.clone(),
            convention: Convention::Misere,
            max_pile: 80,
        };
        let dense = solve_dense(&game).unwrap();
        let solved = solve_reachable(&game, 0..=80).unwrap();
        let seq = outcomes(&s, Convention::Misere, 81);
        for n in 0..=80u64 {
            assert_eq!(dense.outcome(n as u32), seq[n as usize], "pile {n}");
            assert_eq!(solved.value(&n).unwrap().outcome(), seq[n as usize]);
            assert_eq!(solved.value(&n).unwrap().depth(), dense.depth(n as u32));
        }
    }

    #[test]
    fn rejects_bad_sets() {
        assert_eq!(SubtractionSet::new([]), Err(SetError::Empty));
        assert_eq!(SubtractionSet::new([0, 1]), Err(SetError::Zero));
        assert!(SubtractionSet::new([MAX_SUBTRACTION + 1]).is_err());
        assert_eq!(set(&[3, 1, 3]).values(), &[1, 3]);
    }
}
