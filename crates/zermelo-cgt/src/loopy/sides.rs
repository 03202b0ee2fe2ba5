//! Sides of loopy games that are not stoppers: the onside and the offside, each a stopper.
//!
//! Reference: Conway, "Loopy games" (1978); *Winning Ways* ch. 11 ("Sidling"); Siegel,
//! *Combinatorial Game Theory* ch. VI.4-5, and his survey "Coping with cycles" (2009). A game
//! `G` is written `S & T` when `S` and `T` are stoppers with `G+ = S+` and `G- = T-`: played with
//! infinite play a win for Left, `G` behaves as `S` in every sum; with infinite play a win for
//! Right, as `T`.
//!
//! * **The onside order** of any two games ([`onside_leq`]), and of all pairs of positions of
//!   one game at once: a Büchi game on pairs (order.rs).
//! * **The reduction** (reduce.rs): with the onside order of all pairs of `G`'s positions,
//!   dominated Left options are deleted (`TTT..FFF`: 560 positions to 472, 2,040 moves to
//!   1,330, 1,272 on alternating runs to 291), again after each round of deletions below.
//! * **The onside of `G`**: on the reduced game, the moves on infinite alternating runs (the ones that keep `G` from
//!   being a stopper) are deleted one by one wherever the deletion leaves `G+` unchanged (each
//!   deletion checked both ways by the onside order at the root, as CGSuite's
//!   `eliminateIrrelevantCyclicEdges` does); once no alternating run is left the graph is a
//!   stopper with the same onside, put in simplest form by [`Stopper::new`]. Right's moves are
//!   tried first: with infinite play Left's, a Right move that lets Left run play around a cycle
//!   gains Right nothing. The stopper found is checked against `G` itself (two comparisons of
//!   `G` with a small stopper); when it does not check, or the reduced game gives none, the
//!   deletions run on `G` itself, up to 256 positions. The offside is `-(onside of -G)`.
//! * **When it fails**: some games have sides that are not stoppers (Bach's carousel, *Winning
//!   Ways* ch. 11), and deletion alone may miss the sides of others; both are refused with
//!   [`CgtError::NotStopperSided`], never answered wrongly: every step is checked by the order.
//! * **Sums**: the onside of `G + H` is the onside of `S_G + S_H` (onside equivalence is kept by
//!   sums: Conway's upsum), the offside the offside of `T_G + T_H` (the downsum).

use std::fmt;

use super::order::onside_leq;
use super::reduce::onside_reduced;
use super::{LoopyGraph, LoopyOutcome, Result3, Stopper, MAX_STOPPER_NODES};
use crate::error::CgtError;

