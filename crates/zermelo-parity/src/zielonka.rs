//! Zielonka's recursive algorithm (McNaughton 1993, Zielonka 1998).
//!
//! Cost: O(E · V^d) in the worst case (d priorities; Friedmann's games reach it), usually a few
//! attractors per priority. Memory: O(V) besides the arena, recursion depth at most the number
//! of distinct priorities (run on its own thread with a stack to match).
//!
//! Reference: W. Zielonka, "Infinite games on finitely coloured graphs with applications to
//! automata on infinite trees", TCS 200 (1998); the loop form of the second recursive call as in
//! Oink (T. van Dijk, TACAS 2018).
//!
//! Invariant: on entry and on exit of `solve`, `alive` marks exactly the vertices of the
//! subgame, which is a trap for neither player to leave (every vertex keeps a successor in it).
//! With `p` the top priority and `α` the player it favours: `A = Attr_α(priority p)`; if the
//! opponent wins nothing in `G \ A`, α wins all of `G`; otherwise the opponent's region there,
//! attracted, is won by the opponent in `G` and is removed, and the loop goes on.

use crate::attractor::Attractor;
use crate::budget::Budget;
use crate::region::Masked;
use crate::{favours, Arena, ParitySolution};
use zermelo::{NodeId, Player};

/// Solves the subgame `alive` of `arena` into `solution` (other vertices are left untouched).
pub(crate) fn zielonka_sub(arena: &Arena, alive: Vec<bool>, solution: &mut ParitySolution) {
    let vertices: Vec<NodeId> = arena.vertices().filter(|&v| alive[v as usize]).collect();
    let n = arena.vertex_count();
    let mut z = Zielonka {
        arena,
        alive,
        inside: vec![false; n],
        winner: (0..n as NodeId).map(|v| solution.winner(v)).collect(),
        strategy: solution.moves().to_vec(),
        attractor: Attractor::new(n),
    };
    z.solve(vertices);
    for v in arena.vertices() {
        if z.alive[v as usize] {
            solution.set_winner(v, z.winner[v as usize]);
            solution.set_move(v, z.strategy[v as usize]);
        }
    }
}

/// [`zielonka_sub`] in the registry's shape: it never gives up.
pub(crate) fn zielonka_budget(
    arena: &Arena,
    alive: Vec<bool>,
    solution: &mut ParitySolution,
    _budget: &mut Budget,
) -> Result<(), Vec<bool>> {
    zielonka_sub(arena, alive, solution);
    Ok(())
}

struct Zielonka<'a> {
    arena: &'a Arena,
    alive: Vec<bool>,
    inside: Vec<bool>,
    winner: Vec<Player>,
    strategy: Vec<NodeId>,
    attractor: Attractor,
}

impl Zielonka<'_> {
    fn solve(&mut self, all: Vec<NodeId>) {
        let mut verts = all.clone();
        while let Some(top) = verts.iter().map(|&v| self.arena.priority(v)).max() {
            let alpha = favours(top);
            let heads: Vec<NodeId> = verts
                .iter()
                .copied()
                .filter(|&v| self.arena.priority(v) == top)
                .collect();
            let a = self.attract(alpha, heads.clone());
            let rest = self.remove(&a, &verts);
            self.solve(rest.clone());
            self.restore(&a);
            let lost: Vec<NodeId> = rest
                .iter()
                .copied()
                .filter(|&v| self.winner[v as usize] != alpha)
                .collect();
            if lost.is_empty() {
                for &v in &a {
                    self.winner[v as usize] = alpha;
                }
                for &h in &heads {
                    if self.arena.owner(h) == alpha {
                        let arena = self.arena;
                        let alive = &self.alive;
                        // A subgame keeps a successor of every vertex.
                        if let Some(&stay) =
                            arena.successors(h).iter().find(|&&w| alive[w as usize])
                        {
                            self.strategy[h as usize] = stay;
                        }
                    }
                }
                break;
            }
            let b = self.attract(alpha.other(), lost);
            for &v in &b {
                self.winner[v as usize] = alpha.other();
            }
            verts = self.remove(&b, &verts);
        }
        self.restore(&all);
    }

    /// `Attr_player(seeds)` in the current subgame, recording the attractor strategy.
    fn attract(&mut self, player: Player, mut queue: Vec<NodeId>) -> Vec<NodeId> {
        for &v in &queue {
            self.inside[v as usize] = true;
        }
        let mut region = Masked {
            alive: &self.alive,
            inside: &mut self.inside,
            strategy: &mut self.strategy,
        };
        self.attractor
            .attract(self.arena, player, &mut region, &mut queue);
        for &v in &queue {
            self.inside[v as usize] = false;
        }
        queue
    }

    /// Takes `set` out of the subgame; returns the vertices of `verts` still in it.
    fn remove(&mut self, set: &[NodeId], verts: &[NodeId]) -> Vec<NodeId> {
        for &v in set {
            self.alive[v as usize] = false;
        }
        verts
            .iter()
            .copied()
            .filter(|&v| self.alive[v as usize])
            .collect()
    }

    fn restore(&mut self, set: &[NodeId]) {
        for &v in set {
            self.alive[v as usize] = true;
        }
    }
}

/// Runs `work` where a recursion as deep as `distinct_priorities` fits: on the calling thread
/// for few priorities, else in a rayon pool of as many threads as the current one (so that the
/// parallel attractor sees the same thread count) whose stacks match the depth; on the calling
/// thread if no pool can be started.
pub(crate) fn on_deep_stack<T: Send>(
    distinct_priorities: usize,
    work: impl FnOnce() -> T + Send,
) -> T {
    // A level of the recursion takes well under 1 KiB of stack; any thread has 64 KiB to spare.
    if distinct_priorities <= 64 {
        return work();
    }
    let stack = (16 << 20) + distinct_priorities.saturating_mul(1 << 10);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(rayon::current_num_threads())
        .thread_name(|i| format!("zielonka-{i}"))
        .stack_size(stack)
        .build();
    match pool {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    }
}
