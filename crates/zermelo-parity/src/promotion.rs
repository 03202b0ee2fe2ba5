//! Priority promotion (Benerecetti, Dell'Erba, Mogavero 2016), the basic algorithm "PP".
//!
//! Cost: exponential in the worst case, but it needs no recursion and stays fast on the families
//! that make Zielonka exponential (Friedmann's games, recursive ladders): a region found closed
//! below is *promoted* to the lowest higher region its opponent can escape to, instead of being
//! recomputed by nested recursion. Memory: O(V + d) besides the arena.
//!
//! Reference: M. Benerecetti, D. Dell'Erba, F. Mogavero, "Solving parity games via priority
//! promotion", CAV 2016 / FMSD 2018; the data layout (a region number per vertex, vertex lists
//! per region, the promotion chain as an inner loop) follows Oink's `pp` (T. van Dijk, TACAS 2018).
//!
//! Invariant: `region[v] > p` means `v` is in a region above the priority `p` being worked on;
//! every `v` with `region[v] <= p` (and not solved) is in the current subgame, free unless
//! `region[v] == p`. A region at `p` is the `α`-attractor (α = the player `p` favours) of its
//! heads within that subgame; when it is closed there (α can stay, the opponent cannot leave
//! downwards) and the opponent cannot leave it at all, it is an α-dominion: it is attracted in
//! the whole remaining game, marked solved, and the search restarts from the top.

use crate::attractor::Attractor;
use crate::budget::Budget;
use crate::region::Region;
use crate::solution::NO_MOVE;
use crate::{favours, Arena, ParitySolution, Priority};
use zermelo::graph::Predecessors;
use zermelo::NodeId;

/// Region number of a vertex outside every region.
const FREE: i32 = -1;
/// Region number of a solved vertex: above every region, so never in a subgame.
const SOLVED: i32 = i32::MAX;

/// Solves the subgame `alive` of `arena` into `solution`, or gives up when `budget` runs out,
/// returning the unsolved subgame. Priorities must be dense (compressed): one region list per
/// priority value is allocated.
pub(crate) fn promotion_sub(
    arena: &Arena,
    alive: Vec<bool>,
    solution: &mut ParitySolution,
    budget: &mut Budget,
) -> Result<(), Vec<bool>> {
    let n = arena.vertex_count();
    let top = arena.max_priority() as usize;
    // Vertices by descending priority: the heads of each region are one run of this list.
    let mut order: Vec<NodeId> = arena.vertices().filter(|&v| alive[v as usize]).collect();
    order.sort_unstable_by_key(|&v| std::cmp::Reverse(arena.priority(v)));
    let mut pp = Promotion {
        arena,
        region: alive
            .iter()
            .map(|&a| if a { FREE } else { SOLVED })
            .collect(),
        regions: vec![Vec::new(); top + 1],
        strategy: vec![NO_MOVE; n],
        attractor: Attractor::new(n),
        current: 0,
        solution,
        work: 0,
    };
    if pp.run(&order, budget) {
        Ok(())
    } else {
        Err(pp.region.iter().map(|&r| r != SOLVED).collect())
    }
}

struct Promotion<'a> {
    arena: &'a Arena,
    /// The region of each vertex: [`FREE`], a priority, or [`SOLVED`].
    region: Vec<i32>,
    regions: Vec<Vec<NodeId>>,
    strategy: Vec<NodeId>,
    attractor: Attractor,
    /// The priority whose region is growing (for [`Region`]).
    current: i32,
    solution: &'a mut ParitySolution,
    /// Vertices attracted and moves into them since the budget was last charged.
    work: u64,
}

/// What [`Promotion::status`] finds.
enum Status {
    /// α cannot stay or the opponent can leave downwards: go on with lower priorities.
    Open,
    /// Closed in the whole remaining game.
    Dominion,
    /// Closed below; the opponent's best escape is to the region of this priority.
    Promote(Priority),
}

