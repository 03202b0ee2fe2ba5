//! Fixpoint iteration with justifications (`fpj`).
//!
//! Fixpoint iteration evaluates the nested fixpoint formula of the parity condition directly:
//! every vertex is presumed won by the player its priority favours unless it is marked a
//! *distraction* (then by the other). Going up through the vertices in order of priority, a
//! vertex whose owner cannot move to a vertex it presumes won (or, for the opponent, whose owner
//! can) becomes a distraction; after a block of vertices of one parity, if any became a
//! distraction, every distraction of the lower blocks is forgotten and the iteration starts
//! again from the bottom. A *justification* is the move (or, when the owner loses, all moves)
//! that a vertex's one-step winner rests on; with justifications, a new distraction forgets only
//! the lower vertices whose justification passes through it (followed backwards, transitively),
//! and only those are evaluated again. When a pass changes nothing, the presumed winners are the
//! winners and the justifying moves their strategies.
//!
//! Cost: exponential in the worst case (the fixpoint iteration may restart once per vertex of
//! each lower block for every change above); O(V + E) per pass without resets, and a reset
//! costs the predecessors it visits. No recursion, O(V) memory besides the arena. Good on random
//! and synthesis games, where few distractions cascade, and on ladders; bad where the nested
//! fixpoints alternate deeply: Friedmann's games and `two_counters` (BENCHMARKS.md).
//!
//! Reference: R. Lapauw, M. Bruynooghe, M. Denecker, "Improving parity game solvers with
//! justifications", VMCAI 2020; fixpoint iteration with distractions: T. van Dijk and B. Rubbens,
//! "Simple fixpoint iteration to solve parity games", GandALF 2019; Oink's `fpj` for the
//! block-wise order.
//!
//! Invariant: a justified vertex's presumed winner equals its one-step winner under the
//! presumed winners of the vertices its justification names (its move, or all its moves when
//! its owner loses it); a vertex whose presumed winner changes unjustifies (and resets) every
//! justified vertex that names it, transitively, so the invariant survives every change.

use crate::budget::Budget;
use crate::solution::NO_MOVE;
use crate::{favours, Arena, ParitySolution};
use zermelo::graph::Predecessors;
use zermelo::{NodeId, Player};

/// Solves the subgame `alive` of `arena` into `solution`, or gives up when `budget` runs out
/// (counted in vertices evaluated and moves and predecessors scanned), returning the whole
/// subgame: nothing is certain before the last pass.
pub(crate) fn fpj_sub(
    arena: &Arena,
    alive: Vec<bool>,
    solution: &mut ParitySolution,
    budget: &mut Budget,
) -> Result<(), Vec<bool>> {
    let mut order: Vec<NodeId> = arena.vertices().filter(|&v| alive[v as usize]).collect();
    order.sort_by_key(|&v| (arena.priority(v), v));
    let mut f = Fpj::new(arena, &alive, &order);
    if !f.run(budget) {
        return Err(alive);
    }
    for &v in &order {
        let winner = f.presumed(v);
        solution.set_winner(v, winner);
        let m = f.strategy[v as usize];
        if arena.owner(v) == winner && m != NO_MOVE {
            solution.set_move(v, m);
        }
    }
    Ok(())
}

struct Fpj<'a> {
    arena: &'a Arena,
    alive: &'a [bool],
    order: &'a [NodeId],
    /// The position of a vertex in `order`.
    position: Vec<u32>,
    /// The move justifying a vertex won by its owner; `NO_MOVE` when its owner loses it (then
    /// every move justifies it).
    strategy: Vec<NodeId>,
    justified: Vec<bool>,
    distraction: Vec<bool>,
    /// Vertices evaluated and moves and predecessors scanned since the budget was charged.
    work: u64,
}

impl<'a> Fpj<'a> {
    fn new(arena: &'a Arena, alive: &'a [bool], order: &'a [NodeId]) -> Fpj<'a> {
        let n = arena.vertex_count();
        let mut position = vec![u32::MAX; n];
        for (i, &v) in order.iter().enumerate() {
            position[v as usize] = i as u32;
        }
        Fpj {
            arena,
            alive,
            order,
            position,
            strategy: vec![NO_MOVE; n],
            justified: vec![false; n],
            distraction: vec![false; n],
            work: 0,
        }
    }

    /// Who `v` is presumed won by.
    #[inline]
    fn presumed(&self, v: NodeId) -> Player {
        let p = favours(self.arena.priority(v));
        if self.distraction[v as usize] {
            p.other()
        } else {
            p
        }
    }

    /// The one-step winner of `v` and the move that justifies it (`NO_MOVE` if its owner loses).
    fn one_step(&mut self, v: NodeId) -> (Player, NodeId) {
        let owner = self.arena.owner(v);
        self.work += 1 + self.arena.successors(v).len() as u64;
        for &w in self.arena.successors(v) {
            if self.alive[w as usize] && self.presumed(w) == owner {
                return (owner, w);
            }
        }
        (owner.other(), NO_MOVE)
    }

    /// Runs to the fixpoint (true), or stops when `budget` runs out (false).
    fn run(&mut self, budget: &mut Budget) -> bool {
        let n = self.order.len();
        let mut queue: Vec<NodeId> = Vec::new();
        let mut i = 0;
        let mut block_start = 0;
        let mut changed = false;
        while block_start < n {
            let parity = favours(self.arena.priority(self.order[block_start]));
            let at_end = i == n || favours(self.arena.priority(self.order[i])) != parity;
            if at_end {
                if !budget.spend(std::mem::take(&mut self.work)) {
                    return false;
                }
                if changed {
                    // Forget what rested on the new distractions; scan again from the lowest
                    // vertex forgotten, or the start of this block. Everything below is
                    // justified, so a block may start there.
                    i = i.min(block_start).min(self.unjustify(&mut queue));
                    changed = false;
                } else {
                    // Nothing in the block changed: its evaluations are justified.
                    for &v in &self.order[block_start..i] {
                        self.justified[v as usize] = true;
                    }
                }
                block_start = i;
                continue;
            }
            let v = self.order[i];
            i += 1;
            if self.justified[v as usize] {
                continue;
            }
            let (winner, by) = self.one_step(v);
            self.strategy[v as usize] = by;
            if winner != parity {
                self.distraction[v as usize] = true;
                self.justified[v as usize] = true;
                queue.push(v);
                changed = true;
            }
        }
        true
    }

    /// Unjustifies and resets, transitively, every justified vertex whose justification names
    /// a vertex of `queue` (the vertices whose presumed winner changed); returns the lowest
    /// position reset (`usize::MAX` if none).
    fn unjustify(&mut self, queue: &mut Vec<NodeId>) -> usize {
        let mut lowest = usize::MAX;
        while let Some(v) = queue.pop() {
            self.work += 1 + self.arena.predecessors(v).len() as u64;
            for &u in self.arena.predecessors(v) {
                let s = self.strategy[u as usize];
                if self.alive[u as usize] && self.justified[u as usize] && (s == NO_MOVE || s == v)
                {
                    self.justified[u as usize] = false;
                    self.distraction[u as usize] = false;
                    queue.push(u);
                    lowest = lowest.min(self.position[u as usize] as usize);
                }
            }
        }
        lowest
    }
}
