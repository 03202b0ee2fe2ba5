//! Strategy improvement (`si`): Even improves a strategy that may stop the play, Odd answers
//! with a best response, until Even has no improving switch.
//!
//! Every vertex may *halt* (end the play) instead of moving. A pair of strategies gives every
//! vertex one successor, so a play either halts or runs into a cycle. Its value is, from worst
//! to best for Even: a cycle whose top priority is odd; a play that Even halts; a play that Odd
//! halts; a cycle whose top priority is even. Two plays that halt the same way compare by the
//! count of each priority seen before halting, from the highest priority down (more even
//! priorities, fewer odd ones are better for Even). Halting is never good for the one who
//! halts, it only makes a start without cycles: Odd halts only where every move leads to an
//! even cycle. Odd's best response to Even's strategy comes from improvement from Odd's side
//! (switch to the option of lowest value until none is lower; a switch that closes a cycle
//! closes an odd one), then Even switches every vertex with a better option to its best one.
//! When Even has no improving switch, Even wins exactly the vertices where Odd halts or an
//! even cycle is reached (with its strategy) and Odd the others (with its best response): an
//! Even strategy that won more would have a higher value, and improvement stops only at an
//! optimum.
//!
//! Cost: exponential in the worst case (Friedmann's games are built against it); each
//! evaluation is O(V · d) (a vector of d counters per vertex, d the distinct priorities of
//! the subgame) and each switch round O(E · d) at worst; sequential and deterministic. Memory:
//! V · d counters, so above [`MAX_COUNTERS`] the subgame is handed to priority promotion
//! instead (the ladders with tens of thousands of priorities). Good on two-counters and
//! random games with few priorities; bad on Friedmann's games and on long ladders, where
//! values are long paths and the best response takes many rounds (BENCHMARKS.md).
//!
//! Reference: H. Björklund, S. Vorobyov, "A combinatorial strongly subexponential strategy
//! improvement algorithm for mean payoff games", DAM 2007 (the halting reduction); J. Fearnley,
//! "Efficient parallel strategy improvement for parity games", CAV 2017 (priority-count
//! valuations, best response by improvement); Oink's `psi` (T. van Dijk). Not parallel: the
//! evaluation is a pass over a forest that rayon did not speed up at these sizes.
//!
//! Invariant: the values are those of the current strategy pair (recomputed after every round
//! of switches); a switch is made only to a strictly better option, so Odd's rounds and Even's
//! rounds each strictly improve the values of their player and terminate.

use std::cmp::Ordering;

use crate::budget::Budget;
use crate::solution::NO_MOVE;
use crate::{favours, promotion, Arena, ParitySolution, Priority};
use zermelo::{NodeId, Player};

/// The most counters (vertices times distinct priorities) the valuation may hold: 2^26, 256 MiB.
pub(crate) const MAX_COUNTERS: usize = 1 << 26;

/// The successor of an Even vertex that halts.
const HALT: u32 = u32::MAX;
/// The successor of an Odd vertex that halts (worse for Odd than any play Even halts).
const HALT_HIGH: u32 = u32::MAX - 1;

