//! The value of a sum of games, each valued alone and the values added by the theory, as `cgt
//! show` adds values written out: short games as canonical forms, then stoppers by the simplest
//! form of the sum of their simplest forms, games that are not stoppers by their sides (the
//! onsides by upsum, the offsides by downsum: [`Sides::add`]; Siegel, *Combinatorial Game
//! Theory* ch. VI). The product graph of the parts is not needed: three copies of the
//! 13-position stopper `{-1|off}` make a product of 2,197 positions, more than a stopper's
//! simplest form is found for, while each copy's simplest form has 3 and their sum is `off`.

use super::{Sides, Stopper};
use crate::error::CgtError;
use crate::Value;

/// A part of a sum: a short game in canonical form, or a loopy game by its value.
#[derive(Clone, Debug)]
pub enum Summand {
    /// A short game (no cycle below it).
    Short(Value),
    /// A loopy game's value: a stopper's simplest form, or the sides of another game.
    Sided(Sides),
}

/// The value of the sum of `parts`, or why it was not found (`Ok(Err(reason))`: the sides of
/// a partial sum are not found as stoppers, or are past the limits of the method).
///
/// # Errors
/// [`CgtError::NumberTooLarge`] from the sum of the short parts; errors other than the
/// method's limits from the sums of sides.
pub fn sum_of(parts: &[Summand]) -> Result<Result<Sides, String>, CgtError> {
    let mut short = Value::ZERO;
    let mut sided = Vec::new();
    for part in parts {
        match part {
            Summand::Short(v) => short = short.checked_add(*v)?,
            Summand::Sided(s) => sided.push(s),
        }
    }
    // Stoppers before the other games: their sums stay stoppers in simplest form.
    sided.sort_by_key(|s| !s.is_stopper());
    let mut total = None;
    if short != Value::ZERO || sided.is_empty() {
        total = match Stopper::from_value(short) {
            Ok(s) => Some(Sides::of_stopper(s)),
            Err(e @ CgtError::TooBig(_)) => {
                return Ok(Err(format!(
                    "the short parts' sum {short} is too big to add: {e}"
                )))
            }
            Err(e) => return Err(e),
        };
    }
    for s in sided {
        total = Some(match total {
            None => s.clone(),
            Some(t) => match t.add(s) {
                Ok(t) => t,
                Err(e @ (CgtError::TooBig(_) | CgtError::NotStopperSided(_))) => {
                    return Ok(Err(format!("the sides of the sum were not found: {e}")))
                }
                Err(e) => return Err(e),
            },
        });
    }
    let total = total.expect("a part, or the short parts' sum");
    Ok(Ok(total))
}
