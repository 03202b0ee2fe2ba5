//! Loopy partizan games: game graphs that may return to a position, where infinite play is a
//! draw.
//!
//! Reference: *Winning Ways* ch. 11 ("Games Infinite and Indefinite"); Siegel, *Combinatorial
//! Game Theory* ch. VI. What this module answers:
//!
//! * the outcome of any position, Left first and Right first, each a win, loss or draw
//!   ([`LoopyGraph::outcomes`], retrograde analysis of the `(position, mover)` states: the core
//!   crate's solver);
//! * whether a position is a **stopper** (no infinite alternating play from any follower,
//!   [`LoopyGraph::is_stopper`]);
//! * the simplest form of a stopper, its comparison with other stoppers and the sums of
//!   stoppers that are stoppers again ([`Stopper`], stopper.rs), printed and read in CGSuite's
//!   loopy notation (notation.rs: `on`, `off`, `over`, `under`, `upon`, `pass`, named nodes
//!   `a:{0|a}`; print.rs prints, upon.rs has `^[on]`, `^<on>` and their kin).
//!
//! * the value of any position: its onside and offside, each a stopper in simplest form
//!   ([`Sides`], sides.rs: `S & T` as CGSuite prints it, `dud` for `on & off`, the stopper
//!   itself when the sides are equal), their sums and the onside order of any two games
//!   ([`onside_leq`]). Games whose sides are not stoppers (Bach's carousel) are refused with
//!   [`CgtError::NotStopperSided`].
//! * the simplest forms of every position of a stopper too large to order at once, one
//!   strongly connected component at a time ([`stopper_values`], components.rs).
//! * the values of every position of a graph at once, equal values found once
//!   ([`every_value`], every.rs).
//! * the value of a sum, its parts valued alone and added by the theory ([`sum_of`],
//!   sum.rs), without the product graph of the parts.

mod components;
mod every;
mod notation;
mod order;
mod print;
mod reduce;
mod sides;
mod stopper;
mod sum;
mod upon;

pub use components::stopper_values;
pub use every::{every_value, every_value_negating, StopperId, Values};
pub use notation::{is_loopy_text, parse_loopy, LoopyExpr, MAX_NOTATION_SIDES_POSITIONS};
pub use order::{
    offside_leq, onside_leq, onside_leq_all, onside_order, order_bytes, MAX_ORDER_PAIRS,
    MAX_ORDER_PAIR_MOVES, MAX_SIDE_PAIR_MOVES,
};
pub use sides::{
    loopy_value, offside, onside, onside_by_deletion, Sides, MAX_SIDES_POSITIONS, MAX_SIDE_TRIALS,
};
pub use stopper::{Stopper, MAX_STOPPER_NODES};
pub use sum::{sum_of, Summand};

use zermelo::graph::{Rules, TwoPlayerGraph};
use zermelo::{NodeId, Outcome, Player};

use crate::error::CgtError;
use crate::Value;

/// Most followers of a short game added to a loopy graph ([`LoopyGraph::add_value`]).
pub const MAX_VALUE_NODES: usize = 1 << 16;

/// A game graph: each node's Left options and Right options (node ids).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LoopyGraph {
    left: Vec<Vec<u32>>,
    right: Vec<Vec<u32>>,
}

/// What one player gets from a position: the result for Left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Result3 {
    /// Left wins.
    Win,
    /// Left loses.
    Loss,
    /// Play goes on forever.
    Draw,
}

impl Result3 {
    /// `"win"`, `"loss"` or `"draw"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Result3::Win => "win",
            Result3::Loss => "loss",
            Result3::Draw => "draw",
        }
    }
}

/// The outcome of a position for Left: with Left moving first, and with Right moving first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LoopyOutcome {
    /// Left's result when Left moves first.
    pub left_first: Result3,
    /// Left's result when Right moves first.
    pub right_first: Result3,
}

impl LoopyOutcome {
    /// The outcome class when neither result is a draw.
    pub fn class(self) -> Option<crate::OutcomeClass> {
        use crate::OutcomeClass;
        match (self.left_first, self.right_first) {
            (Result3::Win, Result3::Win) => Some(OutcomeClass::L),
            (Result3::Loss, Result3::Loss) => Some(OutcomeClass::R),
            (Result3::Win, Result3::Loss) => Some(OutcomeClass::N),
            (Result3::Loss, Result3::Win) => Some(OutcomeClass::P),
            _ => None,
        }
    }
}

