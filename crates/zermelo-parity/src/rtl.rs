//! Recursive tangle learning (RTL) and its one-sided variant (ORTL): tangle learning that,
//! instead of giving up on a region that is not closed, removes the leaking heads (and what the
//! opponent attracts to them) and decomposes the rest of the region recursively; a closed region
//! is decomposed again without its top head. ORTL searches only for one player's regions until
//! that player has no dominion left, then for the other's.
//!
//! Cost: exponential in the worst case; one search is O(V · (V + E)) at worst (a recursion per
//! region, each at least one head smaller), in practice a few attractors per region. The
//! recursion finds the small tangles that plain tangle learning only reaches after many passes:
//! van Dijk's two-counters games, built to be hard for tangle learning, take a handful of searches
//! (BENCHMARKS.md). Memory: O(V) plus the tangles; recursion depth at most the number of vertices
//! (run on a thread with a stack to match; deeper regions are not decomposed, which costs
//! speed, not correctness).
//!
//! Reference: T. van Dijk, "A Parity Game Tale of Two Counters", GandALF 2019 (the two-counters
//! games and the recursive, one-sided tangle learning that solves them); tangles and tangle
//! attraction as in `tangle.rs` (van Dijk, CAV 2018); Oink's `rtl` / `ortl` for the order of
//! the steps.
//!
//! Invariant: a region at priority `p` holds only vertices of priority at most `p`, its heads
//! are the vertices of the subgame with a priority of α's parity above every opponent priority
//! below `p`, and its strategy makes every cycle pass a head or stay in one attracted tangle;
//! so every strongly connected component with a head is won by α, and its opponent moves out of
//! it are its escapes, counted in the whole unsolved game. Tangles are therefore correct
//! whatever subgame the recursion works in, and one without escapes is a dominion (attracted
//! in the whole game and removed). A search of both players always learns a tangle or finds
//! a dominion: its lowest region is closed and its bottom components are new (`tangle.rs`).

use crate::budget::Budget;
use crate::solution::NO_MOVE;
use crate::tangle::{Region, Store};
use crate::{favours, Arena, ParitySolution, Priority};
use zermelo::graph::Predecessors;
use zermelo::{NodeId, Player};

/// Not in the subgame of any active search level.
const GONE: u32 = u32::MAX;
/// Deeper levels are not decomposed further (the stack is sized for this many).
pub(crate) const MAX_DEPTH: u32 = 1 << 16;
/// The "level" of an attraction in the whole unsolved game (for a dominion).
const WHOLE: u32 = GONE - 1;

/// Recursive tangle learning on the subgame `alive` of `arena`; gives up when `budget` runs
/// out, returning the unsolved subgame.
pub(crate) fn rtl_sub(
    arena: &Arena,
    alive: Vec<bool>,
    solution: &mut ParitySolution,
    budget: &mut Budget,
) -> Result<(), Vec<bool>> {
    run(arena, alive, &[None], solution, budget)
}

/// One-sided recursive tangle learning: Even's dominions first, then Odd's.
pub(crate) fn ortl_sub(
    arena: &Arena,
    alive: Vec<bool>,
    solution: &mut ParitySolution,
    budget: &mut Budget,
) -> Result<(), Vec<bool>> {
    let sides = [Some(Player::Zero), Some(Player::One)];
    run(arena, alive, &sides, solution, budget)
}

fn run(
    arena: &Arena,
    alive: Vec<bool>,
    sides: &[Option<Player>],
    solution: &mut ParitySolution,
    budget: &mut Budget,
) -> Result<(), Vec<bool>> {
    let n = arena.vertex_count();
    let mut order: Vec<NodeId> = arena.vertices().filter(|&v| alive[v as usize]).collect();
    order.sort_unstable_by_key(|&v| std::cmp::Reverse(arena.priority(v)));
    let mut rtl = Rtl {
        arena,
        unsolved: order.len(),
        alive,
        at: vec![GONE; n],
        inside: vec![false; n],
        removed: vec![false; n],
        strategy: vec![NO_MOVE; n],
        store: Store::new(n),
        solution,
        budget,
        work: 0,
    };
    for &only in sides {
        while rtl.unsolved > 0 {
            order.retain(|&v| rtl.alive[v as usize]);
            match rtl.search(&order, only, 0) {
                Progress::None => break,
                Progress::OutOfBudget => return Err(rtl.alive),
                Progress::Learned | Progress::Solved => {}
            }
        }
    }
    if rtl.unsolved > 0 {
        // Both players' searches end only when the game is solved (module docs).
        debug_assert!(false, "recursive tangle learning stopped early");
        let rest = std::mem::take(&mut rtl.alive);
        crate::zielonka::zielonka_sub(arena, rest, rtl.solution);
    }
    Ok(())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Progress {
    None,
    Learned,
    /// A dominion was solved: every level returns, the search restarts.
    Solved,
    /// The budget ran out: every level returns.
    OutOfBudget,
}

struct Rtl<'a> {
    arena: &'a Arena,
    alive: Vec<bool>,
    unsolved: usize,
    /// The level whose remaining subgame holds the vertex, or [`GONE`].
    at: Vec<u32>,
    /// In the region being built.
    inside: Vec<bool>,
    /// Scratch: taken out of a region before recursing.
    removed: Vec<bool>,
    strategy: Vec<NodeId>,
    store: Store,
    solution: &'a mut ParitySolution,
    budget: &'a mut Budget,
    /// Vertices popped and moves scanned since the budget was last charged.
    work: u64,
}