/// The most comparisons (deletions tried) the sides of one game may take.
pub const MAX_SIDE_TRIALS: usize = 4096;

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
pub(super) fn strongly_connected(n: usize, next: impl Fn(usize) -> Vec<usize>) -> Vec<usize> {
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

/// `g` without some moves (the same node numbers).
fn without_moves(g: &LoopyGraph, moves: &[(u32, u32, bool)]) -> LoopyGraph {
    let mut h = g.clone();
    for &(from, to, left) in moves {
        let row = if left {
            &mut h.left[from as usize]
        } else {
            &mut h.right[from as usize]
        };
        row.retain(|&w| w != to);
    }
    h
}

/// The onside of node `x` of `g`, in simplest form.
///
/// # Errors
/// [`CgtError::NotStopperSided`] when the deletions leave an alternating run;
/// [`CgtError::TooBig`] past the limits of the comparisons.
pub fn onside(g: &LoopyGraph, x: u32) -> Result<Stopper, CgtError> {
    let h = g.restricted(x);
    if h.is_stopper(0) {
        return Stopper::new(&h, 0);
    }
    match reduced_onside(&h) {
        Ok(Some(s)) => return Ok(s),
        Ok(None) => {}
        Err(e) if h.node_count() > MAX_DELETION_POSITIONS => return Err(e),
        Err(_) => {}
    }
    if h.node_count() > MAX_DELETION_POSITIONS {
        let stuck = h.alternating_cycle(0).unwrap_or(0);
        return Err(CgtError::NotStopperSided(u64::from(stuck)));
    }
    deleted_onside(h, false)
}

/// The onside of node 0 of `h` found on its reduced form ([`onside_reduced`]) and checked
/// against `h`, or `None` when the deletions on the reduced form find none that checks.
fn reduced_onside(h: &LoopyGraph) -> Result<Option<Stopper>, CgtError> {
    let r = onside_reduced(h)?;
    let s = match deleted_onside(r, true) {
        Ok(s) => s,
        Err(CgtError::NotStopperSided(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    // The reductions keep the onside by the theory; the answer is checked all the same, by
    // two comparisons with a small stopper (|h| x |s| pairs).
    let same = onside_leq(h, 0, s.graph(), 0)? && onside_leq(s.graph(), 0, h, 0)?;
    Ok(same.then_some(s))
}

/// The most positions whose onside is looked for by deletions on the game itself when the
/// reduced game gives none (each deletion a comparison over pairs of positions).
const MAX_DELETION_POSITIONS: usize = 256;

/// The onside of node `x` of `g` by deleting moves of `g` itself, each deletion checked, as
/// [`onside`] did before it reduced the game first: the same answers where it finds one, in
/// minutes past a few hundred positions. The oracle the tests check [`onside`] against.
///
/// # Errors
/// As [`onside`].
pub fn onside_by_deletion(g: &LoopyGraph, x: u32) -> Result<Stopper, CgtError> {
    deleted_onside(g.restricted(x), false)
}

/// The most positions of a game whose onside deletions are not followed by a reduction (one
/// order of all pairs costs about as much as one comparison).
const REDUCE_AGAIN_FROM: usize = 32;

/// The onside of node 0 of `h` by deleting moves on alternating runs, each deletion checked.
fn deleted_onside(mut h: LoopyGraph, reduce: bool) -> Result<Stopper, CgtError> {
    let mut trials = 0usize;
    loop {
        let moves = alternating_moves(&h);
        let Some(&(stuck, _, _)) = moves.first() else {
            return Stopper::new(&h, 0);
        };
        // Right's moves first, then Left's; each colour cut in halves until what is left cannot
        // go (delta debugging: few comparisons when most moves can go or most must stay).
        // Right's moves that Left can answer straight back (`v -> t -> v`) first, in one
        // batch: in the onside they gain Right nothing (CGSuite's obvious reductions).
        let back: Vec<(u32, u32, bool)> = moves
            .iter()
            .copied()
            .filter(|&(v, t, left)| !left && h.left(t).contains(&v))
            .collect();
        let mut cut = cut_batch(&h, 0, &back, &mut trials)?;
        for left in [false, true] {
            if cut.is_some() {
                break;
            }
            let batch: Vec<(u32, u32, bool)> =
                moves.iter().copied().filter(|m| m.2 == left).collect();
            cut = cut_batch(&h, 0, &batch, &mut trials)?;
        }
        match cut {
            Some(smaller) if reduce && smaller.node_count() > REDUCE_AGAIN_FROM => {
                h = onside_reduced(&smaller.restricted(0))?;
            }
            Some(smaller) => h = smaller.restricted(0),
            None => return Err(CgtError::NotStopperSided(u64::from(stuck))),
        }
    }
}

/// `h` without as many of `moves` (all of one player) as can go while the onside of node
/// `root` stays, or `None` when none can. Node numbers stay as in `h`.
fn cut_batch(
    h: &LoopyGraph,
    root: u32,
    moves: &[(u32, u32, bool)],
    trials: &mut usize,
) -> Result<Option<LoopyGraph>, CgtError> {
    let Some(&(_, _, left)) = moves.first() else {
        return Ok(None);
    };
    *trials += 1;
    if *trials > MAX_SIDE_TRIALS {
        return Err(CgtError::TooBig(format!(
            "finding the sides of this game takes more than {MAX_SIDE_TRIALS} comparisons"
        )));
    }
    let cut = without_moves(h, moves);
    // Deleting Left moves can only lower the onside, Right moves only raise it: the deletion
    // is kept when the other comparison holds too.
    let same = if left {
        onside_leq(h, root, &cut, root)?
    } else {
        onside_leq(&cut, root, h, root)?
    };
    if same {
        return Ok(Some(cut));
    }
    if moves.len() == 1 {
        return Ok(None);
    }
    let (first, second) = moves.split_at(moves.len() / 2);
    let after_first = cut_batch(h, root, first, trials)?;
    let base = after_first.as_ref().unwrap_or(h);
    Ok(cut_batch(base, root, second, trials)?.or(after_first))
}

/// `g` without moves on infinite alternating runs, each deletion keeping the onside of node
/// `root` (as [`onside`] deletes them, on every node of `g` and with its numbers kept), or
/// `None` when some run's moves cannot go. Every node of what is returned is a stopper; those
/// other than `root` may have other onsides than in `g`.
///
/// # Errors
/// [`CgtError::TooBig`] past [`MAX_SIDE_TRIALS`] comparisons or their limits.
pub(super) fn onside_cut(g: &LoopyGraph, root: u32) -> Result<Option<LoopyGraph>, CgtError> {
    let mut h = g.clone();
    let mut trials = 0usize;
    loop {
        let moves = alternating_moves(&h);
        if moves.is_empty() {
            return Ok(Some(h));
        }
        let back: Vec<(u32, u32, bool)> = moves
            .iter()
            .copied()
            .filter(|&(v, t, left)| !left && h.left(t).contains(&v))
            .collect();
        let mut cut = cut_batch(&h, root, &back, &mut trials)?;
        for left in [false, true] {
            if cut.is_some() {
                break;
            }
            let batch: Vec<(u32, u32, bool)> =
                moves.iter().copied().filter(|m| m.2 == left).collect();
            cut = cut_batch(&h, root, &batch, &mut trials)?;
        }
        match cut {
            Some(smaller) => h = smaller,
            None => return Ok(None),
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

/// The most positions of a game that is not a stopper whose sides [`loopy_value`] and
/// [`Sides::new`] look for: the onside order of all pairs of positions
/// ([`super::onside_order`], [`super::MAX_ORDER_PAIRS`] pairs) is what reduces the game.
pub const MAX_SIDES_POSITIONS: usize = 4096;

/// The value of node `v` of `g` as the commands and the Python module give it: a stopper's
/// simplest form or a game's sides (`Ok(Ok(_))`), or why there are none (`Ok(Err(reason))`:
/// a game past [`MAX_SIDES_POSITIONS`] or [`MAX_STOPPER_NODES`], or one whose sides are not
/// stoppers).
///
/// # Errors
/// Past the work limits of the comparisons (a [`CgtError::TooBig`] the caller reports as such).
pub fn loopy_value(g: &LoopyGraph, v: u32) -> Result<Result<Sides, String>, CgtError> {
    let n = g.reachable(&[v]).len();
    if n <= MAX_SIDES_POSITIONS.max(MAX_STOPPER_NODES) {
        // The order of all pairs of positions is the largest table; past the memory limit
        // the caller stops (exit 3 on the command line), before it is allocated.
        crate::check_memory(super::order_bytes(n))?;
    }
    if !g.is_stopper(v) {
        if n > MAX_SIDES_POSITIONS {
            return Ok(Err(format!(
                "not a stopper, and its sides are looked for up to {MAX_SIDES_POSITIONS} \
                 positions (this game has {n})"
            )));
        }
        return match Sides::new(g, v) {
            Ok(s) => Ok(Ok(s)),
            Err(e @ (CgtError::NotStopperSided(_) | CgtError::TooBig(_))) => {
                Ok(Err(format!("not a stopper: {e}")))
            }
            Err(e) => Err(e),
        };
    }
    match Stopper::new(g, v) {
        Ok(s) => Ok(Ok(Sides::of_stopper(s))),
        Err(e @ CgtError::TooBig(_)) if n > MAX_STOPPER_NODES => {
            Ok(Err(format!("not simplified: {e}")))
        }
        Err(e) => Err(e),
    }
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
        if positions > MAX_SIDES_POSITIONS {
            return Err(CgtError::TooBig(format!(
                "a game of {positions} positions is more than the {MAX_SIDES_POSITIONS} whose \
                 sides this program finds"
            )));
        }
        Sides::from_sides(onside(g, x)?, offside(g, x)?)
    }

    /// Sides already known to be in simplest form with `offside <= onside`, equal iff
    /// `stopper`.
    pub(crate) fn from_parts(onside: Stopper, offside: Stopper, stopper: bool) -> Sides {
        Sides {
            onside,
            offside,
            stopper,
        }
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
