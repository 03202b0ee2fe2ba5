//! Tangle learning (van Dijk 2018): attractor-based region decomposition that remembers the
//! strongly connected pieces of closed regions ("tangles") and attracts them as a whole later.
//!
//! Cost: exponential in the worst case (a pass per learned tangle in the worst case, and the
//! number of tangles is not polynomially bounded), but one pass is O(V + E + T) for T the total
//! size of the tangles touched, and the families that defeat Zielonka and priority promotion
//! (two-counters, recursive ladders, Friedmann's games) need few passes. Memory: O(V) plus the
//! tangles (vertex, move) pairs and escape lists.
//!
//! Reference: T. van Dijk, "Attracting Tangles to Solve Parity Games", CAV 2018; the lazy
//! counters of the attractor and of each tangle and the "highest region of its parity" shortcut
//! follow Oink's `tl` (T. van Dijk, TACAS 2018).
//!
//! One pass decomposes the unsolved game `G` top down into regions. With `H` the part of `G`
//! not in a higher region and `α` the player favoured by the top priority `p` of `H`, the region
//! is the α-*tangle attractor* in `H` of the vertices of `H` whose priority is at least the
//! highest priority of the other parity (the heads): plain attraction, plus every known
//! α-tangle `t` with top priority at most `p`, all its vertices in `H` and all its escapes in
//! `H` already in the region. A region is *closed* when α's heads can stay in it and the
//! opponent's heads cannot leave it downwards. In a closed region, each strongly connected
//! component of the graph "α follows its attractor move, the opponent plays any move into the
//! region" that holds a head is a new tangle; if it has no escape (opponent move out of it in
//! `G`) it is an α-dominion. The highest closed region of its parity is a dominion too (every
//! higher region is the opponent's, and the opponent cannot move into them from below: they
//! would have attracted the vertex). A dominion is attracted (with tangles) in `G` and removed;
//! the pass restarts, the tangles are kept.
//!
//! Invariants (why answers are right):
//! * `H \ region` is a subgame again (a complement of an attractor within a subgame), so every
//!   vertex of `H` keeps a successor in `H`; an opponent vertex in `H` has no move into a higher
//!   opponent region.
//! * Attraction ranks never increase along a move that follows the region's strategy, and stay
//!   equal only inside one attracted tangle, so every cycle in a region passes a head (top
//!   priority favours α) or lies in a tangle (won by α): every play that stays in a region under
//!   its strategy is won by α. A tangle's opponent moves leave it only through its escapes.
//! * A tangle is attracted in the region where its last escape is popped or never in the pass,
//!   so the bottom components of the lowest region (which is always closed) are tangles not
//!   learned before: every pass learns a tangle or removes a dominion, and the loop ends.

use crate::budget::Budget;
use crate::solution::NO_MOVE;
use crate::{favours, Arena, ParitySolution, Priority};
use zermelo::graph::Predecessors;
use zermelo::{NodeId, Player};

/// Solves the subgame `alive` of `arena` into `solution` (other vertices are left untouched),
/// or gives up when `budget` runs out, returning the unsolved subgame.
pub(crate) fn tangle_sub(
    arena: &Arena,
    alive: Vec<bool>,
    solution: &mut ParitySolution,
    budget: &mut Budget,
) -> Result<(), Vec<bool>> {
    let n = arena.vertex_count();
    let mut order: Vec<NodeId> = arena.vertices().filter(|&v| alive[v as usize]).collect();
    order.sort_unstable_by_key(|&v| std::cmp::Reverse(arena.priority(v)));
    let unsolved = order.len();
    let mut tl = Tangles {
        arena,
        alive,
        unsolved,
        remaining: vec![false; n],
        inside: vec![false; n],
        strategy: vec![NO_MOVE; n],
        counter: vec![(0, 0); n],
        epoch: 0,
        queue: Vec::new(),
        store: Store::new(n),
        work: 0,
    };
    while tl.unsolved > 0 {
        match tl.pass(&order, solution, budget) {
            Step::Progress => {}
            Step::OutOfBudget => return Err(tl.alive),
            Step::Stuck => {
                // Every pass learns a tangle or removes a dominion (module docs).
                debug_assert!(false, "a tangle-learning pass made no progress");
                let rest = std::mem::take(&mut tl.alive);
                crate::zielonka::zielonka_sub(arena, rest, solution);
                return Ok(());
            }
        }
    }
    Ok(())
}

/// What a pass achieved.
enum Step {
    Progress,
    Stuck,
    OutOfBudget,
}