impl LoopyGraph {
    /// An empty graph.
    pub fn new() -> LoopyGraph {
        LoopyGraph::default()
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.left.len()
    }

    /// A new node without options.
    pub fn add_node(&mut self) -> u32 {
        self.left.push(Vec::new());
        self.right.push(Vec::new());
        (self.left.len() - 1) as u32
    }

    /// A Left move `from -> to`.
    pub fn add_left(&mut self, from: u32, to: u32) {
        self.left[from as usize].push(to);
    }

    /// A Right move `from -> to`.
    pub fn add_right(&mut self, from: u32, to: u32) {
        self.right[from as usize].push(to);
    }

    /// The Left options of `v`.
    pub fn left(&self, v: u32) -> &[u32] {
        &self.left[v as usize]
    }

    /// The Right options of `v`.
    pub fn right(&self, v: u32) -> &[u32] {
        &self.right[v as usize]
    }

    /// Left options (`left`) or Right options of `v`.
    pub fn options(&self, v: u32, left: bool) -> &[u32] {
        if left {
            self.left(v)
        } else {
            self.right(v)
        }
    }

    /// The positions of a two-player graph (player 0 = Left).
    pub fn from_two_player(game: &TwoPlayerGraph) -> LoopyGraph {
        let n = game.position_count();
        let mut g = LoopyGraph::new();
        for _ in 0..n {
            g.add_node();
        }
        for p in 0..n as NodeId {
            for (player, left) in [(Player::Zero, true), (Player::One, false)] {
                let state = TwoPlayerGraph::state(p, player);
                for &s in game.states().successors(state) {
                    let to = TwoPlayerGraph::split(s).0;
                    if left {
                        g.add_left(p, to);
                    } else {
                        g.add_right(p, to);
                    }
                }
            }
        }
        g
    }

    /// Adds the canonical form of a short game as nodes (one per follower) and returns its node.
    ///
    /// # Errors
    /// [`CgtError::TooBig`] past [`MAX_VALUE_NODES`] followers (an integer `n` has `n + 1`).
    pub fn add_value(&mut self, v: Value) -> Result<u32, CgtError> {
        let mut memo = std::collections::HashMap::new();
        self.add_value_memo(v, &mut memo)
    }

    /// [`LoopyGraph::add_value`] sharing the nodes of followers already added; iterative
    /// (an integer's canonical form is a chain as long as the integer).
    pub(crate) fn add_value_memo(
        &mut self,
        v: Value,
        memo: &mut std::collections::HashMap<Value, u32>,
    ) -> Result<u32, CgtError> {
        // Nodes first (every follower once), then their options.
        let mut order = Vec::new();
        let mut stack = vec![v];
        while let Some(x) = stack.pop() {
            if memo.contains_key(&x) {
                continue;
            }
            if order.len() >= MAX_VALUE_NODES {
                return Err(CgtError::TooBig(format!(
                    "a short game of more than {MAX_VALUE_NODES} followers in a loopy expression"
                )));
            }
            let node = self.add_node();
            memo.insert(x, node);
            order.push(x);
            stack.extend(x.left_options());
            stack.extend(x.right_options());
        }
        for x in order {
            let node = memo[&x];
            for o in x.left_options() {
                self.add_left(node, memo[&o]);
            }
            for o in x.right_options() {
                self.add_right(node, memo[&o]);
            }
        }
        Ok(memo[&v])
    }

    /// The nodes reachable from `starts` by either player's moves, in the order first reached.
    pub fn reachable(&self, starts: &[u32]) -> Vec<u32> {
        let mut seen = vec![false; self.node_count()];
        let mut order = Vec::new();
        for &s in starts {
            if !seen[s as usize] {
                seen[s as usize] = true;
                order.push(s);
            }
        }
        let mut head = 0;
        while head < order.len() {
            let v = order[head];
            head += 1;
            for &w in self.left(v).iter().chain(self.right(v)) {
                if !seen[w as usize] {
                    seen[w as usize] = true;
                    order.push(w);
                }
            }
        }
        order
    }