impl Promotion<'_> {
    /// Solves everything (true), or stops when `budget` runs out (false).
    fn run(&mut self, order: &[NodeId], budget: &mut Budget) -> bool {
        // `i` walks `order` downwards in priority, one run of equal priorities at a time.
        let mut i = 0;
        while i < order.len() {
            if !budget.spend(std::mem::take(&mut self.work)) {
                return false;
            }
            let p = self.arena.priority(order[i]);
            let end = run_end(self.arena, order, i);
            if !self.setup(p, &order[i..end]) {
                i = end;
                continue;
            }
            let mut q = p;
            loop {
                match self.status(q) {
                    Status::Open => {
                        i = run_end(self.arena, order, run_start(self.arena, order, q));
                        break;
                    }
                    Status::Dominion => {
                        self.dominion(q);
                        i = 0;
                        break;
                    }
                    Status::Promote(r) => {
                        self.promote(q, r);
                        q = r;
                    }
                }
            }
        }
        true
    }

    /// Resets the region of `p` and grows it from its free heads; false if it is empty.
    fn setup(&mut self, p: Priority, heads: &[NodeId]) -> bool {
        self.reset(p);
        let pi = prio(p);
        let mut queue = Vec::new();
        for &v in heads {
            if self.region[v as usize] <= pi {
                self.region[v as usize] = pi;
                self.strategy[v as usize] = NO_MOVE;
                queue.push(v);
            }
        }
        if queue.is_empty() {
            return false;
        }
        self.regions[p as usize].extend_from_slice(&queue);
        self.attract(p, queue);
        true
    }

    fn reset(&mut self, p: Priority) {
        let list = std::mem::take(&mut self.regions[p as usize]);
        for &v in &list {
            if self.region[v as usize] == prio(p) {
                self.region[v as usize] = FREE;
                self.strategy[v as usize] = NO_MOVE;
            }
        }
        let mut list = list;
        list.clear();
        self.regions[p as usize] = list;
    }

    fn attract(&mut self, p: Priority, mut queue: Vec<NodeId>) {
        self.current = prio(p);
        let arena = self.arena;
        let mut attractor = std::mem::replace(&mut self.attractor, Attractor::new(0));
        attractor.attract(arena, favours(p), self, &mut queue);
        self.attractor = attractor;
        self.work += queue
            .iter()
            .map(|&v| 1 + arena.predecessors(v).len() as u64)
            .sum::<u64>();
    }

    fn status(&mut self, p: Priority) -> Status {
        let alpha = favours(p);
        let pi = prio(p);
        let mut lowest: Option<i32> = None;
        let members = std::mem::take(&mut self.regions[p as usize]);
        let mut status = None;
        for &v in &members {
            if self.arena.owner(v) == alpha {
                let s = self.strategy[v as usize];
                if s == NO_MOVE || self.region[s as usize] != pi {
                    let stay = self
                        .arena
                        .successors(v)
                        .iter()
                        .copied()
                        .find(|&w| self.region[w as usize] == pi);
                    match stay {
                        Some(w) => self.strategy[v as usize] = w,
                        None => {
                            status = Some(Status::Open);
                            break;
                        }
                    }
                }
            } else {
                for &w in self.arena.successors(v) {
                    let r = self.region[w as usize];
                    if r == SOLVED {
                        continue;
                    }
                    if r < pi {
                        status = Some(Status::Open);
                        break;
                    }
                    if r > pi && lowest.is_none_or(|l| r < l) {
                        lowest = Some(r);
                    }
                }
                if status.is_some() {
                    break;
                }
            }
        }
        self.regions[p as usize] = members;
        status.unwrap_or(match lowest {
            None => Status::Dominion,
            Some(r) => Status::Promote(r as Priority),
        })
    }

    fn promote(&mut self, from: Priority, to: Priority) {
        let moved = std::mem::take(&mut self.regions[from as usize]);
        for &v in &moved {
            self.region[v as usize] = prio(to);
        }
        self.regions[to as usize].extend_from_slice(&moved);
        self.attract(to, moved);
    }

    /// Region `p` is an α-dominion: attract to it in the whole remaining game and solve that.
    /// Regions are not reset: the search restarts from the top, setting each region up again.
    fn dominion(&mut self, p: Priority) {
        let alpha = favours(p);
        let mut queue = std::mem::take(&mut self.regions[p as usize]);
        for &v in &queue {
            self.region[v as usize] = SOLVED;
        }
        let arena = self.arena;
        let mut attractor = std::mem::replace(&mut self.attractor, Attractor::new(0));
        attractor.attract(arena, alpha, &mut Solved(self), &mut queue);
        self.attractor = attractor;
        for &v in &queue {
            let mv = if arena.owner(v) == alpha {
                self.strategy[v as usize]
            } else {
                NO_MOVE
            };
            self.solution.set_winner(v, alpha);
            self.solution.set_move(v, mv);
        }
    }
}

/// The subgame of the current priority: unsolved vertices not in a higher region.
impl Region for Promotion<'_> {
    #[inline(always)]
    fn in_game(&self, v: NodeId) -> bool {
        self.region[v as usize] <= self.current
    }
    #[inline(always)]
    fn contains(&self, v: NodeId) -> bool {
        self.region[v as usize] == self.current
    }
    #[inline(always)]
    fn add(&mut self, v: NodeId, via: Option<NodeId>) {
        self.region[v as usize] = self.current;
        self.strategy[v as usize] = via.unwrap_or(NO_MOVE);
        self.regions[self.current as usize].push(v);
    }
}

/// The whole remaining game, growing the solved set of a dominion.
struct Solved<'a, 'b>(&'a mut Promotion<'b>);

impl Region for Solved<'_, '_> {
    #[inline(always)]
    fn in_game(&self, _v: NodeId) -> bool {
        true
    }
    #[inline(always)]
    fn contains(&self, v: NodeId) -> bool {
        self.0.region[v as usize] == SOLVED
    }
    #[inline(always)]
    fn add(&mut self, v: NodeId, via: Option<NodeId>) {
        self.0.region[v as usize] = SOLVED;
        self.0.strategy[v as usize] = via.unwrap_or(NO_MOVE);
    }
}

/// The end of the run of equal priorities that starts at `i`.
fn run_end(arena: &Arena, order: &[NodeId], i: usize) -> usize {
    let p = arena.priority(order[i]);
    i + order[i..]
        .iter()
        .take_while(|&&v| arena.priority(v) == p)
        .count()
}

/// Where the run of priority `p` starts (`order` is sorted by descending priority).
fn run_start(arena: &Arena, order: &[NodeId], p: Priority) -> usize {
    order.partition_point(|&v| arena.priority(v) > p)
}

/// A priority as a region number (priorities are compressed, so they fit).
#[inline]
fn prio(p: Priority) -> i32 {
    i32::try_from(p).unwrap_or(i32::MAX - 1)
}