/// Solves the subgame `alive` of `arena` into `solution`; it never gives up (the budget is
/// passed to priority promotion when the valuation would not fit).
pub(crate) fn si_sub(
    arena: &Arena,
    alive: Vec<bool>,
    solution: &mut ParitySolution,
    budget: &mut Budget,
) -> Result<(), Vec<bool>> {
    let vertices: Vec<NodeId> = arena.vertices().filter(|&v| alive[v as usize]).collect();
    let mut distinct: Vec<Priority> = vertices.iter().map(|&v| arena.priority(v)).collect();
    distinct.sort_unstable();
    distinct.dedup();
    if vertices.len().saturating_mul(distinct.len()) > MAX_COUNTERS {
        let dense = crate::compress_priorities(arena);
        return promotion::promotion_sub(&dense, alive, solution, budget);
    }
    let mut si = Si::new(arena, &alive, vertices, &distinct);
    si.run();
    for (i, &v) in si.vertices.iter().enumerate() {
        let winner = if matches!(si.kind[i], Kind::Top | Kind::High) {
            Player::Zero
        } else {
            Player::One
        };
        solution.set_winner(v, winner);
        if arena.owner(v) == winner {
            let next = si.next[i];
            debug_assert!(next < HALT_HIGH, "a vertex won by its owner does not halt");
            let to = if next < HALT_HIGH {
                si.vertices[next as usize]
            } else {
                NO_MOVE
            };
            solution.set_move(v, to);
        }
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// A cycle with an odd top priority: worst for Even.
    Bottom,
    /// Even halts after the counted priorities.
    Finite,
    /// Odd halts after the counted priorities: Odd could not avoid the even cycles otherwise.
    High,
    /// A cycle with an even top priority: best for Even.
    Top,
}

struct Si<'a> {
    arena: &'a Arena,
    /// The subgame's vertices; the solver works with their indices.
    vertices: Vec<NodeId>,
    /// Successors as indices into `vertices` (moves out of the subgame dropped).
    start: Vec<usize>,
    succ: Vec<u32>,
    /// The rank of each vertex's priority among the subgame's, and whether a rank is even.
    rank: Vec<u32>,
    even_rank: Vec<bool>,
    /// The current strategies of both players: a successor index, or `HALT` (Even only).
    next: Vec<u32>,
    kind: Vec<Kind>,
    /// `d` counters per vertex (valid where `kind` is `Finite`).
    counts: Vec<u32>,
    d: usize,
}