/// A learned tangle: its vertices (with α's move at α's vertices) and escapes are slices of
/// [`Store::members`] and [`Store::escapes`].
pub(crate) struct Tangle {
    pub(crate) priority: Priority,
    pub(crate) members: std::ops::Range<usize>,
    pub(crate) escapes: std::ops::Range<usize>,
    /// Some vertex was solved: never attracted again.
    pub(crate) dead: bool,
    /// Escapes not yet popped in the current pass (valid when `epoch` is the pass's).
    open: u32,
    epoch: u32,
}

/// The learned tangles, shared by tangle learning and its recursive variants (`rtl.rs`).
pub(crate) struct Store {
    pub(crate) tangles: Vec<Tangle>,
    /// `(vertex, α's move or NO_MOVE)` of every tangle, one slice each.
    pub(crate) members: Vec<(NodeId, NodeId)>,
    pub(crate) escapes: Vec<NodeId>,
    /// The tangles that have the vertex as an escape.
    pub(crate) escaping_to: Vec<Vec<u32>>,
    scc: Scc,
    /// Scratch for escape lists.
    mark: Vec<bool>,
}

struct Tangles<'a> {
    arena: &'a Arena,
    /// `G`: the unsolved vertices.
    alive: Vec<bool>,
    unsolved: usize,
    /// In `H` and not yet popped by the region being built (Oink's `R`).
    remaining: Vec<bool>,
    /// In the region being built.
    inside: Vec<bool>,
    strategy: Vec<NodeId>,
    /// `(epoch, moves to vertices not yet popped in the pass)` of an opponent vertex.
    counter: Vec<(u32, u32)>,
    epoch: u32,
    queue: Vec<NodeId>,
    store: Store,
    /// Vertices popped and moves scanned since the budget was last charged.
    work: u64,
}

