//! Quasi-polynomial Zielonka (`qpz`): Zielonka's recursion with a precision per player, so that
//! a player whose precision is used up is assumed to win nothing more.
//!
//! A call gets a subgame `G` and precisions `p_Even`, `p_Odd`; α is the player of the top
//! priority and β the other. It returns a split of `G` into α's part and β's part that contains
//! every α-dominion of at most `p_α` vertices in α's part and every β-dominion of at most `p_β`
//! vertices in β's part; with both precisions at least `|G|` the split is exact. The call:
//!
//! 1. if `p_β = 0`, α gets `G` (if `p_α = 0`, β gets it);
//! 2. *left*: the call on `G` with `p_β` halved;
//! 3. if `|G| <= p_β / 2`, that was enough (Lehtinen, Parys, Schewe and Wojtczak);
//! 4. *middle*: in α's part `R`, `A = Attr_α(top vertices of R)`, the call on `R \ A` with the
//!    same precisions, then β attracts in `R` from what β won there;
//! 5. if that attractor took anything of α's, *right*: the call on what α keeps, with `p_β`
//!    halved again; else α wins what is left of `R`.
//!
//! Cost: n^O(log d) (n vertices, d priorities): the left and right calls halve a precision, the
//! middle call lowers the top priority, so a path of the recursion has at most d + 2 log2 n
//! calls. In practice it is plain Zielonka's recursion with one extra halved pass per level:
//! good where Zielonka is (random games, synthesis games), and it cannot be driven to
//! Zielonka's exponential worst case (Friedmann's games, `two_counters`), but on the ladders with
//! many priorities (recursive ladders, Jurdziński's games) the halved passes repeat work that
//! Zielonka does once (BENCHMARKS.md). Memory: O(V) plus one vertex list per active call;
//! recursion depth at most d + 2 log2 n (run on a stack to match).
//!
//! Reference: P. Parys, "Parity games: Zielonka's algorithm in quasi-polynomial time", MFCS
//! 2019; K. Lehtinen, P. Parys, S. Schewe, D. Wojtczak, "A recursive approach to solving parity
//! games in quasipolynomial time", LMCS 18(1), 2022 (the tree-shaped order of the calls and the
//! early return of step 3); Oink's `zlkq` (T. van Dijk) for the left/middle/right layout.
//!
//! Invariant: on entry and exit of a call, `alive` marks exactly its subgame, which keeps a
//! successor of every vertex; every vertex of the subgame has a side (`side`) on return, and
//! the attractors record the moves of the attracting player. Whatever the intermediate calls
//! assume, the top call runs with precision n for both players and its split is exact; the
//! moves it leaves are checked and completed by [`finish`], and every answer goes through the
//! verifier in the tests.

use crate::attractor::Attractor;
use crate::budget::Budget;
use crate::region::{Masked, Region};
use crate::solution::NO_MOVE;
use crate::{favours, Arena, ParitySolution, Priority};
use zermelo::{NodeId, Player};

/// Solves the subgame `alive` of `arena` into `solution`; it never gives up (the budget is
/// not used: what a partial run has found is not yet certain).
pub(crate) fn qpz_sub(
    arena: &Arena,
    alive: Vec<bool>,
    solution: &mut ParitySolution,
    _budget: &mut Budget,
) -> Result<(), Vec<bool>> {
    let vertices: Vec<NodeId> = arena.vertices().filter(|&v| alive[v as usize]).collect();
    let n = arena.vertex_count();
    let size = vertices.len();
    let mut q = Qpz {
        arena,
        alive,
        inside: vec![false; n],
        side: vec![Player::Zero; n],
        strategy: solution.moves().to_vec(),
        attractor: Attractor::new(n),
    };
    q.solve(&vertices, [size, size]);
    finish(arena, &q.alive, &q.side, &mut q.strategy);
    for &v in &vertices {
        solution.set_winner(v, q.side[v as usize]);
        solution.set_move(v, q.strategy[v as usize]);
    }
    Ok(())
}

/// Gives every vertex won by its owner a move to a vertex of the same side where it has none
/// (a vertex the precision cut off, or a top vertex of a region).
fn finish(arena: &Arena, alive: &[bool], side: &[Player], strategy: &mut [NodeId]) {
    for v in arena.vertices().filter(|&v| alive[v as usize]) {
        let me = side[v as usize];
        if arena.owner(v) != me {
            continue;
        }
        let good = |w: NodeId| alive[w as usize] && side[w as usize] == me;
        let s = strategy[v as usize];
        if s == NO_MOVE || !arena.successors(v).contains(&s) || !good(s) {
            if let Some(&w) = arena.successors(v).iter().find(|&&w| good(w)) {
                strategy[v as usize] = w;
            }
        }
    }
}

struct Qpz<'a> {
    arena: &'a Arena,
    alive: Vec<bool>,
    inside: Vec<bool>,
    side: Vec<Player>,
    strategy: Vec<NodeId>,
    attractor: Attractor,
}

/// The set a player attracts to is the vertices of its side (within the subgame).
struct Sided<'a> {
    alive: &'a [bool],
    side: &'a mut [Player],
    strategy: &'a mut [NodeId],
    player: Player,
}