impl<'a> Si<'a> {
    fn new(
        arena: &'a Arena,
        alive: &[bool],
        vertices: Vec<NodeId>,
        distinct: &[Priority],
    ) -> Si<'a> {
        let mut local = vec![u32::MAX; arena.vertex_count()];
        for (i, &v) in vertices.iter().enumerate() {
            local[v as usize] = i as u32;
        }
        let mut start = Vec::with_capacity(vertices.len() + 1);
        let mut succ = Vec::new();
        for &v in &vertices {
            start.push(succ.len());
            succ.extend(
                arena
                    .successors(v)
                    .iter()
                    .filter(|&&w| alive[w as usize])
                    .map(|&w| local[w as usize]),
            );
        }
        start.push(succ.len());
        let rank: Vec<u32> = vertices
            .iter()
            .map(|&v| distinct.binary_search(&arena.priority(v)).expect("listed") as u32)
            .collect();
        let even_rank = distinct
            .iter()
            .map(|&p| favours(p) == Player::Zero)
            .collect();
        let n = vertices.len();
        // Both players halt everywhere: no cycle yet.
        let next = (0..n)
            .map(|i| match arena.owner(vertices[i]) {
                Player::Zero => HALT,
                Player::One => HALT_HIGH,
            })
            .collect();
        Si {
            arena,
            vertices,
            start,
            succ,
            rank,
            even_rank,
            next,
            kind: vec![Kind::Finite; n],
            counts: vec![0; n * distinct.len()],
            d: distinct.len(),
        }
    }

    fn run(&mut self) {
        loop {
            // Odd's best response to Even's strategy.
            loop {
                self.evaluate();
                if !self.switch(Player::One) {
                    break;
                }
            }
            if !self.switch(Player::Zero) {
                return;
            }
        }
    }

    fn owner(&self, i: usize) -> Player {
        self.arena.owner(self.vertices[i])
    }

    /// Compares the values of indices `a` and `b` (`HALT`, `HALT_HIGH`: the empty count) for
    /// Even.
    fn compare(&self, a: u32, b: u32) -> Ordering {
        let kind = |x: u32| match x {
            HALT => Kind::Finite,
            HALT_HIGH => Kind::High,
            _ => self.kind[x as usize],
        };
        let (ka, kb) = (kind(a), kind(b));
        if ka != kb || matches!(ka, Kind::Top | Kind::Bottom) {
            return (ka as u8).cmp(&(kb as u8));
        }
        let d = self.d;
        let count = |x: u32, r: usize| {
            if x >= HALT_HIGH {
                0
            } else {
                self.counts[x as usize * d + r]
            }
        };
        for r in (0..d).rev() {
            let (ca, cb) = (count(a, r), count(b, r));
            if ca != cb {
                return if self.even_rank[r] {
                    ca.cmp(&cb)
                } else {
                    cb.cmp(&ca)
                };
            }
        }
        Ordering::Equal
    }

    /// Switches every vertex of `player` to its best option if that is strictly better than
    /// its current one; returns whether any switched.
    fn switch(&mut self, player: Player) -> bool {
        let better = match player {
            Player::Zero => Ordering::Greater,
            Player::One => Ordering::Less,
        };
        let mut switched = false;
        for i in 0..self.vertices.len() {
            if self.owner(i) != player {
                continue;
            }
            let mut best = self.next[i];
            let halt = match player {
                Player::Zero => HALT,
                Player::One => HALT_HIGH,
            };
            if self.compare(halt, best) == better {
                best = halt;
            }
            for &w in &self.succ[self.start[i]..self.start[i + 1]] {
                if self.compare(w, best) == better {
                    best = w;
                }
            }
            if best != self.next[i] {
                self.next[i] = best;
                switched = true;
            }
        }
        switched
    }

    /// The values of the current strategy pair: the halting trees top-down, then the cycles
    /// and what leads into them.
    fn evaluate(&mut self) {
        let n = self.vertices.len();
        let d = self.d;
        // Who moves to each vertex (the strategy graph reversed), as rows.
        let mut row = vec![0u32; n + 1];
        for &t in &self.next {
            if t < HALT_HIGH {
                row[t as usize + 1] += 1;
            }
        }
        for i in 0..n {
            row[i + 1] += row[i];
        }
        let mut fill = row.clone();
        let mut into = vec![0u32; n];
        for (i, &t) in self.next.iter().enumerate() {
            if t < HALT_HIGH {
                into[fill[t as usize] as usize] = i as u32;
                fill[t as usize] += 1;
            }
        }
        let mut done = vec![false; n];
        let mut stack: Vec<u32> = Vec::new();
        for i in 0..n {
            if self.next[i] >= HALT_HIGH {
                let c = &mut self.counts[i * d..(i + 1) * d];
                c.fill(0);
                c[self.rank[i] as usize] = 1;
                self.kind[i] = if self.next[i] == HALT {
                    Kind::Finite
                } else {
                    Kind::High
                };
                done[i] = true;
                stack.push(i as u32);
            }
        }
        // Top-down over the halting trees.
        while let Some(p) = stack.pop() {
            let p = p as usize;
            for &c in &into[row[p] as usize..row[p + 1] as usize] {
                let c = c as usize;
                self.counts.copy_within(p * d..(p + 1) * d, c * d);
                self.counts[c * d + self.rank[c] as usize] += 1;
                self.kind[c] = self.kind[p];
                done[c] = true;
                stack.push(c as u32);
            }
        }
        // Everything else runs into a cycle: find each cycle's top, then spread it.
        let mut on_path = vec![false; n];
        for i in 0..n {
            if done[i] {
                continue;
            }
            let mut path = Vec::new();
            let mut x = i;
            while !done[x] && !on_path[x] {
                on_path[x] = true;
                path.push(x);
                x = self.next[x] as usize;
            }
            for &y in &path {
                on_path[y] = false;
            }
            let kind = if done[x] {
                self.kind[x]
            } else {
                // `x` is on a new cycle.
                let mut top = self.rank[x];
                let mut y = self.next[x] as usize;
                while y != x {
                    top = top.max(self.rank[y]);
                    y = self.next[y] as usize;
                }
                if self.even_rank[top as usize] {
                    Kind::Top
                } else {
                    Kind::Bottom
                }
            };
            for &y in path.iter().rev() {
                self.kind[y] = kind;
                done[y] = true;
            }
        }
    }
}
