//! Sides of loopy games that are not stoppers: the onside and the offside, each a stopper.
//!
//! Reference: Conway, "Loopy games" (1978); *Winning Ways* ch. 11 ("Sidling"); Siegel,
//! *Combinatorial Game Theory* ch. VI.4-5, and his survey "Coping with cycles" (2009). A game
//! `G` is written `S & T` when `S` and `T` are stoppers with `G+ = S+` and `G- = T-`: played with
//! infinite play a win for Left, `G` behaves as `S` in every sum; with infinite play a win for
//! Right, as `T`.
//!
//! * **The onside order of any two games** ([`onside_leq`]): `G+ <= H+` iff Left, moving second
//!   in `H - G`, never runs out of moves and, when play is infinite, makes it infinite *in `H`*
//!   (infinitely many moves there). That is the swivel chair: Left answers in `H + X` what her
//!   strategy in `G + X` would, copying through `H - G`; a play of `H - G` that stays in `-G`
//!   forever would leave her without an answer in the real game. A Büchi game on the pairs of
//!   positions, solved by nested attractors: O(P * M) for P pairs and M moves of pairs.
//!   The offside order is the onside order of the negatives, reversed.
//! * **The onside of `G`**: the moves on infinite alternating runs (the ones that keep `G` from
//!   being a stopper) are deleted one by one wherever the deletion leaves `G+` unchanged (each
//!   deletion checked both ways by the onside order at the root, as CGSuite's
//!   `eliminateIrrelevantCyclicEdges` does); once no alternating run is left the graph is a
//!   stopper with the same onside, put in simplest form by [`Stopper::new`]. Right's moves are
//!   tried first: with infinite play Left's, a Right move that lets Left run play around a cycle
//!   gains Right nothing. The offside is `-(onside of -G)`.
//! * **When it fails**: some games have sides that are not stoppers (Bach's carousel, *Winning
//!   Ways* ch. 11), and deletion alone may miss the sides of others; both are refused with
//!   [`CgtError::NotStopperSided`], never answered wrongly: every step is checked by the order.
//! * **Sums**: the onside of `G + H` is the onside of `S_G + S_H` (onside equivalence is kept by
//!   sums: Conway's upsum), the offside the offside of `T_G + T_H` (the downsum).

use std::fmt;

use super::{LoopyGraph, LoopyOutcome, Result3, Stopper, MAX_STOPPER_NODES};
use crate::error::CgtError;

/// The most moves of pairs one onside comparison may build (about 12 bytes each, and the Büchi
/// game repeats its attractors a few times over them).
pub const MAX_SIDE_PAIR_MOVES: usize = 1 << 23;

/// The most comparisons (deletions tried) the sides of one game may take.
pub const MAX_SIDE_TRIALS: usize = 4096;

/// `G+ <= H+`: is the onside of node `a` of `g` at most the onside of node `b` of `h`? For
/// stoppers this is the order of stoppers.
///
/// # Errors
/// [`CgtError::TooBig`] past [`MAX_SIDE_PAIR_MOVES`] moves of pairs.
pub fn onside_leq(g: &LoopyGraph, a: u32, h: &LoopyGraph, b: u32) -> Result<bool, CgtError> {
    let arena = PairArena::build(g, a, h, b)?;
    Ok(arena.left_wins_from_start())
}

/// `G- <= H-`: the offside order (the onside order of `-H` and `-G`).
///
/// # Errors
/// As [`onside_leq`].
pub fn offside_leq(g: &LoopyGraph, a: u32, h: &LoopyGraph, b: u32) -> Result<bool, CgtError> {
    onside_leq(&h.negated(), b, &g.negated(), a)
}

/// The states of `H - G` reachable from `(a, b)` with Right to move: state `2p` has Left to move
/// in pair `p`, `2p + 1` Right; each move flagged when it is made in `H`.
struct PairArena {
    succ: Vec<Vec<(u32, bool)>>,
    pred: Vec<Vec<(u32, bool)>>,
}

