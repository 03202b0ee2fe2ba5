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
    Ok(arena.left_wins()[1])
}

/// `G- <= H-`: the offside order (the onside order of `-H` and `-G`).
///
/// # Errors
/// As [`onside_leq`].
pub fn offside_leq(g: &LoopyGraph, a: u32, h: &LoopyGraph, b: u32) -> Result<bool, CgtError> {
    onside_leq(&h.negated(), b, &g.negated(), a)
}

/// The states of `H - G`: state `2p` has Left to move in pair `p`, `2p + 1` Right; a move is
/// stored as `2 * target + flag`, flagged when it is made in `H`. Rows in compressed form.
struct PairArena {
    start: Vec<u32>,
    succ: Vec<u32>,
    pred_start: Vec<u32>,
    pred: Vec<u32>,
}

impl PairArena {
    /// The states reachable from pair `(a, b)` with Right to move (state 1).
    fn build(g: &LoopyGraph, a: u32, h: &LoopyGraph, b: u32) -> Result<PairArena, CgtError> {
        // Pairs numbered in the order first reached, looked up in a dense table.
        let (kg, kh) = (g.node_count(), h.node_count());
        if kg * kh > MAX_SIDE_PAIR_MOVES {
            return Err(CgtError::TooBig(format!(
                "comparing the sides of games of {kg} and {kh} positions takes more than \
                 {MAX_SIDE_PAIR_MOVES} pairs"
            )));
        }
        let mut index = vec![u32::MAX; kg * kh];
        index[a as usize * kh + b as usize] = 0;
        let mut pairs = vec![(a, b)];
        let mut arena = PairArena::empty();
        let mut head = 0;
        while head < pairs.len() {
            let (x, y) = pairs[head];
            head += 1;
            arena.push_pair(g, x, h, y, |(xx, yy)| {
                let slot = &mut index[xx as usize * kh + yy as usize];
                if *slot == u32::MAX {
                    *slot = pairs.len() as u32;
                    pairs.push((xx, yy));
                }
                *slot
            })?;
        }
        Ok(arena.with_predecessors())
    }

    fn empty() -> PairArena {
        PairArena {
            start: vec![0],
            succ: Vec::new(),
            pred_start: Vec::new(),
            pred: Vec::new(),
        }
    }

    /// The rows of pair `(x, y)`: Left to move (`y -> y^L` in H, `x -> x^R` in -G), then Right
    /// (`y -> y^R`, `x -> x^L`).
    fn push_pair(
        &mut self,
        g: &LoopyGraph,
        x: u32,
        h: &LoopyGraph,
        y: u32,
        mut id: impl FnMut((u32, u32)) -> u32,
    ) -> Result<(), CgtError> {
        for left in [true, false] {
            let in_h = h.options(y, left).iter().map(|&yy| ((x, yy), 1));
            let in_g = g.options(x, !left).iter().map(|&xx| ((xx, y), 0));
            for (p, flag) in in_h.chain(in_g) {
                if self.succ.len() >= MAX_SIDE_PAIR_MOVES {
                    return Err(CgtError::TooBig(format!(
                        "comparing the sides of these games takes more than \
                         {MAX_SIDE_PAIR_MOVES} moves of pairs"
                    )));
                }
                // After Left's move Right is to move, and the other way round.
                let state = 2 * id(p) + u32::from(left);
                self.succ.push(2 * state + flag);
            }
            self.start.push(self.succ.len() as u32);
        }
        Ok(())
    }