impl Rtl<'_> {
    /// Decomposes the subgame `sub` (sorted by descending priority) into regions of the
    /// players `only` allows, learning the tangles of closed ones and recursing into the rest
    /// of each region. `depth` is the recursion level.
    fn search(&mut self, sub: &[NodeId], only: Option<Player>, depth: u32) -> Progress {
        for &v in sub {
            self.at[v as usize] = depth;
        }
        let progress = self.regions(sub, only, depth);
        for &v in sub {
            self.at[v as usize] = GONE;
        }
        progress
    }

    fn regions(&mut self, sub: &[NodeId], only: Option<Player>, depth: u32) -> Progress {
        let arena = self.arena;
        let mut progress = Progress::None;
        let mut i = 0;
        loop {
            while i < sub.len() && self.at[sub[i] as usize] != depth {
                i += 1;
            }
            let Some(&top) = sub.get(i) else {
                return progress;
            };
            if !self.budget.spend(std::mem::take(&mut self.work)) {
                return Progress::OutOfBudget;
            }
            let p = arena.priority(top);
            let alpha = favours(p);
            if only.is_some_and(|o| o != alpha) {
                // The other player's top stays in the subgame, out of every region.
                i += 1;
                continue;
            }
            let mut heads = Vec::new();
            while let Some(&v) = sub.get(i) {
                if self.at[v as usize] == depth {
                    if favours(arena.priority(v)) != alpha {
                        break;
                    }
                    self.inside[v as usize] = true;
                    self.strategy[v as usize] = NO_MOVE;
                    heads.push(v);
                }
                i += 1;
            }
            let lowest_head = arena.priority(*heads.last().expect("top is a head"));
            let region = self.attract(alpha, p, heads.clone(), depth, false);
            let leaks: Vec<NodeId> = heads
                .iter()
                .copied()
                .filter(|&h| self.leaks(h, alpha, depth))
                .collect();
            let cut = if leaks.is_empty() {
                let (found, dominion) = self.store.learn(
                    arena,
                    &self.alive,
                    Region {
                        alpha,
                        priority: p,
                        lowest_head,
                        heads: &heads,
                        inside: &self.inside,
                        strategy: &self.strategy,
                    },
                );
                if found {
                    progress = Progress::Learned;
                }
                if !dominion.is_empty() {
                    self.clear(&region);
                    self.solve_dominion(alpha, dominion);
                    return Progress::Solved;
                }
                // Decompose the region again without its top head.
                vec![heads[0]]
            } else {
                leaks
            };
            let mut rest = self.trim(alpha, &region, cut);
            self.clear(&region);
            if rest.is_empty() || depth >= MAX_DEPTH {
                continue;
            }
            rest.sort_unstable_by_key(|&v| std::cmp::Reverse(arena.priority(v)));
            match self.search(&rest, only, depth + 1) {
                stop @ (Progress::Solved | Progress::OutOfBudget) => return stop,
                Progress::Learned => progress = Progress::Learned,
                Progress::None => {}
            }
        }
    }

    fn clear(&mut self, region: &[NodeId]) {
        for &v in region {
            self.inside[v as usize] = false;
        }
    }

    /// Whether head `h` leaks: α's head has no move into the region, or the opponent's has a
    /// move to a vertex of the subgame outside it.
    fn leaks(&self, h: NodeId, alpha: Player, depth: u32) -> bool {
        if self.arena.owner(h) == alpha {
            self.strategy[h as usize] == NO_MOVE
        } else {
            self.arena
                .successors(h)
                .iter()
                .any(|&w| self.open(w, depth))
        }
    }

    /// In the subgame of level `depth` and not (yet) in the region.
    #[inline]
    fn open(&self, w: NodeId, depth: u32) -> bool {
        self.in_level(w, depth) && !self.inside[w as usize]
    }

    /// In the subgame of level `depth` ([`WHOLE`]: unsolved).
    #[inline]
    fn in_level(&self, w: NodeId, depth: u32) -> bool {
        if depth == WHOLE {
            self.alive[w as usize]
        } else {
            self.at[w as usize] == depth
        }
    }

    /// The α-tangle attractor of `seeds` (marked inside) within level `depth`, up to priority
    /// `p`; returns the region. Its vertices leave the level's subgame.
    fn attract(
        &mut self,
        alpha: Player,
        p: Priority,
        seeds: Vec<NodeId>,
        depth: u32,
        whole: bool,
    ) -> Vec<NodeId> {
        let arena = self.arena;
        let mut queue = seeds;
        let mut next = 0;
        while let Some(&v) = queue.get(next) {
            next += 1;
            if depth != WHOLE {
                self.at[v as usize] = GONE;
            }
            self.work += 1 + arena.predecessors(v).len() as u64;
            for &u in arena.predecessors(v) {
                let ui = u as usize;
                if self.inside[ui] {
                    // A head of α: its first move into the region.
                    if arena.owner(u) == alpha && self.strategy[ui] == NO_MOVE {
                        self.strategy[ui] = v;
                    }
                    continue;
                }
                if !self.in_level(u, depth) || arena.priority(u) > p {
                    continue;
                }
                if arena.owner(u) != alpha {
                    let succ = arena.successors(u);
                    if succ.iter().any(|&w| self.open(w, depth)) {
                        continue;
                    }
                }
                self.inside[ui] = true;
                self.strategy[ui] = if arena.owner(u) == alpha { v } else { NO_MOVE };
                queue.push(u);
            }
            for k in 0..self.store.escaping_to[v as usize].len() {
                let t = self.store.escaping_to[v as usize][k] as usize;
                self.attract_tangle(t, alpha, p, depth, whole, &mut queue);
            }
        }
        queue
    }

    /// Attracts tangle `t` if it is α's, lies in the level's subgame (and the region), has a
    /// vertex outside the region, priorities up to `p`, and no escape open in the subgame.
    fn attract_tangle(
        &mut self,
        t: usize,
        alpha: Player,
        p: Priority,
        depth: u32,
        whole: bool,
        queue: &mut Vec<NodeId>,
    ) {
        let tangle = &self.store.tangles[t];
        if tangle.dead || favours(tangle.priority) != alpha {
            return;
        }
        let members = &self.store.members[tangle.members.clone()];
        let mut new = false;
        for &(v, _) in members {
            let vi = v as usize;
            if !self.alive[vi] {
                self.store.tangles[t].dead = true;
                return;
            }
            if self.inside[vi] {
                continue;
            }
            if !self.in_level(v, depth) || self.arena.priority(v) > p {
                return;
            }
            new = true;
        }
        let escapes = &self.store.escapes[tangle.escapes.clone()];
        if !new || escapes.iter().any(|&e| self.open(e, depth)) {
            return;
        }
        for &(v, to) in members {
            if !self.inside[v as usize] {
                self.inside[v as usize] = true;
                self.strategy[v as usize] = to;
                queue.push(v);
            }
        }
        if whole {
            self.store.tangles[t].dead = true;
        }
    }

    /// Takes `seeds` and what the opponent of α attracts to them out of `region` (marked
    /// inside); returns what is left.
    fn trim(&mut self, alpha: Player, region: &[NodeId], seeds: Vec<NodeId>) -> Vec<NodeId> {
        let arena = self.arena;
        for &v in &seeds {
            self.removed[v as usize] = true;
        }
        let mut queue = seeds;
        let mut next = 0;
        while let Some(&v) = queue.get(next) {
            next += 1;
            self.work += 1 + arena.predecessors(v).len() as u64;
            for &u in arena.predecessors(v) {
                let ui = u as usize;
                if !self.inside[ui] || self.removed[ui] {
                    continue;
                }
                if arena.owner(u) == alpha {
                    let stays = |w: &NodeId| self.inside[*w as usize] && !self.removed[*w as usize];
                    if arena.successors(u).iter().any(stays) {
                        continue;
                    }
                }
                self.removed[ui] = true;
                queue.push(u);
            }
        }
        let rest = region
            .iter()
            .copied()
            .filter(|&v| !self.removed[v as usize])
            .collect();
        for &v in &queue {
            self.removed[v as usize] = false;
        }
        rest
    }

    /// Attracts to the α-dominion `seeds` in the whole unsolved game (with α's tangles) and
    /// records it as won by α.
    fn solve_dominion(&mut self, alpha: Player, seeds: Vec<NodeId>) {
        for &v in &seeds {
            self.inside[v as usize] = true;
        }
        let won = self.attract(alpha, Priority::MAX, seeds, WHOLE, true);
        for &v in &won {
            let vi = v as usize;
            let mv = (self.arena.owner(v) == alpha).then_some(self.strategy[vi]);
            self.solution.set(v, alpha, mv);
            self.alive[vi] = false;
            self.inside[vi] = false;
        }
        self.unsolved -= won.len();
    }
}
