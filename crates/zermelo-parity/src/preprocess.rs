//! Preprocessing before a solver runs: priority compression and winning self-loops.
//!
//! Cost: O(V + E + d log d).
//!
//! * **Priority compression** (Oink's `--compress`, PGSolver's priority compression): the
//!   distinct priorities, sorted, are renumbered so that each maximal run of one parity becomes
//!   one priority (the lowest run keeps its parity: 0 or 1). Which priority is the highest seen
//!   infinitely often, and its parity, is unchanged on every play, so regions and strategies are
//!   those of the original game; Zielonka's recursion depth and PP's region count shrink.
//! * **Winning self-loops**: a vertex with a move to itself whose priority favours its owner is
//!   won by the owner (it stays forever). Those vertices, attracted for their player in the
//!   whole game, are dominions; the solver only sees what is left (a subgame: every remaining
//!   vertex keeps a successor in it).

use crate::attractor::Attractor;
use crate::region::Masked;
use crate::solution::NO_MOVE;
use crate::{favours, Arena, ParitySolution, Priority};
use zermelo::{NodeId, Player};

/// Renumbers priorities densely, merging adjacent runs of one parity (see the module docs).
pub fn compress_priorities(arena: &Arena) -> Arena {
    let mut distinct: Vec<Priority> = arena.priorities().to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let mut new_of: Vec<(Priority, Priority)> = Vec::with_capacity(distinct.len());
    let mut next: Priority = 0;
    for (i, &p) in distinct.iter().enumerate() {
        if i == 0 {
            next = p % 2;
        } else if p % 2 != distinct[i - 1] % 2 {
            next += 1;
        }
        new_of.push((p, next));
    }
    let map = |p: Priority| {
        let i = new_of.partition_point(|&(old, _)| old < p);
        new_of[i].1
    };
    arena.with_priorities(arena.priorities().iter().map(|&p| map(p)).collect())
}

/// Number of distinct priorities.
pub(crate) fn distinct_priorities(arena: &Arena) -> usize {
    let mut d: Vec<Priority> = arena.priorities().to_vec();
    d.sort_unstable();
    d.dedup();
    d.len()
}

/// Solves the winning self-loops and their attractors into `solution`; returns the mask of the
/// vertices left for a solver.
pub fn solve_self_loops(arena: &Arena, solution: &mut ParitySolution) -> Vec<bool> {
    let n = arena.vertex_count();
    let mut alive = vec![true; n];
    let mut inside = vec![false; n];
    let mut strategy = vec![NO_MOVE; n];
    let mut attractor = Attractor::new(n);
    for player in Player::BOTH {
        let mut queue: Vec<NodeId> = arena
            .vertices()
            .filter(|&v| {
                alive[v as usize]
                    && arena.owner(v) == player
                    && favours(arena.priority(v)) == player
                    && arena.successors(v).contains(&v)
            })
            .collect();
        for &v in &queue {
            inside[v as usize] = true;
            strategy[v as usize] = v;
        }
        let mut region = Masked {
            alive: &alive,
            inside: &mut inside,
            strategy: &mut strategy,
        };
        attractor.attract(arena, player, &mut region, &mut queue);
        for &v in &queue {
            let mv = (arena.owner(v) == player).then_some(strategy[v as usize]);
            solution.set(v, player, mv);
            alive[v as usize] = false;
            inside[v as usize] = false;
        }
    }
    alive
}
