//! A smaller game with the same onside at every position: dominated Left options deleted, by
//! the onside order of all pairs of positions at once.
//!
//! Reference: Siegel, *Combinatorial Game Theory* ch. VI.3-5; the argument is the one for
//! stoppers (stopper.rs) with the onside order in place of the order of stoppers. A Left
//! option `A <= B` of another Left option can go: where Left's strategy in `H - G` moves `H`
//! to `A`, she moves it to `B` and goes on with her strategy from `B` (`B - X` is won wherever
//! `A - X` is, by transitivity); each such switch is a move in `H`, so a play that switches
//! forever still moves in `H` infinitely often, as the onside order asks. The order is computed
//! once, before the deletions, which keep every position's onside.
//!
//! Only Left's side: deleting a dominated Right option, or fusing positions of equal onside,
//! makes the switches moves of Left in `-G`, which may go on forever without a move in `H`;
//! on `TTT..FFF` (Backsliding Toads and Frogs) either gives a game of a different onside. The
//! caller ([`super::onside`]) checks the side it finds against the game all the same, so an
//! answer never rests on this module alone.

use super::order::onside_order;
use super::stopper::drop_dominated;
use super::LoopyGraph;
use crate::error::CgtError;

/// `g` (node 0 its root) with dominated Left options deleted, restricted to what node 0 still
/// reaches: every node keeps its onside.
/// O(k (V + E)) for the `k^2` pairs of `g`'s `k` nodes (the Büchi game of [`onside_order`]).
///
/// # Errors
/// [`CgtError::TooBig`] past the limits of [`onside_order`].
pub(super) fn onside_reduced(g: &LoopyGraph) -> Result<LoopyGraph, CgtError> {
    Ok(dominated_left_deleted(g)?.restricted(0))
}

/// `g` with dominated Left options deleted, its node numbers kept: every node keeps its
/// onside.
///
/// # Errors
/// As [`onside_reduced`].
pub(super) fn dominated_left_deleted(g: &LoopyGraph) -> Result<LoopyGraph, CgtError> {
    let k = g.node_count();
    let order = onside_order(g)?;
    let le = |a: u32, b: u32| order[a as usize * k + b as usize];
    let mut h = g.clone();
    for v in 0..k as u32 {
        drop_dominated(&mut h, v, true, &le);
    }
    Ok(h)
}
