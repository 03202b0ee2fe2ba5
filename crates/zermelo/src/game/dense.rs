//! Retrograde analysis over a dense ranked index space, with no forward edges stored.
//!
//! Two ways to find predecessors:
//! * [`solve_dense`] generates them with the game's [`Unmoves`]: memory is one counter byte
//!   and the [`Solution`] (5 bytes) per index, plus the FIFO queue (4 bytes per decided index);
//! * [`solve_dense_reverse`], for games without un-moves, first builds the reverse edges in one
//!   counting pass (moves are generated twice and never stored forward): 4 more bytes per move
//!   and 8 per index.
//!
//! Cost: O(V + E) move (and un-move) generations. The algorithm is that of
//! [`solve::retrograde`](crate::solve::retrograde) (seed 000, seed 003 §3–§7) and keeps its
//! invariant: the queue holds indices in non-decreasing depth, so the first LOSE child to reach
//! a predecessor is a shallowest one (fast win) and the WIN child that zeroes a counter is a
//! deepest one (slow loss). Labels and depths therefore equal those of exploring the same game
//! and solving the explicit graph; `tests/games.rs` checks that they do.
//!
//! Holes (indices without a position) and tied terminals come out as draws without a depth; in
//! the explicit graph of [`dense_graph`] they are terminals with a `draw` verdict, so that
//! [`solve::verify`](crate::solve::verify) checks a dense solution unchanged.

use std::collections::HashMap;

use crate::game::{GameError, LineStop, PositionLine, Ranked, Unmoves, Value};
use crate::graph::{Csr, GraphBuilder, Rules, MAX_NODES};
use crate::outcome::{NodeId, Outcome};
use crate::solve::Solution;

/// Solves a ranked game backwards with its un-moves; the [`Solution`] is indexed by rank.
///
/// # Errors
/// [`GameError::TooManyPositions`] if the index space is larger than [`MAX_NODES`].
pub fn solve_dense<G: Ranked + Unmoves>(game: &G) -> Result<Solution, GameError> {
    let mut wave = Wave::seed(game, |_, _| {})?;
    let mut before = Vec::new();
    wave.propagate(|v, preds| {
        let position = game
            .unrank(u64::from(v))
            .expect("only positions are queued");
        before.clear();
        game.unmoves(&position, &mut before);
        preds.extend(before.iter().map(|q| rank_of(game, q)));
    });
    Ok(wave.solution)
}

/// Solves a ranked game without un-moves: one pass counts each index's in-degree, a second
/// fills the reverse rows, then the wave runs over them. The [`Solution`] is indexed by rank.
///
/// # Errors
/// [`GameError::TooManyPositions`] if the index space is larger than [`MAX_NODES`].
pub fn solve_dense_reverse<G: Ranked>(game: &G) -> Result<Solution, GameError> {
    let n = checked_count(game)?;
    let mut offsets = vec![0u64; n + 1];
    let mut wave = Wave::seed(game, |_, targets| {
        for t in targets {
            offsets[rank_of(game, t) as usize + 1] += 1;
        }
    })?;
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let mut sources = vec![0 as NodeId; offsets[n] as usize];
    let mut cursor = offsets[..n].to_vec();
    let mut targets = Vec::new();
    for u in 0..n as NodeId {
        // Only indices with moves (open counters) contributed edges in the counting pass.
        let Some(p) = wave
            .counters
            .is_open(u)
            .then(|| game.unrank(u64::from(u)))
            .flatten()
        else {
            continue;
        };
        targets.clear();
        game.moves(&p, &mut targets);
        for t in &targets {
            let slot = &mut cursor[rank_of(game, t) as usize];
            sources[*slot as usize] = u;
            *slot += 1;
        }
    }
    drop(cursor);
    wave.propagate(|v, preds| {
        let (a, b) = (offsets[v as usize], offsets[v as usize + 1]);
        preds.extend_from_slice(&sources[a as usize..b as usize]);
    });
    Ok(wave.solution)
}