impl PairArena {
    fn build(g: &LoopyGraph, a: u32, h: &LoopyGraph, b: u32) -> Result<PairArena, CgtError> {
        let mut index = std::collections::HashMap::from([((a, b), 0u32)]);
        let mut pairs = vec![(a, b)];
        let mut succ: Vec<Vec<(u32, bool)>> = Vec::new();
        let mut moves = 0usize;
        let mut head = 0;
        while head < pairs.len() {
            let (x, y) = pairs[head];
            head += 1;
            // Left: y -> y^L (in H) or x -> x^R (in -G); Right: y -> y^R or x -> x^L.
            for left in [true, false] {
                let in_h = h.options(y, left).iter().map(|&yy| ((x, yy), true));
                let in_g = g.options(x, !left).iter().map(|&xx| ((xx, y), false));
                let mut row = Vec::new();
                for (p, flag) in in_h.chain(in_g) {
                    moves += 1;
                    if moves > MAX_SIDE_PAIR_MOVES {
                        return Err(CgtError::TooBig(format!(
                            "comparing the sides of these games takes more than \
                             {MAX_SIDE_PAIR_MOVES} moves of pairs"
                        )));
                    }
                    let next = pairs.len() as u32;
                    let q = *index.entry(p).or_insert_with(|| {
                        pairs.push(p);
                        next
                    });
                    // After Left's move Right is to move, and the other way round.
                    row.push((2 * q + u32::from(left), flag));
                }
                succ.push(row);
            }
        }
        let mut pred = vec![Vec::new(); succ.len()];
        for (s, row) in succ.iter().enumerate() {
            for &(t, flag) in row {
                pred[t as usize].push((s as u32, flag));
            }
        }
        Ok(PairArena { succ, pred })
    }

    fn left_to_move(s: usize) -> bool {
        s % 2 == 0
    }

    /// Left's winning states of the Büchi game (she must not run out of moves, and an infinite
    /// play must take infinitely many flagged moves); the start is state 1 (pair 0, Right to
    /// move).
    fn left_wins_from_start(&self) -> bool {
        let n = self.succ.len();
        let mut alive = vec![true; n];
        loop {
            let recur = self.recurrence(&alive);
            let lose: Vec<usize> = (0..n).filter(|&s| alive[s] && !recur[s]).collect();
            if lose.is_empty() {
                return alive[1];
            }
            self.remove_right_attractor(&mut alive, lose);
            if !alive[1] {
                return false;
            }
        }
    }

    /// The states from which Left can force a flagged move into `alive` while play stays in
    /// `alive` (an attractor to the flagged moves).
    fn recurrence(&self, alive: &[bool]) -> Vec<bool> {
        let n = self.succ.len();
        let mut inside = vec![false; n];
        let mut open = vec![0u32; n];
        let mut queue = Vec::new();
        for s in (0..n).filter(|&s| alive[s]) {
            let done = |&(t, flag): &(u32, bool)| flag && alive[t as usize];
            if Self::left_to_move(s) {
                if self.succ[s].iter().any(done) {
                    inside[s] = true;
                    queue.push(s);
                }
            } else {
                open[s] = self.succ[s].iter().filter(|e| !done(e)).count() as u32;
                if open[s] == 0 {
                    inside[s] = true;
                    queue.push(s);
                }
            }
        }
        while let Some(t) = queue.pop() {
            for &(s, flag) in &self.pred[t] {
                let s = s as usize;
                if flag || !alive[s] || inside[s] {
                    continue;
                }
                if !Self::left_to_move(s) {
                    open[s] -= 1;
                    if open[s] > 0 {
                        continue;
                    }
                }
                inside[s] = true;
                queue.push(s);
            }
        }
        inside
    }

    /// Removes from `alive` the states from which Right can force play into `lose` or out of
    /// `alive` (Left stuck counts: she has no move left in `alive`).
    fn remove_right_attractor(&self, alive: &mut [bool], lose: Vec<usize>) {
        let n = self.succ.len();
        let mut open: Vec<u32> = (0..n)
            .map(|s| {
                self.succ[s]
                    .iter()
                    .filter(|&&(t, _)| alive[t as usize])
                    .count() as u32
            })
            .collect();
        let mut gone = vec![false; n];
        for &s in &lose {
            gone[s] = true;
        }
        let mut queue = lose;
        while let Some(t) = queue.pop() {
            for &(s, _) in &self.pred[t] {
                let s = s as usize;
                if !alive[s] || gone[s] {
                    continue;
                }
                if Self::left_to_move(s) {
                    open[s] -= 1;
                    if open[s] > 0 {
                        continue;
                    }
                }
                gone[s] = true;
                queue.push(s);
            }
        }
        for s in 0..n {
            if gone[s] {
                alive[s] = false;
            }
        }
    }
}