    fn with_predecessors(mut self) -> PairArena {
        let n = self.states();
        let mut count = vec![0u32; n + 1];
        for &e in &self.succ {
            count[(e / 2) as usize + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut pred = vec![0u32; self.succ.len()];
        for s in 0..n {
            for &e in self.row(s) {
                let t = (e / 2) as usize;
                pred[fill[t] as usize] = 2 * s as u32 + e % 2;
                fill[t] += 1;
            }
        }
        self.pred_start = count;
        self.pred = pred;
        self
    }

    fn states(&self) -> usize {
        self.start.len() - 1
    }

    /// The moves of state `s`: `2 * target + flag`.
    fn row(&self, s: usize) -> &[u32] {
        &self.succ[self.start[s] as usize..self.start[s + 1] as usize]
    }

    /// The moves into state `t`: `2 * source + flag`.
    fn into(&self, t: usize) -> &[u32] {
        &self.pred[self.pred_start[t] as usize..self.pred_start[t + 1] as usize]
    }

    fn left_to_move(s: usize) -> bool {
        s % 2 == 0
    }

    /// Left's winning states of the Büchi game: she must not run out of moves, and an infinite
    /// play must take infinitely many flagged moves. Nested attractors: what Left cannot
    /// force back to a flagged move is lost, with everything Right can force into it.
    fn left_wins(&self) -> Vec<bool> {
        let n = self.states();
        let mut alive = vec![true; n];
        loop {
            let recur = self.recurrence(&alive);
            let lose: Vec<usize> = (0..n).filter(|&s| alive[s] && !recur[s]).collect();
            if lose.is_empty() {
                return alive;
            }
            self.remove_right_attractor(&mut alive, lose);
        }
    }

    /// The states from which Left can force a flagged move into `alive` while play stays in
    /// `alive` (an attractor to the flagged moves).
    fn recurrence(&self, alive: &[bool]) -> Vec<bool> {
        let n = self.states();
        let mut inside = vec![false; n];
        let mut open = vec![0u32; n];
        let mut queue = Vec::new();
        let done = |e: u32| e % 2 == 1 && alive[(e / 2) as usize];
        for s in (0..n).filter(|&s| alive[s]) {
            if Self::left_to_move(s) {
                if self.row(s).iter().any(|&e| done(e)) {
                    inside[s] = true;
                    queue.push(s);
                }
            } else {
                open[s] = self.row(s).iter().filter(|&&e| !done(e)).count() as u32;
                if open[s] == 0 {
                    inside[s] = true;
                    queue.push(s);
                }
            }
        }
        while let Some(t) = queue.pop() {
            for &e in self.into(t) {
                let s = (e / 2) as usize;
                if e % 2 == 1 || !alive[s] || inside[s] {
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
        let n = self.states();
        let mut open: Vec<u32> = (0..n)
            .map(|s| {
                self.row(s)
                    .iter()
                    .filter(|&&e| alive[(e / 2) as usize])
                    .count() as u32
            })
            .collect();
        let mut gone = vec![false; n];
        for &s in &lose {
            gone[s] = true;
        }
        let mut queue = lose;
        while let Some(t) = queue.pop() {
            for &e in self.into(t) {
                let s = (e / 2) as usize;
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
    let mut h = g.restricted(x);
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
        let mut cut = cut_batch(&h, &back, &mut trials)?;
        for left in [false, true] {
            if cut.is_some() {
                break;
            }
            let batch: Vec<(u32, u32, bool)> =
                moves.iter().copied().filter(|m| m.2 == left).collect();
            cut = cut_batch(&h, &batch, &mut trials)?;
        }
        match cut {
            Some(smaller) => h = smaller.restricted(0),
            None => return Err(CgtError::NotStopperSided(u64::from(stuck))),
        }
    }
}

/// `h` without as many of `moves` (all of one player) as can go while the onside of node 0
/// stays, or `None` when none can. Node numbers stay as in `h`.
fn cut_batch(
    h: &LoopyGraph,
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
        onside_leq(h, 0, &cut, 0)?
    } else {
        onside_leq(&cut, 0, h, 0)?
    };
    if same {
        return Ok(Some(cut));
    }
    if moves.len() == 1 {
        return Ok(None);
    }
    let (first, second) = moves.split_at(moves.len() / 2);
    let after_first = cut_batch(h, first, trials)?;
    let base = after_first.as_ref().unwrap_or(h);
    Ok(cut_batch(base, second, trials)?.or(after_first))
}

/// The offside of node `x` of `g`, in simplest form: `-(onside of -G)`.
///
/// # Errors
/// As [`onside`].
pub fn offside(g: &LoopyGraph, x: u32) -> Result<Stopper, CgtError> {
    Ok(onside(&g.negated(), x)?.negated())
}

/// The most positions of a game that is not a stopper whose sides [`loopy_value`] looks for
/// (each cut of a move is a comparison over pairs of positions: `TTT..FFF`'s 560 take minutes).
pub const MAX_SIDES_POSITIONS: usize = 256;

/// The value of node `v` of `g` as the commands and the Python module give it: a stopper's
/// simplest form or a game's sides (`Ok(Ok(_))`), or why there are none (`Ok(Err(reason))`:
/// a game past [`MAX_SIDES_POSITIONS`] or [`MAX_STOPPER_NODES`], or one whose sides are not
/// stoppers).
///
/// # Errors
/// Past the work limits of the comparisons (a [`CgtError::TooBig`] the caller reports as such).
pub fn loopy_value(g: &LoopyGraph, v: u32) -> Result<Result<Sides, String>, CgtError> {
    if !g.is_stopper(v) {
        let n = g.reachable(&[v]).len();
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
        Err(e @ CgtError::TooBig(_)) if g.reachable(&[v]).len() > MAX_STOPPER_NODES => {
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