impl Tangles<'_> {
    /// One top-down decomposition; false if it neither learned a tangle nor solved anything.
    fn pass(
        &mut self,
        order: &[NodeId],
        solution: &mut ParitySolution,
        budget: &mut Budget,
    ) -> Step {
        self.epoch += 1;
        self.remaining.copy_from_slice(&self.alive);
        let mut highest = [true, true];
        let mut learned = false;
        let mut i = 0;
        loop {
            while i < order.len() && !self.remaining[order[i] as usize] {
                i += 1;
            }
            let Some(&top) = order.get(i) else {
                return if learned { Step::Progress } else { Step::Stuck };
            };
            if !budget.spend(std::mem::take(&mut self.work)) {
                return Step::OutOfBudget;
            }
            let p = self.arena.priority(top);
            let alpha = favours(p);
            // The heads: the run of priorities of α's parity at the top of `H`.
            let mut heads = Vec::new();
            while let Some(&v) = order.get(i) {
                if self.remaining[v as usize] {
                    if favours(self.arena.priority(v)) != alpha {
                        break;
                    }
                    self.inside[v as usize] = true;
                    self.strategy[v as usize] = NO_MOVE;
                    heads.push(v);
                }
                i += 1;
            }
            let lowest_head = self.arena.priority(*heads.last().expect("top is a head"));
            self.queue.clear();
            self.queue.extend_from_slice(&heads);
            self.attract(alpha, p, 0, false);
            let region = std::mem::take(&mut self.queue);
            if self.closed(alpha, &heads) {
                let party = &mut highest[alpha.index()];
                let dominion = if *party {
                    region.clone()
                } else {
                    let (found, dominion) = self.store.learn(
                        self.arena,
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
                    learned |= found;
                    dominion
                };
                if !dominion.is_empty() {
                    for &v in &region {
                        self.inside[v as usize] = false;
                    }
                    self.solve_dominion(alpha, dominion, solution);
                    return Step::Progress;
                }
            }
            highest[alpha.index()] = false;
            for &v in &region {
                self.inside[v as usize] = false;
            }
            self.queue = region;
        }
    }

    /// Pops the queue from `from` on, attracting for `alpha` within the remaining vertices
    /// (`in_g`: within all of `G`, for a dominion); tangles up to priority `p`.
    fn attract(&mut self, alpha: Player, p: Priority, from: usize, in_g: bool) {
        let arena = self.arena;
        let mut next = from;
        while let Some(&v) = self.queue.get(next) {
            next += 1;
            self.remaining[v as usize] = false;
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
                if !self.remaining[ui] {
                    continue;
                }
                if arena.owner(u) != alpha && !self.count_down(u) {
                    continue;
                }
                self.inside[ui] = true;
                self.strategy[ui] = if arena.owner(u) == alpha { v } else { NO_MOVE };
                self.queue.push(u);
            }
            for k in 0..self.store.escaping_to[v as usize].len() {
                let t = self.store.escaping_to[v as usize][k] as usize;
                self.attract_tangle(t, alpha, p, in_g);
            }
        }
    }

    /// Counts down the opponent vertex `u`'s moves to unpopped vertices; true at zero.
    fn count_down(&mut self, u: NodeId) -> bool {
        let (epoch, alive) = (self.epoch, &self.alive);
        let slot = &mut self.counter[u as usize];
        if slot.0 != epoch {
            let moves = self.arena.successors(u).iter();
            *slot = (epoch, moves.filter(|&&w| alive[w as usize]).count() as u32);
        }
        slot.1 -= 1;
        slot.1 == 0
    }

    /// One escape of tangle `t` was popped: attract it if it was the last and `t` qualifies.
    fn attract_tangle(&mut self, t: usize, alpha: Player, p: Priority, in_g: bool) {
        let store = &mut self.store;
        let tangle = &mut store.tangles[t];
        if tangle.dead {
            return;
        }
        if tangle.epoch != self.epoch {
            let alive = &self.alive;
            let escapes = &store.escapes[tangle.escapes.clone()];
            tangle.open = escapes.iter().filter(|&&e| alive[e as usize]).count() as u32;
            tangle.epoch = self.epoch;
        }
        tangle.open -= 1;
        if tangle.open > 0 || favours(tangle.priority) != alpha || tangle.priority > p {
            return;
        }
        let range = tangle.members.clone();
        let members = &store.members[range];
        if members.iter().any(|&(v, _)| !self.alive[v as usize]) {
            store.tangles[t].dead = true;
            return;
        }
        let (remaining, inside) = (&self.remaining, &mut self.inside);
        if !members
            .iter()
            .all(|&(v, _)| remaining[v as usize] || inside[v as usize])
        {
            return;
        }
        for &(v, to) in members {
            if !inside[v as usize] {
                inside[v as usize] = true;
                self.strategy[v as usize] = to;
                self.queue.push(v);
            }
        }
        if in_g {
            // Its vertices are about to be solved.
            store.tangles[t].dead = true;
        }
    }

    /// Whether α's heads have a move into the region and the opponent's heads none out of it
    /// downwards (into vertices still remaining).
    fn closed(&self, alpha: Player, heads: &[NodeId]) -> bool {
        heads.iter().all(|&h| {
            if self.arena.owner(h) == alpha {
                self.strategy[h as usize] != NO_MOVE
            } else {
                let succ = self.arena.successors(h);
                !succ.iter().any(|&w| self.remaining[w as usize])
            }
        })
    }

    /// Attracts to the α-dominion `seeds` in all of `G` (with α's tangles) and solves it.
    fn solve_dominion(&mut self, alpha: Player, seeds: Vec<NodeId>, solution: &mut ParitySolution) {
        self.epoch += 1;
        self.remaining.copy_from_slice(&self.alive);
        for &v in &seeds {
            self.inside[v as usize] = true;
        }
        self.queue = seeds;
        self.attract(alpha, Priority::MAX, 0, true);
        for &v in &self.queue {
            let vi = v as usize;
            let mv = (self.arena.owner(v) == alpha).then_some(self.strategy[vi]);
            solution.set(v, alpha, mv);
            self.alive[vi] = false;
            self.inside[vi] = false;
        }
        self.unsolved -= self.queue.len();
        // The next pass starts a new epoch: counters and tangle counts are recomputed.
    }
}

/// A closed region, as [`Store::learn`] reads it.
pub(crate) struct Region<'a> {
    pub(crate) alpha: Player,
    /// The top priority (the tangles' priority).
    pub(crate) priority: Priority,
    /// Vertices of the region with at least this priority are heads.
    pub(crate) lowest_head: Priority,
    pub(crate) heads: &'a [NodeId],
    pub(crate) inside: &'a [bool],
    /// α's move at α's vertices (in the region, or `NO_MOVE`).
    pub(crate) strategy: &'a [NodeId],
}

impl Store {
    pub(crate) fn new(n: usize) -> Store {
        Store {
            tangles: Vec::new(),
            members: Vec::new(),
            escapes: Vec::new(),
            escaping_to: vec![Vec::new(); n],
            scc: Scc::new(n),
            mark: vec![false; n],
        }
    }