    /// The subgraph reachable from `start`, renumbered (`start` becomes node 0), and the map
    /// from old ids to new ones.
    pub fn restricted(&self, start: u32) -> LoopyGraph {
        let order = self.reachable(&[start]);
        let mut id = vec![u32::MAX; self.node_count()];
        for (i, &v) in order.iter().enumerate() {
            id[v as usize] = i as u32;
        }
        let mut g = LoopyGraph::new();
        for _ in &order {
            g.add_node();
        }
        for (i, &v) in order.iter().enumerate() {
            g.left[i] = self.left(v).iter().map(|&w| id[w as usize]).collect();
            g.right[i] = self.right(v).iter().map(|&w| id[w as usize]).collect();
        }
        g
    }

    /// The negative: Left and Right swapped.
    pub fn negated(&self) -> LoopyGraph {
        LoopyGraph {
            left: self.right.clone(),
            right: self.left.clone(),
        }
    }

    /// Adds `other`'s nodes after this graph's (its node `v` becomes `v + shift`) and returns
    /// `shift`, the new number of `other`'s node 0.
    pub fn append(&mut self, other: &LoopyGraph) -> u32 {
        let shift = self.node_count() as u32;
        let moved = |r: &Vec<u32>| r.iter().map(|&w| w + shift).collect::<Vec<u32>>();
        self.left.extend(other.left.iter().map(moved));
        self.right.extend(other.right.iter().map(moved));
        shift
    }

    /// The disjoint union: `other`'s node `v` becomes `v + self.node_count()`.
    pub fn union(&self, other: &LoopyGraph) -> LoopyGraph {
        let shift = self.node_count() as u32;
        let moved = |rows: &[Vec<u32>]| -> Vec<Vec<u32>> {
            rows.iter()
                .map(|r| r.iter().map(|&w| w + shift).collect())
                .collect()
        };
        let mut left = self.left.clone();
        left.extend(moved(&other.left));
        let mut right = self.right.clone();
        right.extend(moved(&other.right));
        LoopyGraph { left, right }
    }

    /// The sum of the positions `starts` (a node of this graph each): the product of the parts
    /// reachable from them, node 0 being the sum of the starts. Fails past `max_nodes`.
    ///
    /// # Errors
    /// [`CgtError::TooBig`] when the product has more than `max_nodes` positions.
    pub fn sum(&self, starts: &[u32], max_nodes: usize) -> Result<LoopyGraph, CgtError> {
        // Each component's reachable nodes numbered locally; a tuple is their mixed-radix
        // number, looked up in a dense table when the product of the sizes is small enough.
        let local: Vec<Vec<u32>> = starts.iter().map(|&s| self.reachable(&[s])).collect();
        let sizes: Vec<u64> = local.iter().map(|p| p.len() as u64).collect();
        let total = sizes.iter().try_fold(1u64, |a, &b| a.checked_mul(b));
        match total {
            Some(t) if t <= 4 * max_nodes as u64 => self.dense_sum(&local, max_nodes),
            _ => self.hashed_sum(starts, max_nodes),
        }
    }

    /// [`LoopyGraph::sum`] with the tuples numbered densely (mixed radix over the components'
    /// reachable nodes).
    fn dense_sum(&self, local: &[Vec<u32>], max_nodes: usize) -> Result<LoopyGraph, CgtError> {
        let k = local.len();
        // Local index of every node in every component.
        let ranks: Vec<Vec<u32>> = local
            .iter()
            .map(|p| {
                let mut r = vec![u32::MAX; self.node_count()];
                for (i, &v) in p.iter().enumerate() {
                    r[v as usize] = i as u32;
                }
                r
            })
            .collect();
        let mut stride = vec![1u64; k];
        for i in (0..k.saturating_sub(1)).rev() {
            stride[i] = stride[i + 1] * local[i + 1].len() as u64;
        }
        let total = stride[0] * local[0].len() as u64;
        let mut id = vec![u32::MAX; total as usize];
        let mut tuples: Vec<u64> = vec![0];
        id[0] = 0;
        let mut g = LoopyGraph::new();
        g.add_node();
        let mut head = 0;
        while head < tuples.len() {
            let t = tuples[head];
            let from = head as u32;
            head += 1;
            for left in [true, false] {
                for i in 0..k {
                    let digit = (t / stride[i]) % local[i].len() as u64;
                    let c = local[i][digit as usize];
                    for &o in self.options(c, left) {
                        let next =
                            t - digit * stride[i] + u64::from(ranks[i][o as usize]) * stride[i];
                        let to = match id[next as usize] {
                            u32::MAX => {
                                if tuples.len() >= max_nodes {
                                    return Err(CgtError::TooBig(format!(
                                        "the sum has more than {max_nodes} positions"
                                    )));
                                }
                                let to = g.add_node();
                                id[next as usize] = to;
                                tuples.push(next);
                                to
                            }
                            to => to,
                        };
                        if left {
                            g.add_left(from, to);
                        } else {
                            g.add_right(from, to);
                        }
                    }
                }
            }
        }
        Ok(g)
    }