/// The explicit graph of a ranked game over its whole index space: node `i` is index `i`.
/// Holes are terminals with a `draw` verdict (no moves), finished positions carry their
/// verdicts. Meant for checking dense solutions with [`solve::verify`](crate::solve::verify)
/// and for small games; it stores every move twice.
///
/// # Errors
/// [`GameError::TooManyPositions`] if the index space is larger than [`MAX_NODES`]; a
/// [`GameError::Graph`] if a position has more than `u32::MAX` moves.
pub fn dense_graph<G: Ranked>(game: &G) -> Result<(Csr, Rules), GameError> {
    let n = checked_count(game)?;
    let mut builder = GraphBuilder::new(n as u64)?;
    let mut verdicts = Vec::new();
    let mut targets = Vec::new();
    for i in 0..n as u64 {
        let Some(p) = game.unrank(i) else {
            verdicts.push((i, Outcome::Draw));
            continue;
        };
        if let Some(v) = game.verdict(&p) {
            verdicts.push((i, v));
            continue;
        }
        targets.clear();
        game.moves(&p, &mut targets);
        for t in &targets {
            builder.add_edge(i, game.rank(t))?;
        }
    }
    let rules = Rules::with_convention(game.convention())
        .with_verdicts(n, verdicts)
        .expect("one verdict per index, each in range");
    Ok((builder.build()?, rules))
}

/// Values looked up by index: a [`Solution`] indexed by rank, or a
/// [`CompactSolution`](crate::game::CompactSolution).
pub trait IndexValues {
    /// The value of `index`.
    fn index_value(&self, index: u64) -> Value;
}

impl IndexValues for Solution {
    fn index_value(&self, index: u64) -> Value {
        Value::of(self, index as NodeId)
    }
}

impl IndexValues for crate::game::CompactSolution {
    fn index_value(&self, index: u64) -> Value {
        self.value(index)
    }
}

/// The value of `position` in a dense solution.
pub fn dense_value<G: Ranked, S: IndexValues + ?Sized>(
    game: &G,
    solution: &S,
    position: &G::Position,
) -> Value {
    solution.index_value(game.rank(position))
}

/// The optimal move from `position` in a dense solution, by the rule of
/// [`solve::best_move`](crate::solve::best_move): a WIN moves to a LOSE child of least depth, a
/// LOSE to a child of greatest depth, a DRAW to a DRAW child; ties go to the lowest rank.
/// `None` at a terminal.
pub fn dense_best_move<G: Ranked, S: IndexValues + ?Sized>(
    game: &G,
    solution: &S,
    position: &G::Position,
) -> Option<G::Position> {
    if game.verdict(position).is_some() {
        return None;
    }
    let mut children = Vec::new();
    game.moves(position, &mut children);
    let valued = children.into_iter().map(|c| {
        let r = game.rank(&c);
        (r, solution.index_value(r), c)
    });
    let best = match dense_value(game, solution, position).outcome() {
        Outcome::Win => valued
            .filter(|(_, v, _)| v.outcome() == Outcome::Lose)
            .min_by_key(|(r, v, _)| (v.depth(), *r)),
        Outcome::Lose => valued.min_by_key(|(r, v, _)| (std::cmp::Reverse(v.depth()), *r)),
        Outcome::Draw => valued
            .filter(|(_, v, _)| v.outcome() == Outcome::Draw)
            .min_by_key(|(r, _, _)| *r),
    };
    best.map(|(_, _, c)| c)
}

/// Follows [`dense_best_move`] from `start` until a terminal or a repetition, or until
/// `max_plies` moves have been made ([`LineStop::Cut`]). A decided start reaches a terminal in
/// exactly its depth; a drawn one repeats.
pub fn dense_principal_line<G: Ranked, S: IndexValues + ?Sized>(
    game: &G,
    solution: &S,
    start: &G::Position,
    max_plies: usize,
) -> PositionLine<G::Position> {
    let mut positions = vec![start.clone()];
    let mut seen = HashMap::from([(game.rank(start), 0usize)]);
    while positions.len() <= max_plies {
        let Some(next) = dense_best_move(game, solution, &positions[positions.len() - 1]) else {
            return PositionLine {
                positions,
                end: LineStop::Terminal,
            };
        };
        if let Some(&i) = seen.get(&game.rank(&next)) {
            return PositionLine {
                positions,
                end: LineStop::Repeats(i),
            };
        }
        seen.insert(game.rank(&next), positions.len());
        positions.push(next);
    }
    PositionLine {
        positions,
        end: LineStop::Cut,
    }
}

fn checked_count<G: Ranked>(game: &G) -> Result<usize, GameError> {
    let n = game.index_count();
    if n > MAX_NODES {
        return Err(GameError::TooManyPositions { limit: MAX_NODES });
    }
    Ok(n as usize)
}

#[inline]
fn rank_of<G: Ranked>(game: &G, position: &G::Position) -> NodeId {
    let r = game.rank(position);
    debug_assert!(
        r < game.index_count(),
        "rank {r} out of range for {position:?}"
    );
    r as NodeId
}