/// The moves of `g` (from node 0's part) that lie on an infinite alternating run: `(from, to,
/// left)`, Right's moves first.
fn alternating_moves(g: &LoopyGraph) -> Vec<(u32, u32, bool)> {
    let n = g.node_count();
    // States 2v (Left to move) and 2v + 1 (Right to move); a Left move v -> w is 2v -> 2w + 1.
    let next = |s: usize| -> Vec<usize> {
        let (v, left) = (s / 2, s % 2 == 0);
        g.options(v as u32, left)
            .iter()
            .map(|&w| 2 * w as usize + usize::from(left))
            .collect()
    };
    let component = strongly_connected(2 * n, next);
    let mut out = Vec::new();
    for left in [false, true] {
        for v in 0..n as u32 {
            let s = 2 * v as usize + usize::from(!left);
            for &w in g.options(v, left) {
                let t = 2 * w as usize + usize::from(left);
                if component[s] == component[t] && !out.contains(&(v, w, left)) {
                    out.push((v, w, left));
                }
            }
        }
    }
    out
}

/// Tarjan's strongly connected components, iteratively: the component number of each of the
/// `n` states.
fn strongly_connected(n: usize, next: impl Fn(usize) -> Vec<usize>) -> Vec<usize> {
    const NONE: usize = usize::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut component = vec![NONE; n];
    let mut counter = 0;
    let mut components = 0;
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        let mut calls: Vec<(usize, Vec<usize>, usize)> = vec![(root, next(root), 0)];
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some((v, succ, i)) = calls.last_mut() {
            let v = *v;
            if *i < succ.len() {
                let w = succ[*i];
                *i += 1;
                if index[w] == NONE {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, next(w), 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some((parent, _, _)) = calls.last() {
                low[*parent] = low[*parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = components;
                    if w == v {
                        break;
                    }
                }
                components += 1;
            }
        }
    }
    component
}

/// `g` without the moves `from -> to` of one player, restricted to what node 0 reaches.
fn without_move(g: &LoopyGraph, from: u32, to: u32, left: bool) -> LoopyGraph {
    let mut h = g.clone();
    let row = if left {
        &mut h.left[from as usize]
    } else {
        &mut h.right[from as usize]
    };
    row.retain(|&w| w != to);
    h.restricted(0)
}

/// The onside of node `x` of `g`, in simplest form.
///
/// # Errors
/// [`CgtError::NotStopperSided`] when the deletions leave an alternating run;
/// [`CgtError::TooBig`] past the limits of the comparisons.
pub fn onside(g: &LoopyGraph, x: u32) -> Result<Stopper, CgtError> {
    let mut h = g.restricted(x);
    let mut trials = 0usize;
    loop {
        let moves = alternating_moves(&h);
        let Some(&(stuck, _, _)) = moves.first() else {
            return Stopper::new(&h, 0);
        };
        let mut deleted = false;
        for (from, to, left) in moves {
            if !h.options(from, left).contains(&to) {
                continue;
            }
            trials += 1;
            if trials > MAX_SIDE_TRIALS {
                return Err(CgtError::TooBig(format!(
                    "finding the sides of this game takes more than {MAX_SIDE_TRIALS} \
                     comparisons"
                )));
            }
            let cut = without_move(&h, from, to, left);
            // Deleting a Left move can only lower the onside, a Right move only raise it:
            // the deletion is kept when the other comparison holds too.
            let same = if left {
                onside_leq(&h, 0, &cut, 0)?
            } else {
                onside_leq(&cut, 0, &h, 0)?
            };
            if same {
                h = cut;
                deleted = true;
                break;
            }
        }
        if !deleted {
            return Err(CgtError::NotStopperSided(u64::from(stuck)));
        }
    }
}

/// The offside of node `x` of `g`, in simplest form: `-(onside of -G)`.
///
/// # Errors
/// As [`onside`].
pub fn offside(g: &LoopyGraph, x: u32) -> Result<Stopper, CgtError> {
    Ok(onside(&g.negated(), x)?.negated())
}

/// A loopy game's value: its onside and offside, each a stopper in simplest form (equal for a
/// stopper). Printed as CGSuite prints it: the stopper when the sides are equal, `dud` for
/// `on & off`, else `S & T`.
#[derive(Clone, Debug)]
pub struct Sides {
    onside: Stopper,
    offside: Stopper,
    stopper: bool,
}

impl Sides {
    /// The sides of node `x` of `g` (for a stopper, its simplest form twice).
    ///
    /// # Errors
    /// [`CgtError::NotStopperSided`] when the sides are not found as stoppers;
    /// [`CgtError::TooBig`] past the limits of the method.
    pub fn new(g: &LoopyGraph, x: u32) -> Result<Sides, CgtError> {
        if g.is_stopper(x) {
            return Ok(Sides::of_stopper(Stopper::new(g, x)?));
        }
        let positions = g.reachable(&[x]).len();
        if positions > MAX_STOPPER_NODES {
            return Err(CgtError::TooBig(format!(
                "a game of {positions} positions is more than the {MAX_STOPPER_NODES} whose \
                 sides this program finds"
            )));
        }
        Sides::from_sides(onside(g, x)?, offside(g, x)?)
    }

    /// A stopper as its own two sides.
    pub fn of_stopper(s: Stopper) -> Sides {
        Sides {
            onside: s.clone(),
            offside: s,
            stopper: true,
        }
    }

    /// `S & T`, checked: the offside must be at most the onside.
    ///
    /// # Errors
    /// [`CgtError::NotSides`] when `T <= S` does not hold; [`CgtError::TooBig`].
    pub fn from_sides(onside: Stopper, offside: Stopper) -> Result<Sides, CgtError> {
        if !offside.leq(&onside)? {
            return Err(CgtError::NotSides(format!(
                "the offside {offside} is not <= the onside {onside}"
            )));
        }
        let stopper = onside.leq(&offside)?;
        Ok(Sides {
            onside,
            offside,
            stopper,
        })
    }

    /// The onside `S` (infinite play a win for Left).
    pub fn onside(&self) -> &Stopper {
        &self.onside
    }

    /// The offside `T` (infinite play a win for Right).
    pub fn offside(&self) -> &Stopper {
        &self.offside
    }

    /// Are the sides equal (the game equals a stopper)?
    pub fn is_stopper(&self) -> bool {
        self.stopper
    }

    /// The outcome with infinite play a draw, from the sides: Left moving first wins iff
    /// `T <= 0` fails (she wins even when infinite play is Right's) and loses iff `S <= 0`;
    /// Right moving first, Left wins iff `T >= 0` and loses iff `S >= 0` fails.
    ///
    /// # Errors
    /// As [`Stopper::leq`].
    pub fn outcome(&self) -> Result<LoopyOutcome, CgtError> {
        let on = self.onside.outcome()?;
        let off = self.offside.outcome()?;
        let pick = |on: Result3, off: Result3| match (on, off) {
            (_, Result3::Win) => Result3::Win,
            (Result3::Loss, _) => Result3::Loss,
            _ => Result3::Draw,
        };
        Ok(LoopyOutcome {
            left_first: pick(on.left_first, off.left_first),
            right_first: pick(on.right_first, off.right_first),
        })
    }

    /// `-G`: `-T & -S`.
    pub fn negated(&self) -> Sides {
        Sides {
            onside: self.offside.negated(),
            offside: self.onside.negated(),
            stopper: self.stopper,
        }
    }

    /// `G + H`: the onside of the sum of the onsides, the offside of the sum of the offsides.
    ///
    /// # Errors
    /// As [`Sides::new`].
    pub fn add(&self, other: &Sides) -> Result<Sides, CgtError> {
        let side = |a: &Stopper, b: &Stopper, on: bool| -> Result<Stopper, CgtError> {
            let u = a.graph().union(b.graph());
            let shift = a.graph().node_count() as u32;
            let sum = u.sum(&[0, shift], MAX_STOPPER_NODES)?;
            if sum.is_stopper(0) {
                Stopper::new(&sum, 0)
            } else if on {
                onside(&sum, 0)
            } else {
                offside(&sum, 0)
            }
        };
        Sides::from_sides(
            side(&self.onside, &other.onside, true)?,
            side(&self.offside, &other.offside, false)?,
        )
    }

    /// `G <= H`: onside below onside and offside below offside.
    ///
    /// # Errors
    /// As [`Stopper::leq`].
    pub fn leq(&self, other: &Sides) -> Result<bool, CgtError> {
        Ok(self.onside.leq(&other.onside)? && self.offside.leq(&other.offside)?)
    }

    /// `on & off`, which CGSuite prints `dud`.
    fn is_dud(&self) -> bool {
        let on = |s: &Stopper| {
            let g = s.graph();
            g.node_count() == 1 && g.left(0) == [0] && g.right(0).is_empty()
        };
        on(&self.onside) && on(&self.offside.negated())
    }
}

impl fmt::Display for Sides {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.stopper {
            write!(f, "{}", self.onside)
        } else if self.is_dud() {
            f.write_str("dud")
        } else {
            write!(f, "{} & {}", self.onside, self.offside)
        }
    }
}