    /// [`LoopyGraph::sum`] with the tuples in a hash table.
    fn hashed_sum(&self, starts: &[u32], max_nodes: usize) -> Result<LoopyGraph, CgtError> {
        let mut index: std::collections::HashMap<Vec<u32>, u32> = Default::default();
        let mut tuples: Vec<Vec<u32>> = vec![starts.to_vec()];
        index.insert(starts.to_vec(), 0);
        let mut g = LoopyGraph::new();
        g.add_node();
        let mut head = 0;
        while head < tuples.len() {
            let t = tuples[head].clone();
            let from = head as u32;
            head += 1;
            for left in [true, false] {
                for (i, &c) in t.iter().enumerate() {
                    for &o in self.options(c, left) {
                        let mut next = t.clone();
                        next[i] = o;
                        let to = match index.get(&next) {
                            Some(&to) => to,
                            None => {
                                if tuples.len() >= max_nodes {
                                    return Err(CgtError::TooBig(format!(
                                        "the sum has more than {max_nodes} positions"
                                    )));
                                }
                                let to = g.add_node();
                                index.insert(next.clone(), to);
                                tuples.push(next);
                                to
                            }
                        };
                        if left {
                            g.add_left(from, to);
                        } else {
                            g.add_right(from, to);
                        }
                    }
                }
            }
        }
        Ok(g)
    }

    /// The outcome of every node, each player moving first, infinite play a draw: retrograde
    /// analysis of the `(node, mover)` states (`zermelo::solve::retrograde`), O(V + E).
    pub fn outcomes(&self) -> Vec<LoopyOutcome> {
        let solution = self.solved();
        (0..self.node_count() as NodeId)
            .map(|p| {
                let lf = match solution.outcome(TwoPlayerGraph::state(p, Player::Zero)) {
                    Outcome::Win => Result3::Win,
                    Outcome::Lose => Result3::Loss,
                    Outcome::Draw => Result3::Draw,
                };
                let rf = match solution.outcome(TwoPlayerGraph::state(p, Player::One)) {
                    Outcome::Win => Result3::Loss,
                    Outcome::Lose => Result3::Win,
                    Outcome::Draw => Result3::Draw,
                };
                LoopyOutcome {
                    left_first: lf,
                    right_first: rf,
                }
            })
            .collect()
    }

    fn solved(&self) -> zermelo::solve::Solution {
        let mut moves: [Vec<(u64, u64)>; 2] = [Vec::new(), Vec::new()];
        for v in 0..self.node_count() as u32 {
            for (side, left) in [(0, true), (1, false)] {
                for &w in self.options(v, left) {
                    moves[side].push((u64::from(v), u64::from(w)));
                }
            }
        }
        let g = TwoPlayerGraph::from_moves(self.node_count() as u64, [&moves[0], &moves[1]])
            .expect("node ids are in range");
        zermelo::solve::retrograde(g.states(), &Rules::normal())
    }

    /// Is there no infinite alternating run of moves from `start` or any follower (Left, Right,
    /// Left, ... or Right, Left, ...)? Such a game is a **stopper**. A cycle of the `(node,
    /// mover)` states reachable from `start` is such a run; O(V + E).
    pub fn is_stopper(&self, start: u32) -> bool {
        self.alternating_cycle(start).is_none()
    }