    /// Learns the tangles of a closed region: the components with a head of the graph where
    /// α plays its region move and the opponent any move in the region. Escapes are the
    /// opponent's moves out of a component to unsolved (`alive`) vertices. Returns whether a
    /// tangle was found, and the union of those without escapes (α-dominions).
    pub(crate) fn learn(
        &mut self,
        arena: &Arena,
        alive: &[bool],
        region: Region<'_>,
    ) -> (bool, Vec<NodeId>) {
        let Region {
            alpha,
            priority,
            lowest_head,
            heads,
            inside,
            strategy,
        } = region;
        let moves = |v: NodeId| -> &[NodeId] {
            if arena.owner(v) == alpha {
                let s = &strategy[v as usize];
                if *s == NO_MOVE {
                    &[]
                } else {
                    std::slice::from_ref(s)
                }
            } else {
                arena.successors(v)
            }
        };
        let components = self.scc.components(heads, moves, |w| inside[w as usize]);
        let mut learned = false;
        let mut dominion = Vec::new();
        for c in components.iter() {
            let looped = |v: NodeId| moves(v).contains(&v);
            let has_head = c.iter().any(|&v| arena.priority(v) >= lowest_head);
            if !has_head || (c.len() == 1 && !looped(c[0])) {
                continue;
            }
            learned = true;
            for &v in c {
                self.mark[v as usize] = true;
            }
            let start = self.escapes.len();
            for &v in c.iter().filter(|&&v| arena.owner(v) != alpha) {
                for &w in arena.successors(v) {
                    if alive[w as usize] && !self.mark[w as usize] {
                        self.mark[w as usize] = true;
                        self.escapes.push(w);
                    }
                }
            }
            for &v in c.iter().chain(&self.escapes[start..]) {
                self.mark[v as usize] = false;
            }
            if self.escapes.len() == start {
                dominion.extend_from_slice(c);
                continue;
            }
            let id = self.tangles.len() as u32;
            for &e in &self.escapes[start..] {
                self.escaping_to[e as usize].push(id);
            }
            let first = self.members.len();
            let with_move = |&v: &NodeId| {
                let s = if arena.owner(v) == alpha {
                    strategy[v as usize]
                } else {
                    NO_MOVE
                };
                (v, s)
            };
            self.members.extend(c.iter().map(with_move));
            self.tangles.push(Tangle {
                priority,
                members: first..self.members.len(),
                escapes: start..self.escapes.len(),
                dead: false,
                open: 0,
                epoch: 0,
            });
        }
        (learned, dominion)
    }
}

/// Tarjan's algorithm on a graph given by a move function, iteratively, from given roots.
struct Scc {
    /// `[index, low]`; `u32::MAX` unvisited, `DONE` once placed in a component.
    slots: Vec<[u32; 2]>,
}

const UNSEEN: u32 = u32::MAX;
const DONE: u32 = u32::MAX - 1;

impl Scc {
    fn new(n: usize) -> Scc {
        Scc {
            slots: vec![[UNSEEN, 0]; n],
        }
    }

    /// The components reachable from `roots` within `member`, each as a list of vertices.
    fn components<'g>(
        &mut self,
        roots: &[NodeId],
        moves: impl Fn(NodeId) -> &'g [NodeId],
        member: impl Fn(NodeId) -> bool,
    ) -> Vec<Vec<NodeId>> {
        let slots = &mut self.slots;
        let mut out = Vec::new();
        let mut seen = Vec::new();
        let mut stack: Vec<NodeId> = Vec::new();
        let mut call: Vec<(NodeId, &'g [NodeId])> = Vec::new();
        let mut counter = 0u32;
        for &root in roots {
            if slots[root as usize][0] != UNSEEN {
                continue;
            }
            slots[root as usize] = [counter, counter];
            counter += 1;
            seen.push(root);
            stack.push(root);
            call.push((root, moves(root)));
            while let Some((v, rest)) = call.last_mut() {
                let v = *v;
                if let Some((&w, tail)) = rest.split_first() {
                    *rest = tail;
                    if !member(w) {
                        continue;
                    }
                    let index = slots[w as usize][0];
                    if index == UNSEEN {
                        slots[w as usize] = [counter, counter];
                        counter += 1;
                        seen.push(w);
                        stack.push(w);
                        call.push((w, moves(w)));
                    } else if index != DONE {
                        let low = &mut slots[v as usize][1];
                        *low = (*low).min(index);
                    }
                    continue;
                }
                call.pop();
                let [index, low] = slots[v as usize];
                if let Some(&(parent, _)) = call.last() {
                    let up = &mut slots[parent as usize][1];
                    *up = (*up).min(low);
                }
                if low == index {
                    let mut component = Vec::new();
                    while let Some(w) = stack.pop() {
                        slots[w as usize][0] = DONE;
                        component.push(w);
                        if w == v {
                            break;
                        }
                    }
                    out.push(component);
                }
            }
        }
        for v in seen {
            slots[v as usize] = [UNSEEN, 0];
        }
        out
    }
}