impl Region for Sided<'_> {
    #[inline(always)]
    fn in_game(&self, v: NodeId) -> bool {
        self.alive[v as usize]
    }
    #[inline(always)]
    fn contains(&self, v: NodeId) -> bool {
        self.side[v as usize] == self.player
    }
    #[inline(always)]
    fn add(&mut self, v: NodeId, via: Option<NodeId>) {
        self.side[v as usize] = self.player;
        if let Some(to) = via {
            self.strategy[v as usize] = to;
        }
    }
}

impl Qpz<'_> {
    /// Splits `verts` (the subgame marked by `alive`) between the players; `precision` is
    /// indexed by player (Even, Odd).
    fn solve(&mut self, verts: &[NodeId], precision: [usize; 2]) {
        if verts.is_empty() {
            return;
        }
        for player in [Player::One, Player::Zero] {
            // The opponent of a player without precision gets everything.
            if precision[player as usize] == 0 {
                for &v in verts {
                    self.side[v as usize] = player.other();
                }
                return;
            }
        }
        let top = verts
            .iter()
            .map(|&v| self.arena.priority(v))
            .max()
            .expect("not empty");
        let alpha = favours(top);
        let beta = alpha.other();
        let mut halved = precision;
        halved[beta as usize] /= 2;
        self.solve(verts, halved);
        if verts.len() <= halved[beta as usize] {
            return;
        }
        let r = self.keep(verts, alpha);
        if r.is_empty() {
            self.restore(verts);
            return;
        }
        if self.middle(&r, alpha, precision) {
            let rest = self.keep(&r, alpha);
            self.solve(&rest, halved);
        } else {
            self.settle(&r, alpha);
        }
        self.restore(verts);
    }

    /// The middle step on α's part `r` (the subgame): solves `r` without α's attractor to its
    /// top vertices, then lets β attract from what β won. Returns whether β took anything of
    /// α's (then the right step follows).
    fn middle(&mut self, r: &[NodeId], alpha: Player, precision: [usize; 2]) -> bool {
        let head = top_of(self.arena, r, alpha);
        let heads: Vec<NodeId> = r
            .iter()
            .copied()
            .filter(|&v| self.arena.priority(v) >= head && favours(self.arena.priority(v)) == alpha)
            .collect();
        let a = self.attract_heads(alpha, heads);
        for &v in &a {
            self.alive[v as usize] = false;
        }
        let m: Vec<NodeId> = r
            .iter()
            .copied()
            .filter(|&v| self.alive[v as usize])
            .collect();
        self.solve(&m, precision);
        for &v in &a {
            self.alive[v as usize] = true;
        }
        let beta = alpha.other();
        let mut queue: Vec<NodeId> = m
            .iter()
            .copied()
            .filter(|&v| self.side[v as usize] == beta)
            .collect();
        let seeds = queue.len();
        let mut region = Sided {
            alive: &self.alive,
            side: &mut self.side,
            strategy: &mut self.strategy,
            player: beta,
        };
        self.attractor
            .attract(self.arena, beta, &mut region, &mut queue);
        queue.len() > seeds
    }

    /// `Attr_α(heads)` in the current subgame (all of it on α's side), with α's moves.
    fn attract_heads(&mut self, alpha: Player, mut queue: Vec<NodeId>) -> Vec<NodeId> {
        for &v in &queue {
            self.inside[v as usize] = true;
            if self.arena.owner(v) == alpha {
                self.strategy[v as usize] = NO_MOVE;
            }
        }
        let mut region = Masked {
            alive: &self.alive,
            inside: &mut self.inside,
            strategy: &mut self.strategy,
        };
        self.attractor
            .attract(self.arena, alpha, &mut region, &mut queue);
        for &v in &queue {
            self.inside[v as usize] = false;
        }
        queue
    }

    /// α keeps `r`: its vertices without a move inside α's part get one (the heads).
    fn settle(&mut self, r: &[NodeId], alpha: Player) {
        for &v in r {
            if self.side[v as usize] != alpha || self.arena.owner(v) != alpha {
                continue;
            }
            let s = self.strategy[v as usize];
            let (alive, side) = (&self.alive, &self.side);
            let good = |w: NodeId| alive[w as usize] && side[w as usize] == alpha;
            if s == NO_MOVE || !good(s) {
                if let Some(&w) = self.arena.successors(v).iter().find(|&&w| good(w)) {
                    self.strategy[v as usize] = w;
                }
            }
        }
    }

    /// Narrows the subgame to the vertices of `verts` on `player`'s side; returns them.
    fn keep(&mut self, verts: &[NodeId], player: Player) -> Vec<NodeId> {
        let mut kept = Vec::with_capacity(verts.len());
        for &v in verts {
            if self.side[v as usize] == player {
                kept.push(v);
            } else {
                self.alive[v as usize] = false;
            }
        }
        kept
    }

    fn restore(&mut self, verts: &[NodeId]) {
        for &v in verts {
            self.alive[v as usize] = true;
        }
    }
}

/// The lowest priority of α's parity above every priority of β's parity in `verts` (the heads
/// of α's attractor are the vertices from there up: on-the-fly compression).
fn top_of(arena: &Arena, verts: &[NodeId], alpha: Player) -> Priority {
    let beta_top = verts
        .iter()
        .map(|&v| arena.priority(v))
        .filter(|&p| favours(p) != alpha)
        .max();
    match beta_top {
        Some(p) => p + 1,
        None => 0,
    }
}