    /// A node on an infinite alternating run from `start`, if there is one.
    pub fn alternating_cycle(&self, start: u32) -> Option<u32> {
        // States 2v (Left to move) and 2v + 1 (Right to move); Kahn's algorithm over the
        // states reachable from the start: what is never removed lies on or leads to a cycle.
        let reach = self.reachable(&[start]);
        let n = self.node_count();
        let mut indegree = vec![0u32; 2 * n];
        let next = |s: usize| {
            let (v, left) = (s / 2, s % 2 == 0);
            self.options(v as u32, left)
                .iter()
                .map(move |&w| 2 * w as usize + usize::from(left))
        };
        let states: Vec<usize> = reach
            .iter()
            .flat_map(|&v| [2 * v as usize, 2 * v as usize + 1])
            .collect();
        for &s in &states {
            for t in next(s) {
                indegree[t] += 1;
            }
        }
        let mut queue: Vec<usize> = states
            .iter()
            .copied()
            .filter(|&s| indegree[s] == 0)
            .collect();
        let mut removed = 0;
        while let Some(s) = queue.pop() {
            removed += 1;
            for t in next(s) {
                indegree[t] -= 1;
                if indegree[t] == 0 {
                    queue.push(t);
                }
            }
        }
        if removed == states.len() {
            return None;
        }
        // Left over: the states on a cycle or downstream of one. Peel, among them, those
        // with no successor left over; what remains has a successor at every state, so walking
        // successors repeats a state, which lies on a cycle.
        let mut alive: Vec<bool> = (0..2 * n).map(|s| indegree[s] > 0).collect();
        let mut changed = true;
        while changed {
            changed = false;
            for &s in &states {
                if alive[s] && !next(s).any(|t| alive[t]) {
                    alive[s] = false;
                    changed = true;
                }
            }
        }
        let mut s = *states.iter().find(|&&s| alive[s])?;
        let mut seen = std::collections::HashSet::new();
        while seen.insert(s) {
            s = next(s).find(|&t| alive[t])?;
        }
        Some((s / 2) as u32)
    }

    /// Which nodes are stoppers, all at once (as [`LoopyGraph::is_stopper`] for each): states
    /// `(node, mover)` that reach only dead ends are peeled off, those left reach a cycle of
    /// states (an infinite alternating run); a node is not a stopper when one of its states or
    /// of its followers' states is left. O(V + E).
    pub fn stoppers(&self) -> Vec<bool> {
        let n = self.node_count();
        let mut out = vec![0u32; 2 * n];
        let mut into: Vec<Vec<u32>> = vec![Vec::new(); 2 * n];
        for v in 0..n {
            for (mover, left) in [(0, true), (1, false)] {
                let s = 2 * v + mover;
                for &w in self.options(v as u32, left) {
                    let t = 2 * w as usize + usize::from(left);
                    out[s] += 1;
                    into[t].push(s as u32);
                }
            }
        }
        let mut queue: Vec<usize> = (0..2 * n).filter(|&s| out[s] == 0).collect();
        let mut peeled = vec![false; 2 * n];
        while let Some(t) = queue.pop() {
            peeled[t] = true;
            for &s in &into[t] {
                out[s as usize] -= 1;
                if out[s as usize] == 0 {
                    queue.push(s as usize);
                }
            }
        }
        // A node is not a stopper when one of its states reaches a cycle, or when any
        // follower (reached by moves of either player, in any order) is not one.
        let mut stopper: Vec<bool> = (0..n).map(|v| peeled[2 * v] && peeled[2 * v + 1]).collect();
        let mut before: Vec<Vec<u32>> = vec![Vec::new(); n];
        for v in 0..n as u32 {
            for &w in self.left(v).iter().chain(self.right(v)) {
                before[w as usize].push(v);
            }
        }
        let mut queue: Vec<u32> = (0..n as u32).filter(|&v| !stopper[v as usize]).collect();
        while let Some(w) = queue.pop() {
            for &v in &before[w as usize] {
                if stopper[v as usize] {
                    stopper[v as usize] = false;
                    queue.push(v);
                }
            }
        }
        stopper
    }

    /// Is the part reachable from `start` free of cycles (a short game)?
    pub fn is_loopfree(&self, start: u32) -> bool {
        let reach = self.reachable(&[start]);
        let mut indegree = vec![0u32; self.node_count()];
        for &v in &reach {
            for &w in self.left(v).iter().chain(self.right(v)) {
                indegree[w as usize] += 1;
            }
        }
        let mut queue: Vec<u32> = reach
            .iter()
            .copied()
            .filter(|&v| indegree[v as usize] == 0)
            .collect();
        let mut removed = 0;
        while let Some(v) = queue.pop() {
            removed += 1;
            for &w in self.left(v).iter().chain(self.right(v)) {
                indegree[w as usize] -= 1;
                if indegree[w as usize] == 0 {
                    queue.push(w);
                }
            }
        }
        removed == reach.len()
    }
}