/// The state of the backward wave: per-index move counters, the labels and depths found so
/// far (written straight into the [`Solution`]), and the FIFO queue.
struct Wave {
    counters: Counters,
    solution: Solution,
    queue: Vec<NodeId>,
}

impl Wave {
    /// Labels holes, terminals and stuck positions, counts every other index's moves, and
    /// queues the WIN/LOSE terminals (depth 0). `on_moves` sees each index's moves.
    fn seed<G: Ranked>(
        game: &G,
        mut on_moves: impl FnMut(NodeId, &[G::Position]),
    ) -> Result<Wave, GameError> {
        let n = checked_count(game)?;
        let stuck = game.convention().stuck_outcome();
        let mut wave = Wave {
            counters: Counters::new(n),
            solution: Solution::all_draws(n),
            queue: Vec::new(),
        };
        let mut targets = Vec::new();
        for u in 0..n as NodeId {
            let Some(p) = game.unrank(u64::from(u)) else {
                continue; // a hole: counter 0, a draw
            };
            let verdict = match game.verdict(&p) {
                Some(v) => v,
                None => {
                    targets.clear();
                    game.moves(&p, &mut targets);
                    if !targets.is_empty() {
                        wave.counters.set(u, targets.len());
                        on_moves(u, &targets);
                        continue;
                    }
                    stuck
                }
            };
            if verdict != Outcome::Draw {
                wave.solution.set(u, verdict, 0);
                wave.queue.push(u);
            }
        }
        Ok(wave)
    }

    /// Runs the wave to the end; `predecessors(v, buffer)` appends the predecessors of `v`
    /// (once per move into `v`) to an empty buffer.
    fn propagate(&mut self, mut predecessors: impl FnMut(NodeId, &mut Vec<NodeId>)) {
        let mut preds = Vec::new();
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            let d = self
                .solution
                .depth(v)
                .expect("queued indices are decided")
                .0
                + 1;
            let child_lost = self.solution.outcome(v) == Outcome::Lose;
            preds.clear();
            predecessors(v, &mut preds);
            for &u in &preds {
                if !self.counters.is_open(u) {
                    continue; // decided, terminal or a hole
                }
                if child_lost {
                    self.counters.close(u);
                    self.solution.set(u, Outcome::Win, d);
                    self.queue.push(u);
                } else if self.counters.decrement(u) {
                    self.solution.set(u, Outcome::Lose, d);
                    self.queue.push(u);
                }
            }
        }
    }
}

/// Moves not yet known to lead to a WIN child, one byte per index. Zero means "decided" (or
/// terminal, or a hole); the rare index with 255 moves or more keeps its count in a side map.
struct Counters {
    small: Vec<u8>,
    big: HashMap<NodeId, u32>,
}

const BIG: u8 = u8::MAX;

impl Counters {
    fn new(n: usize) -> Counters {
        Counters {
            small: vec![0; n],
            big: HashMap::new(),
        }
    }

    fn set(&mut self, u: NodeId, count: usize) {
        if count < usize::from(BIG) {
            self.small[u as usize] = count as u8;
        } else {
            self.small[u as usize] = BIG;
            self.big.insert(u, count as u32);
        }
    }

    #[inline]
    fn is_open(&self, u: NodeId) -> bool {
        self.small[u as usize] != 0
    }

    #[inline]
    fn close(&mut self, u: NodeId) {
        if self.small[u as usize] == BIG {
            self.big.remove(&u);
        }
        self.small[u as usize] = 0;
    }

    /// Decrements an open counter; true when it reaches zero.
    #[inline]
    fn decrement(&mut self, u: NodeId) -> bool {
        let c = &mut self.small[u as usize];
        if *c != BIG {
            *c -= 1;
            return *c == 0;
        }
        let big = self
            .big
            .get_mut(&u)
            .expect("a BIG counter lives in the map");
        *big -= 1;
        if *big < u32::from(BIG) {
            *c = *big as u8;
            self.big.remove(&u);
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_counters_spill_into_the_map_and_back() {
        let mut c = Counters::new(2);
        c.set(1, 300);
        assert!(c.is_open(1));
        for _ in 0..299 {
            assert!(!c.decrement(1));
        }
        assert!(c.big.is_empty());
        assert!(c.decrement(1));
        assert!(!c.is_open(1));
        c.set(0, 1000);
        c.close(0);
        assert!(!c.is_open(0) && c.big.is_empty());
    }
}
